import type { TFunction } from '../../i18n/translate';

/** A message when the locale has one, else the fallback (tool names and schema titles from the server). */
export function tOr(t: TFunction, key: string, fallback: string, args?: Record<string, string | number>): string {
  const s = t(key, args);
  return s === key ? fallback : s;
}

/** An MCP tool's name as the model calls it, mcp__server__tool, read back (server names never hold "__"). */
export function mcpParts(name: string): { server: string; tool: string } | null {
  const m = /^mcp__(.+?)__(.+)$/.exec(name);
  return m ? { server: m[1]!, tool: m[2]! } : null;
}

/** "Run command" for bash, "echo · notes (MCP)" for an MCP tool, or the raw name of a tool the locales do not know (an external agent's). */
export const toolLabel = (t: TFunction, name: string) => {
  if (!name) return t('composer.tool.unknown');
  const mcp = mcpParts(name);
  if (mcp) return t('composer.mcp.tool', { Server: mcp.server, Tool: mcp.tool });
  return tOr(t, `tool.${name}.label`, name);
};
