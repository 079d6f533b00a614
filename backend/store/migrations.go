package store

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"
)

// migrations is the ordered, append-only list of schema steps; index i builds version i+1.
var migrations = []migration{
	{name: "sessions, events, settings, maintenance log", up: createFoundation},
	{name: "session modes and permission, turns", up: addModesAndTurns},
	{name: "decisions, rules and session grants", up: addDecisions},
	{name: "external ACP agent per session", up: addExternalAgent},
	{name: "the process that runs a turn", up: addTurnOwner},
	{name: "the scope of allow rules and grants", up: addRuleScope},
	{name: "queue items as rows, sequence counters, application id", up: addQueueRows},
	{name: "external agents' own session ids", up: addAgentSessions},
	{name: "MCP servers, their pinned tools, MCP rules and grants", up: addMCP},
	{name: "session summaries and the indexes every query uses", up: addSummaries},
	{name: "a counter of every change to what the gate reads", up: addGateEpoch},
	{name: "events numbered without AUTOINCREMENT", up: renumberEvents},
	{name: "the scripts an allow rule or grant approved", up: addScriptRecords},
	{name: "tasks in worktrees of their own", up: addTaskWorktrees},
	{name: "the count of a task's files not applied", up: addUnappliedCount},
}

func createFoundation(tx *gorm.DB) error {
	return execAll(tx,
		`CREATE TABLE sessions (
			id TEXT PRIMARY KEY,
			title TEXT NOT NULL,
			workspace TEXT NOT NULL,
			created_at DATETIME NOT NULL,
			updated_at DATETIME NOT NULL)`,
		`CREATE INDEX idx_sessions_updated_at ON sessions(updated_at)`,
		`CREATE TABLE events (
			id INTEGER PRIMARY KEY AUTOINCREMENT,
			session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
			seq INTEGER NOT NULL,
			type TEXT NOT NULL,
			payload TEXT NOT NULL DEFAULT '{}',
			created_at DATETIME NOT NULL,
			UNIQUE(session_id, seq))`,
		// The event log is append-only: rows may go with their session, never change.
		`CREATE TRIGGER events_append_only BEFORE UPDATE ON events
			BEGIN SELECT RAISE(ABORT, 'events are append-only'); END`,
		`CREATE TABLE settings (
			key TEXT PRIMARY KEY,
			value TEXT NOT NULL,
			updated_at DATETIME NOT NULL)`,
		`CREATE TABLE maintenance_log (
			id INTEGER PRIMARY KEY AUTOINCREMENT,
			repair TEXT NOT NULL,
			table_name TEXT NOT NULL,
			row_id TEXT NOT NULL,
			column_name TEXT NOT NULL,
			old_value TEXT NOT NULL,
			new_value TEXT NOT NULL,
			applied_at DATETIME NOT NULL)`,
	)
}

func execAll(tx *gorm.DB, stmts ...string) error {
	for _, s := range stmts {
		if err := tx.Exec(s).Error; err != nil {
			return err
		}
	}
	return nil
}

// addModesAndTurns gives sessions their interaction preference and permission mode. Rows that
// predate it get plain Smart and ask: the narrowest permission, never a guess that widens.
func addModesAndTurns(tx *gorm.DB) error {
	return execAll(tx,
		`ALTER TABLE sessions ADD COLUMN interaction_mode TEXT NOT NULL DEFAULT 'smart'`,
		`ALTER TABLE sessions ADD COLUMN execution_override TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE sessions ADD COLUMN permission_mode TEXT NOT NULL DEFAULT 'ask'`,
		`ALTER TABLE sessions ADD COLUMN mode_queue TEXT NOT NULL DEFAULT '{"items":[]}'`,
		`CREATE TABLE turns (
			id TEXT PRIMARY KEY,
			session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
			seq INTEGER NOT NULL,
			prompt TEXT NOT NULL,
			interaction_mode TEXT NOT NULL,
			execution_override TEXT NOT NULL,
			temporary INTEGER NOT NULL DEFAULT 0,
			execution_mode TEXT NOT NULL,
			reason_key TEXT NOT NULL,
			reason_args TEXT NOT NULL DEFAULT '{}',
			status TEXT NOT NULL,
			error TEXT NOT NULL DEFAULT '',
			created_at DATETIME NOT NULL,
			ended_at DATETIME,
			UNIQUE(session_id, seq))`,
	)
}

// addDecisions persists pending decisions (R-DEC-6), "always allow" and deny rules, and the
// grants of "allow for this session". Decisions keep their FIFO order by rowid.
func addDecisions(tx *gorm.DB) error {
	return execAll(tx,
		`CREATE TABLE decisions (
			id TEXT PRIMARY KEY,
			session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
			turn_id TEXT NOT NULL DEFAULT '',
			kind TEXT NOT NULL,
			payload TEXT NOT NULL DEFAULT '{}',
			status TEXT NOT NULL,
			answer TEXT NOT NULL DEFAULT '{}',
			created_at DATETIME NOT NULL,
			deadline DATETIME NOT NULL,
			resolved_at DATETIME)`,
		`CREATE INDEX idx_decisions_session_status ON decisions(session_id, status)`,
		`CREATE TABLE rules (
			id TEXT PRIMARY KEY,
			effect TEXT NOT NULL,
			kind TEXT NOT NULL DEFAULT '',
			path TEXT NOT NULL DEFAULT '',
			command TEXT NOT NULL DEFAULT '',
			source TEXT NOT NULL DEFAULT '',
			created_at DATETIME NOT NULL)`,
		`CREATE TABLE grants (
			id INTEGER PRIMARY KEY AUTOINCREMENT,
			session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
			kind TEXT NOT NULL DEFAULT '',
			path TEXT NOT NULL DEFAULT '',
			command TEXT NOT NULL DEFAULT '',
			created_at DATETIME NOT NULL)`,
	)
}

// addExternalAgent lets a session run on an external ACP agent (a command line from Settings)
// instead of the built-in runtime; empty means built-in.
func addExternalAgent(tx *gorm.DB) error {
	return execAll(tx, `ALTER TABLE sessions ADD COLUMN external_agent TEXT NOT NULL DEFAULT ''`)
}

// addTurnOwner records which process runs a turn, so a starting app interrupts only the turns
// of processes that are gone, never those of a live `agentdesk run` or `acp` beside it.
func addTurnOwner(tx *gorm.DB) error {
	return execAll(tx, `ALTER TABLE turns ADD COLUMN owner TEXT NOT NULL DEFAULT ''`)
}

// addRuleScope records how an allow rule or grant matches (exact, a prefix the person chose, a
// pattern the person typed). Rows that predate it keep ” and read as exact: a stored rule
// never matches more than the command or file it was made from.
func addRuleScope(tx *gorm.DB) error {
	return execAll(tx,
		`ALTER TABLE rules ADD COLUMN scope TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE grants ADD COLUMN scope TEXT NOT NULL DEFAULT ''`,
	)
}

// addAgentSessions remembers the session id an external ACP agent gave a session, with the
// command line it belongs to, so a restarted agent is asked to load that session (its own
// memory) rather than start afresh; and what AgentDesk still has to tell that agent (why calls
// were declined), a JSON list sent at the start of its next prompt. It goes with its session.
func addAgentSessions(tx *gorm.DB) error {
	return execAll(tx, `CREATE TABLE agent_sessions (
		session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
		command TEXT NOT NULL,
		agent_session TEXT NOT NULL,
		notes TEXT NOT NULL DEFAULT '[]',
		updated_at DATETIME NOT NULL)`)
}

// addQueueRows moves each session's turn-boundary queue from its JSON column into rows, one per
// switch or message in order, so an operation adds or takes one item inside its transaction
// instead of rewriting the whole list. The sessions get counters for their event and turn
// numbers, taken inside the same transaction as the row they number. The old column is kept as
// it was (forward-only, data kept) and nothing reads it any more.
func addQueueRows(tx *gorm.DB) error {
	err := execAll(tx,
		`CREATE TABLE queue_items (
			id INTEGER PRIMARY KEY AUTOINCREMENT,
			session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
			kind TEXT NOT NULL CHECK (kind IN ('switch', 'message')),
			interaction_mode TEXT NOT NULL DEFAULT '',
			execution_override TEXT NOT NULL DEFAULT '',
			message_id TEXT NOT NULL DEFAULT '',
			created_at DATETIME NOT NULL,
			CHECK (kind = 'switch' OR message_id <> ''))`,
		`CREATE INDEX idx_queue_items_session ON queue_items(session_id, id)`,
		`ALTER TABLE sessions ADD COLUMN event_seq INTEGER NOT NULL DEFAULT 0`,
		`ALTER TABLE sessions ADD COLUMN turn_seq INTEGER NOT NULL DEFAULT 0`,
		`UPDATE sessions SET
			event_seq = COALESCE((SELECT MAX(seq) FROM events WHERE events.session_id = sessions.id), 0),
			turn_seq = COALESCE((SELECT MAX(seq) FROM turns WHERE turns.session_id = sessions.id), 0)`,
		fmt.Sprintf("PRAGMA application_id = %d", ApplicationID),
	)
	if err != nil {
		return err
	}
	return moveQueues(tx)
}

// legacyQueue is the JSON the mode_queue column held, read verbatim: stored values are moved
// as they are and fold when read, like every stored value.
type legacyQueue struct {
	Items []struct {
		Switch *struct {
			InteractionMode   string `json:"interaction_mode"`
			ExecutionOverride string `json:"execution_override"`
		} `json:"switch"`
		MessageID string `json:"message_id"`
	} `json:"items"`
}

func moveQueues(tx *gorm.DB) error {
	var rows []struct{ ID, ModeQueue string }
	if err := tx.Raw(`SELECT id, mode_queue FROM sessions WHERE mode_queue NOT IN ('', '{"items":[]}') ORDER BY id`).
		Scan(&rows).Error; err != nil {
		return err
	}
	now := time.Now().UTC()
	for _, r := range rows {
		var q legacyQueue
		if err := json.Unmarshal([]byte(r.ModeQueue), &q); err != nil {
			if err := logUnmoved(tx, r.ID, r.ModeQueue, now); err != nil {
				return err
			}
			continue
		}
		for _, it := range q.Items {
			var err error
			switch {
			case it.Switch != nil && it.MessageID == "":
				err = tx.Exec(`INSERT INTO queue_items (session_id, kind, interaction_mode, execution_override, created_at)
					VALUES (?, 'switch', ?, ?, ?)`, r.ID, it.Switch.InteractionMode, it.Switch.ExecutionOverride, now).Error
			case it.Switch == nil && it.MessageID != "":
				err = tx.Exec(`INSERT INTO queue_items (session_id, kind, message_id, created_at) VALUES (?, 'message', ?, ?)`,
					r.ID, it.MessageID, now).Error
			default:
				err = logUnmoved(tx, r.ID, r.ModeQueue, now)
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// logUnmoved records, in the maintenance log, a queue (or an item of it) that could not be
// read: it stays in the old column, and the log says so.
func logUnmoved(tx *gorm.DB, sessionID, raw string, at time.Time) error {
	return tx.Exec(`INSERT INTO maintenance_log (repair, table_name, row_id, column_name, old_value, new_value, applied_at)
		VALUES ('queue to rows: unreadable item kept in mode_queue', 'sessions', ?, 'mode_queue', ?, '', ?)`,
		sessionID, raw, at).Error
}

// addMCP keeps the MCP servers the person configured (globally, or for one workspace), each
// tool's definition as the person approved it (pinned) beside the one last listed (seen), and
// the "server/tool" pattern of MCP rules and grants. Rows that predate it name no MCP tool.
func addMCP(tx *gorm.DB) error {
	return execAll(tx,
		`CREATE TABLE mcp_servers (
			id TEXT PRIMARY KEY,
			name TEXT NOT NULL,
			workspace TEXT NOT NULL DEFAULT '',
			transport TEXT NOT NULL,
			command TEXT NOT NULL DEFAULT '',
			args TEXT NOT NULL DEFAULT '[]',
			env TEXT NOT NULL DEFAULT '{}',
			url TEXT NOT NULL DEFAULT '',
			headers TEXT NOT NULL DEFAULT '{}',
			network INTEGER NOT NULL DEFAULT 0,
			enabled INTEGER NOT NULL DEFAULT 0,
			source TEXT NOT NULL DEFAULT '',
			created_at DATETIME NOT NULL,
			UNIQUE(workspace, name))`,
		`CREATE TABLE mcp_tools (
			server_id TEXT NOT NULL REFERENCES mcp_servers(id) ON DELETE CASCADE,
			name TEXT NOT NULL,
			pinned TEXT NOT NULL DEFAULT '',
			seen TEXT NOT NULL DEFAULT '',
			disabled INTEGER NOT NULL DEFAULT 0,
			approved_at DATETIME,
			seen_at DATETIME NOT NULL,
			PRIMARY KEY(server_id, name))`,
		`ALTER TABLE rules ADD COLUMN mcp TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE grants ADD COLUMN mcp TEXT NOT NULL DEFAULT ''`,
	)
}

// addSummaries keeps in the session row what a list or a header shows, so no reader scans a
// log: the payload of the last mode.set, verbatim, or NULL when there is none (the mode in force,
// R-PLAN-1: the last one wins) and
// the running turn. Both are filled from the data already there. The last activity is
// updated_at, which every appended event already touches, and the title was always a column.
// The indexes cover every query the app runs (TestEveryQueryUsesAnIndex): the session list
// pages by (updated_at, id), over one folder too (ACP), logs are read by type (mode.set,
// message.queued, tool.result), boot finds running turns and pending decisions, and a
// session's grants are read by every tool call (and deleted with it).
func addSummaries(tx *gorm.DB) error {
	return execAll(tx,
		`ALTER TABLE sessions ADD COLUMN mode_set TEXT`,
		`ALTER TABLE sessions ADD COLUMN running_turn TEXT NOT NULL DEFAULT ''`,
		`CREATE INDEX idx_events_type ON events(session_id, type, seq)`,
		`UPDATE sessions SET mode_set = (SELECT payload FROM events
			WHERE events.session_id = sessions.id AND events.type = 'mode.set' ORDER BY seq DESC LIMIT 1)`,
		`CREATE INDEX idx_turns_status ON turns(status)`,
		`UPDATE sessions SET running_turn = COALESCE((SELECT id FROM turns
			WHERE turns.session_id = sessions.id AND turns.status = 'running' ORDER BY seq DESC LIMIT 1), '')`,
		`DROP INDEX idx_sessions_updated_at`,
		`CREATE INDEX idx_sessions_recent ON sessions(updated_at, id)`,
		`CREATE INDEX idx_sessions_workspace ON sessions(workspace, updated_at, id)`,
		`CREATE INDEX idx_decisions_status ON decisions(status)`,
		`CREATE INDEX idx_grants_session ON grants(session_id, id)`,
		// Boot maintenance looks up the rows holding a retired spelling at every open.
		`CREATE INDEX idx_sessions_interaction ON sessions(interaction_mode)`,
		`CREATE INDEX idx_sessions_permission ON sessions(permission_mode)`,
	)
}

// addGateEpoch counts every change to what the gate reads before a tool call (a session's
// permission, the rules, the grants), in the same transaction as the change, whoever makes it:
// this process, another one on the same folder, a repair or a hand-written statement. A reader
// that kept the gate's inputs reads the counter alone and reads the inputs again only when it
// moved (GateCache), so a change is seen by the next call as when every call read them afresh.
// A deleted session moves it too: its cached inputs must not outlive it.
func addGateEpoch(tx *gorm.DB) error {
	stmts := []string{
		`CREATE TABLE gate_epoch (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL)`,
		`INSERT INTO gate_epoch (id, n) VALUES (1, 0)`,
		`CREATE TRIGGER gate_epoch_permission AFTER UPDATE OF permission_mode ON sessions
			BEGIN UPDATE gate_epoch SET n = n + 1; END`,
		`CREATE TRIGGER gate_epoch_session_gone AFTER DELETE ON sessions
			BEGIN UPDATE gate_epoch SET n = n + 1; END`,
	}
	for _, table := range []string{"rules", "grants"} {
		for _, op := range []string{"INSERT", "UPDATE", "DELETE"} {
			stmts = append(stmts, fmt.Sprintf(`CREATE TRIGGER gate_epoch_%s_%s AFTER %s ON %s
				BEGIN UPDATE gate_epoch SET n = n + 1; END`, table, strings.ToLower(op), op, table))
		}
	}
	return execAll(tx, stmts...)
}

// renumberEvents takes AUTOINCREMENT off the events table's row id: every insert read and
// rewrote the table's row in sqlite_sequence, a page more in every commit (a tenth of a tool
// call's cost). Nothing reads the row id but as the order rows came in, which a plain INTEGER
// PRIMARY KEY keeps: a new row takes one more than the largest, so an id reused after a delete
// is still the newest. An event's number in its log (seq) comes from its session's counter.
// Both are the same table on disk (AUTOINCREMENT changes only how a new id is chosen), so the
// table's definition is edited in place, as SQLite documents for a change that leaves the
// stored content as it is (a rebuild would copy a year of events, and double the file, at the
// first open); the schema version moves so every connection reads the new definition.
func renumberEvents(tx *gorm.DB) error {
	var version int
	if err := tx.Raw("PRAGMA schema_version").Scan(&version).Error; err != nil {
		return err
	}
	return execAll(tx,
		"PRAGMA writable_schema = ON",
		`UPDATE sqlite_schema SET sql = replace(sql, 'id INTEGER PRIMARY KEY AUTOINCREMENT,', 'id INTEGER PRIMARY KEY,')
			WHERE type = 'table' AND name = 'events'`,
		fmt.Sprintf("PRAGMA schema_version = %d", version+1),
		"PRAGMA writable_schema = OFF",
		`DELETE FROM sqlite_sequence WHERE name = 'events'`,
	)
}

// addScriptRecords keeps, with an allow rule or grant, the content of the files its command ran
// as code when it was approved (policy.Resolved.Scripts), so it holds only while they are
// unchanged. Rows that predate it get an empty record and no longer hold on a command that
// runs a file: what they approved cannot be told, and a stored value that cannot be verified
// must not widen. The approved texts themselves (small ones) are kept by their SHA-256, so the
// card that asks again can show what changed since.
//
// It runs again harmlessly.
func addScriptRecords(tx *gorm.DB) error {
	for _, table := range []string{"rules", "grants"} {
		if tx.Migrator().HasColumn(table, "scripts") {
			continue
		}
		if err := tx.Exec(`ALTER TABLE ` + table + ` ADD COLUMN scripts TEXT NOT NULL DEFAULT ''`).Error; err != nil {
			return err
		}
	}
	return execAll(tx, `CREATE TABLE IF NOT EXISTS script_texts (
			digest TEXT PRIMARY KEY,
			content TEXT NOT NULL,
			created_at DATETIME NOT NULL)`)
}

// addTaskWorktrees records, per session that runs in a worktree of its own, where that worktree
// and its branch are, and what was kept when it was removed.
//
// It runs again harmlessly.
func addTaskWorktrees(tx *gorm.DB) error {
	return execAll(tx, `CREATE TABLE IF NOT EXISTS task_worktrees (
			session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
			repo TEXT NOT NULL,
			common TEXT NOT NULL,
			path TEXT NOT NULL,
			git_dir TEXT NOT NULL,
			branch TEXT NOT NULL,
			base TEXT NOT NULL,
			kept_ref TEXT NOT NULL DEFAULT '',
			kept_files TEXT NOT NULL DEFAULT '[]',
			removed INTEGER NOT NULL DEFAULT 0,
			created_at DATETIME NOT NULL)`,
		`CREATE INDEX IF NOT EXISTS task_worktrees_repo ON task_worktrees(repo)`)
}

// addUnappliedCount keeps, with a task's worktree, how many files hold a change that has not
// reached the person's folder or branch, so the sidebar reads a number rather than asking git
// for every task. Rows that predate it count none until their next turn or worktree action.
//
// It runs again harmlessly (the newest migration must: the scale folder's copy test replays it).
func addUnappliedCount(tx *gorm.DB) error {
	if tx.Migrator().HasColumn("task_worktrees", "unapplied") {
		return nil
	}
	return tx.Exec(`ALTER TABLE task_worktrees ADD COLUMN unapplied INTEGER NOT NULL DEFAULT 0`).Error
}
