package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/term"
)

// integrityBytesPerSecond is how fast PRAGMA integrity_check reads a database whose pages are
// not in the page cache, the case where the check is long: the first check of a big file
// nothing read lately. Measured on the 2-core machine this was written on, over a 419 MB
// database of 350 000 events of 20 to 1 000 bytes (the index checks per row, not the bytes,
// dominate), with the file dropped from the cache first (`dd if=FILE iflag=nocache count=0`):
// 41 MB/s, and 21 to 24 MB/s while other jobs shared the machine; the same file cached checks
// at 140 to 150 MB/s. The 1.4 GB in 28.6 s is 49 MB/s. An estimate from the cold figure
// may run long; a check that ends before its estimate surprises no one.
const integrityBytesPerSecond = 40e6

// integrityEstimateFrom is the size from which the full check says how long it will take:
// below it the check ends within about five seconds.
const integrityEstimateFrom = 200e6

// integrityEstimate is the expected duration of integrity_check over size bytes, and whether
// the file is big enough to say so before starting.
func integrityEstimate(size int64) (time.Duration, bool) {
	about := time.Duration(float64(size) / integrityBytesPerSecond * float64(time.Second)).Round(time.Second)
	return about, size > integrityEstimateFrom
}

// databaseSize is what integrity_check reads: the file and its write-ahead log.
func databaseSize(path string) int64 {
	var n int64
	for _, p := range []string{path, path + "-wal"} {
		if st, err := os.Stat(p); err == nil {
			n += st.Size()
		}
	}
	return n
}

// formatSize writes a size in decimal units, as file managers and disk tools do.
func formatSize(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.0f MB", float64(n)/1e6)
	default:
		return fmt.Sprintf("%.0f kB", float64(n)/1e3)
	}
}

// progress tells on stderr what a long check is doing, so that a check of a big file is not
// silence; stdout keeps the report alone, and --json stays one JSON document. A check gets a
// line as it starts and one as it ends, with its duration; while it runs, a terminal shows its
// seconds counting in place, and a log or a pipe gets a line every ten seconds.
type progress struct {
	c     *Context
	w     io.Writer
	tty   bool
	every time.Duration
	// shown is the length of the line a terminal shows in place, blanked out before the next: spaces,
	// not an escape sequence, which a Windows console may print as it is. Its bytes are at least
	// as many as its columns.
	shown int
}

func (c *Context) newProgress() *progress {
	p := &progress{c: c, w: c.Stderr, tty: isTerminal(c.Stderr), every: 10 * time.Second}
	if p.tty {
		p.every = time.Second
	}
	return p
}

// isTerminal: Main wraps the process's stderr in a lockedWriter.
func isTerminal(w io.Writer) bool {
	if l, ok := w.(*lockedWriter); ok {
		w = l.w
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// run runs one check between its start and end lines; while it runs, detail says how far it got
// (nil: the seconds so far). The end line of a check that ctx cancelled says it stopped, not that
// it is done.
func (p *progress) run(ctx context.Context, name, start string, detail func(elapsed time.Duration) string, check func() Check) Check {
	label := p.c.T("cli.doctor.check." + name)
	fmt.Fprintf(p.w, "… %s: %s\n", label, start)
	if detail == nil {
		detail = p.elapsed
	}
	began := time.Now()
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(p.every)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				p.show(fmt.Sprintf("… %s: %s", label, detail(time.Since(began))))
			}
		}
	}()
	result := check()
	close(stop)
	<-stopped
	p.clear()
	took := fmt.Sprintf("%.1f", time.Since(began).Seconds())
	if ctx.Err() != nil {
		fmt.Fprintf(p.w, "■ %s: %s\n", label, p.c.T("cli.doctor.progress.stopped", "Seconds", took))
		return result
	}
	fmt.Fprintf(p.w, "%s %s: %s\n", checkMark(result.OK), label, p.c.T("cli.doctor.progress.took", "Seconds", took))
	return result
}

func (p *progress) elapsed(d time.Duration) string {
	return p.c.T("cli.doctor.progress.elapsed", "Seconds", int(d.Seconds()))
}

// estimated is a check's detail with an estimate of its whole duration.
func (p *progress) estimated(about time.Duration) func(time.Duration) string {
	return func(d time.Duration) string {
		return p.c.T("cli.doctor.progress.elapsedOf", "Seconds", int(d.Seconds()), "About", int(about.Seconds()))
	}
}

// counted is a check's detail of how many of total items it did.
func (p *progress) counted(done *atomic.Int64, total int) func(time.Duration) string {
	return func(d time.Duration) string {
		return p.c.T("cli.doctor.progress.counted", "Done", done.Load(), "Total", total, "Seconds", int(d.Seconds()))
	}
}

// show writes a progress line: in place on a terminal, as a line of its own elsewhere.
func (p *progress) show(line string) {
	if !p.tty {
		fmt.Fprintln(p.w, line)
		return
	}
	p.clear()
	fmt.Fprint(p.w, line)
	p.shown = len(line)
}

// clear blanks the line a terminal shows in place and puts the cursor at its start.
func (p *progress) clear() {
	if p.shown > 0 {
		fmt.Fprint(p.w, "\r"+strings.Repeat(" ", p.shown)+"\r")
		p.shown = 0
	}
}
