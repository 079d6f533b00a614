//go:build !linux || !cgo || !desktop

package app

func setProgramName(string) {}
