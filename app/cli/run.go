package cli

import (
	"context"
	"flag"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"unicode/utf8"

	"agentdesk/app"
	"agentdesk/backend/agent"
	"agentdesk/backend/bus"
	"agentdesk/backend/errs"
	"agentdesk/backend/host"
	"agentdesk/backend/mode"
	"agentdesk/backend/provider"
	"agentdesk/backend/session"
	"agentdesk/backend/store"
)

func runFlags(c *Context, fs *flag.FlagSet) {
	createFlags(c, fs)
	fs.String("session", "", c.T("cli.flag.session"))
	fs.String("once", "", c.T("cli.flag.once"))
	providerFlags(c, fs)
}

// providerFlags name a provider for this command instead of the one Settings names.
func providerFlags(c *Context, fs *flag.FlagSet) {
	fs.String("provider", "", c.T("cli.flag.provider"))
	fs.String("script", "", c.T("cli.flag.script"))
	fs.String("record", "", c.T("cli.flag.record"))
	fs.String("model", "", c.T("cli.flag.model"))
	fs.String("base-url", "", c.T("cli.flag.baseURL"))
}

// runRun is `agentdesk run`: one turn, headless. With a terminal, decisions are asked on it;
// without one, each is declined at once and the model is told why, so a run never hangs.
func runRun(c *Context, args []string) int {
	fs := c.flags("run")
	runFlags(c, fs)
	pos, code, ok := c.parseArgs(fs, args, []string{"PROMPT"})
	if !ok {
		return code
	}
	in, err := runInput(fs)
	if err != nil {
		return c.exitFor(err)
	}
	st, prov, err := c.openForTurns(fs)
	if err != nil {
		return c.exitFor(err)
	}
	sessionID, err := c.runSession(st, fs, pos[0])
	if err != nil {
		st.Close()
		return c.exitFor(err)
	}
	return c.withHost(st, prov, c.Stderr, func(h *host.Host) int {
		return c.runTurn(h, fs, agent.Input{SessionID: sessionID, Text: pos[0], Mode: in})
	})
}

// runInput is the message's mode input: --mode/--override for the session, --once for this
// turn only.
func runInput(fs *flag.FlagSet) (mode.FollowUpInput, error) {
	in, err := modeInput(fs)
	if err != nil {
		return in, err
	}
	once := flagValue(fs, "once")
	if once == nil {
		return in, nil
	}
	p, err := mode.ParseExecutionAlias(*once)
	if err != nil {
		return in, err
	}
	interaction, override := string(p.Interaction), string(p.Override)
	return mode.FollowUpInput{InteractionMode: &interaction, ExecutionOverride: &override, Temporary: true}, nil
}

// runProvider is the provider named by the flags, else the one chosen in Settings. A provider
// named on the command line is built now, so a bad flag fails before anything runs.
// openForTurns opens the store and the provider the flags or the settings name; on an error
// nothing is left open.
func (c *Context) openForTurns(fs *flag.FlagSet) (*store.Store, agent.ProviderSource, error) {
	st, err := store.Open(c.DataDir)
	if err != nil {
		return nil, nil, err
	}
	prov, err := c.runProvider(fs, st)
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return st, prov, nil
}

func (c *Context) runProvider(fs *flag.FlagSet, st *store.Store) (agent.ProviderSource, error) {
	cfg, err := c.providerOverride(fs)
	if err != nil || cfg == nil {
		return app.SettingsProvider(st, c.Getenv), err
	}
	p, err := provider.New(*cfg)
	if err != nil {
		return nil, err
	}
	return agent.Fixed(p), nil
}

// runSession is the --session given, or a new session over --workspace. Flags that describe
// the session (--mode, --override, --permission) go to the new session when one is created.
func (c *Context) runSession(st *store.Store, fs *flag.FlagSet, prompt string) (string, error) {
	svc := &session.Service{Store: st}
	if id := fs.Lookup("session").Value.String(); id != "" {
		if perm := flagValue(fs, "permission"); perm != nil {
			_, err := svc.SetPermission(id, *perm)
			return id, err
		}
		_, err := svc.View(id)
		return id, err
	}
	workspace := fs.Lookup("workspace").Value.String()
	if workspace == "" {
		return "", errs.New(errs.MissingArgument, "Name", "--workspace")
	}
	v, err := newSession(svc, fs, isolation(fs, session.CreateInput{Title: titleOf(prompt), Workspace: workspaceArg(workspace),
		Permission: flagValue(fs, "permission"), ConfirmHome: confirmHome(fs)}))
	if err != nil {
		return "", err
	}
	return v.ID, c.setUpWorktree(svc, fs, v)
}

// titleOf is the first line of the prompt, shortened.
func titleOf(prompt string) string {
	line := strings.TrimSpace(strings.SplitN(strings.TrimSpace(prompt), "\n", 2)[0])
	if utf8.RuneCountInString(line) > 60 {
		line = string([]rune(line)[:60]) + "…"
	}
	return line
}

// runTurn runs the turn and any queued after it. A turn of the session that a stopped process
// left waiting on the person is taken up first, its decision asked again on the terminal; a
// message without text only takes it up (`agentdesk resume`). The host's close (withHost) prints
// the last events: the printer's subscription drains at the close.
func (c *Context) runTurn(h *host.Host, fs *flag.FlagSet, in agent.Input) int {
	out := newRunPrinter(c, wantsJSON(fs))
	printer := h.Bus.Subscribe(out.print, bus.Queue(printerQueue))
	stopDecider := c.startDecider(h.Bus, h.Decisions, printer)
	defer stopDecider()
	rt := h.Runtime
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		rt.Cancel(in.SessionID)
	}()
	turnID, err := c.takeUp(h, in.SessionID)
	switch {
	case err != nil:
		return c.exitFor(err)
	case in.Text == "" && turnID == "":
		return c.exitFor(errs.New(NothingToResume, "ID", in.SessionID))
	case in.Text == "":
		return exitForTurn(h.Store, in.SessionID, turnID)
	}
	// An external agent starts first, so what it offers (a plan mode) is known to the
	// validator, and its start-up shows as such rather than as a slow turn; a message it could
	// never take (Chat) is refused before it starts.
	if err := rt.CheckInput(in); err != nil {
		return c.exitFor(err)
	}
	if err := rt.OpenExternal(ctx, in.SessionID); err != nil {
		return c.exitFor(err)
	}
	ack, err := rt.Send(in)
	if err != nil {
		return c.exitFor(err)
	}
	rt.Wait(context.Background(), in.SessionID)
	return exitForTurn(h.Store, in.SessionID, ack.TurnID)
}

// takeUp resumes the session's turn that waits on the person after a stop, if there is one, and
// waits for it to end; it returns that turn's id ("" when there was none).
func (c *Context) takeUp(h *host.Host, sessionID string) (string, error) {
	n, err := h.Runtime.Resume(sessionID)
	if err != nil || n == 0 {
		return "", err
	}
	turnID, _ := h.Runtime.Running(sessionID)
	h.Runtime.Wait(context.Background(), sessionID)
	return turnID, nil
}

// printerQueue is the terminal printer's bus queue: a terminal or pipe that falls this far
// behind loses deltas before it loses its subscription.
const printerQueue = 4096

// exitForTurn is 0 when the turn completed and 1 when the provider or runtime failed.
func exitForTurn(st *store.Store, sessionID, turnID string) int {
	if turnID == "" {
		return ExitOK
	}
	turns, err := st.Turns(sessionID)
	if err != nil {
		return ExitFailure
	}
	for _, t := range turns {
		if t.ID == turnID && t.Status == store.TurnDone {
			return ExitOK
		}
	}
	return ExitFailure
}
