// Package scaledata builds data folders the size of a year of use (10,000 sessions,
// 1,000,000 events), through the store's own API, for the scale benchmarks and for trying the
// app on them (build/gendata). The contents look like real work: turns of a prompt, tool calls
// with their results and an answer, a mode switch now and then, over a few workspaces.
package scaledata

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"agentdesk/backend/eventlog"
	"agentdesk/backend/mode"
	"agentdesk/backend/store"
)

// Spec says how much to build: Sessions sessions holding Events events in all, of which one
// session holds Big events and another Medium (the sizes the issue opens).
type Spec struct {
	Sessions int `json:"sessions"`
	Events   int `json:"events"`
	Big      int `json:"big"`
	Medium   int `json:"medium"`
}

// Year is a year of use, as it was measured from outside.
var Year = Spec{Sessions: 10_000, Events: 1_000_000, Big: 100_000, Medium: 10_000}

// Smoke is small enough to build in a test run: the same shapes, a few seconds.
var Smoke = Spec{Sessions: 200, Events: 6_000, Big: 2_000, Medium: 500}

// Manifest describes a built folder: its spec and the sessions the benchmarks open.
type Manifest struct {
	Spec
	BigID    string `json:"big_id"`
	MediumID string `json:"medium_id"`
	// Schema is the store's schema version the folder was built at. A folder from an older
	// schema is migrated forward when opened, like a person's; one without it, or from a newer
	// schema, is rebuilt (a branch that numbered its migrations differently left such folders).
	Schema int `json:"schema"`
}

// manifestName is the file beside the database that says the folder is complete.
const manifestName = "scale-manifest.json"

// Open returns the folder's manifest when dir holds a complete folder built to spec.
func Open(dir string, spec Spec) (Manifest, bool) {
	b, err := os.ReadFile(filepath.Join(dir, manifestName))
	var m Manifest
	if err != nil || json.Unmarshal(b, &m) != nil || m.Spec != spec {
		return Manifest{}, false
	}
	if m.Schema < 1 || m.Schema > store.SupportedSchema() {
		return Manifest{}, false
	}
	return m, true
}

// Ensure returns the folder in dir, building it first unless it is already there (a build
// interrupted half way is started again from nothing).
func Ensure(dir string, spec Spec, progress func(done, total int)) (Manifest, error) {
	if m, ok := Open(dir, spec); ok {
		return m, nil
	}
	if err := os.RemoveAll(dir); err != nil {
		return Manifest{}, err
	}
	return Build(dir, spec, progress)
}

// Build writes a new folder to spec in dir, which must not hold a database yet.
func Build(dir string, spec Spec, progress func(done, total int)) (Manifest, error) {
	if spec.Sessions < 2 || spec.Big+spec.Medium+spec.Sessions-2 > spec.Events {
		return Manifest{}, errors.New("scaledata: the spec's sessions do not fit its events")
	}
	st, err := store.Open(dir)
	if err != nil {
		return Manifest{}, err
	}
	defer st.Close()
	g := &generator{st: st, rnd: rand.New(rand.NewPCG(11, 2026))}
	rest := spec.Events - spec.Big - spec.Medium
	m := Manifest{Spec: spec, Schema: store.SupportedSchema()}
	done := 0
	for i := 0; i < spec.Sessions; i++ {
		n := rest / (spec.Sessions - 2)
		if i < rest%(spec.Sessions-2) {
			n++
		}
		switch i {
		case 0:
			n = spec.Big
		case 1:
			n = spec.Medium
		}
		id, err := g.session(i, n)
		if err != nil {
			return Manifest{}, err
		}
		switch i {
		case 0:
			m.BigID = id
		case 1:
			m.MediumID = id
		}
		if done += n; progress != nil {
			progress(done, spec.Events)
		}
	}
	return m, writeManifest(dir, m)
}

// writeManifest says the folder in dir is complete, as m describes it.
func writeManifest(dir string, m Manifest) error {
	b, _ := json.MarshalIndent(m, "", "  ")
	return os.WriteFile(filepath.Join(dir, manifestName), b, 0o600)
}

type generator struct {
	st  *store.Store
	rnd *rand.Rand
}

var topics = []string{"Fix the login redirect", "Refactor the parser", "Add a --verbose flag", "Speed up the test suite",
	"Document the config file", "Port the build to Go 1.26", "Find why CI is flaky", "Rename the storage package"}

var tools = []string{"read", "grep", "edit", "bash", "write", "glob"}

// session writes one session of exactly n events: turns of a prompt, calls and their results,
// and an answer, with a mode switch every few turns.
func (g *generator) session(i, n int) (string, error) {
	s, err := g.st.CreateSession(store.NewSession{Title: fmt.Sprintf("%s (%d)", topics[i%len(topics)], i),
		Workspace: fmt.Sprintf("/home/ada/project-%d", i%7)})
	if err != nil {
		return "", err
	}
	return s.ID, g.fill(s.ID, n-int(s.EventSeq)) // creating it recorded its first
}

// Fill appends n events of turns like those of a built folder to an existing session: for a
// benchmark that needs one long session in a store of its own.
func Fill(st *store.Store, sessionID string, n int) error {
	return (&generator{st: st, rnd: rand.New(rand.NewPCG(11, 2026))}).fill(sessionID, n)
}

func (g *generator) fill(sessionID string, n int) error {
	for turn := 0; n > 0; turn++ {
		if turn%9 == 8 && n > 1 {
			if _, err := g.st.Configure(sessionID, modes[turn%len(modes)]); err != nil {
				return err
			}
			n--
		}
		used, err := g.turn(sessionID, turn, n)
		if err != nil {
			return err
		}
		n -= used
	}
	return nil
}

var modes = []mode.Preference{{Interaction: mode.Smart, Override: mode.Debug}, mode.Default,
	{Interaction: mode.Smart, Override: mode.Analyze}, mode.Default}

// turn writes one turn of at most n events (its prompt, pairs of call and result, an answer)
// and says how many it wrote.
func (g *generator) turn(sessionID string, k, n int) (int, error) {
	started, err := g.st.StartTurn(store.TurnStart{SessionID: sessionID, Prompt: prose(g.rnd, 12), Preference: mode.Default})
	if err != nil {
		return 0, err
	}
	used := 1 // the prompt, recorded with the turn
	var steps []eventlog.Event
	for calls := 1 + g.rnd.IntN(24); calls > 0 && used+2 <= n; calls-- {
		id := fmt.Sprintf("call-%d-%d", k, calls)
		name := tools[g.rnd.IntN(len(tools))]
		input, _ := json.Marshal(map[string]string{"path": fmt.Sprintf("internal/pkg%d/file%d.go", g.rnd.IntN(40), g.rnd.IntN(200))})
		steps = append(steps,
			eventlog.AssistantMessage{TurnID: started.Turn.ID, Text: prose(g.rnd, 8),
				ToolCalls: []eventlog.CallRecord{{ID: id, Name: name, Input: input}}},
			eventlog.ToolResult{TurnID: started.Turn.ID, CallID: id, Name: name, Content: code(g.rnd, 12), Verdict: "allow"})
		used += 2
	}
	if used < n {
		steps = append(steps, eventlog.AssistantMessage{TurnID: started.Turn.ID, Text: prose(g.rnd, 40)})
		used++
	}
	if _, err := g.st.AppendSteps(sessionID, steps...); err != nil {
		return 0, err
	}
	return used, g.st.EndTurn(started.Turn.ID, store.TurnDone, "")
}

var words = strings.Fields(`the parser reads each token and the test checks that a missing field is reported with its
line and column so the person sees where the file went wrong before anything is written to disk`)

func prose(r *rand.Rand, n int) string {
	out := make([]string, n)
	for i := range out {
		out[i] = words[r.IntN(len(words))]
	}
	return strings.Join(out, " ")
}

func code(r *rand.Rand, lines int) string {
	var b strings.Builder
	for i := 0; i < lines; i++ {
		fmt.Fprintf(&b, "%d\tfunc handle%d(ctx context.Context, req *Request) error { return nil }\n", i+1, r.IntN(1000))
	}
	return b.String()
}
