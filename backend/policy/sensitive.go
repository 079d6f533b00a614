package policy

import (
	"errors"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"agentdesk/backend/errs"
)

// SensitivePath is the concern of a call that would read (or change) a file on the sensitive
// list: it asks in Ask and Auto and is denied in Full until the person removes the entry.
const SensitivePath errs.Kind = "SENSITIVE_PATH"

// DefaultSensitive is the sensitive list of a data folder where the person never changed it.
// Private keys are listed by the names OpenSSH gives them rather than as id_*: that glob would
// also hold id_test.go or id_map.json, and asking for every one of those teaches people to
// approve without reading. A private key under another name sits in .ssh/, which is listed
// whole; public keys (id_*.pub) are not secrets.
var DefaultSensitive = []string{
	".ssh/", ".aws/", ".gnupg/", ".env", ".env.*", "*.pem", "*.key",
	"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk",
	".netrc", ".git-credentials", ".npmrc", ".pypirc", ".docker/config.json", ".kube/config",
	".local/share/keyrings/", ".password-store/",
}

// SensitiveList is the list of sensitive paths the gate reads. Its zero value is the default
// list, so a caller that forgets to pass the person's list gets the strict answer, never none.
type SensitiveList struct {
	entries []string
	set     bool
}

// NewSensitiveList is the list the person chose; an empty one means nothing is sensitive.
func NewSensitiveList(entries []string) SensitiveList {
	return SensitiveList{entries: entries, set: true}
}

// Entries lists the entries in force.
func (l SensitiveList) Entries() []string {
	if !l.set {
		return DefaultSensitive
	}
	return l.entries
}

// maxSensitiveEntry bounds one entry, as a stored setting the person types.
const maxSensitiveEntry = 512

// ParseSensitive checks and tidies a list the person typed: entries trimmed, blank ones and
// repeats dropped. An entry must be a usable glob: one the matcher could not read would match
// everything (it fails closed), which nobody means to type.
func ParseSensitive(entries []string) ([]string, error) {
	return parseGlobs(entries, func(e string) error {
		if len(e) > maxSensitiveEntry || strings.ContainsRune(e, 0) || e == "/" || !validGlob(e) {
			return errs.Invalid("sensitive-paths", e, []string{".env", ".ssh/", "*.pem"})
		}
		return nil
	})
}

// ParseRelativeGlobs checks a list of globs the person typed for paths inside one folder (the
// setting named field), with the sensitive list's syntax: entries trimmed, blank ones and
// repeats dropped, and each a usable glob that cannot reach out of the folder (no leading "/",
// no ".." segment).
func ParseRelativeGlobs(field string, entries []string) ([]string, error) {
	return parseGlobs(entries, func(e string) error {
		outside := strings.HasPrefix(e, "/") || slices.Contains(strings.Split(e, "/"), "..")
		if len(e) > maxSensitiveEntry || strings.ContainsRune(e, 0) || outside || !validGlob(e) {
			return errs.Invalid(field, e, []string{".env", "config/local.yaml", "*.local"})
		}
		return nil
	})
}

// MatchGlobs reports the first of globs that covers p, read as SensitiveList.Match reads its
// entries (so a setting of globs shares the sensitive list's syntax).
func MatchGlobs(globs []string, p string) (string, bool) {
	return NewSensitiveList(globs).Match(p)
}

func parseGlobs(entries []string, check func(string) error) ([]string, error) {
	out := []string{}
	seen := map[string]bool{}
	for _, e := range entries {
		e = strings.TrimSpace(e)
		if e == "" || seen[e] {
			continue
		}
		if err := check(e); err != nil {
			return nil, err
		}
		seen[e] = true
		out = append(out, e)
	}
	return out, nil
}

func validGlob(e string) bool {
	for seg := range strings.SplitSeq(strings.Trim(e, "/"), "/") {
		if seg == "" {
			return false
		}
		if _, err := path.Match(seg, ""); err != nil {
			return false
		}
	}
	return true
}

// Match reports the first entry that covers p, an absolute path or one relative to the
// workspace. An entry matches at any depth ("**/" before it, like a .gitignore line without a
// leading slash), and one that matches a folder covers everything below it; an entry that
// starts with "/" is an absolute path on the host. Letter case is ignored: on a file system
// that ignores it, .SSH/ID_RSA opens the same key. A malformed entry matches (fails closed).
func (l SensitiveList) Match(p string) (entry string, ok bool) {
	if p == "" {
		return "", false
	}
	name := strings.ToLower(filepath.ToSlash(p))
	rel := strings.TrimPrefix(path.Clean(name), "/")
	abs := strings.HasPrefix(name, "/")
	for _, e := range l.Entries() {
		pattern := strings.ToLower(strings.TrimSuffix(e, "/"))
		if strings.HasPrefix(pattern, "/") {
			if !abs {
				continue
			}
		} else {
			pattern = "**/" + pattern
		}
		if ok, err := matchGlob(pattern, rel); ok || err != nil {
			return e, true
		}
	}
	return "", false
}

// matchTarget matches a file tool's path as the call spelled it and where it resolved to: a
// link named notes.txt that leads to .ssh/id_rsa reads the key, and a link named .env reads
// whatever it leads to under a name the person listed.
func (l SensitiveList) matchTarget(c Resolved) (string, string, bool) {
	if c.Target.Resolved {
		if e, ok := l.Match(c.Target.Path); ok {
			return e, c.Target.Path, true
		}
	}
	if e, ok := l.Match(c.Call.Path); ok {
		return e, c.Call.Path, true
	}
	return "", "", false
}

// SensitiveNamed lists what a shell command names that the list covers: each word as written
// (relative to the workspace) and where it resolved to, as absolute paths where known. A
// command the person approved runs with these shown (SensitiveHide).
func SensitiveNamed(l SensitiveList, sh *Shell) (entry string, paths []string) {
	if sh == nil {
		return "", nil
	}
	for _, w := range sh.words {
		if e, ok := l.Match(w); ok {
			if entry == "" {
				entry = e
			}
			paths = append(paths, w)
		}
	}
	for _, t := range sh.paths {
		if !t.Resolved {
			continue
		}
		if e, ok := l.Match(t.Path); ok {
			if entry == "" {
				entry = e
			}
			paths = append(paths, t.Path)
		}
	}
	return entry, paths
}

// sensitiveLayer is the sensitive list's part of layer 2, after deny rules: a read, write or
// edit of a listed path, or a shell command that names one, asks in Ask and Auto (and in an
// unknown permission mode) and is denied in Full. No grant or allow rule answers it: the
// person approves one call at a time, or removes the entry. A shell command that names none
// still asks where the sandbox cannot hide the listed files from it (Input.SensitiveMasked).
func sensitiveLayer(in Input, sh *Shell) (Verdict, bool) {
	c := in.Call
	var entry, named string
	switch {
	case c.Call.Kind.HasPath():
		e, p, ok := in.Sensitive.matchTarget(c)
		if !ok {
			return Verdict{}, false
		}
		entry, named = e, p
	case c.Call.Kind == KindBash:
		e, paths := SensitiveNamed(in.Sensitive, sh)
		if len(paths) == 0 {
			if !in.SensitiveMasked && len(in.Sensitive.Entries()) > 0 {
				return ask(LayerProtected, SensitivePath, "gate.reason.sensitive_unmasked"), true
			}
			return Verdict{}, false
		}
		entry, named = e, paths[0]
	default:
		return Verdict{}, false
	}
	args := map[string]any{"Path": named, "Entry": entry}
	if in.Permission == Full {
		v := deny(LayerProtected, SensitivePath)
		v.ReasonArgs = args
		return v, true
	}
	v := ask(LayerProtected, SensitivePath, "gate.reason.sensitive")
	v.ReasonArgs = args
	return v, true
}

// sensitiveWalkLimit bounds the entries SensitiveMasks visits: a home folder is large, and a
// bash call waits on the walk. Past it the walk is incomplete and the gate asks for every
// command (Input.SensitiveMasked false), since the sandbox cannot hide what was not found.
const sensitiveWalkLimit = 100000

// dependencyDirs are the folders package managers fill with other people's files: a JavaScript
// project's node_modules alone often holds more entries than the walk's limit, which would make
// every command ask. What they hold was downloaded, not written by the person, so the walk does
// not look for the person's secrets there (a listed entry naming such a folder still matches).
var dependencyDirs = map[string]bool{"node_modules": true, ".venv": true, "venv": true, "__pycache__": true,
	".tox": true, ".mypy_cache": true, ".pytest_cache": true, ".gradle": true}

// SensitiveMasks lists the paths inside workspace the sandbox must hide from a shell command
// (the topmost match of a folder, not what lies below it); complete is false when the walk
// stopped at its limit. Absolute entries without glob characters are listed as they are.
func SensitiveMasks(l SensitiveList, workspace string) (paths []string, complete bool) {
	for _, e := range l.Entries() {
		if strings.HasPrefix(e, "/") && !strings.ContainsAny(e, "*?[") {
			paths = append(paths, filepath.Clean(e))
		}
	}
	if workspace == "" || len(l.Entries()) == 0 {
		return paths, true
	}
	found, err := walkTopmost(workspace, sensitiveWalkLimit, true, func(rel string) bool {
		_, ok := l.Match(rel)
		return ok
	})
	return append(paths, found...), !errors.Is(err, errWalkLimit)
}

// SensitiveHide is masks without what an approved command named: a mask that is, lies inside
// or holds a named path is shown for that call. Showing the folder that holds the named file
// (.ssh/ for .ssh/id_rsa) shows its siblings too; the person approved a command that reads
// there.
func SensitiveHide(masks, named []string, workspace string) []string {
	var out []string
	for _, m := range masks {
		shown := false
		for _, n := range named {
			if !filepath.IsAbs(n) {
				n = filepath.Join(workspace, n)
			}
			n = filepath.Clean(n)
			if n == m || isBelow(n, m) || isBelow(m, n) {
				shown = true
				break
			}
		}
		if !shown {
			out = append(out, m)
		}
	}
	return out
}
