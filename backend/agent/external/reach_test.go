package external

import (
	"reflect"
	"testing"

	"agentdesk/backend/errs"
)

// An agent reaches only the hosts its reach names: an exact name at any port, a name at its own
// port, a "*.domain" covering names below it (not the domain itself); nothing else, and no
// entry the sandbox could not hold is ever read as wider than it says.
func TestAReachAllowsOnlyWhatItNames(t *testing.T) {
	r := Reach{Hosts: []string{"api.openai.com", "localhost:11434", "*.example.org", "bad host", "x:0", "*"}}
	cases := []struct {
		host string
		port int
		want bool
	}{
		{"api.openai.com", 443, true},
		{"API.OpenAI.com.", 443, true},
		{"api.openai.com.evil.net", 443, false},
		{"openai.com", 443, false},
		{"localhost", 11434, true},
		{"localhost", 8080, false},
		{"models.example.org", 443, true},
		{"example.org", 443, false},
		{"badexample.org", 443, false},
		{"anything.net", 443, false},
		{"bad host", 443, false},
	}
	for _, c := range cases {
		if got := r.Allows(c.host, c.port); got != c.want {
			t.Errorf("Allows(%q, %d) = %v, want %v", c.host, c.port, got, c.want)
		}
	}
	if got := r.LocalPorts(); !reflect.DeepEqual(got, []int{11434}) {
		t.Errorf("local ports: %v", got)
	}
}

// A reach with a host or folder the sandbox cannot hold an agent to is refused, typed.
func TestAReachTheSandboxCannotHoldIsRefused(t *testing.T) {
	for _, bad := range []Reach{
		{Hosts: []string{"a b"}}, {Hosts: []string{"*"}}, {Hosts: []string{"host:99999"}}, {Hosts: []string{"a/b"}},
		{Folders: []string{"relative"}}, {Folders: []string{"/"}}, {Folders: []string{"~"}}, {Folders: []string{"~/"}},
	} {
		if err := bad.Check(); errs.KindOf(err) != BadReach {
			t.Errorf("%+v: %v", bad, err)
		}
	}
	if err := (Reach{Hosts: []string{"api.anthropic.com", "localhost:8080", "*.corp.example"}, Folders: []string{"~/.codex", "/opt/agent"}}).Check(); err != nil {
		t.Fatal(err)
	}
}

// An agent nobody saved a reach for gets its known API hosts and folders, whatever the suffix
// of its command; an unknown one gets no host at all and the usual folders under its name.
func TestTheDefaultReachOfAKnownAndAnUnknownAgent(t *testing.T) {
	if r := DefaultReach("/usr/local/bin/codex-acp"); !reflect.DeepEqual(r.Hosts, []string{"api.openai.com", "chatgpt.com"}) {
		t.Errorf("codex-acp: %+v", r)
	}
	if r := DefaultReach("npx opencode-ai acp"); len(r.Hosts) == 0 || r.Hosts[0] != "api.openai.com" {
		t.Errorf("opencode-ai: %+v", r)
	}
	r := DefaultReach("/opt/mystery-agent --acp")
	if len(r.Hosts) != 0 || len(r.Folders) == 0 {
		t.Errorf("an unknown agent: %+v", r)
	}
	if got := (Reach{Folders: []string{"~/.codex", "/opt/a", "~/x"}}).FoldersIn(""); !reflect.DeepEqual(got, []string{"/opt/a"}) {
		t.Errorf("without a home: %v", got)
	}
}
