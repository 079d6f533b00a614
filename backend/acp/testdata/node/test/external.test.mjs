// AgentDesk as the client of an external ACP agent: the fixture agent (written with the
// official TypeScript SDK) behaves as opencode was seen to — modes only as a config option, a
// bare first tool_call — and `agentdesk run` drives it. One case per point of what a real user hit; the
// cases on `agentdesk acp` as the agent are in agentdesk.test.mjs, and the whole chain (an
// editor, `agentdesk acp`, an external agent) is at the end.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir, start, initialize, acp, kindOf } from "../lib/harness.mjs";
import { agentdesk, externalSession, fixtureCommand, said, named } from "../lib/cli.mjs";

const run = (dir, id, text, extra = [], opts) => agentdesk(dir, ["run", "--session", id, "--json", ...extra, text], opts);

test("1. the approval is built from session/request_permission, not from the bare first tool_call", async () => {
  const dir = tempDir();
  const id = await externalSession(dir, fixtureCommand());
  const r = await run(dir, id, "permission");
  assert.equal(r.code, 0, r.stderr);
  const cards = named(r.events, "tool.call");
  assert.equal(cards[0].summary.includes("npm test"), false, "the first report knows no command");
  const [asked] = named(r.events, "decision.asked");
  assert.equal(asked.payload.command, "npm test");
  assert.equal(asked.payload.tool, "Run tests");
  assert.match(asked.payload.summary, /npm test/);
  assert.equal(cards.at(-1).summary, "npm test", "the card is updated from the request");

  const w = await run(dir, id, "write");
  const [edit] = named(w.events, "decision.asked");
  assert.equal(edit.payload.kind, "edit");
  assert.match(edit.payload.path, /notes\.txt$/);
  assert.match(edit.payload.diff, /\+line two/);
  assert.match(edit.payload.diff, /--- \/dev\/null/);
});

test("2. a decline's reason reaches the agent in _meta and at the start of its next prompt", async () => {
  const dir = tempDir();
  const env = { FIXTURE_STATE: join(dir, "state") };
  const id = await externalSession(dir, fixtureCommand(), { env, state: join(dir, "state") });
  const r = await run(dir, id, "permission", [], { env });
  assert.match(said(r.events), /permission outcome: no; reason: REJECTED_BY_USER: .*non-interactive/);
  const next = await run(dir, id, "blocks", [], { env });
  assert.match(said(next.events), /blocks: 2; before: \[".*The tool call \\"Run tests\\" was declined: REJECTED_BY_USER/);
  const again = await run(dir, id, "blocks", [], { env });
  assert.match(said(again.events), /blocks: 1; before: \[\]/, "told once");
});

test("3. modes published as a config option follow AgentDesk's; Plan is refused for an agent without one", async () => {
  const dir = tempDir();
  const id = await externalSession(dir, fixtureCommand(), { override: "plan" });
  let r = await run(dir, id, "hello");
  assert.equal(r.code, 0, r.stderr);
  assert.match(said(r.events), /in mode plan\./);
  r = await run(dir, id, "hello", ["--override", "execute"]);
  assert.match(said(r.events), /in mode build\./);

  const dir2 = tempDir();
  const noPlan = await externalSession(dir2, fixtureCommand("--modes=noplan"));
  r = await run(dir2, noPlan, "hello", ["--override", "plan"]);
  assert.equal(r.code, 2, "a validation error");
  assert.match(r.stderr, /has no plan mode/);
  assert.deepEqual(named(r.events, "turn.started"), [], "nothing ran");
});

test("4. permission modes apply: the gate answers what it decides, asks only where it asks", async () => {
  const dir = tempDir();
  const id = await externalSession(dir, fixtureCommand(), { permission: "full" });
  const r = await run(dir, id, "write");
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(named(r.events, "decision.asked"), [], "full access asks nothing for an edit inside");
  assert.match(said(r.events), /write yes: ok/);
  const card = named(r.events, "tool.call").at(-1);
  assert.equal(card.verdict, "allow");
  assert.equal(card.layer, "mode");
  assert.equal(readFileSync(join(dir, "workspace", "notes.txt"), "utf8"), "line one\nline two\n");

  const f = await run(dir, id, "fetch");
  assert.equal(named(f.events, "decision.asked").length, 1, "a fetch asks even with full access");
  assert.equal(named(f.events, "tool.call").at(-1).layer, "sandbox");
  assert.match(said(f.events), /fetch outcome: no/);
  const o = await run(dir, id, "think");
  assert.equal(named(o.events, "decision.asked").length, 1, "an unknown kind fails closed");

  const planned = await run(dir, id, "write", ["--override", "plan"]);
  assert.deepEqual(named(planned.events, "decision.asked"), [], "plan denies an edit without asking");
  assert.equal(named(planned.events, "tool.call").at(-1).code, "WRITE_DISABLED_IN_READ_ONLY");
  assert.match(said(planned.events), /write no; reason: WRITE_DISABLED_IN_READ_ONLY/);
});

test("5. the agent's session is loaded on the next run; a lost one starts afresh with a recap", async () => {
  const dir = tempDir();
  const env = { FIXTURE_STATE: join(dir, "state", "kept") };
  const id = await externalSession(dir, fixtureCommand(), { env, state: join(dir, "state") });
  assert.equal((await run(dir, id, "remember the blue door", [], { env })).code, 0);
  const r = await run(dir, id, "recall", [], { env });
  assert.match(said(r.events), /memory: the blue door; history: 2 prompts/);
  assert.equal(named(r.events, "agent.status").at(-1).loaded, true);

  const lost = await run(dir, id, "blocks", [], { env: { FIXTURE_STATE: join(dir, "state", "elsewhere") } });
  assert.match(said(lost.events), /could not be restored.*User: remember the blue door/s);
});

test("9. the agent starts before the turn, shows it, and the start-up limit is a setting", async () => {
  const dir = tempDir();
  const id = await externalSession(dir, fixtureCommand("--slow-start=8000"));
  const get = await agentdesk(dir, ["settings", "get", "external-agent-start-timeout"]);
  assert.equal(get.stdout.trim(), "2m0s", "120 s by default");
  assert.equal((await agentdesk(dir, ["settings", "set", "external-agent-start-timeout", "5s"])).code, 0);
  const r = await agentdesk(dir, ["run", "--session", id, "hello"]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /Starting agent…/);
  assert.match(r.stderr, /did not finish starting within 5s/);

  const dir2 = tempDir();
  const ok = await externalSession(dir2, fixtureCommand("--slow-start=300"));
  const shown = await run(dir2, ok, "hello");
  assert.equal(shown.code, 0, shown.stderr);
  const order = shown.events.map((e) => (e.name === "agent.status" ? `agent.${e.data.state}` : e.name)).filter((n) => n !== "turn.delta");
  assert.deepEqual(order.slice(0, 3), ["agent.starting", "agent.ready", "turn.started"], "started before the turn");
  assert.equal(named(shown.events, "agent.status")[0].name, "agent");
});

test("10. the fs capability is advertised and served through the gate and file tools", async () => {
  const dir = tempDir();
  writeFileSync(join(dir, "workspace", "README.md"), "title\nsecond line\nthird\n");
  const id = await externalSession(dir, fixtureCommand());
  const r = await run(dir, id, "readfile");
  assert.match(said(r.events), /readfile: "second line\\n"/);
  const w = await run(dir, id, "fswrite");
  assert.match(said(w.events), /fswrite: refused: REJECTED_BY_USER/, "a write nobody approved asks, and headless declines");
  assert.equal(existsSync(join(dir, "workspace", "notes.txt")), false);
  const auto = await run(dir, id, "fswrite", ["--permission", "auto"]);
  assert.match(said(auto.events), /fswrite: ok/);
  assert.equal(readFileSync(join(dir, "workspace", "notes.txt"), "utf8"), "direct\n");
});

test("11. agentdesk run: Chat refused with exit 2; the agent's own calls are labelled", async () => {
  const dir = tempDir();
  const id = await externalSession(dir, fixtureCommand());
  const chat = await agentdesk(dir, ["run", "--session", id, "--mode", "chat", "hi"]);
  assert.equal(chat.code, 2);
  assert.match(chat.stderr, /no-tool contract/);
  const own = await agentdesk(dir, ["run", "--session", id, "selfrun"]);
  assert.equal(own.code, 0, own.stderr);
  assert.match(own.stdout, /→ List files .* \[the agent's own\]/);
});

// In Auto: in Ask the sandbox keeps the workspace read-only to the agent's own shell.
test("12. a shell call the agent ran without asking shows its command and what it changed", async () => {
  const dir = tempDir();
  const id = await externalSession(dir, fixtureCommand(), { permission: "auto" });
  const r = await agentdesk(dir, ["run", "--session", id, "selfshell"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /→ bash echo hi > shell-out\.txt \[the agent's own\]/);
  assert.doesNotMatch(r.stdout, /"cwd"/);
  assert.match(r.stdout, /^ {2}A shell-out\.txt$/m, "the snapshots around the call say what it changed");
  const json = await run(dir, id, "selfshell");
  const cards = json.stdout.trim().split("\n").map((l) => JSON.parse(l)).filter((e) => e.name === "tool.call");
  assert.ok(cards.length > 0, json.stdout);
  assert.equal(cards.at(-1).data.summary, "echo hi > shell-out.txt");
});

test("the chain: an editor drives agentdesk acp on a session of an external agent", async () => {
  const dir = tempDir();
  const id = await externalSession(dir, fixtureCommand());
  const h = start(dir, {
    onPermission: ({ params }) => {
      const reject = params.options.find((o) => o.kind === "reject_once");
      return { outcome: { outcome: "selected", optionId: reject.optionId }, _meta: { "agentdesk/reason": "the suite is flaky" } };
    },
  });
  try {
    await initialize(h.agent);
    await h.agent.request(acp.methods.agent.session.load, { sessionId: id, cwd: h.workspace, mcpServers: [] });
    const prompt = (text) => h.agent.request(acp.methods.agent.session.prompt, { sessionId: id, prompt: [{ type: "text", text }] });
    assert.equal((await prompt("permission")).stopReason, "end_turn");
    const [req] = h.permissions;
    assert.match(req.toolCall.title, /^Run tests$/);
    assert.match(JSON.stringify(req.toolCall.content), /npm test/);
    const text = () => h.updates.filter((n) => kindOf(n) === "agent_message_chunk").map((n) => n.update.content.text).join("");
    assert.match(text(), /permission outcome: no; reason: REJECTED_BY_USER: the suite is flaky/);
    assert.equal((await prompt("blocks")).stopReason, "end_turn");
    assert.match(text(), /blocks: 2; before: .*was declined: REJECTED_BY_USER: the suite is flaky/);
  } finally {
    await h.close();
  }
});

test("the chain: an editor that writes files itself receives the external agent's allowed writes", async () => {
  const dir = tempDir();
  const id = await externalSession(dir, fixtureCommand(), { permission: "auto" });
  const h = start(dir, {
    onWriteTextFile: ({ params }) => {
      writeFileSync(params.path, `${params.content}(by the editor)\n`);
      return {};
    },
  });
  try {
    await initialize(h.agent, { fs: { readTextFile: true, writeTextFile: true } });
    await h.agent.request(acp.methods.agent.session.load, { sessionId: id, cwd: h.workspace, mcpServers: [] });
    const res = await h.agent.request(acp.methods.agent.session.prompt, { sessionId: id, prompt: [{ type: "text", text: "fswrite" }] });
    assert.equal(res.stopReason, "end_turn");
    assert.deepEqual(h.writes.map((w) => [w.sessionId, w.path, w.content]), [[id, join(h.workspace, "notes.txt"), "direct\n"]]);
    assert.equal(readFileSync(join(h.workspace, "notes.txt"), "utf8"), "direct\n(by the editor)\n", "AgentDesk did not write it itself");
  } finally {
    await h.close();
  }
});
