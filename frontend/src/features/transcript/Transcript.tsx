import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import type { Item, Transcript as TranscriptData } from '../../bridge';
import { useT } from '../../i18n/I18nProvider';
import { CheckpointMarker, RestoreMarker, ReviewMarker } from '../checkpoints/Markers';
import { preferenceLabelKey } from '../composer/selector';
import { CompactedMarker } from './CompactedMarker';
import { Markdown } from './Markdown';
import { ToolCard } from './ToolCard';
import { groupTranscript } from './transcriptReducer';
import { TurnChip, TurnEnd } from './TurnBlocks';
import './transcript.css';

/** How close to the top (in pixels) the page before is asked for. */
const OLDER_MARGIN = 600;

/** The conversation: messages, tool cards, mode changes, and each turn's mode chip and status. */
export function Transcript({
  transcript,
  sent = 0,
  waiting = false,
  onStop,
  onContinue,
  onOlder,
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
}) {
  const t = useT();
  const blocks = useMemo(() => groupTranscript(transcript), [transcript]);
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const lastTurn = transcript.turns[transcript.turns.length - 1];

  // Follow the stream while the person is at the bottom; leave them alone when they scrolled up,
  // until they send something themselves: then they want to see it.
  const lastSent = useRef(sent);
  // An older page lands above what the person reads: keep it where it was on the screen.
  const shown = useRef({ first: transcript.first ?? 0, height: 0 });
  useLayoutEffect(() => {
    const el = scroller.current;
    if (sent !== lastSent.current) {
      lastSent.current = sent;
      pinned.current = true;
    }
    if (!el) return;
    const first = transcript.first ?? 0;
    if (pinned.current) el.scrollTop = el.scrollHeight;
    else if (first && first < shown.current.first) el.scrollTop += el.scrollHeight - shown.current.height;
    shown.current = { first, height: el.scrollHeight };
  }, [blocks, sent, transcript.first]);
  const older = useRef(onOlder);
  older.current = transcript.more ? onOlder : undefined;
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const onScroll = () => {
      pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
      if (el.scrollTop < OLDER_MARGIN) older.current?.();
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => el.removeEventListener('scroll', onScroll);
  }, []);

  return (
    <div ref={scroller} className="transcript" data-testid="transcript" role="log" aria-label={t('shell.session.transcript')}>
      <div className="transcript__inner">
        {blocks.map((b) => {
          if (b.kind === 'turn-start') return <TurnChip key={b.key} turn={b.turn} />;
          if (b.kind === 'turn-end') {
            return (
              <TurnEnd
                key={b.key}
                turn={b.turn}
                waiting={waiting && b.turn.id === transcript.running}
                onStop={onStop}
                onContinue={onContinue}
                canContinue={b.turn.id === lastTurn?.id && transcript.running === ''}
              />
            );
          }
          return <ItemView key={b.key} item={b.item} />;
        })}
      </div>
    </div>
  );
}

function ItemView({ item }: { item: Item }) {
  const t = useT();
  switch (item.type) {
    case 'user':
      return (
        <div className={`msg msg--user${item.steer ? ' is-steer' : ''}`} data-testid="msg-user">
          {item.steer && <span className="msg__tag">{t('composer.transcript.steer')}</span>}
          <div className="msg__bubble">{item.text}</div>
        </div>
      );
    case 'assistant':
      return (
        <div className="msg msg--assistant" data-testid="msg-assistant">
          <Markdown source={item.text} />
        </div>
      );
    case 'tool':
    case 'direct':
      return <ToolCard item={item} />;
    case 'mode':
      return (
        <div className="divider" data-testid="mode-change" data-interaction={item.interactionMode} data-override={item.executionOverride}>
          <span>{t('composer.transcript.modeChanged', { Mode: t(preferenceLabelKey(item)) })}</span>
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
    case 'unreadable':
      return (
        <div className="divider divider--warning" role="note" data-testid="log-unreadable" data-seq={item.seq}>
          <span>{t('transcript.unreadable', { Seq: item.seq, Type: item.logType })}</span>
        </div>
      );
  }
}
