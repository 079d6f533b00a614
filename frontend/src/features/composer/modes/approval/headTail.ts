/** A long text cut in the middle so its start and its end both stay visible (R-DEC-4). */
export interface HeadTail {
  head: string;
  tail: string;
  /** Lines left out; 0 when the cut is by characters inside long lines. */
  hiddenLines: number;
  hiddenChars: number;
  truncated: boolean;
}

export function headTail(text: string, opts: { maxLines?: number; headLines?: number; tailLines?: number; maxChars?: number } = {}): HeadTail {
  const { maxLines = 12, headLines = 6, tailLines = 4, maxChars = 900 } = opts;
  const lines = text.split('\n');
  if (lines.length > maxLines) {
    const head = lines.slice(0, headLines).join('\n');
    const tail = lines.slice(lines.length - tailLines).join('\n');
    const hiddenLines = lines.length - headLines - tailLines;
    return { head, tail, hiddenLines, hiddenChars: text.length - head.length - tail.length - 2, truncated: true };
  }
  if (text.length > maxChars) {
    const headChars = Math.ceil(maxChars * 0.6);
    const tailChars = maxChars - headChars;
    const head = text.slice(0, headChars);
    const tail = text.slice(text.length - tailChars);
    return { head, tail, hiddenLines: 0, hiddenChars: text.length - headChars - tailChars, truncated: true };
  }
  return { head: text, tail: '', hiddenLines: 0, hiddenChars: 0, truncated: false };
}
