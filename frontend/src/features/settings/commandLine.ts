/** "npx -y @scope/server --flag" as a program and its arguments (split at white space). */
export function splitCommandLine(line: string): { command: string; args: string[] } {
  const [command = '', ...args] = line.trim().split(/\s+/).filter(Boolean);
  return { command, args };
}
