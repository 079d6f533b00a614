package tool

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// capture keeps the head and the tail of bash output within a cap (the start shows what ran,
// the end shows how it ended) and streams the output live, in order, at UTF-8 boundaries.
type capture struct {
	head, tail []byte
	half       int   // bytes kept at each end
	total      int64 // bytes written
	stream     func(string)
	streamCap  int
	streamed   int
	pending    []byte // an incomplete UTF-8 sequence held back from the stream
}

func newCapture(limit, streamCap int, stream func(string)) *capture {
	return &capture{half: limit / 2, streamCap: streamCap, stream: stream}
}

// Write is called from one goroutine (the pipe copier), so it needs no lock.
func (c *capture) Write(p []byte) (int, error) {
	c.total += int64(len(p))
	c.live(p)
	n := min(c.half-len(c.head), len(p))
	c.head = append(c.head, p[:n]...)
	c.tail = append(c.tail, p[n:]...)
	// Shift only when the tail holds twice what it keeps: amortized linear in the output.
	if len(c.tail) > 2*c.half {
		c.tail = append(c.tail[:0], c.tail[len(c.tail)-c.half:]...)
	}
	return len(p), nil
}

func (c *capture) live(p []byte) {
	if c.stream == nil || c.streamed >= c.streamCap {
		return
	}
	data := append(c.pending, p...)
	ready := trimPartialRune(data)
	c.pending = append([]byte(nil), data[len(ready):]...)
	if len(ready) == 0 {
		return
	}
	c.streamed += len(ready)
	c.stream(string(ready))
	if c.streamed >= c.streamCap {
		c.stream(fmt.Sprintf("\n[live output stops after %d MiB; the result shows the start and the end]\n", c.streamCap>>20))
	}
}

// flush streams what was held back at the very end (bytes that never became a valid rune).
func (c *capture) flush() {
	if c.stream != nil && len(c.pending) > 0 && c.streamed < c.streamCap {
		c.stream(string(c.pending))
		c.pending = nil
	}
}

// omitted is how many bytes between head and tail were dropped.
func (c *capture) omitted() int64 {
	return c.total - int64(len(c.head)) - int64(min(len(c.tail), c.half))
}

// String is the kept output; a cut never splits a character, and bytes that are not UTF-8
// become U+FFFD so the text survives JSON.
func (c *capture) String() string {
	skipped := c.omitted()
	if skipped == 0 {
		return strings.ToValidUTF8(string(c.head)+string(c.tail), "\uFFFD")
	}
	tail := c.tail[len(c.tail)-c.half:]
	for i := 0; i < utf8.UTFMax-1 && len(tail) > 0 && !utf8.RuneStart(tail[0]); i++ {
		tail = tail[1:]
	}
	head := trimPartialRune(c.head)
	marker := fmt.Sprintf("\n[... %d bytes omitted ...]\n", skipped)
	return strings.ToValidUTF8(string(head)+marker+string(tail), "\uFFFD")
}
