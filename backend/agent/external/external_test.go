package external

import "testing"

func TestAgentName(t *testing.T) {
	for cmd, want := range map[string]string{
		"opencode acp":                        "opencode",
		"npx -y opencode-ai acp":              "opencode-ai",
		"/usr/bin/node /x/fixtures/agent.mjs": "agent",
		"env FOO=1 gemini --experimental-acp": "gemini",
		"goose acp":                           "goose",
	} {
		if got := AgentName(cmd); got != want {
			t.Errorf("%q: %q, want %q", cmd, got, want)
		}
	}
}
