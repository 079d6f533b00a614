import { useEffect, useRef, useState } from 'react';

/** How often a streaming answer is drawn again: often enough to read as live, rarely enough to stay cheap. */
export const STREAM_FRAME_MS = 100;

/**
 * A longer text costs more to draw: it is drawn less often (a 200 KB answer every half second).
 * Its Markdown is parsed again only from its new blocks (drawMarkdown), but the message is laid
 * out and measured again whole at each draw.
 */
const interval = (text: string, ms: number) => ms + text.length / 500;

/**
 * The text to draw for a message that streams in: a delta per frame would lay out and measure a
 * long answer over and over. While the text only grows, it is drawn at most every `ms` (longer
 * for a long text), and its last state always within that time. Any other change (a different
 * text) shows at once.
 */
export function useThrottledText(text: string, ms = STREAM_FRAME_MS): string {
  const [shown, setShown] = useState(text);
  const drawnAt = useRef(0);
  const grew = text !== shown && text.startsWith(shown);
  useEffect(() => {
    if (text === shown) return;
    const show = () => {
      drawnAt.current = performance.now();
      setShown(text);
    };
    const wait = grew ? drawnAt.current + interval(text, ms) - performance.now() : 0;
    if (wait <= 0) {
      show();
      return;
    }
    const id = window.setTimeout(show, wait);
    return () => window.clearTimeout(id);
  }, [text, shown, grew, ms]);
  return grew ? shown : text;
}
