package cli

import (
	"strings"
	"testing"
)

// `agentdesk --help` names every setting `settings set` accepts, in each language, so a person
// who reads the help finds all of them.
func TestTheHelpNamesEverySetting(t *testing.T) {
	for _, lang := range []string{"en", "zh-CN"} {
		_, out, errOut := run(t, map[string]string{"LANG": lang + ".UTF-8", "LC_ALL": "", "AGENTDESK_LANG": lang}, "--help")
		help := out + errOut
		for _, name := range settingNames() {
			if !strings.Contains(help, name) {
				t.Errorf("%s: the help does not name the setting %s", lang, name)
			}
		}
	}
}
