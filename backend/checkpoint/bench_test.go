package checkpoint

import (
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkCheckpointIncremental is one snapshot of a workspace of 10,000 files and 200 MB
// after 10 files changed: the cost a turn or a tool call pays. Budget: 100 ms.
func BenchmarkCheckpointIncremental(b *testing.B) {
	ws := b.TempDir()
	const files, size = 10_000, 20 << 10 // 200 MB
	content := make([]byte, size)
	for i := range files {
		rand.Read(content[:64]) // distinct files, compressible bodies, like source trees
		p := filepath.Join(ws, fmt.Sprintf("d%02d/e%02d/f%04d.txt", i%50, i%7, i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, content, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	s, err := Open(b.TempDir(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Snapshot(Request{SessionID: "bench", Workspace: ws, Reason: ReasonTurn}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	round := 0
	for b.Loop() {
		b.StopTimer()
		for j := range 10 {
			round++
			p := filepath.Join(ws, fmt.Sprintf("d%02d/e%02d/f%04d.txt", j%50, j%7, j))
			os.WriteFile(p, fmt.Appendf(nil, "round %d\n", round), 0o644)
		}
		b.StartTimer()
		if _, err := s.Snapshot(Request{SessionID: "bench", Workspace: ws, Reason: ReasonAfterTool}); err != nil {
			b.Fatal(err)
		}
	}
}
