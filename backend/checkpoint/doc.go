// Package checkpoint keeps snapshots of a workspace so that every change the agent makes can be
// seen and undone: before every turn and around every approved write, edit or shell
// command, the files of the workspace are recorded; any snapshot can be compared with another or
// with the disk, and restored.
//
// # Where snapshots live
//
// In the data folder, in a SQLite file of their own (checkpoints.db), never in the person's
// .git: AgentDesk never runs git and never touches an index, HEAD, ref, hook or object of theirs.
// File contents are blobs addressed by their SHA-256 and compressed with zstd, so a file that
// did not change between snapshots is stored once. A snapshot is a manifest (every file's path,
// mode, size, modification time and content hash, or a symbolic link's target), itself a blob.
//
// Why this and not a bare git repository through go-git: a git tree records only whether a file
// is executable, while a restore must give back the exact permission bits; git's own pruning
// needs repacking that go-git does partly; and a quota is simplest to keep where every stored
// byte is a row: the oldest snapshots go first, then every blob no remaining manifest names.
// A file of its own keeps the main database small, so its backups before migrations stay fast.
//
// # What is not stored
//
// Files that the workspace's .gitignore files (and .git/info/exclude) ignore, the .git folder
// itself, and files whose names match the secret patterns (.env*, *.pem, id_* and the like, a
// setting) are left out entirely: a restore leaves them as they are. Files larger than a limit
// are recorded by hash only: a diff can say they changed, a restore cannot bring them back and
// says so before it starts.
//
// # Speed
//
// A snapshot walks the workspace and reuses the hash recorded last time for every file whose
// size, modification time and mode are unchanged and which was not modified after that last
// snapshot began (git's "racy" rule), so only changed files are read.
package checkpoint
