// Drives `agentdesk acp` with the official TypeScript SDK as an independent ACP client.
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync, readFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

export { acp };

const BIN = process.env.AGENTDESK_BIN;
if (!BIN) {
  throw new Error("AGENTDESK_BIN must name the agentdesk binary (go build -o /tmp/agentdesk-acp .)");
}

// tempDir makes a fresh folder for one test: data dir, workspace, script and record.
export function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), "agentdesk-acp-"));
  mkdirSync(join(dir, "data"));
  mkdirSync(join(dir, "workspace"));
  return dir;
}

// start runs `agentdesk acp` on dir with a script (the scripted provider's responses) and
// connects a client. onPermission answers session/request_permission; onWriteTextFile, when
// given, answers fs/write_text_file (offer it in initialize with clientCapabilities); every
// session/update is collected in `updates`, and every request and update in `log`, in order.
export function start(dir, { responses = [], onPermission, onWriteTextFile, permission = "ask" } = {}) {
  const script = join(dir, "script.json");
  const record = join(dir, "record.json");
  writeFileSync(script, JSON.stringify({ responses }));
  const child = spawn(BIN, ["acp", "--data-dir", join(dir, "data"), "--script", script, "--record", record,
    "--permission", permission], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, AGENTDESK_LANG: "en" } });
  let stderr = "";
  child.stderr.on("data", (b) => { stderr += b; });
  const updates = [];
  const waiters = [];
  const permissions = [];
  const writes = [];
  const log = [];
  let app = acp.client({ name: "conformance" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params);
      log.push({ method: "session/update", params });
      for (const w of [...waiters]) w();
    })
    .onRequest(acp.methods.client.session.requestPermission, async (cx) => {
      permissions.push(cx.params);
      log.push({ method: "session/request_permission", params: cx.params });
      for (const w of [...waiters]) w();
      if (!onPermission) return { outcome: { outcome: "cancelled" } };
      return onPermission(cx);
    });
  if (onWriteTextFile) {
    app = app.onRequest(acp.methods.client.fs.writeTextFile, async (cx) => {
      writes.push(cx.params);
      log.push({ method: "fs/write_text_file", params: cx.params });
      for (const w of [...waiters]) w();
      return onWriteTextFile(cx);
    });
  }
  const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
  const connection = app.connect(stream);
  const agent = connection.agent;
  const exited = new Promise((resolve) => child.on("exit", resolve));
  return {
    child, agent, updates, permissions, writes, log, record, workspace: join(dir, "workspace"),
    stderr: () => stderr,
    // until resolves once pred() holds, re-checking after every update or permission request.
    until(pred, what = "condition", ms = 10000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => { drop(); reject(new Error(`timed out waiting for ${what}; stderr: ${stderr}`)); }, ms);
        const check = () => {
          let v;
          try { v = pred(); } catch (e) { drop(); clearTimeout(timer); reject(e); return; }
          if (v) { drop(); clearTimeout(timer); resolve(v); }
        };
        const drop = () => { const i = waiters.indexOf(check); if (i >= 0) waiters.splice(i, 1); };
        waiters.push(check);
        check();
      });
    },
    readRecord: () => JSON.parse(readFileSync(record, "utf8")),
    async close() {
      connection.close();
      child.stdin.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export async function initialize(agent, clientCapabilities = {}) {
  return agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities,
    clientInfo: { name: "conformance", version: "1" },
  });
}

export async function newSession(agent, cwd) {
  return agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
}

// kindOf is the sessionUpdate discriminator of a notification.
export const kindOf = (n) => n.update.sessionUpdate;

export const modeUpdates = (updates, sessionId) =>
  updates.filter((n) => n.sessionId === sessionId && kindOf(n) === "current_mode_update").map((n) => n.update.currentModeId);
