/**
 * Editors and readers (all farmers loaded): the farmers with a text search and each
 * farmer's progress in the current season. The search is the text search call
 * (GET …/search/{profileId}/{limit}/{page}/{query}, every word a prefix, accents ignored): the
 * server's index online, the farmers stored on the device when the server cannot be reached
 * (lib/api answers it from the device). Until the answer comes, and for a query of one letter,
 * the list shown is filtered by the same rule (common/text-search.ts). Choosing a farmer loads
 * that farmer's season (app/routes wires the choice to features/season).
 */
import { useEffect, useMemo, useState } from 'react';
import { FARMERS_PAGE_SIZE } from '../../../common/constants';
import { searchableText, textMatcher } from '../../../common/text-search';
import { and, eq, isIn, type FilterNode } from '../../../common/filter';
import { slPhone, slScreens } from '../../../common/i18n/sl';
import type { AppConfig } from '../../../common/schemas/config';
import { Button } from '../../components/button/button';
import { Loading } from '../../components/loading/loading';
import { useTextSearchRecordsQuery } from '../../lib/api/records';
import { searchAllRecords } from '../../lib/api/search-all';
import { useAppDispatch } from '../../app/hooks';
import type { StoredRecord } from '../../lib/db/database';
import { readRow } from '../../lib/db/model';

/** Delay before a typed query is sent, so a word typed letter by letter is one request. */
const SEARCH_DEBOUNCE_MS = 300;
const SEARCH_MIN_LENGTH = 2;

export interface FarmerProgress {
  done: number;
  total: number;
}

/** The search's rule on a farmer: every word of the query begins a word of the name, e-mail, phone or KMG-MID (accents ignored). */
export function matchesFarmer(row: StoredRecord, config: AppConfig, query: string): boolean {
  const matches = textMatcher(query);
  if (!matches) return true;
  const farmer = readRow(config, 'farmers', row);
  return matches(searchableText([farmer.name, farmer.email, farmer.phone, farmer.kmg_mid]));
}

/**
 * Season progress per farmer, online: paths with a completed form in the current duration out of
 * all their paths. Four searches over the whole project (editors/readers see everything), every
 * page of each, so a project with more rows than one page still counts them all.
 */
export function useFarmersProgress(config: AppConfig, durationId: number | null, online: boolean): Map<number, FarmerProgress> | null {
  const dispatch = useAppDispatch();
  const [progress, setProgress] = useState<Map<number, FarmerProgress> | null>(null);
  useEffect(() => {
    if (!online || durationId === null) return undefined;
    let cancelled = false;
    const { projectId, tables } = config;
    const live = eq('archived', false);
    const all = async (tableId: number, filters: FilterNode = live) => {
      const result = await searchAllRecords(dispatch, projectId, { tableId, filters });
      if (!result.records) throw new Error(result.error.message);
      return result.records;
    };
    void (async () => {
      const [areas, paths, links] = await Promise.all([
        all(tables.areas.id),
        all(tables.paths.id),
        all(tables.durationPaths.id, and(eq(tables.durationPaths.columns.duration_id, durationId), live)),
      ]);
      const linkIds = links.map((r) => r.id);
      const forms = linkIds.length
        ? await all(tables.forms.id, and(isIn(tables.forms.columns.parent, linkIds), eq(tables.forms.columns.completed, true), live))
        : [];
      const farmerOfArea = new Map(areas.map((a) => [a.id, readRow(config, 'areas', a).user]));
      const farmerOfPath = new Map<number, number>();
      for (const p of paths) {
        const farmer = farmerOfArea.get(readRow(config, 'paths', p).parent ?? -1);
        if (farmer !== undefined && farmer !== null) farmerOfPath.set(p.id, farmer);
      }
      const pathOfLink = new Map(links.map((l) => [l.id, readRow(config, 'durationPaths', l).path_id]));
      const donePaths = new Set(forms.map((f) => pathOfLink.get(readRow(config, 'forms', f).parent ?? -1)));
      const result = new Map<number, FarmerProgress>();
      for (const [pathId, farmer] of farmerOfPath) {
        const entry = result.get(farmer) ?? { done: 0, total: 0 };
        entry.total += 1;
        if (donePaths.has(pathId)) entry.done += 1;
        result.set(farmer, entry);
      }
      if (!cancelled) setProgress(result);
    })().catch(() => {
      // Progress is extra information beside the list: without it the farmers are still shown.
      if (!cancelled) setProgress(null);
    });
    return () => {
      cancelled = true;
    };
  }, [config, durationId, online, dispatch]);
  return progress;
}

export interface FarmersPanelProps {
  config: AppConfig;
  farmers: readonly StoredRecord[];
  selectedId: number | null;
  onChoose: (farmerId: number) => void;
  online: boolean;
  progress: Map<number, FarmerProgress> | null;
}

export function FarmersPanel({ config, farmers, selectedId, onChoose, online, progress }: FarmersPanelProps) {
  const t = slScreens.farmers;
  const [query, setQuery] = useState('');
  const [sent, setSent] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSent(query.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query]);
  const searching = sent.length >= SEARCH_MIN_LENGTH;
  const search = useTextSearchRecordsQuery(
    {
      projectId: config.projectId,
      profileId: config.searchProfileId,
      limit: FARMERS_PAGE_SIZE,
      page: 1,
      query: sent,
      tableIds: [config.tables.farmers.id],
      offline: !online,
    },
    // Asked again when the panel shows: farmers added or changed on this device meanwhile are found.
    { skip: !searching, refetchOnMountOrArgChange: true },
  );
  const shown = useMemo(() => {
    const live = farmers.filter((f) => !f.archived && !f.deleted);
    if (!sent) return live;
    if (searching && search.currentData) {
      const ids = new Set(search.currentData.records.filter((r) => r.tableId === config.tables.farmers.id).map((r) => r.id));
      return live.filter((f) => ids.has(f.id));
    }
    // A query of one letter, or while the answer comes: the list shown, by the same rule.
    return live.filter((f) => matchesFarmer(f, config, sent));
  }, [farmers, sent, searching, search.currentData, config]);
  const sorted = shown.map((f) => readRow(config, 'farmers', f)).sort((a, b) => (a.name ?? '').localeCompare(b.name ?? '', 'sl'));

  return (
    <section className="card farmers-panel" aria-labelledby="farmers-title" data-testid="farmers-panel">
      <h2 id="farmers-title">{t.title}</h2>
      <label className="field">
        <span className="field__label">{t.search}</span>
        <input type="search" value={query} placeholder={t.searchPlaceholder} onChange={(e) => setQuery(e.target.value)} />
      </label>
      {!online ? <p className="muted">{t.searchOffline}</p> : null}
      {searching && search.isFetching && !search.currentData ? <Loading inline /> : null}
      {sorted.length === 0 ? (
        <p className="muted">{t.none}</p>
      ) : (
        <ul className="row-list farmers-list">
          {sorted.map((f) => {
            const p = progress?.get(f.id);
            const chosen = f.id === selectedId;
            const name = f.name ?? `#${f.id}`;
            return (
              <li key={f.id} data-testid={`farmer-${f.id}`}>
                <div className={chosen ? 'farmer-row farmer-row--chosen' : 'farmer-row'}>
                  <span className="row-link__main">
                    <span className="row-link__title">{name}</span>
                    <span className="muted small">{f.email ?? ''}</span>
                    {p ? (
                      <span className="farmer-row__progress">
                        <progress max={Math.max(1, p.total)} value={p.done} aria-label={`${t.progress}: ${t.progressValue(p.done, p.total)}`} />
                        <span className="small">{t.progressValue(p.done, p.total)}</span>
                      </span>
                    ) : null}
                  </span>
                  <Button
                    size="small"
                    kind={chosen ? 'primary' : 'secondary'}
                    active={chosen}
                    text={
                      <>
                        {chosen ? t.chosen : t.choose}
                        <span className="visually-hidden">{chosen ? slPhone.staff.chosenFarmer(name) : ` ${slPhone.staff.openFarmer(name)}`}</span>
                      </>
                    }
                    onClick={() => onChoose(f.id)}
                  />
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
