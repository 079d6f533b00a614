package mode

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// The corpus goals (R-MODE-2): how much of the labelled corpus must route as labelled, and how
// many proposal-only requests may route to a mode that can change files (none).
const (
	corpusGoal           = 95.0
	corpusProposalMisses = 0
)

// corpusCase is one line of testdata/route_corpus.tsv.
type corpusCase struct {
	line     int
	want     ExecutionMode
	previous ExecutionMode
	text     string
}

func loadCorpus(t testing.TB) []corpusCase {
	t.Helper()
	b, err := os.ReadFile("testdata/route_corpus.tsv")
	if err != nil {
		t.Fatal(err)
	}
	var out []corpusCase
	for i, l := range strings.Split(string(b), "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		f := strings.Split(l, "\t")
		if len(f) != 3 || !ExecutionMode(f[0]).Known() || f[1] != "-" && !ExecutionMode(f[1]).Known() {
			t.Fatalf("route_corpus.tsv:%d: want mode<TAB>previous mode or -<TAB>text, got %q", i+1, l)
		}
		c := corpusCase{line: i + 1, want: ExecutionMode(f[0]), text: f[2]}
		if f[1] != "-" {
			c.previous = ExecutionMode(f[1])
		}
		out = append(out, c)
	}
	return out
}

// corpusScore routes every case and returns the misses.
type corpusScore struct {
	total, english, chinese, proposals int
	misses, proposalMisses             []string
}

func (s corpusScore) accuracy() float64 {
	return 100 * float64(s.total-len(s.misses)) / float64(s.total)
}

// String is the line `make bench` prints.
func (s corpusScore) String() string {
	return fmt.Sprintf("router corpus: %.1f%% of %d requests (%d English, %d Chinese) (goal ≥ %.0f%%), proposal-only misses %d of %d (goal %d)",
		s.accuracy(), s.total, s.english, s.chinese, corpusGoal, len(s.proposalMisses), s.proposals, corpusProposalMisses)
}

func scoreCorpus(cases []corpusCase) corpusScore {
	var s corpusScore
	for _, c := range cases {
		s.total++
		if hasHan(c.text) {
			s.chinese++
		} else {
			s.english++
		}
		if c.want == ModePropose {
			s.proposals++
		}
		got := RouteAfter(c.text, c.previous)
		if got.Mode == c.want {
			continue
		}
		miss := fmt.Sprintf("line %d: %q (previous %q) routes to %s (%s %v), labelled %s",
			c.line, c.text, c.previous, got.Mode, got.ReasonKey, got.ReasonArgs, c.want)
		s.misses = append(s.misses, miss)
		if c.want == ModePropose {
			s.proposalMisses = append(s.proposalMisses, miss)
		}
	}
	return s
}

// TestRouteCorpus holds the router to its goals on the labelled corpus, in English and Chinese,
// proposal-only phrasings and keyword traps included.
func TestRouteCorpus(t *testing.T) {
	s := scoreCorpus(loadCorpus(t))
	if s.total < 200 || s.english < 80 || s.chinese < 80 || s.proposals < 20 {
		t.Fatalf("corpus too small: %d requests, %d English, %d Chinese, %d proposal-only; want ≥200, ≥80, ≥80, ≥20",
			s.total, s.english, s.chinese, s.proposals)
	}
	for _, m := range s.misses {
		t.Log("miss: " + m)
	}
	if s.accuracy() < corpusGoal || len(s.proposalMisses) > corpusProposalMisses {
		t.Fatal(s)
	}
	t.Log(s)
}

// TestRouterCorpusReport prints the corpus figures for `make bench` (build/scripts/bench.sh).
func TestRouterCorpusReport(t *testing.T) {
	if !testing.Verbose() {
		t.Skip("prints with -v, for make bench")
	}
	s := scoreCorpus(loadCorpus(t))
	fmt.Println(s)
	for _, m := range s.misses {
		fmt.Println("  miss: " + m)
	}
}

// BenchmarkRoute is the router's cost per request, over the whole corpus.
func BenchmarkRoute(b *testing.B) {
	cases := loadCorpus(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c := cases[i%len(cases)]
		RouteAfter(c.text, c.previous)
	}
}
