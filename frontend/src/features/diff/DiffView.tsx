import { useMemo, useState, type ReactNode } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { buildDiff, fileLines, fromServer, sideBySide, type DiffLine, type Hunk, type ServerHunkLike } from './diffModel';
import { highlightLines, languageOf } from './highlight';
import './diff.css';

import type { FileChange } from './change';

type Layout = 'unified' | 'split';

/**
 * The change an approval asks about, as a real diff: unified or side by side, syntax-highlighted,
 * with the line numbers of the file before and after; a new file is its content with line
 * numbers. Highlighting runs over each whole file, so multi-line comments and strings are right.
 */
export default function DiffView({
  change,
  hunks,
  hunkBar,
  hunkState,
}: {
  change: FileChange;
  /** Hunks the server computed: shown instead of the view's own diff, numbered as the server numbers them. */
  hunks?: readonly ServerHunkLike[] | null;
  /** What each hunk's header carries besides its position (a review's accept and revert). */
  hunkBar?: (index: number) => ReactNode;
  /** A state per hunk (accepted, reverted…), for the hunk's data-state. */
  hunkState?: (index: number) => string | undefined;
}) {
  const t = useT();
  const [layout, setLayout] = useState<Layout>('unified');
  const model = useMemo(
    () => (hunks ? fromServer(hunks) : change.created ? null : buildDiff(change.before, change.after)),
    [change, hunks],
  );
  const lang = languageOf(change.path, change.after.split('\n', 1)[0] ?? '');
  const html = useMemo(
    () => ({ before: highlightLines(change.before, lang), after: highlightLines(change.after, lang) }),
    [change.before, change.after, lang],
  );
  const code = (l: DiffLine) => (l.kind === 'del' ? html.before[(l.old ?? 1) - 1] : html.after[(l.new ?? 1) - 1]) ?? '';

  if (change.omitted) {
    return (
      <div className="diff" data-testid="diff" data-omitted={change.omitted}>
        <DiffHead path={change.path} note={t(`composer.diff.omitted.${change.omitted}`)} />
      </div>
    );
  }
  if (!model) {
    const lines = fileLines(change.after);
    return (
      <div className="diff" data-testid="diff" data-layout="new-file">
        <DiffHead path={change.path} note={t('composer.diff.newFile', { Count: lines.length })} />
        <div className="diff__scroll">
          <table className="diff__table diff__table--file">
            <tbody>
              {lines.map((_, i) => (
                <tr key={i} className="diff__row diff__row--add" data-testid="diff-line">
                  <td className="diff__num">{i + 1}</td>
                  <td className="diff__code hljs" dangerouslySetInnerHTML={{ __html: html.after[i] ?? '' }} />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    );
  }
  return (
    <div className="diff" data-testid="diff" data-layout={layout}>
      <DiffHead path={change.path} note={t('composer.diff.counts', { Added: model.added, Removed: model.removed })}>
        <div className="diff__layout" role="group" aria-label={t('composer.diff.layout')}>
          {(['unified', 'split'] as const).map((l) => (
            <button
              key={l}
              type="button"
              className={`diff__layout-btn${layout === l ? ' is-active' : ''}`}
              aria-pressed={layout === l}
              data-testid={`diff-layout-${l}`}
              onClick={() => setLayout(l)}
            >
              {t(`composer.diff.${l}`)}
            </button>
          ))}
        </div>
      </DiffHead>
      <div className="diff__scroll">
        {model.hunks.length === 0 ? (
          <p className="diff__same">{t('composer.diff.same')}</p>
        ) : (
          model.hunks.map((h, i) => {
            const head = { bar: hunkBar?.(i), state: hunkState?.(i), index: i };
            return layout === 'unified' ? <Unified key={i} hunk={h} code={code} {...head} /> : <Split key={i} hunk={h} code={code} {...head} />;
          })
        )}
      </div>
    </div>
  );
}

function DiffHead({ path, note, children }: { path: string; note: string; children?: React.ReactNode }) {
  return (
    <div className="diff__head">
      <code className="diff__path mono" data-testid="diff-path">
        {path}
      </code>
      <span className="diff__note" data-testid="diff-note">
        {note}
      </span>
      {children}
    </div>
  );
}

const MARK = { add: '+', del: '−', ctx: ' ' } as const;

interface HunkHead {
  bar?: ReactNode;
  state?: string;
  index: number;
}

/** A hunk's header row: its position, and the actions a review gives it. */
function HunkRow({ hunk, bar, colSpan }: { hunk: Hunk; bar?: ReactNode; colSpan: number }) {
  return (
    <tr className="diff__hunk">
      <td colSpan={colSpan}>
        <div className="diff__hunk-head">
          <span>
            @@ −{hunk.oldStart} +{hunk.newStart} @@
          </span>
          {bar}
        </div>
      </td>
    </tr>
  );
}

function Unified({ hunk, code, bar, state, index }: { hunk: Hunk; code: (l: DiffLine) => string } & HunkHead) {
  return (
    <table className="diff__table" data-testid="diff-hunk" data-hunk={index} data-state={state}>
      <tbody>
        <HunkRow hunk={hunk} bar={bar} colSpan={4} />
        {hunk.lines.map((l, i) => (
          <tr key={i} className={`diff__row diff__row--${l.kind}`} data-testid="diff-line" data-kind={l.kind}>
            <td className="diff__num">{l.old ?? ''}</td>
            <td className="diff__num">{l.new ?? ''}</td>
            <td className="diff__mark" aria-hidden="true">
              {MARK[l.kind]}
            </td>
            <td className="diff__code hljs" dangerouslySetInnerHTML={{ __html: code(l) }} />
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Split({ hunk, code, bar, state, index }: { hunk: Hunk; code: (l: DiffLine) => string } & HunkHead) {
  const cell = (l: DiffLine | undefined, side: 'left' | 'right') =>
    l ? (
      <>
        <td className={`diff__num diff__cell--${l.kind}`}>{side === 'left' ? l.old : l.new}</td>
        <td className={`diff__code hljs diff__cell--${l.kind}`} dangerouslySetInnerHTML={{ __html: code(l) }} />
      </>
    ) : (
      <>
        <td className="diff__num diff__cell--empty" />
        <td className="diff__code diff__cell--empty" />
      </>
    );
  return (
    <table className="diff__table diff__table--split" data-testid="diff-hunk" data-hunk={index} data-state={state}>
      <colgroup>
        <col className="diff__col-num" />
        <col />
        <col className="diff__col-num" />
        <col />
      </colgroup>
      <tbody>
        <HunkRow hunk={hunk} bar={bar} colSpan={4} />
        {sideBySide(hunk).map((r, i) => (
          <tr key={i} className="diff__row" data-testid="diff-row">
            {cell(r.left, 'left')}
            {cell(r.right, 'right')}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
