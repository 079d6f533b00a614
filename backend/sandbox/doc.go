// Package sandbox confines the shell commands the agent runs: the second line of defence behind
// the permission gate (the gate decides, the kernel confines).
//
// # How a command is confined
//
// Landlock restricts the process that applies it and everything it starts, for good, and a
// multithreaded Go program cannot enter new namespaces itself. So nothing is ever applied in
// the app process: [Command] builds a command that starts a small helper (the openai/codex
// linux-sandbox pattern), spawned where the kernel allows into new user, mount, PID, network
// and IPC namespaces. The helper builds the command's world, applies Landlock to the one
// thread it locked and starts the shell from that thread, so the shell and everything it
// starts carry the ruleset; the helper itself stays above the shell until it exits.
//
// The binary must call [RunHelperIfRequested] first thing in main (and test binaries in
// TestMain). The helper is recognised by a hidden first argument and an environment marker, both
// set only by [Command]; a binary that never called the hook cannot act as the helper, so
// [Command] refuses with HELPER_MISSING instead of starting a copy of the program.
//
// # The layers, and what each machine gets ([Status])
//
// With namespaces (the helper's probe at the first Status decides):
//
//   - the file system is a new root (root_linux.go, view.go): the toolchain read-only, the build
//     caches read-write, the workspace, a private /tmp, a minimal /dev, the PID namespace's own
//     /proc; nothing else of $HOME (~/.ssh, keyrings, the data folder), no /run (D-Bus, docker
//     and other daemons' sockets). The workspace's .git, and the repository folders a .git file
//     names, are read-only unless Policy.GitWrite; their hooks and config always. What path
//     deny rules and the sensitive paths list cover (Policy.Hide) is masked: a folder by an
//     empty read-only tmpfs, a file by /dev/null, so a script or a computed name reads nothing.
//     Without namespaces nothing can be masked, and the gate asks for every command instead.
//   - the network namespace has only lo. A command allowed to reach out gets AgentDesk's proxy
//     (Policy.ProxySocket): the helper bridges ProxyPort on that lo to the proxy's Unix socket,
//     shown read-only, and Landlock allows that one port. No UDP, no DNS, no abstract Unix
//     socket of the host (those are per network namespace).
//   - the helper is the first process of the PID namespace: when the shell exits it ends, and
//     the kernel ends everything left in the namespace (setsid, double forks, daemons).
//
// Landlock then, in every case where the kernel has it:
//
//   - reads: everything the command sees; without namespaces, the whole file system except the
//     app's data folder (Landlock is allow-only, so read is granted on every sibling along the
//     path to the data folder, readdir everywhere). A read-only call (Policy.ReadOnly, Auto's
//     read-only class) reads only the workspace and the toolchain, and with namespaces sees
//     the workspace mounted read-only.
//   - writes: the workspace, the temp folder and (with namespaces) the caches; devices from a
//     short list; never device nodes.
//   - no TCP bind or connect unless Policy.Network (ABI 4 and later; UDP from ABI 10), no
//     pathname Unix sockets from outside (ABI 9), no signals to processes outside the sandbox
//     and no abstract Unix sockets (ABI 6). Landlock also forbids mount changes and ptrace
//     (hence /proc/<pid>/environ and /proc/<pid>/mem) of any process outside the sandbox.
//
// Without namespaces the helper is still a child subreaper: orphans are reparented to it, and it
// kills them all when the shell exits, when it is asked to stop (SIGTERM: the bash tool's
// cancel) or when AgentDesk dies (its parent-death signal). Only a kill of the helper itself
// lets a process that left the group outlive the call; [Status] lists that as uncovered. Where Landlock is
// unavailable (another system, an old or unconfigured kernel), [Command] runs the shell
// without a ruleset and [Status] reports kind "none": the gate is then the only line of
// defence. Unconfined commands (an approved escalation, external ACP agents: [Supervised])
// run under the same helper without the ruleset or namespaces, for its supervision.
//
// # Cost
//
// A re-execution of the app costs what the app's start costs, and the desktop build links GTK
// and WebKit, whose loading takes tens of milliseconds at every exec. So the desktop build
// embeds the helper alone, built static without cgo (backend/sandbox/helper, main_helper.go),
// and [UseHelperImage] runs it from a sealed memory file: no file on disk that a command could
// replace decides how the next command is confined. BenchmarkShellStart in backend/tool
// measures a namespaced start against the same start unsandboxed, and `make bench` prints the
// difference against 10 ms. Builds without the image (tests, `wails dev`) re-execute
// themselves, which needs [RunHelperIfRequested] in main.
package sandbox
