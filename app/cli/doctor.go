package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"agentdesk/backend/policy"
	"agentdesk/backend/sandbox"
	"agentdesk/backend/store"
)

// Check is one line of the doctor's report.
type Check struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

// DoctorReport is `agentdesk doctor --json`.
type DoctorReport struct {
	OK          bool                    `json:"ok"`
	Version     string                  `json:"version"`
	WebKitGTK   string                  `json:"webkitgtk"` // the API the window links, "4.0" or "4.1"
	DataDir     string                  `json:"data_dir"`
	Checks      []Check                 `json:"checks"`
	Schema      SchemaReport            `json:"schema"`
	Maintenance store.MaintenanceReport `json:"maintenance"`
	Integrity   IntegrityReport         `json:"integrity"`
	// Unreadable lists the log entries no reader can decode (each shows as "unreadable" in its
	// transcript).
	Unreadable []store.UnreadableEvent `json:"unreadable_events"`
	// Sandbox is what the kernel offers to confine shell commands. It is not a check: a system
	// without Landlock still runs, with the gate as its only line of defence.
	Sandbox sandbox.Support `json:"sandbox"`
	// ProtectedWrites are the paths the write and edit tools ask about in every permission mode:
	// code planted there runs later on its own, outside the sandbox.
	ProtectedWrites []string `json:"protected_writes"`
	// SensitivePaths is the list whose files are read only when the person approves (denied in
	// Full), as the data folder holds it: the default list when the database cannot be read.
	SensitivePaths []string `json:"sensitive_paths"`
}

// IntegrityReport is what the database's checks found: the bounded quick_check of the open, and
// the full integrity_check the doctor runs. ReadOnly: the file is damaged and was opened so.
type IntegrityReport struct {
	QuickCheck   store.Integrity `json:"quick_check"`
	Problems     []string        `json:"problems"`
	ReadOnly     bool            `json:"read_only"`
	StaleBackups []string        `json:"stale_backups"`
}

// SchemaReport tells the database's schema version and what this build supports.
type SchemaReport struct {
	Version   int    `json:"version"`
	Supported int    `json:"supported"`
	Backup    string `json:"backup,omitempty"`
}

// ExitCancelled is doctor's exit when Ctrl+C (SIGINT) or SIGTERM stopped it: 128 + SIGINT, as a
// shell reports a command it interrupted, so a script tells it from a failed check (1).
const ExitCancelled = 130

func runDoctor(c *Context, args []string) int {
	fs := c.flags("doctor")
	asJSON := fs.Bool("json", false, c.T("cli.flag.json"))
	if code, ok := c.parse(fs, args); !ok {
		return code
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The first signal cancels; with the default handling back, a second one ends the process.
	context.AfterFunc(ctx, stop)
	rep, stoppedAt := c.diagnose(ctx, c.newProgress())
	if stoppedAt != "" {
		return c.doctorCancelled(rep, stoppedAt, *asJSON)
	}
	if *asJSON {
		enc := json.NewEncoder(c.Stdout)
		enc.SetIndent("", "  ")
		enc.Encode(rep)
	} else {
		c.printDoctor(rep)
	}
	if !rep.OK {
		return ExitFailure
	}
	return ExitOK
}

// doctorCancelled tells on stderr which check the cancel stopped and which had finished; the text
// report keeps the finished checks' lines on stdout, and --json prints nothing there: half a
// report parsed as a whole one would read as a clean bill.
func (c *Context) doctorCancelled(rep DoctorReport, stoppedAt string, asJSON bool) int {
	done := make([]string, len(rep.Checks))
	for i, ch := range rep.Checks {
		done[i] = c.T("cli.doctor.check." + ch.Name)
	}
	if !asJSON {
		c.printChecks(rep.Checks)
	}
	fmt.Fprintln(c.Stderr, "agentdesk: "+c.T("cli.doctor.cancelled", "Check", c.T("cli.doctor.check."+stoppedAt),
		"Done", strings.Join(done, ", ")))
	return ExitCancelled
}

// diagnose runs the checks in order and returns the report, or the name of the check a cancel
// of ctx stopped (the report then holds the checks that finished before it).
func (c *Context) diagnose(ctx context.Context, p *progress) (DoctorReport, string) {
	rep := DoctorReport{Version: Version, WebKitGTK: WebKitGTK, DataDir: c.DataDir, Schema: SchemaReport{Supported: store.SupportedSchema()},
		Maintenance: store.MaintenanceReport{Changes: []store.Change{}, Repairs: []string{}},
		Integrity:   IntegrityReport{Problems: []string{}, StaleBackups: []string{}, QuickCheck: store.Integrity{Problems: []string{}}},
		Unreadable:  []store.UnreadableEvent{}, Sandbox: sandbox.Status(), ProtectedWrites: policy.AutorunPatterns,
		SensitivePaths: policy.DefaultSensitive}
	rep.Checks = append(rep.Checks, c.checkLibraries(), c.checkDataDir())
	if ctx.Err() != nil {
		return rep, "database"
	}
	// Opening runs migrations, maintenance and the bounded quick_check; it does not watch ctx,
	// and always ends.
	var st *store.Store
	rep.Checks = append(rep.Checks, p.run(context.Background(), "database", c.T("cli.doctor.progress.opening", "Path", c.DataDir), nil, func() (check Check) {
		st, check = c.checkDatabase(&rep)
		return check
	}))
	if st == nil {
		return finishReport(rep), ""
	}
	defer st.Close()
	if list, err := st.SensitivePaths(); err == nil {
		rep.SensitivePaths = list.Entries()
	}
	size := databaseSize(st.Path())
	start, detail := c.T("cli.doctor.progress.integrity", "Size", formatSize(size)), (func(time.Duration) string)(nil)
	if about, long := integrityEstimate(size); long {
		start = c.T("cli.doctor.progress.integrityLong", "Size", formatSize(size), "Seconds", int(about.Seconds()))
		detail = p.estimated(about)
	}
	if ctx.Err() != nil {
		return rep, "integrity"
	}
	check := p.run(ctx, "integrity", start, detail, func() Check { return c.checkIntegrity(ctx, st, &rep) })
	if ctx.Err() != nil {
		return rep, "integrity"
	}
	rep.Checks = append(rep.Checks, check)
	// The count reads one index, a small part of the file; with it the history check shows
	// how far it got.
	var decoded atomic.Int64
	detail = nil
	if total, err := st.EventCount(ctx); err == nil {
		detail = p.counted(&decoded, total)
	}
	if ctx.Err() != nil {
		return rep, "events"
	}
	check = p.run(ctx, "events", c.T("cli.doctor.progress.events"), detail, func() Check {
		return c.checkEvents(ctx, st, &rep, func(n int) { decoded.Store(int64(n)) })
	})
	if ctx.Err() != nil {
		return rep, "events"
	}
	rep.Checks = append(rep.Checks, check)
	return finishReport(rep), ""
}

func finishReport(rep DoctorReport) DoctorReport {
	rep.OK = true
	for _, ch := range rep.Checks {
		rep.OK = rep.OK && ch.OK
	}
	return rep
}

// desktopLibraries are the shared libraries the Linux window needs, each with alternatives.
var desktopLibraries = [][]string{
	{"libgtk-3.so.0"},
	{webkitLibrary[WebKitGTK]},
}

// webkitLibrary is the shared library each WebKitGTK API is loaded from: a binary built for one
// does not start with only the other installed.
var webkitLibrary = map[string]string{"4.0": "libwebkit2gtk-4.0.so.37", "4.1": "libwebkit2gtk-4.1.so.0"}

func (c *Context) checkLibraries() Check {
	if runtime.GOOS != "linux" {
		return Check{Name: "libraries", OK: true, Detail: c.T("cli.doctor.librariesNotNeeded")}
	}
	var found, missing []string
	for _, alts := range desktopLibraries {
		if path := findLibrary(alts); path != "" {
			found = append(found, path)
		} else {
			missing = append(missing, strings.Join(alts, " | "))
		}
	}
	if !desktopBuild {
		// The command line runs without them: only the window (agentdesk-desktop) needs them.
		if len(missing) > 0 {
			return Check{Name: "libraries", OK: true, Detail: c.T("cli.doctor.librariesWindowMissing", "Missing", strings.Join(missing, ", "))}
		}
		return Check{Name: "libraries", OK: true, Detail: c.T("cli.doctor.librariesWindowOnly", "Found", strings.Join(found, ", "))}
	}
	if len(missing) > 0 {
		return Check{Name: "libraries", Detail: c.T("cli.doctor.librariesMissing", "Missing", strings.Join(missing, ", "))}
	}
	return Check{Name: "libraries", OK: true, Detail: strings.Join(found, ", ")}
}

func findLibrary(names []string) string {
	for _, name := range names {
		for _, dir := range []string{"/usr/lib/*", "/usr/lib", "/usr/lib64", "/lib/*", "/lib64", "/usr/local/lib"} {
			if hits, _ := filepath.Glob(filepath.Join(dir, name)); len(hits) > 0 {
				return hits[0]
			}
		}
	}
	return ""
}

func (c *Context) checkDataDir() Check {
	if err := os.MkdirAll(c.DataDir, 0o700); err != nil {
		return Check{Name: "data_dir", Detail: err.Error()}
	}
	probe, err := os.CreateTemp(c.DataDir, ".doctor-*")
	if err != nil {
		return Check{Name: "data_dir", Detail: c.T("cli.doctor.notWritable", "Path", c.DataDir)}
	}
	probe.Close()
	os.Remove(probe.Name())
	return Check{Name: "data_dir", OK: true, Detail: c.DataDir}
}

// checkDatabase opens the store as every command does; a damaged file opens read-only and fails
// the check with the message every write would give. The open store is returned for the
// checks after it; the caller closes it.
func (c *Context) checkDatabase(rep *DoctorReport) (*store.Store, Check) {
	st, err := store.Open(c.DataDir)
	if err != nil {
		return nil, Check{Name: "database", Detail: c.msgs.Error(c.lang, err)}
	}
	rep.Maintenance = st.Maintenance
	rep.Schema.Backup = st.Migrated.Backup
	rep.Integrity.QuickCheck, rep.Integrity.StaleBackups = st.Integrity, st.StaleBackups
	if d := st.Damage(); d != nil {
		rep.Integrity.ReadOnly = true
		return st, Check{Name: "database", Detail: c.msgs.Error(c.lang, d)}
	}
	if rep.Schema.Version, err = st.SchemaVersion(); err != nil {
		return st, Check{Name: "database", Detail: c.msgs.Error(c.lang, err)}
	}
	return st, Check{Name: "database", OK: true, Detail: c.T("cli.doctor.schema", "Path", st.Path(),
		"Version", rep.Schema.Version, "Supported", rep.Schema.Supported)}
}

// checkIntegrity runs the full integrity_check: every page, and every index against its table.
func (c *Context) checkIntegrity(ctx context.Context, st *store.Store, rep *DoctorReport) Check {
	problems, err := st.IntegrityCheck(ctx)
	if err != nil {
		return Check{Name: "integrity", Detail: c.msgs.Error(c.lang, err)}
	}
	rep.Integrity.Problems = problems
	if len(problems) > 0 {
		return Check{Name: "integrity", Detail: c.T("cli.doctor.integrity.problems", "Count", len(problems), "First", problems[0])}
	}
	return Check{Name: "integrity", OK: true, Detail: c.T("cli.doctor.integrity.ok")}
}

// checkEvents decodes every log entry with the one event-log decoder.
func (c *Context) checkEvents(ctx context.Context, st *store.Store, rep *DoctorReport, decoded func(int)) Check {
	bad, err := st.UnreadableEvents(ctx, decoded)
	if err != nil {
		return Check{Name: "events", Detail: c.msgs.Error(c.lang, err)}
	}
	rep.Unreadable = bad
	if len(bad) > 0 {
		u := bad[0]
		return Check{Name: "events", Detail: c.T("cli.doctor.events.unreadable", "Count", len(bad), "Session", u.SessionID,
			"Seq", u.Seq, "Type", u.Type, "Reason", u.Reason)}
	}
	sessions, err := st.ListSessions()
	if err != nil {
		return Check{Name: "events", Detail: c.msgs.Error(c.lang, err)}
	}
	return Check{Name: "events", OK: true, Detail: c.T("cli.doctor.events.ok", "Sessions", len(sessions))}
}

func (c *Context) printDoctor(rep DoctorReport) {
	c.printChecks(rep.Checks)
	fmt.Fprintln(c.Stdout, c.sandboxLine(rep.Sandbox))
	fmt.Fprintln(c.Stdout, c.T("cli.doctor.maintenance", "Changed", rep.Maintenance.Changed))
	if n := len(rep.Integrity.StaleBackups); n > 0 {
		fmt.Fprintln(c.Stdout, c.T("cli.doctor.staleBackups", "Count", n))
	}
}

func (c *Context) printChecks(checks []Check) {
	for _, ch := range checks {
		fmt.Fprintf(c.Stdout, "%s %-10s %s\n", checkMark(ch.OK), c.T("cli.doctor.check."+ch.Name), ch.Detail)
	}
}

func checkMark(ok bool) string {
	if ok {
		return "✓"
	}
	return "✗"
}

// sandboxLine is the doctor's human line about the sandbox; "!" marks a missing one.
func (c *Context) sandboxLine(s sandbox.Support) string {
	if s.Kind != sandbox.KindLandlock {
		return fmt.Sprintf("! %-10s %s", c.T("sandbox.doctor.label"), c.T("sandbox.doctor.none", "Reason", s.Reason))
	}
	line := fmt.Sprintf("✓ %-10s %s", c.T("sandbox.doctor.label"), c.T("sandbox.doctor.landlock", "ABI", s.ABI,
		"Namespaces", c.yesNo(s.Namespaces), "Network", c.yesNo(s.Network), "Git", c.yesNo(s.ProtectGit), "Reaper", s.Reaper))
	if len(s.Uncovered) > 0 {
		names := make([]string, len(s.Uncovered))
		for i, id := range s.Uncovered {
			names[i] = c.T("sandbox.uncovered." + id)
		}
		line += fmt.Sprintf("\n  %-10s %s", "", c.T("sandbox.doctor.uncovered", "List", strings.Join(names, "; ")))
	}
	return line
}

func (c *Context) yesNo(b bool) string {
	if b {
		return c.T("sandbox.doctor.yes")
	}
	return c.T("sandbox.doctor.no")
}
