//go:build !unix

package netproxy

import "io/fs"

// ownedByMe fails closed where mode bits do not say who may enter a folder (Windows has ACLs):
// the proxy does not listen there until that platform's own check exists.
func ownedByMe(fs.FileInfo) bool { return false }
