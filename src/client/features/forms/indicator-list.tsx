/**
 * The form's indicators in their groups, rendered so that a phone answers quickly:
 * - what fits on the first screen first: the first FIRST_SCREEN indicators in the screen's first
 *   render, then as many again after each paint, so a tap meanwhile waits for one slice at most
 *   (lib/use-after-paint.ts: on Preact a transition would render the rest at once), unless the
 *   form opens at a given indicator, which must be there at once;
 * - a tap re-renders only the indicator it changed: each row is memoised and gets callbacks that
 *   stay the same between renders (they read the form's latest handlers through a ref), so the
 *   other 23 rows of a 24-indicator form are skipped.
 */
import { memo, useCallback, useLayoutEffect, useRef, useState } from 'react';
import type { AppConfig, IndicatorDefinition } from '../../../common/schemas/config';
import { afterNextPaint } from '../../lib/idle';
import type { ResizeEnv } from '../../lib/image/resize';
import type { IndicatorDraft } from './form-draft';
import { IndicatorCard } from './indicator-card';

/** About what a phone's first screen shows below the form's heading (more would only wait); also each later slice. */
const FIRST_SCREEN = 6;

interface IndicatorGroup {
  key: string;
  title: string;
  description?: string;
  indicators: IndicatorDefinition[];
}

interface IndicatorListProps {
  config: AppConfig;
  groups: IndicatorGroup[];
  drafts: Readonly<Record<string, IndicatorDraft>>;
  /** The stored row of each indicator key, by key. */
  recordIds: ReadonlyMap<string, number>;
  /** The errors shown, by key (none before a save was tried). */
  errors: ReadonlyMap<string, string>;
  highlight: string | null;
  readOnly: boolean;
  online: boolean;
  onChange: (key: string, patch: Partial<IndicatorDraft>) => void;
  onPickOnMap?: (key: string) => void;
  onArchive?: (key: string, recordId: number) => Promise<void>;
  getPosition: () => Promise<[number, number]>;
  resizeEnv?: ResizeEnv;
  /** Render every indicator in the first render (the form opens scrolled to one of them). */
  allAtOnce: boolean;
}

interface RowProps {
  config: AppConfig;
  def: IndicatorDefinition;
  draft: IndicatorDraft;
  recordId: number | null;
  error: string | undefined;
  highlight: boolean;
  readOnly: boolean;
  online: boolean;
  onChange: (key: string, patch: Partial<IndicatorDraft>) => void;
  onPickOnMap?: (key: string) => void;
  onArchive?: (key: string, recordId: number) => Promise<void>;
  getPosition: () => Promise<[number, number]>;
  resizeEnv?: ResizeEnv;
}

const IndicatorRow = memo(function IndicatorRow({ def, recordId, onChange, onPickOnMap, onArchive, ...rest }: RowProps) {
  const change = useCallback((patch: Partial<IndicatorDraft>) => onChange(def.key, patch), [onChange, def.key]);
  return (
    <IndicatorCard
      {...rest}
      def={def}
      recordId={recordId}
      onChange={change}
      onPickOnMap={onPickOnMap ? () => onPickOnMap(def.key) : undefined}
      onArchive={onArchive && recordId !== null ? () => onArchive(def.key, recordId) : undefined}
    />
  );
});

export function IndicatorList(props: IndicatorListProps) {
  const [shownCount, setShownCount] = useState(props.allAtOnce ? Infinity : FIRST_SCREEN);
  const total = props.groups.reduce((sum, group) => sum + group.indicators.length, 0);
  // Scheduled before the paint (a layout effect), so the next slice follows the very next frame.
  useLayoutEffect(() => {
    if (shownCount >= total) return undefined;
    return afterNextPaint(() => setShownCount((count) => count + FIRST_SCREEN));
  }, [shownCount, total]);
  // The form's handlers change on every render of the form; the rows get wrappers that do not.
  const latest = useRef(props);
  latest.current = props;
  const onChange = useCallback((key: string, patch: Partial<IndicatorDraft>) => latest.current.onChange(key, patch), []);
  const pickOnMap = useCallback((key: string) => latest.current.onPickOnMap?.(key), []);
  const archive = useCallback((key: string, recordId: number) => latest.current.onArchive?.(key, recordId) ?? Promise.resolve(), []);
  const getPosition = useCallback(() => latest.current.getPosition(), []);
  let budget = shownCount;
  return (
    <>
      {props.groups.map((group) => {
        if (budget <= 0) return null;
        const shown = group.indicators.slice(0, budget);
        budget -= shown.length;
        return (
          <section key={group.key} className="indicator-group" aria-labelledby={`group-${group.key}`}>
            <h2 id={`group-${group.key}`}>{group.title}</h2>
            {group.description ? <p className="muted">{group.description}</p> : null}
            <ul className="indicator-list">
              {shown.map((def) => (
                <IndicatorRow
                  key={def.key}
                  config={props.config}
                  def={def}
                  draft={props.drafts[def.key]!}
                  recordId={props.recordIds.get(def.key) ?? null}
                  error={props.errors.get(def.key)}
                  highlight={props.highlight === def.key}
                  readOnly={props.readOnly}
                  online={props.online}
                  onChange={onChange}
                  onPickOnMap={props.onPickOnMap ? pickOnMap : undefined}
                  onArchive={props.onArchive ? archive : undefined}
                  getPosition={getPosition}
                  resizeEnv={props.resizeEnv}
                />
              ))}
            </ul>
          </section>
        );
      })}
    </>
  );
}
