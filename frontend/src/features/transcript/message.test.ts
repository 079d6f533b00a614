// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { catalog } from '../../i18n/locales';
import { makeT } from '../../i18n/translate';
import { codedText, renderMessage, resultText } from './message';

const en = makeT(catalog, 'en');
const zh = makeT(catalog, 'zh-CN');

describe('results in the person’s language, from the message the server sends with them', () => {
  it('localizes what the tool itself wrote (简体中文 tool summaries)', () => {
    const created = { key: 'tool.result.write.created', args: { Path: 'hello.sh', Bytes: 33 } };
    expect(resultText(en, 'Created hello.sh: wrote 33 bytes.', created)).toBe('Created hello.sh (33 bytes).');
    expect(resultText(zh, 'Created hello.sh: wrote 33 bytes.', created)).toBe('已创建 hello.sh（33 字节）。');
    expect(resultText(zh, 'No files match the pattern.', { key: 'tool.result.glob.none' })).toBe('没有文件匹配该模式。');
    expect(resultText(zh, 'The person answered:\nHi there', { key: 'tool.result.ask.answered', args: { Answer: 'Hi there' } })).toBe(
      '你的回答：Hi there',
    );
  });

  it('keeps data as it is and replaces only the lines the message stands for', () => {
    const exit = { key: 'tool.result.bash.exit', args: { Code: 1 }, tail: 1 };
    expect(resultText(zh, 'FAIL x_test.go\n[exit code: 1]', exit)).toBe('FAIL x_test.go\n退出码 1。');
    const partial = { key: 'tool.result.read.partial', args: { Path: 'a.go', From: 1, To: 2, Lines: 9 }, head: 1 };
    expect(resultText(en, '[Partial read of a.go: lines 1-2 of 9.]\n     1\tpackage a\n     2\t', partial)).toBe(
      'Part of a.go: lines 1–2 of 9.\n     1\tpackage a\n     2\t',
    );
  });

  it('renders a reason inside a sentence, and never shows a raw code', () => {
    const declined = { key: 'tool.result.ask.declined', args: { Why: { key: 'error.DECISION_TIMED_OUT' } } };
    const text = resultText(en, 'The question was not answered.\nReason: DECISION_TIMED_OUT: …', declined, true);
    expect(text).toBe('The question was not answered: No response: the decision timed out.');
    expect(resultText(en, 'REJECTED_BY_USER: keep it', { key: 'tool.result.rejectedWithReason', args: { Reason: 'keep it' } }, true)).toBe(
      'You rejected this call: keep it',
    );
    expect(codedText(zh, 'NO_PROVIDER: No model provider is set up yet.')).not.toMatch(/NO_PROVIDER/);
    expect(codedText(en, 'TOOL_DISABLED_IN_MODE: This tool is not available in the current mode.')).toBe(
      'This tool is not available in the current mode.',
    );
  });

  it('falls back to the text when a message is unknown or lacks an argument', () => {
    expect(renderMessage(en, { key: 'tool.result.nope' })).toBeNull();
    expect(renderMessage(en, { key: 'tool.result.write.created', args: { Path: 'a' } })).toBeNull();
    expect(resultText(en, 'plain output', { key: 'tool.result.nope' })).toBe('plain output');
    // An old coded error whose message needs arguments shows its English text without the code.
    expect(codedText(en, 'STREAM_FAILED: anthropic: overloaded')).toBe('anthropic: overloaded');
  });
});
