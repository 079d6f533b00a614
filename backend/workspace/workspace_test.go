package workspace

import (
	"os"
	"path/filepath"
	"testing"

	"agentdesk/backend/errs"
)

// Each row is one cell of the rule, named as a sentence.
func TestRule(t *testing.T) {
	const home = "/home/ann"
	ok := errs.Kind("")
	cases := []struct {
		name    string
		path    string
		home    string
		confirm bool
		want    errs.Kind
	}{
		{"an empty path asks for a folder", "", home, false, Required},
		{"blanks ask for a folder", "   ", home, false, Required},
		{"a relative path is refused", "src/app", home, false, Relative},
		{"a dot is refused", ".", home, false, Relative},
		{"a path with a NUL byte is refused", "/home/ann/a\x00b", home, false, Invalid},
		{"surrounding blanks are refused, not trimmed silently", " /home/ann/p", home, false, Invalid},
		{"the root is refused", "/", home, false, SystemFolder},
		{"the root is refused even when confirmed", "/", home, true, SystemFolder},
		{"the root spelled with dots is refused", "/home/..", home, false, SystemFolder},
		{"/etc is refused", "/etc", home, false, SystemFolder},
		{"a folder inside /etc is refused", "/etc/nginx", home, false, SystemFolder},
		{"/usr is refused", "/usr", home, false, SystemFolder},
		{"/usr/local/src is refused with /usr", "/usr/local/src", home, false, SystemFolder},
		{"/bin is refused", "/bin", home, false, SystemFolder},
		{"/boot is refused", "/boot", home, false, SystemFolder},
		{"/dev is refused", "/dev", home, false, SystemFolder},
		{"/lib64 is refused", "/lib64", home, false, SystemFolder},
		{"/proc is refused", "/proc/1", home, false, SystemFolder},
		{"/sbin is refused", "/sbin", home, false, SystemFolder},
		{"/sys is refused", "/sys", home, false, SystemFolder},
		{"/var itself is refused", "/var", home, false, SystemFolder},
		{"a site below /var is allowed", "/var/www/site", home, false, ok},
		{"/opt itself is refused", "/opt", home, false, SystemFolder},
		{"an app below /opt is allowed", "/opt/app", home, false, ok},
		{"/tmp itself is refused", "/tmp", home, false, SystemFolder},
		{"a folder below /tmp is allowed", "/tmp/scratch", home, false, ok},
		{"/root is refused when it is not the home", "/root", home, false, SystemFolder},
		{"a folder in /root is refused when it is not the home", "/root/p", home, false, SystemFolder},
		{"/root as the home needs confirmation", "/root", "/root", false, HomeNeedsConfirmation},
		{"a project in /root is allowed when it is the home", "/root/p", "/root", false, ok},
		{"/home is refused because it holds the home", "/home", home, false, ContainsHome},
		{"/home is refused as a system folder when the home is elsewhere", "/home", "/root", false, SystemFolder},
		{"the home folder needs confirmation", home, home, false, HomeNeedsConfirmation},
		{"the home folder with a trailing slash needs confirmation", home + "/", home, false, HomeNeedsConfirmation},
		{"the home folder is allowed once confirmed", home, home, true, ok},
		{"a project in the home folder is allowed", home + "/code/app", home, false, ok},
		{"a folder above the home is refused", "/data", "/data/users/ann", false, ContainsHome},
		{"a folder above the home is refused even when confirmed", "/data/users", "/data/users/ann", true, ContainsHome},
		{"another user's folder is not home", "/home/bob/p", home, false, ok},
		{"with an unknown home no folder counts as home", "/home/ann", "", false, ok},
		{"a home of / makes the root no more allowed", "/", "/", true, SystemFolder},
		{"a relative home counts as none", "/srv/x", "home", false, ok},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := Rule(c.path, c.home, c.confirm)
			if c.want == ok {
				if err != nil {
					t.Fatalf("Rule(%q, %q, %v) = %v, want nil", c.path, c.home, c.confirm, err)
				}
				return
			}
			if errs.KindOf(err) != c.want {
				t.Fatalf("Rule(%q, %q, %v) = %v, want %s", c.path, c.home, c.confirm, err, c.want)
			}
		})
	}
}

func TestExpand(t *testing.T) {
	cases := []struct{ raw, home, want string }{
		{"~", "/home/ann", "/home/ann"},
		{"~/", "/home/ann", "/home/ann"},
		{"~/code/app", "/home/ann", "/home/ann/code/app"},
		{"/abs/~/x", "/home/ann", "/abs/~/x"},
		{"rel", "/home/ann", "rel"},
	}
	for _, c := range cases {
		got, err := Expand(c.raw, c.home)
		if err != nil || got != c.want {
			t.Errorf("Expand(%q) = %q, %v; want %q", c.raw, got, err, c.want)
		}
	}
	for _, raw := range []string{"~bob", "~bob/x"} {
		if _, err := Expand(raw, "/home/ann"); errs.KindOf(err) != Invalid {
			t.Errorf("Expand(%q) = %v, want %s", raw, err, Invalid)
		}
	}
	if _, err := Expand("~/x", ""); errs.KindOf(err) != Invalid {
		t.Errorf("~ without a home = %v, want %s", err, Invalid)
	}
}

func TestResolveOnDisk(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "proj")
	if err := os.Mkdir(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(home, "notes.txt")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := resolve("~/proj", home, false)
	if err != nil || got != proj {
		t.Fatalf("~/proj = %q, %v; want %q", got, err, proj)
	}
	if _, err := resolve(filepath.Join(home, "missing"), home, false); errs.KindOf(err) != NotFound {
		t.Errorf("a missing folder = %v, want %s", err, NotFound)
	}
	if _, err := resolve(file, home, false); errs.KindOf(err) != NotFound {
		t.Errorf("a file = %v, want %s", err, NotFound)
	}
	if _, err := resolve("~", home, false); errs.KindOf(err) != HomeNeedsConfirmation {
		t.Errorf("~ unconfirmed = %v, want %s", err, HomeNeedsConfirmation)
	}
	if got, err := resolve("~", home, true); err != nil || got != home {
		t.Errorf("~ confirmed = %q, %v", got, err)
	}
	link := filepath.Join(home, "etc-link")
	if err := os.Symlink("/etc", link); err != nil {
		t.Fatal(err)
	}
	if _, err := resolve(link, home, false); errs.KindOf(err) != SystemFolder {
		t.Errorf("a link to /etc = %v, want %s", err, SystemFolder)
	}
	homeLink := filepath.Join(proj, "up")
	if err := os.Symlink(home, homeLink); err != nil {
		t.Fatal(err)
	}
	if _, err := resolve(homeLink, home, false); errs.KindOf(err) != HomeNeedsConfirmation {
		t.Errorf("a link to home = %v, want %s", err, HomeNeedsConfirmation)
	}
}
