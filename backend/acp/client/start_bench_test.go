package client

import (
	"context"
	"io"
	"testing"
	"time"

	"agentdesk/backend/agent/external"
	"agentdesk/backend/sandbox"
)

// BenchmarkAgentSandboxStart measures what the sandbox adds to starting an external agent: each
// iteration starts the fixture agent (node, initialize, session/new) and stops it twice, bare
// (under the supervising helper only) and inside the sandbox with a read-only workspace and its
// proxy, as an Ask session runs it, alternating so both see the same machine. ns/op is the
// difference; both starts are reported beside it.
func BenchmarkAgentSandboxStart(b *testing.B) {
	if !sandbox.Status().Namespaces {
		b.Skip("no namespaces here: external agents are not confined")
	}
	cmd := fixtureCommand(b)
	ws := b.TempDir()
	bare := external.Session{SessionID: "bench", Command: cmd, Workspace: ws}
	confined := bare
	confined.Confine = &external.Confinement{Reach: external.Reach{Hosts: []string{"localhost:11434"}}}
	var took [2]time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, s := range []external.Session{bare, confined} {
			t0 := time.Now()
			conn, err := start(context.Background(), s, io.Discard)
			if err != nil {
				b.Fatal(err)
			}
			took[j] += time.Since(t0)
			b.StopTimer()
			conn.stop()
			<-conn.exited
			b.StartTimer()
		}
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(float64(took[0].Nanoseconds())/n, "bare-ns")
	b.ReportMetric(float64(took[1].Nanoseconds())/n, "sandboxed-ns")
	b.ReportMetric(float64(took[1])/float64(took[0]), "ratio")
	b.ReportMetric(float64((took[1]-took[0]).Nanoseconds())/n, "ns/op")
}
