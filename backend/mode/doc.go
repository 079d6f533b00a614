// Package mode holds the vocabulary of how a turn runs: the person's interaction preference
// (Smart or Chat plus an optional execution override), the execution mode a turn resolves to, the
// one profile table that says which tools each execution mode offers, the Smart router, what an
// unreadable mode switch reads as, and the turn-boundary queue. The mode log itself is decoded
// and folded by eventlog, the one reader of the log.
//
// Everything here is pure: no I/O, no clocks, no globals that change. User-visible text never
// appears in this package; functions return locale keys and template arguments, and errors are
// errs.Error values whose kind names the locale key ("error." + kind).
//
// Two kinds of input are handled differently (R-DATA-3): live input (the binding, serve, the CLI,
// ACP) is parsed strictly by ParseInteraction and ParseOverride and retired spellings are
// rejected; persisted values are read by the Decode functions, which fold retired spellings and
// read anything unknown as the read-only surface (Smart · Analyze), never wider.
package mode
