package app

import (
	"bytes"
	"io"
	"io/fs"
	"strings"
	"time"
)

// withHead serves assets with index.html rewritten at each request: what head() returns is put
// right after its <head>, before any script of the bundle. The window and `serve` both read the
// page through it; head() may return "" (the file is then served as built).
func withHead(assets fs.FS, head func() string) fs.FS {
	return headFS{assets, head}
}

type headFS struct {
	fs.FS
	head func() string
}

func (h headFS) Open(name string) (fs.File, error) {
	if name != "index.html" {
		return h.FS.Open(name)
	}
	page, err := fs.ReadFile(h.FS, name)
	if err != nil {
		return nil, err
	}
	if extra := h.head(); extra != "" {
		if i := bytes.Index(page, []byte("<head>")); i >= 0 {
			at := i + len("<head>")
			page = append(page[:at:at], append([]byte(extra), page[at:]...)...)
		}
	}
	return &memFile{Reader: bytes.NewReader(page), name: name, size: int64(len(page))}, nil
}

// memFile is a page made at request time: readable, seekable (http.ServeContent) and stat-able.
type memFile struct {
	*bytes.Reader
	name string
	size int64
}

func (f *memFile) Stat() (fs.FileInfo, error) { return memInfo{f.name, f.size}, nil }
func (f *memFile) Close() error               { return nil }

var _ io.ReadSeeker = (*memFile)(nil)

type memInfo struct {
	name string
	size int64
}

func (i memInfo) Name() string       { return i.name }
func (i memInfo) Size() int64        { return i.size }
func (i memInfo) Mode() fs.FileMode  { return 0o444 }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }

// scriptJSON makes JSON safe inside a <script> element: "</" cannot close it, and U+2028/2029
// (valid in JSON, line ends in old JavaScript) are escaped.
func scriptJSON(b []byte) string {
	return strings.NewReplacer("</", `<\/`, "\u2028", `\u2028`, "\u2029", `\u2029`).Replace(string(b))
}
