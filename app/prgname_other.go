//go:build !linux || !cgo

package app

func setProgramName(string) {}
