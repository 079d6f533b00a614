package sandbox

import (
	"slices"
	"testing"
)

func TestScrubEnv(t *testing.T) {
	cases := []struct {
		name string
		in   []string
		pass []string
		want []string
	}{
		{"ordinary variables stay", []string{"PATH=/bin", "HOME=/h", "LANG=C"}, nil, []string{"PATH=/bin", "HOME=/h", "LANG=C"}},
		{"a name containing KEY, SECRET, TOKEN or PASSWORD goes",
			[]string{"AWS_SECRET_ACCESS_KEY=s", "GITHUB_TOKEN=t", "DB_PASSWORD=p", "STRIPE_KEY=k", "PATH=/bin"}, nil,
			[]string{"PATH=/bin"}},
		{"the match ignores case", []string{"my_api_key=k", "Npm_Token=t", "x_secret=s", "EDITOR=vi"}, nil, []string{"EDITOR=vi"}},
		{"provider variables go even without a secret word",
			[]string{"ANTHROPIC_BASE_URL=u", "OPENAI_ORG_ID=o", "openai_project=p", "TERM=xterm"}, nil, []string{"TERM=xterm"}},
		{"a provider word elsewhere in the name is not a prefix", []string{"MY_OPENAI_MODEL=m"}, nil, []string{"MY_OPENAI_MODEL=m"}},
		{"pass-through keeps the exact name only",
			[]string{"NPM_TOKEN=t", "npm_token=u", "OPENAI_BASE_URL=b"}, []string{"NPM_TOKEN", "OPENAI_BASE_URL"},
			[]string{"NPM_TOKEN=t", "OPENAI_BASE_URL=b"}},
		{"a value that looks secret does not matter", []string{"NOTE=my TOKEN is here"}, nil, []string{"NOTE=my TOKEN is here"}},
		{"an entry without = is judged by its whole text", []string{"API_KEY", "PLAIN"}, nil, []string{"PLAIN"}},
		{"empty stays empty", nil, nil, []string{}},
	}
	for _, c := range cases {
		if got := ScrubEnv(c.in, c.pass); !slices.Equal(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestScrubEnvLeavesTheInputAlone(t *testing.T) {
	in := []string{"A_TOKEN=1", "B=2"}
	ScrubEnv(in, nil)
	if !slices.Equal(in, []string{"A_TOKEN=1", "B=2"}) {
		t.Fatalf("input changed: %q", in)
	}
}

// A relative PATH entry would run the workspace's own ./git for `git status`.
func TestScrubEnvKeepsOnlyAbsolutePathEntries(t *testing.T) {
	got := ScrubEnv([]string{"PATH=.:/usr/local/bin::bin:/usr/bin:node_modules/.bin:"}, nil)
	if len(got) != 1 || got[0] != "PATH=/usr/local/bin:/usr/bin" {
		t.Fatalf("PATH: %q", got)
	}
}
