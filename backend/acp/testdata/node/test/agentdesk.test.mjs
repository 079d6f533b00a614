// Conformance of `agentdesk acp` with an independent ACP implementation: the official
// TypeScript SDK is the client, the scripted provider stands in for the model.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { start, tempDir, initialize, newSession, acp, kindOf, modeUpdates } from "../lib/harness.mjs";

const MODE_IDS = ["smart", "chat", "execute", "plan", "analyze", "debug", "verified"];
const prompt = (h, sessionId, text) =>
  h.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
const setMode = (h, sessionId, modeId) => h.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId });

async function session(opts, clientCapabilities) {
  const h = start(tempDir(), opts);
  await initialize(h.agent, clientCapabilities);
  const s = await newSession(h.agent, h.workspace);
  return { h, s, id: s.sessionId };
}

test("initialize reports the protocol version and loadSession", async () => {
  const h = start(tempDir());
  try {
    const init = await initialize(h.agent);
    assert.equal(init.protocolVersion, acp.PROTOCOL_VERSION);
    assert.equal(init.agentCapabilities.loadSession, true);
    assert.equal(init.agentInfo.name, "agentdesk");
    assert.deepEqual(init.agentCapabilities.sessionCapabilities?.list, {}, "session/list is advertised");
  } finally {
    await h.close();
  }
});

test("session/new advertises every mode, localized, and the current one, also as a mode config option", async () => {
  const { h, s } = await session();
  try {
    assert.deepEqual(s.modes.availableModes.map((m) => m.id), MODE_IDS);
    const names = Object.fromEntries(s.modes.availableModes.map((m) => [m.id, m.name]));
    assert.equal(names.smart, "Smart");
    assert.equal(names.chat, "Chat");
    assert.equal(names.plan, "Smart · Plan");
    assert.equal(names.verified, "Smart · Verified");
    assert.equal(s.modes.currentModeId, "smart");
    const option = s.configOptions.find((o) => o.category === "mode");
    assert.ok(option, "a config option of category mode");
    assert.equal(option.type, "select");
    assert.equal(option.currentValue, "smart");
    assert.deepEqual(option.options.map((o) => o.value), MODE_IDS);
  } finally {
    await h.close();
  }
});

test("set_mode validates: chat and plan switch and are announced; an unknown id is an error and changes nothing", async () => {
  const { h, id } = await session();
  try {
    await setMode(h, id, "chat");
    await h.until(() => modeUpdates(h.updates, id).length === 1, "current_mode_update chat");
    await setMode(h, id, "plan");
    await h.until(() => modeUpdates(h.updates, id).length === 2, "current_mode_update plan");
    assert.deepEqual(modeUpdates(h.updates, id), ["chat", "plan"]);

    await assert.rejects(setMode(h, id, "agent"), (err) => {
      assert.equal(err.code, -32602);
      assert.match(err.message, /agent/);
      return true;
    });
    // The config-option form goes through the same validator.
    const res = await h.agent.request(acp.methods.agent.session.setConfigOption, { sessionId: id, configId: "mode", value: "execute" });
    assert.equal(res.configOptions.find((o) => o.id === "mode").currentValue, "execute");
    await h.until(() => modeUpdates(h.updates, id).length === 3, "current_mode_update execute");
    assert.deepEqual(modeUpdates(h.updates, id), ["chat", "plan", "execute"], "the unknown id announced nothing");
    const configs = () => h.updates.filter((n) => kindOf(n) === "config_option_update");
    await h.until(() => configs().length === 3, "config_option_update execute");
    const cfg = h.updates.filter((n) => kindOf(n) === "config_option_update").map((n) => n.update.configOptions[0].currentValue);
    assert.deepEqual(cfg, ["chat", "plan", "execute"]);
  } finally {
    await h.close();
  }
});

test("a switch during a running turn is queued to the boundary and announced when it applies", async () => {
  const { h, id } = await session({ responses: [{ text: "working on it", delay_ms: 400 }] });
  try {
    const running = prompt(h, id, "take your time");
    await new Promise((r) => setTimeout(r, 100));
    await setMode(h, id, "plan");
    assert.deepEqual(modeUpdates(h.updates, id), [], "not announced while the turn runs");
    const res = await running;
    assert.equal(res.stopReason, "end_turn");
    await h.until(() => modeUpdates(h.updates, id).length === 1, "the queued switch applied");
    assert.deepEqual(modeUpdates(h.updates, id), ["plan"]);
  } finally {
    await h.close();
  }
});

test("a prompt streams the model's text as agent_message_chunk", async () => {
  const { h, id } = await session({ responses: [{ text: "Hello from the script, streamed word by word." }] });
  try {
    const res = await prompt(h, id, "say hello");
    assert.equal(res.stopReason, "end_turn");
    const chunks = h.updates.filter((n) => n.sessionId === id && kindOf(n) === "agent_message_chunk");
    assert.ok(chunks.length >= 1);
    assert.equal(chunks.map((n) => n.update.content.text).join(""), "Hello from the script, streamed word by word.");
  } finally {
    await h.close();
  }
});

test("a tool call asks permission; reject_once and its _meta reason reach the model as a rejection", async () => {
  const { h, id } = await session({
    responses: [{ tool_calls: [{ name: "bash", input: { command: "echo hi" } }] }, { text: "Understood, I will not run it." }],
    onPermission: ({ params }) => {
      const option = params.options.find((o) => o.kind === "reject_once");
      return { outcome: { outcome: "selected", optionId: option.optionId }, _meta: { "agentdesk/reason": "not on the main branch" } };
    },
  });
  try {
    const res = await prompt(h, id, "run echo hi");
    assert.equal(res.stopReason, "end_turn");
    assert.equal(h.permissions.length, 1);
    const req = h.permissions[0];
    assert.deepEqual([...new Set(req.options.map((o) => o.kind))].sort(), ["allow_always", "allow_once", "reject_always", "reject_once"]);
    assert.match(req.toolCall.title, /echo hi/);
    const call = h.updates.find((n) => kindOf(n) === "tool_call");
    assert.equal(call.update.toolCallId, req.toolCall.toolCallId);
    assert.equal(call.update.status, "pending");
    assert.equal(call.update.kind, "execute");
    const done = h.updates.filter((n) => kindOf(n) === "tool_call_update" && n.update.toolCallId === req.toolCall.toolCallId);
    assert.equal(done.at(-1).update.status, "failed");

    const record = h.readRecord();
    assert.equal(record.requests.length, 2);
    const results = record.requests[1].messages.flatMap((m) => m.tool_results);
    assert.equal(results.length, 1);
    assert.equal(results[0].is_error, true);
    assert.match(results[0].content, /REJECTED_BY_USER: not on the main branch/);
  } finally {
    await h.close();
  }
});

test("6. only the persistent option has kind allow_always; allow for this session is allow_once and says so", async () => {
  const { h, id } = await session({
    responses: [{ tool_calls: [{ name: "bash", input: { command: "make" } }] }, { text: "ok" }],
    onPermission: () => ({ outcome: { outcome: "selected", optionId: "allow_session" } }),
  });
  try {
    assert.equal((await prompt(h, id, "build it")).stopReason, "end_turn");
    const { options } = h.permissions[0];
    assert.deepEqual(options.filter((o) => o.kind === "allow_always").map((o) => o.optionId), ["allow_always"]);
    const session = options.find((o) => o.optionId === "allow_session");
    assert.equal(session.kind, "allow_once");
    assert.match(session.name, /session/);
  } finally {
    await h.close();
  }
});

test("7. a client's cancelled answer without session/cancel declines the call, says so, and the turn goes on", async () => {
  const { h, id } = await session({
    responses: [{ tool_calls: [{ name: "bash", input: { command: "rm -rf build" } }] }, { text: "I will leave it." }],
    onPermission: () => ({ outcome: { outcome: "cancelled" } }),
  });
  try {
    assert.equal((await prompt(h, id, "clean up")).stopReason, "end_turn");
    const record = h.readRecord();
    assert.equal(record.requests.length, 2, "the model was told and answered");
    const [result] = record.requests[1].messages.flatMap((m) => m.tool_results);
    assert.equal(result.is_error, true);
    assert.match(result.content, /REJECTED_BY_USER: The editor answered the permission request as cancelled without cancelling the turn/);
  } finally {
    await h.close();
  }
});

test("8. a tool call has one short title, the same live and on session/load, with the detail in content and locations", async () => {
  const dir = tempDir();
  const first = start(dir, {
    permission: "full",
    responses: [{ tool_calls: [{ name: "write", input: { path: "notes.txt", content: "one\ntwo\nthree\n" } }] }, { text: "Written." }],
  });
  let id, live;
  try {
    await initialize(first.agent);
    id = (await newSession(first.agent, first.workspace)).sessionId;
    assert.equal((await prompt(first, id, "write the notes")).stopReason, "end_turn");
    live = first.updates.find((n) => kindOf(n) === "tool_call").update;
  } finally {
    await first.close();
  }
  assert.equal(live.title, "Write file: notes.txt");
  assert.equal(live.content[0].type, "diff", "a write shows as the change it makes, not as its arguments");
  assert.equal(live.content[0].newText, "one\ntwo\nthree\n");
  assert.equal(live.content[0].oldText ?? null, null, "a new file has no old text");
  assert.match(live.content[0].path, /workspace\/notes\.txt$/);
  assert.match(live.locations[0].path, /workspace\/notes\.txt$/);
  const second = start(dir);
  try {
    await initialize(second.agent);
    await second.agent.request(acp.methods.agent.session.load, { sessionId: id, cwd: second.workspace, mcpServers: [] });
    const replayed = second.updates.find((n) => kindOf(n) === "tool_call").update;
    assert.equal(replayed.title, live.title);
    assert.deepEqual(replayed.locations, live.locations);
    assert.deepEqual(replayed.content, live.content);
  } finally {
    await second.close();
  }
});

test("session/cancel during a pending permission answers it as cancelled and stops the turn", async () => {
  let sessionId;
  const { h, id } = await session({
    responses: [{ tool_calls: [{ name: "bash", input: { command: "rm -rf build" } }] }, { text: "never reached" }],
    onPermission: async ({ agent }) => {
      await agent.notify(acp.methods.agent.session.cancel, { sessionId });
      return { outcome: { outcome: "cancelled" } };
    },
  });
  sessionId = id;
  try {
    const res = await prompt(h, id, "clean the build");
    assert.equal(res.stopReason, "cancelled");
    assert.equal(h.permissions.length, 1);
    assert.equal(h.readRecord().requests.length, 1, "the model was not asked again");
    const last = h.updates.filter((n) => kindOf(n) === "tool_call_update").at(-1);
    assert.equal(last.update.status, "failed");
    // The session goes on: the next prompt runs normally.
  } finally {
    await h.close();
  }
});

test("an approved plan leaves plan mode and re-announces the mode", async () => {
  const { h, id } = await session({
    responses: [{ tool_calls: [{ name: "exit_plan_mode", input: { plan: "# Tidy up\n1. Remove dead code" } }] }, { text: "Plan approved." }],
    onPermission: ({ params }) => {
      assert.deepEqual(params.options.map((o) => o.optionId), ["approve", "keep_planning"]);
      return { outcome: { outcome: "selected", optionId: "approve" } };
    },
  });
  try {
    await setMode(h, id, "plan");
    await h.until(() => modeUpdates(h.updates, id).length === 1, "plan");
    const res = await prompt(h, id, "plan a tidy-up");
    assert.equal(res.stopReason, "end_turn");
    assert.match(h.permissions[0].toolCall.title, /Tidy up/);
    await h.until(() => modeUpdates(h.updates, id).length === 2, "the mode after the plan");
    assert.deepEqual(modeUpdates(h.updates, id), ["plan", "smart"]);
  } finally {
    await h.close();
  }
});

test("a permission request left waiting when the agent is killed comes back on session/load, and the turn goes on", async () => {
  const dir = tempDir();
  const responses = [{ tool_calls: [{ name: "bash", input: { command: "echo made > out.txt" } }] }, { text: "Made it." }];
  const first = start(dir, { responses, onPermission: () => new Promise(() => {}) });
  let id;
  let firstCall;
  try {
    await initialize(first.agent);
    id = (await newSession(first.agent, first.workspace)).sessionId;
    prompt(first, id, "make out.txt").catch(() => {}); // the process dies under it
    await first.until(() => first.permissions.length === 1, "the first permission request");
    firstCall = first.permissions[0].toolCall;
    first.child.kill("SIGKILL");
  } finally {
    await first.close();
  }
  assert.equal(existsSync(join(first.workspace, "out.txt")), false);

  const second = start(dir, {
    responses,
    onPermission: ({ params }) => ({ outcome: { outcome: "selected", optionId: params.options.find((o) => o.kind === "allow_once").optionId } }),
  });
  try {
    await initialize(second.agent);
    await second.agent.request(acp.methods.agent.session.load, { sessionId: id, cwd: second.workspace, mcpServers: [] });
    await second.until(() => second.permissions.length === 1, "the permission request asked again");
    const again = second.permissions[0];
    assert.equal(again.sessionId, id);
    assert.equal(again.toolCall.toolCallId, firstCall.toolCallId);
    assert.equal(again.toolCall.title, firstCall.title);
    await second.until(() => second.updates.some((n) => n.sessionId === id && kindOf(n) === "agent_message_chunk" &&
      n.update.content.text.includes("Made")), "the turn carried on to the model's answer");
    assert.equal(readFileSync(join(second.workspace, "out.txt"), "utf8").trim(), "made");
  } finally {
    await second.close();
  }
});

test("session/load replays the history and restores a plan mode set before", async () => {
  const dir = tempDir();
  const first = start(dir, { responses: [{ text: "Noted." }] });
  let id;
  try {
    await initialize(first.agent);
    id = (await newSession(first.agent, first.workspace)).sessionId;
    assert.equal((await prompt(first, id, "remember the blue door")).stopReason, "end_turn");
    await setMode(first, id, "plan");
    await first.until(() => modeUpdates(first.updates, id).length === 1, "plan");
  } finally {
    await first.close();
  }

  const second = start(dir);
  try {
    await initialize(second.agent);
    const loaded = await second.agent.request(acp.methods.agent.session.load, { sessionId: id, cwd: second.workspace, mcpServers: [] });
    assert.equal(loaded.modes.currentModeId, "plan");
    assert.equal(loaded.configOptions.find((o) => o.category === "mode").currentValue, "plan");
    const replayed = second.updates.filter((n) => n.sessionId === id);
    assert.deepEqual(replayed.map(kindOf), ["user_message_chunk", "agent_message_chunk"]);
    assert.equal(replayed[0].update.content.text, "remember the blue door");
    assert.equal(replayed[1].update.content.text, "Noted.");
  } finally {
    await second.close();
  }
});

test("session/list, advertised, lists the sessions of a folder", async () => {
  const { h, id } = await session();
  try {
    const other = await newSession(h.agent, h.workspace);
    const list = await h.agent.request(acp.methods.agent.session.list, { cwd: h.workspace });
    assert.deepEqual(list.sessions.map((x) => x.sessionId).sort(), [id, other.sessionId].sort());
    assert.ok(list.sessions.every((x) => x.cwd === h.workspace && x.title));
  } finally {
    await h.close();
  }
});

const FILE = "alpha\nbeta\ngamma\n";
const EDIT = { name: "edit", input: { path: "a.txt", old_string: "beta", new_string: "BETA" } };

test("an edit asks with the whole file as a diff, shows the same diff live, and replays its own change", async () => {
  const dir = tempDir();
  const first = start(dir, {
    responses: [{ tool_calls: [EDIT] }, { text: "Edited." }],
    onPermission: () => ({ outcome: { outcome: "selected", optionId: "allow_once" } }),
  });
  let id;
  try {
    writeFileSync(join(first.workspace, "a.txt"), FILE);
    await initialize(first.agent);
    id = (await newSession(first.agent, first.workspace)).sessionId;
    assert.equal((await prompt(first, id, "shout beta")).stopReason, "end_turn");
    const asked = first.permissions[0].toolCall.content;
    assert.equal(asked.length, 1);
    assert.equal(asked[0].type, "diff");
    assert.equal(asked[0].path, join(first.workspace, "a.txt"));
    assert.equal(asked[0].oldText, FILE);
    assert.equal(asked[0].newText, "alpha\nBETA\ngamma\n");
    const live = first.updates.find((n) => kindOf(n) === "tool_call").update;
    assert.deepEqual(live.content, asked, "the call shows what its approval showed");
    assert.equal(readFileSync(join(first.workspace, "a.txt"), "utf8"), "alpha\nBETA\ngamma\n");
  } finally {
    await first.close();
  }
  const second = start(dir);
  try {
    await initialize(second.agent);
    await second.agent.request(acp.methods.agent.session.load, { sessionId: id, cwd: second.workspace, mcpServers: [] });
    const replayed = second.updates.find((n) => kindOf(n) === "tool_call").update;
    assert.deepEqual(replayed.content, [{ type: "diff", path: join(second.workspace, "a.txt"), oldText: "beta", newText: "BETA" }]);
  } finally {
    await second.close();
  }
});

test("when the client offers fs/write_text_file, an edit the person allowed is written by the client, and a rejected one is not", async () => {
  const written = [];
  const { h, id } = await session({
    responses: [{ tool_calls: [EDIT] }, { tool_calls: [{ name: "write", input: { path: "b.txt", content: "nope\n" } }] }, { text: "Done." }],
    onPermission: ({ params }) => {
      const allow = params.toolCall.title.includes("a.txt");
      return { outcome: { outcome: "selected", optionId: allow ? "allow_once" : "reject_once" } };
    },
    onWriteTextFile: ({ params }) => {
      // The file is still as it was: AgentDesk did not write it to disk itself.
      written.push(readFileSync(params.path, "utf8"));
      writeFileSync(params.path, params.content);
      return {};
    },
  }, { fs: { readTextFile: true, writeTextFile: true } });
  try {
    writeFileSync(join(h.workspace, "a.txt"), FILE);
    assert.equal((await prompt(h, id, "shout beta, then write b")).stopReason, "end_turn");
    assert.equal(h.writes.length, 1, "only the allowed edit reached the client");
    const [w] = h.writes;
    assert.equal(w.sessionId, id);
    assert.equal(w.path, join(h.workspace, "a.txt"));
    assert.equal(w.content, "alpha\nBETA\ngamma\n");
    assert.deepEqual(written, [FILE]);
    assert.equal(readFileSync(join(h.workspace, "a.txt"), "utf8"), "alpha\nBETA\ngamma\n");
    assert.equal(existsSync(join(h.workspace, "b.txt")), false);
    const order = h.log.map((m) => m.method === "session/update" ? kindOf(m.params) : m.method);
    const asked = order.indexOf("session/request_permission");
    assert.ok(asked >= 0 && asked < order.indexOf("fs/write_text_file"), `the gate asked before the write: ${order}`);
    assert.ok(order.indexOf("tool_call") < order.indexOf("fs/write_text_file"), "the call was shown before it wrote");
    const done = h.updates.filter((n) => kindOf(n) === "tool_call_update" && n.update.toolCallId === h.permissions[0].toolCall.toolCallId);
    assert.equal(done.at(-1).update.status, "completed");
  } finally {
    await h.close();
  }
});

test("the permission mode is a session config option; Full access asks the client first, and a refusal changes nothing", async () => {
  let confirm = "keep";
  const { h, s, id } = await session({
    responses: [{ tool_calls: [{ name: "bash", input: { command: "echo hi" } }] }, { text: "Ran it." }],
    onPermission: ({ params }) => ({ outcome: { outcome: "selected", optionId: params.options.some((o) => o.optionId === "full_access") ? confirm : "reject_once" } }),
  });
  const set = (value) => h.agent.request(acp.methods.agent.session.setConfigOption, { sessionId: id, configId: "permission", value });
  const current = (options) => options.find((o) => o.id === "permission").currentValue;
  try {
    const option = s.configOptions.find((o) => o.id === "permission");
    assert.ok(option, "a permission config option beside the mode");
    assert.equal(option.type, "select");
    assert.equal(option.currentValue, "ask");
    assert.deepEqual(option.options.map((o) => o.value), ["ask", "auto", "full"]);
    assert.equal(s.configOptions.find((o) => o.category === "mode").currentValue, "smart", "the mode option is still there");

    assert.equal(current((await set("auto")).configOptions), "auto");
    assert.equal(h.permissions.length, 0, "lowering or Auto does not ask");

    await assert.rejects(set("full"), (err) => {
      assert.equal(err.data.kind, "ACP_FULL_ACCESS_DECLINED");
      assert.match(err.message, /Auto/);
      return true;
    });
    assert.equal(h.permissions.length, 1);
    const ask = h.permissions[0];
    assert.deepEqual(ask.options.map((o) => [o.optionId, o.kind]), [["full_access", "allow_once"], ["keep", "reject_once"]]);
    assert.match(ask.toolCall.title, /Full access/);
    await assert.rejects(set("admin"), (err) => err.code === -32602);
    const loaded = await h.agent.request(acp.methods.agent.session.load, { sessionId: id, cwd: h.workspace, mcpServers: [] });
    assert.equal(current(loaded.configOptions), "auto", "the refusal left the session as it was");

    confirm = "full_access";
    assert.equal(current((await set("full")).configOptions), "full");
    assert.equal(h.permissions.length, 2);
    assert.equal((await prompt(h, id, "run echo hi")).stopReason, "end_turn");
    assert.equal(h.permissions.length, 2, "in Full access the command ran without asking");

    const other = await newSession(h.agent, h.workspace);
    assert.equal(current(other.configOptions), "ask", "only that session changed");
  } finally {
    await h.close();
  }
});
