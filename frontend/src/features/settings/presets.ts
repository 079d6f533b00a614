import type { KeyProvider } from '../../bridge/settingsApi';

/** OpenAI-compatible servers people run on their own computer (R-RUN-1); probed on loopback. */
export const LOCAL_PRESETS = [
  { name: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1' },
  { name: 'LM Studio', baseUrl: 'http://127.0.0.1:1234/v1' },
] as const;

/** The environment variable each provider's key may come from (it wins over the keyring). */
export const KEY_ENV: Record<KeyProvider, string> = {
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY',
};

/** Provider names are brand names: the same in every language. */
export const PROVIDER_NAMES: Record<KeyProvider, string> = {
  anthropic: 'Anthropic',
  openai: 'OpenAI',
};

/** Well-known external ACP agents, offered as one-click additions; command lines are not translated. */
export const EXTERNAL_AGENT_SUGGESTIONS = ['gemini --experimental-acp', 'claude-code-acp', 'goose acp'] as const;
