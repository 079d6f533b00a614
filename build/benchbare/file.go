package main

import (
	"io/fs"
	"testing/fstest"
)

// fstestFile is a file made in memory, as an fs.File.
func fstestFile(name, body string) fs.File {
	f, _ := fstest.MapFS{name: {Data: []byte(body)}}.Open(name)
	return f
}
