// Drives `agentdesk` commands (run, sessions, settings) with the fixture agent as the external
// ACP agent of a session, the way a person runs a real one such as `opencode acp`.
import { spawn } from "node:child_process";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const BIN = process.env.AGENTDESK_BIN;
const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "agent.mjs");

// fixtureCommand is the command line of the fixture agent with flags, as saved in Settings.
export const fixtureCommand = (flags = "") => `"${process.execPath}" "${FIXTURE}"${flags ? " " + flags : ""}`;

// agentdesk runs one command on dir's data folder and collects what it printed; with --json,
// events are the NDJSON lines it wrote.
export function agentdesk(dir, args, { env = {}, timeout = 25000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(BIN, [...args, "--data-dir", join(dir, "data")], {
      stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, AGENTDESK_LANG: "en", ...env },
    });
    let stdout = "", stderr = "";
    child.stdout.on("data", (b) => { stdout += b; });
    child.stderr.on("data", (b) => { stderr += b; });
    const timer = setTimeout(() => { child.kill("SIGKILL"); reject(new Error(`agentdesk ${args.join(" ")} timed out; stderr: ${stderr}`)); }, timeout);
    child.on("exit", (code) => {
      clearTimeout(timer);
      const events = [];
      if (args[0] === "run" && args.includes("--json")) {
        for (const line of stdout.split("\n")) if (line.trim()) events.push(JSON.parse(line));
      }
      resolve({ code, stdout, stderr, events });
    });
  });
}

// externalSession saves the agent command in Settings and creates a session on it.
// state, when given, is a folder the agent may write from inside the sandbox (its reach).
export async function externalSession(dir, command, { permission = "ask", override, env, state } = {}) {
  let r = await agentdesk(dir, ["settings", "set", "external-agents", command], { env });
  if (r.code !== 0) throw new Error(`settings set: ${r.stderr}`);
  if (state) {
    const reach = JSON.stringify({ [command]: { hosts: [], folders: [state] } });
    r = await agentdesk(dir, ["settings", "set", "agent-reach", reach], { env });
    if (r.code !== 0) throw new Error(`settings set agent-reach: ${r.stderr}`);
  }
  const args = ["sessions", "create", "--workspace", join(dir, "workspace"), "--agent", command, "--permission", permission, "--json"];
  if (override) args.push("--override", override);
  r = await agentdesk(dir, args, { env });
  if (r.code !== 0) throw new Error(`sessions create: ${r.stderr}`);
  return JSON.parse(r.stdout).id;
}

// said is everything the agent said in a run, from its turn.delta events.
export const said = (events) => events.filter((e) => e.name === "turn.delta").map((e) => e.data.text).join("");
export const named = (events, name) => events.filter((e) => e.name === name).map((e) => e.data);
