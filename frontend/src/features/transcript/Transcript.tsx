import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { Item, Transcript as TranscriptData } from '../../bridge';
import { useT } from '../../i18n/I18nProvider';
import { ChevronDownIcon } from '../../ui/icons';
import { CheckpointMarker, RestoreMarker, ReviewMarker } from '../checkpoints/Markers';
import { preferenceLabelKey } from '../composer/selector';
import { CompactedMarker } from './CompactedMarker';
import { WorktreeCopiedMarker, WorktreeSetupMarker } from '../worktree/WorktreePrepMarkers';
import { Markdown } from './Markdown';
import { followRange } from './followRange';
import { ToolCard } from './ToolCard';
import { groupTranscript, type Block } from './transcriptReducer';
import { shownPart } from './transcriptWindow';
import { TurnChip, TurnEnd } from './TurnBlocks';
import { useThrottledText } from './useThrottledText';
import './transcript.css';

/** How close to the top (in pixels) the page before is asked for. */
const OLDER_MARGIN = 600;
/** How close to the bottom (in pixels) the page after is asked for, when the window dropped it. */
const NEWER_MARGIN = 600;
/** How close to the bottom (in pixels) still counts as at the bottom: the view follows the stream. */
const AT_END = 48;
/** Rows mounted above the screen while the view follows the stream (6 once the person scrolls). */
const FOLLOW_OVERSCAN = 2;
/** Space between rows and around them, as the layout had before it was virtualized. */
const GAP = 12;
const PAD_TOP = 24;
const PAD_BOTTOM = 12;

/** Estimates by item: a page put above or below estimates its own rows, never the loaded ones again. */
const estimates = new WeakMap<Item, number>();

/** A row's height before it is measured: near enough that the scrollbar does not jump much. */
function estimate(b: Block | undefined): number {
  if (!b) return 40;
  if (b.kind !== 'item') return estimateRow(b);
  let size = estimates.get(b.item);
  if (size === undefined) estimates.set(b.item, (size = estimateRow(b)));
  return size;
}

function estimateRow(b: Block): number {
  if (b.kind === 'turn-start') return 28;
  if (b.kind === 'turn-end') return b.turn.status === 'done' ? 0 : 28;
  const it = b.item;
  if (it.type === 'assistant') return 26 * Math.min(60, Math.ceil(it.text.length / 90) + 1);
  if (it.type === 'user') return 44 + 20 * Math.min(20, Math.floor(it.text.length / 80));
  if (it.type === 'tool' || it.type === 'direct') return 48;
  return 30;
}

/** A callback with one identity for the component's life that always calls the newest function. */
function useStable<A extends unknown[], R>(f: (...args: A) => R): (...args: A) => R {
  const ref = useRef(f);
  ref.current = f;
  return useCallback((...args: A) => ref.current(...args), []);
}

/**
 * The conversation: messages, tool cards, mode changes, and each turn's mode chip and status.
 * Virtualized (TanStack Virtual, rows measured as they render): a session of a hundred thousand
 * events puts only the rows in view in the page. The view follows the stream while the person is
 * at the bottom, anchored at its end so an older page put above does not move what they read.
 *
 * Hooks the e2e suites and the browser benchmark rely on (keep them): the scroller is
 * [data-testid="transcript"] (role log, data-rows: how many rows the loaded pages hold); each
 * mounted row is [data-testid="transcript-row"] with data-index and data-kind (item, turn-start,
 * turn-end); the newest row, when mounted, also carries data-last; [data-testid="jump-latest"]
 * shows while the person is scrolled up, and [data-testid="jump-start"] too while the log's start
 * is not loaded. The scroller's data-first is the first log entry the loaded pages hold.
 *
 * The loaded pages are a window of the log (see transcriptWindow.ts): scrolled near its top, the
 * page before is asked for (onOlder); near its bottom, when the window dropped the newest pages,
 * the page after (onNewer). Pages put in or dropped at either end keep the row in view where it
 * was (the virtualizer anchors to the row at the top of the view, by its key).
 */
export function Transcript({
  transcript,
  sent = 0,
  waiting = false,
  onStop,
  onContinue,
  onOlder,
  onNewer,
  onStart,
  onLatest,
}: {
  transcript: TranscriptData;
  /** Counts the person's own sends: each one brings the view to the bottom, where it lands. */
  sent?: number;
  /** A decision of the running turn waits for the person. */
  waiting?: boolean;
  onStop: () => void;
  onContinue: () => void;
  /** Asks for the page before the oldest shown: the person scrolled near the top. */
  onOlder?: () => void;
  /** Asks for the page after the newest shown, which the window dropped: the person scrolled near the bottom. */
  onNewer?: () => void;
  /** Asks for the first page of the log in place of the window. */
  onStart?: () => void;
  /** Asks for the newest page in place of a window that dropped it. */
  onLatest?: () => void;
}) {
  const t = useT();
  const blocks = useMemo(() => groupTranscript(shownPart(transcript)), [transcript]);
  const windowed = Boolean(transcript.newer);
  const scroller = useRef<HTMLDivElement>(null);
  const lastTurn = transcript.turns[transcript.turns.length - 1];
  const stop = useStable(onStop);
  const resume = useStable(onContinue);
  // Following: the person was at the bottom when they last scrolled (or sent). Kept apart from
  // where the view is now, because the view also leaves the bottom without them: the composer
  // grows (an approval card) and the transcript's box gets shorter.
  const pinned = useRef(true);
  const self = useRef<ReturnType<typeof useVirtualizer<HTMLDivElement, Element>> | null>(null);
  const rangeExtractor = useStable((range: Range) => {
    const v = self.current;
    if (!pinned.current || !v) return defaultRangeExtractor(range);
    const sizeOf = (i: number) => v.itemSizeCache.get(blocks[i]?.key ?? '') ?? estimate(blocks[i]);
    return followRange(range.count, (v.scrollRect?.height ?? 0) + AT_END, GAP, FOLLOW_OVERSCAN, sizeOf);
  });

  const virtualizer = useVirtualizer({
    count: blocks.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => estimate(blocks[i]),
    getItemKey: (i) => blocks[i]!.key,
    overscan: 6,
    rangeExtractor,
    gap: GAP,
    paddingStart: PAD_TOP,
    paddingEnd: PAD_BOTTOM,
    // Chat: rows added above keep the one in view where it was; at the bottom, new rows and a
    // growing last row keep the view at the bottom; scrolled up, nothing moves it.
    anchorTo: 'end',
    // Only at the newest end: a page put below a window scrolled back is not followed.
    followOnAppend: pinned.current && !windowed,
    scrollEndThreshold: AT_END,
    // A row measured or the view scrolled re-renders with React's batching, not in a flushSync of
    // its own: while a turn streams, rows mount every frame and each forced a render of the view.
    useFlushSync: false,
  });
  self.current = virtualizer;

  const [atEnd, setAtEnd] = useState(true);
  // The distance is worked out from what the virtualizer knows (its sizes, the viewport it
  // observed, the offset it last read), never from the element: reading scrollHeight after each
  // delta would force a layout of the growing answer every time.
  const follow = useStable(() => {
    const distance = virtualizer.getTotalSize() - (virtualizer.scrollRect?.height ?? 0) - (virtualizer.scrollOffset ?? 0);
    if (pinned.current && distance > 1) virtualizer.scrollToEnd();
  });

  // Opening the session, and each message the person sends, lands at the bottom.
  useLayoutEffect(() => {
    pinned.current = true;
    setAtEnd(true);
    virtualizer.scrollToEnd();
  }, [virtualizer, sent]);
  const total = virtualizer.getTotalSize();
  useLayoutEffect(follow, [follow, blocks, total]);

  const older = useRef(onOlder);
  older.current = transcript.more ? onOlder : undefined;
  const newer = useRef(onNewer);
  newer.current = windowed ? onNewer : undefined;
  const dropped = useRef(windowed);
  dropped.current = windowed;
  // A jump asked for and not arrived yet: to the newest end (the view stays pinned meanwhile), or
  // to the start (the view goes to the top once the first page is in).
  const jumping = useRef<'latest' | 'start' | null>(null);
  useLayoutEffect(() => {
    if (jumping.current === 'latest' && !windowed) jumping.current = null;
    if (jumping.current === 'start' && !transcript.more) {
      jumping.current = null;
      pinned.current = false;
      setAtEnd(false);
      virtualizer.scrollToOffset(0);
    }
  }, [virtualizer, windowed, transcript.more, blocks]);
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const onScroll = () => {
      const fromEnd = el.scrollHeight - el.scrollTop - el.clientHeight;
      // Back at the bottom only when the virtualizer's total says so too: when a page comes in
      // above, the virtualizer moves the view down by the page's height, and the scroll that write
      // causes can come before the element has grown (the browser clamps it to the old bottom).
      // Following, the element's own bottom is the test, as the stream grows the rows under it.
      const back = () => Math.max(fromEnd, (self.current?.getTotalSize() ?? 0) - el.scrollTop - el.clientHeight) <= AT_END;
      // The bottom of a window that dropped the newest pages is not the end: nothing follows there.
      if (jumping.current !== 'latest') pinned.current = !dropped.current && (pinned.current ? fromEnd <= AT_END : back());
      setAtEnd(pinned.current);
      if (el.scrollTop < OLDER_MARGIN) older.current?.();
      if (fromEnd < NEWER_MARGIN) newer.current?.();
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    const resized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => follow());
    resized?.observe(el);
    return () => {
      el.removeEventListener('scroll', onScroll);
      resized?.disconnect();
    };
  }, [follow]);

  const rows = virtualizer.getVirtualItems();
  return (
    <div className="transcript-frame">
      <div
        ref={scroller}
        className="transcript"
        data-testid="transcript"
        data-rows={blocks.length}
        data-first={transcript.first ?? 0}
        role="log"
        aria-label={t('shell.session.transcript')}
      >
        <div className="transcript__inner" style={{ height: virtualizer.getTotalSize() }}>
          {rows.map((row) => {
            const b = blocks[row.index]!;
            return (
              <div
                key={row.key}
                ref={virtualizer.measureElement}
                className="transcript__row"
                data-testid="transcript-row"
                data-index={row.index}
                data-kind={b.kind}
                data-last={row.index === blocks.length - 1 || undefined}
                style={{ transform: `translateY(${row.start}px)` }}
              >
                {b.kind === 'turn-start' ? (
                  <TurnChip turn={b.turn} />
                ) : b.kind === 'turn-end' ? (
                  <TurnEnd
                    turn={b.turn}
                    waiting={waiting && b.turn.id === transcript.running}
                    onStop={stop}
                    onContinue={resume}
                    canContinue={b.turn.id === lastTurn?.id && transcript.running === ''}
                  />
                ) : (
                  <ItemView item={b.item} />
                )}
              </div>
            );
          })}
        </div>
      </div>
      {!atEnd && transcript.more && onStart && (
        <button
          type="button"
          className="transcript__start btn btn--small"
          data-testid="jump-start"
          onClick={() => {
            jumping.current = 'start';
            pinned.current = false;
            onStart();
          }}
        >
          <ChevronDownIcon size={14} className="transcript__up" />
          {t('composer.transcript.start')}
        </button>
      )}
      {!atEnd && (
        <button
          type="button"
          className="transcript__latest btn btn--small"
          data-testid="jump-latest"
          onClick={() => {
            pinned.current = true;
            // A window that dropped the newest end reads it first; the view follows it down.
            if (windowed && onLatest) {
              jumping.current = 'latest';
              onLatest();
            } else virtualizer.scrollToEnd();
          }}
        >
          <ChevronDownIcon size={14} />
          {t('composer.transcript.latest')}
        </button>
      )}
    </div>
  );
}

/** The agent's answer; while it streams, its Markdown is drawn at most every few frames, not per delta. */
function AssistantMessage({ text }: { text: string }) {
  const shown = useThrottledText(text);
  return (
    <div className="msg msg--assistant" data-testid="msg-assistant">
      <Markdown source={shown} />
    </div>
  );
}

/** One item of the conversation. Memoized: a delta changes only the last item, and only it re-renders. */
const ItemView = memo(function ItemView({ item }: { item: Item }) {
  const t = useT();
  switch (item.type) {
    case 'user':
      return (
        <div className={`msg msg--user${item.steer ? ' is-steer' : ''}`} data-testid="msg-user">
          {item.steer && <span className="msg__tag">{t('composer.transcript.steer')}</span>}
          <div className="msg__bubble">{item.text}</div>
        </div>
      );
    case 'nudge':
      return (
        <div className="divider" role="note" data-testid="msg-nudge" title={item.text}>
          <span>{t('composer.transcript.nudge')}</span>
        </div>
      );
    case 'assistant':
      return <AssistantMessage text={item.text} />;
    case 'tool':
    case 'direct':
      return <ToolCard item={item} />;
    case 'mode':
      return (
        <div className="divider" data-testid="mode-change" data-interaction={item.interactionMode} data-override={item.executionOverride} data-reason={item.reason}>
          <span>{t(item.reason === 'plan_approved' ? 'composer.transcript.modeAfterPlan' : 'composer.transcript.modeChanged', { Mode: t(preferenceLabelKey(item)) })}</span>
        </div>
      );
    case 'permission':
      return (
        <div className="divider" data-testid="permission-change" data-permission={item.permissionMode}>
          <span>{t('composer.transcript.permissionChanged', { Permission: t(`permission.label.${item.permissionMode}`) })}</span>
        </div>
      );
    case 'cleared':
      return (
        <div className="divider" data-testid="context-cleared">
          <span>{t('composer.transcript.cleared')}</span>
        </div>
      );
    case 'compacted':
      return <CompactedMarker item={item} />;
    case 'checkpoint':
      return <CheckpointMarker item={item} />;
    case 'restore':
      return <RestoreMarker item={item} />;
    case 'review':
      return <ReviewMarker item={item} />;
    case 'worktreeCopied':
      return <WorktreeCopiedMarker item={item} />;
    case 'worktreeSetup':
      return <WorktreeSetupMarker item={item} />;
    case 'unreadable':
      return (
        <div className="divider divider--warning" role="note" data-testid="log-unreadable" data-seq={item.seq}>
          <span>{t('transcript.unreadable', { Seq: item.seq, Type: item.logType })}</span>
        </div>
      );
  }
});
