// Package sandbox confines the shell commands the agent runs: the second line of defence behind
// the permission gate (the gate decides, the kernel confines).
//
// # How a command is confined
//
// Landlock restricts the process that applies it and everything it starts, for good. So it is
// never applied in the app process: [Command] builds a command that re-executes the app's own
// binary (os.Executable) as a small helper, the openai/codex linux-sandbox pattern. The helper
// applies Landlock to the one thread it locked and starts the shell from that thread, so the
// shell and everything it starts carry the ruleset; the helper itself stays above the shell as
// the leader of the process group until the shell exits, then exits the same way.
//
// Staying is what ties the command to the app's life: the helper is started with a
// parent-death signal (backend/proc), and when the app dies — a `kill -9` included — it kills
// its whole group, which the kernel's parent-death signal alone, reaching only the direct
// child, could not. A kill of the group by the app (cancel, timeout) still reaches everything.
// Unconfined commands (an approved escalation, external ACP agents: [Supervised]) run under
// the same helper without the ruleset, for the same reason.
//
// The binary must call [RunHelperIfRequested] first thing in main (and test binaries in
// TestMain). The helper is recognised by a hidden first argument and an environment marker, both
// set only by [Command]; a binary that never called the hook cannot act as the helper, so
// [Command] refuses with HELPER_MISSING instead of starting a copy of the program.
//
// # What the shell may do (Landlock, best effort down to the kernel's ABI)
//
//   - read and execute the whole file system, except the app's data folder (Policy.DataDir):
//     Landlock is allow-only, so instead of granting read on "/" the helper grants it on every
//     sibling along the path to the data folder. Listing folders (readdir) stays granted
//     everywhere, so the names of the data folder's entries are visible, never their contents.
//     Symbolic links among the siblings get no rule of their own: a link is followed to its
//     target, which is checked like any other path, so a link cannot expose the data folder.
//   - write, create, delete and rename inside the workspace and the private temp folder
//     (Policy.TempDir, which the helper puts in TMPDIR); never create device nodes.
//   - use /dev/null, /dev/zero, /dev/full, /dev/random, /dev/urandom, /dev/tty, /dev/ptmx and
//     /dev/pts; everything else is read-only.
//   - no TCP bind or connect unless Policy.Network (Landlock ABI 4 and later; UDP too from ABI
//     10), no pathname unix sockets from outside (ABI 9) unless Policy.Network, no signals to
//     processes outside the sandbox and no abstract unix sockets (ABI 6). Landlock also forbids
//     mount changes and ptrace (hence /proc/<pid>/environ and /proc/<pid>/mem) of any process
//     outside the sandbox, such as the app itself.
//
// # Git metadata
//
// Landlock grants are a union over the hierarchy: write on the workspace includes .git/hooks and
// .git/config. Where unprivileged user namespaces work, the helper starts in a new user and
// mount namespace (its own user id mapped to itself), binds the workspace's .git onto itself (so
// it cannot be renamed away) and .git/hooks and .git/config read-only onto themselves, then
// drops its capabilities before the exec. Where namespaces are unavailable this step is skipped
// and [Status] says so. Only a .git folder at the workspace root is protected, not a .git file
// (linked work trees, submodules) nor the git folders of submodules under .git/modules.
//
// # Cost
//
// A re-execution of the app costs what the app's start costs, and the desktop build links GTK
// and WebKit, whose loading takes tens of milliseconds at every exec. So the desktop build
// embeds the helper alone, built static without cgo (backend/sandbox/helper, main_helper.go),
// and [UseHelperImage] runs it from a sealed memory file: no file on disk that a command could
// replace decides how the next command is confined. Its start is a pure-Go program's start;
// BenchmarkShellStart in backend/tool measures it against a shell started bare, and `make bench`
// prints the difference against 5 ms (the helper's start, its confinement and the fork of the
// shell it supervises). Builds without the image (tests, `wails dev`) re-execute
// themselves, which needs [RunHelperIfRequested] in main.
//
// Where Landlock is unavailable (another system, an old or unconfigured kernel), [Command] runs
// the shell without a ruleset and [Status] reports kind "none": the gate is then the only line
// of defence. Outside Linux there is no helper at all and no parent-death signal: the process
// group is the only tie.
package sandbox
