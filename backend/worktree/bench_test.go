package worktree

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkCreateTask10k measures what a task in its own worktree adds over a task in the
// person's folder (which adds nothing): creating the worktree of a 10,000-file repository, its
// branch and its checkout. Removing it is not timed.
func BenchmarkCreateTask10k(b *testing.B) {
	dir := b.TempDir()
	for i := 0; i < 10000; i++ {
		path := filepath.Join(dir, fmt.Sprintf("pkg%03d", i/100), fmt.Sprintf("file%04d.go", i))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(fmt.Sprintf("package p\n\n// file %d\n", i)), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	ctx := context.Background()
	for _, args := range [][]string{{"init", "--quiet"}, {"add", "--all"}, {"-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", "start"}} {
		if _, err := run(ctx, dir, nil, args...); err != nil {
			b.Fatal(err)
		}
	}
	root := b.TempDir()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		task, err := Create(ctx, dir, root, fmt.Sprintf("bench-%d", i), "Bench", false)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if _, err := Remove(ctx, task); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}
