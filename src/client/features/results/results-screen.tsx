/**
 * Results ('/results'): filters; the scores per path, meadow and season coloured by class (with
 * the class word and icon) in a table with last season beside this one and the explained score;
 * a chart of seasons; editors export CSV (with each form's change history from the server,
 * who, when, old → new) and GeoJSON of the chosen season. Given `farmers` (editors and readers), the rows are
 * all farmers' with a farmer column, a farmer filter ('Vsi kmetje' by default) and a summary per
 * farmer; every view has a summary per area of the shown season.
 *
 * The table before the chart and the summaries, and a row's score next to its path: on a phone
 * each row is a card, and what a farmer opens the screen for (how the paths scored) comes first.
 */
import { useMemo, useState } from 'react';
import { sl, slPhone, slScreens } from '../../../common/i18n/sl';
import { classifyScore } from '../../../common/score';
import { Button } from '../../components/button/button';
import { EmptyState } from '../../components/empty-state/empty-state';
import { DownloadIcon, ResultsIcon } from '../../components/icons/icons';
import { Loading } from '../../components/loading/loading';
import { Page } from '../../components/page/page';
import { ScoreBadge } from '../../components/score-badge/score-badge';
import { FoldedScoreExplanation } from '../../components/score-badge/score-explanation';
import { OfflineNote } from '../../components/screen-state/screen-state';
import { seasonsOf, summarise, type ResultRow, type ScoreSummary } from './results-model';
import { routeHref } from '../../lib/links';

export interface ResultsScreenProps {
  rows: ResultRow[] | null;
  status: 'loading' | 'ready' | 'failed';
  fromDevice: boolean;
  canExport: boolean;
  online: boolean;
  /** Editors/readers: the farmer whose results are shown. */
  farmerName?: string | null;
  /** Editors/readers, all farmers at once: who is who (the farmer column and filter). */
  farmers?: ReadonlyArray<{ id: number; name: string }> | null;
  /** An export under way: how many forms' histories are read of how many. */
  exportProgress?: { done: number; total: number } | null;
  onExportCsv?: (rows: ResultRow[]) => Promise<void>;
  /** May return a promise (the history is read first): the button is busy until it settles. */
  onExportGeoJson?: (rows: ResultRow[]) => void;
}

/** Average score per season (newest last), for the chart. */
export function seasonAverages(rows: readonly ResultRow[]): Array<{ name: string; average: number; count: number }> {
  const seasons = seasonsOf(rows).reverse();
  return seasons
    .map((s) => {
      const scores = rows.filter((r) => r.durationId === s.id && r.score !== null).map((r) => r.score!);
      return { name: s.name, average: scores.length ? Math.round(scores.reduce((a, b) => a + b, 0) / scores.length) : NaN, count: scores.length };
    })
    .filter((s) => s.count > 0);
}

/** Width of a label in the chart's 13 px text: about 0.58 em a character (Slovenian words, digits). */
export const chartLabelWidth = (text: string) => Math.ceil(text.length * 13 * 0.58);

function SeasonChart({ rows }: { rows: readonly ResultRow[] }) {
  const data = seasonAverages(rows);
  if (!data.length) return null;
  const barW = 56;
  // Each season's column is as wide as its longest label and a margin, so names never overlap;
  // a chart wider than the screen scrolls inside its card instead of shrinking the text.
  const longest = Math.max(...data.flatMap((d) => [chartLabelWidth(d.name), chartLabelWidth(sl.scheme.scoreClass[classifyScore(d.average)])]));
  const column = Math.max(barW + 24, longest + 16);
  const gap = column - barW;
  const h = 160;
  const width = data.length * column + gap;
  return (
    <figure className="card season-chart" data-testid="season-chart">
      <figcaption>
        <h2>{slScreens.results.chart}</h2>
      </figcaption>
      <svg
        viewBox={`0 0 ${width} ${h + 44}`}
        width={width}
        height={h + 44}
        role="img"
        aria-label={data.map((d) => `${d.name}: ${d.average} (${sl.scheme.scoreClass[classifyScore(d.average)]})`).join(', ')}
      >
        {[33, 66].map((y) => (
          <line key={y} x1={0} x2={width} y1={h - (y / 100) * h} y2={h - (y / 100) * h} className="season-chart__grid" />
        ))}
        {data.map((d, i) => {
          const x = gap + i * column;
          const barH = Math.max(2, (d.average / 100) * h);
          const cls = classifyScore(d.average);
          return (
            <g key={d.name}>
              <rect x={x} y={h - barH} width={barW} height={barH} className={`season-chart__bar season-chart__bar--${cls}`} rx={4} />
              <text x={x + barW / 2} y={h - barH - 6} textAnchor="middle" className="season-chart__value">
                {d.average}
              </text>
              <text x={x + barW / 2} y={h + 18} textAnchor="middle" className="season-chart__label">
                {d.name}
              </text>
              <text x={x + barW / 2} y={h + 36} textAnchor="middle" className="season-chart__label season-chart__label--small">
                {sl.scheme.scoreClass[cls]}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

function SummaryTable({ label, nameHeader, items, testId }: { label: string; nameHeader: string; items: ScoreSummary[]; testId: string }) {
  const t = slScreens.results;
  if (!items.length) return null;
  return (
    <section className="results-summary">
      <h2>{label}</h2>
      <table className="data-table" aria-label={label} data-testid={testId}>
        <thead>
          <tr>
            <th scope="col">{nameHeader}</th>
            <th scope="col">{t.count}</th>
            <th scope="col">{t.average}</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.key} data-testid={`${testId}-${item.key}`}>
              <th scope="row" data-label={nameHeader}>
                {item.name}
              </th>
              <td data-label={t.count}>{item.scored}</td>
              <td data-label={t.average}>
                <ScoreBadge score={item.average} size="small" />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Change({ row }: { row: ResultRow }) {
  if (!row.previous || row.previous.score === null || row.score === null) return <span className="muted">–</span>;
  const d = row.score - row.previous.score;
  return <span className={d > 0 ? 'change change--up' : d < 0 ? 'change change--down' : 'change'}>{d > 0 ? `▲ +${d}` : d < 0 ? `▼ ${d}` : '= 0'}</span>;
}

export function ResultsScreen(props: ResultsScreenProps) {
  const t = slScreens.results;
  const rows = useMemo(() => props.rows ?? [], [props.rows]);
  const seasons = seasonsOf(rows);
  const [season, setSeason] = useState<number | 'all' | null>(null);
  const [area, setArea] = useState<string>('all');
  const [kind, setKind] = useState<string>('all');
  const [farmer, setFarmer] = useState<string>('all');
  const [busy, setBusy] = useState<'csv' | 'geojson' | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
  const allFarmers = props.farmers ? props.farmers : null;
  const farmerNames = useMemo(() => new Map((allFarmers ?? []).map((f) => [String(f.id), f.name])), [allFarmers]);
  const farmerOf = (r: ResultRow) => farmerNames.get(String(r.farmerId)) ?? '';
  // Until the user picks one: the newest season.
  const chosenSeason = season ?? seasons[0]?.id ?? 'all';
  // The farmers that have results, in the order of the list given (by name).
  const withRows = new Set(rows.map((r) => String(r.farmerId)));
  const farmerOptions = (allFarmers ?? []).filter((f) => withRows.has(String(f.id)));
  const byFarmer = allFarmers && farmer !== 'all' ? rows.filter((r) => String(r.farmerId) === farmer) : rows;
  const areaFarmers = new Map<string, Set<string>>();
  for (const r of byFarmer) areaFarmers.set(r.areaName, (areaFarmers.get(r.areaName) ?? new Set()).add(String(r.farmerId)));
  // Two farmers' meadows may share a name: then the farmer is said beside it.
  const areaLabel = (r: ResultRow) => (allFarmers && (areaFarmers.get(r.areaName)?.size ?? 0) > 1 ? `${r.areaName} (${farmerOf(r)})` : r.areaName);
  const areas = [...new Map(byFarmer.map((r) => [String(r.areaId), areaLabel(r)])).entries()];
  const chosenArea = area === 'all' || areas.some(([id]) => id === area) ? area : 'all';
  const kinds = [...new Map(byFarmer.map((r) => [String(r.kindId), r.kindTitle])).entries()];
  const byFilters = byFarmer.filter((r) => (chosenArea === 'all' || String(r.areaId) === chosenArea) && (kind === 'all' || String(r.kindId) === kind));
  const shown = byFilters.filter((r) => chosenSeason === 'all' || r.durationId === chosenSeason);
  const chosenFarmerName = allFarmers && farmer !== 'all' ? (farmerNames.get(farmer) ?? null) : null;

  const runExport = async (which: 'csv' | 'geojson', run: ((rows: ResultRow[]) => unknown) | undefined) => {
    if (!run) return;
    setExportError(null);
    try {
      const pending = run(shown);
      // A file made at once needs no busy state; one that reads the history first does.
      if (!(pending instanceof Promise)) return;
      setBusy(which);
      await pending;
    } catch {
      setExportError(t.exportFailed);
    } finally {
      setBusy(null);
    }
  };
  const progress = props.exportProgress;
  const busyText = progress && progress.total > 0 ? t.exportProgress(progress.done, progress.total) : t.exporting;

  const actions = props.canExport ? (
    <>
      <Button
        icon={DownloadIcon}
        text={busy === 'csv' ? busyText : t.export}
        disabled={busy !== null || !shown.length}
        onClick={() => void runExport('csv', props.onExportCsv)}
      />
      <Button
        kind="secondary"
        icon={DownloadIcon}
        text={busy === 'geojson' ? busyText : t.exportGeoJson}
        disabled={busy !== null || !shown.length}
        onClick={() => void runExport('geojson', props.onExportGeoJson)}
      />
    </>
  ) : undefined;

  const lead = chosenFarmerName
    ? `${t.farmer}: ${chosenFarmerName}`
    : allFarmers
      ? t.allFarmersLead
      : props.farmerName
        ? `${t.farmer}: ${props.farmerName}`
        : sl.screens.results.lead;
  return (
    <Page title={sl.screens.results.title} lead={lead} actions={actions} className="page--desk page--wide">
      {busy ? (
        <p className="muted" role="status" data-testid="export-progress">
          {busyText}
        </p>
      ) : null}
      {props.fromDevice ? <OfflineNote /> : null}
      {props.canExport && !props.online ? <p className="muted">{t.exportNeedsOnline}</p> : null}
      {exportError ? <p role="alert">{exportError}</p> : null}
      {props.status === 'loading' && !props.rows ? (
        <Loading />
      ) : props.status === 'failed' && !props.rows ? (
        <EmptyState icon={ResultsIcon} tone="warning">
          <p role="alert">{slScreens.states.error}</p>
        </EmptyState>
      ) : rows.length === 0 ? (
        <EmptyState icon={ResultsIcon}>
          <p>{sl.screens.results.empty}</p>
        </EmptyState>
      ) : (
        <>
          <fieldset className={allFarmers ? 'filters filters--four card' : 'filters card'}>
            <legend>{t.filters}</legend>
            {allFarmers ? (
              <label className="field">
                <span className="field__label">{t.farmer}</span>
                <select value={farmer} onChange={(e) => setFarmer(e.target.value)}>
                  <option value="all">{t.allFarmers}</option>
                  {farmerOptions.map((f) => (
                    <option key={f.id} value={String(f.id)}>
                      {f.name}
                    </option>
                  ))}
                </select>
              </label>
            ) : null}
            <label className="field">
              <span className="field__label">{t.season}</span>
              <select value={String(chosenSeason)} onChange={(e) => setSeason(e.target.value === 'all' ? 'all' : Number(e.target.value))}>
                {seasons.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name}
                  </option>
                ))}
                <option value="all">{t.allSeasons}</option>
              </select>
            </label>
            <label className="field">
              <span className="field__label">{t.area}</span>
              <select value={chosenArea} onChange={(e) => setArea(e.target.value)}>
                <option value="all">{t.allAreas}</option>
                {areas.map(([id, name]) => (
                  <option key={id} value={id}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
            <label className="field">
              <span className="field__label">{t.kind}</span>
              <select value={kind} onChange={(e) => setKind(e.target.value)}>
                <option value="all">{t.allKinds}</option>
                {kinds.map(([id, name]) => (
                  <option key={id} value={id}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
          </fieldset>
          {shown.length === 0 ? (
            <>
              <p className="muted">{t.none}</p>
              <SeasonChart rows={byFilters} />
            </>
          ) : (
            <>
              <table className="data-table results-table" aria-label={t.table}>
                <thead>
                  <tr>
                    <th scope="col">{t.path}</th>
                    {allFarmers ? <th scope="col">{t.farmer}</th> : null}
                    <th scope="col">{t.score}</th>
                    <th scope="col">{t.lastSeason}</th>
                    <th scope="col">{t.change}</th>
                    <th scope="col">{t.explanation}</th>
                    <th scope="col">{t.area}</th>
                    <th scope="col">{t.season}</th>
                    <th scope="col">{t.kind}</th>
                  </tr>
                </thead>
                <tbody>
                  {shown.map((r) => (
                    <tr key={r.formId} data-testid={`result-${r.formId}`}>
                      <th scope="row" data-label={t.path}>
                        <a href={routeHref('path', { pathId: r.pathId })}>{r.pathName}</a>
                      </th>
                      {allFarmers ? (
                        <td data-label={t.farmer} data-testid="result-farmer">
                          {farmerOf(r)}
                        </td>
                      ) : null}
                      <td data-label={t.score}>
                        <ScoreBadge score={r.score} size="small" />
                      </td>
                      <td data-label={t.lastSeason}>{r.previous ? <ScoreBadge score={r.previous.score} size="small" /> : <span className="muted">–</span>}</td>
                      <td data-label={t.change}>
                        <Change row={r} />
                      </td>
                      <td data-label={t.explanation}>{r.explanation ? <FoldedScoreExplanation result={r.explanation} /> : null}</td>
                      <td data-label={t.area}>{r.areaName}</td>
                      <td data-label={t.season}>{r.seasonName}</td>
                      <td data-label={t.kind}>
                        <a href={routeHref('form', { formId: r.formId })}>{r.kindTitle}</a>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <SeasonChart rows={byFilters} />
              {allFarmers && farmer === 'all' ? (
                <SummaryTable
                  label={t.summaryFarmers}
                  nameHeader={t.farmer}
                  testId="summary-farmer"
                  items={summarise(shown, (r) => String(r.farmerId), farmerOf)}
                />
              ) : null}
              <SummaryTable label={t.summaryAreas} nameHeader={t.area} testId="summary-area" items={summarise(shown, (r) => String(r.areaId), areaLabel)} />
            </>
          )}
        </>
      )}
    </Page>
  );
}

/** A path's earlier seasons on the path screen: each season's score beside the current one. */
export function PathHistory({
  rows,
  currentDurationId,
  status,
  fromDevice = false,
}: {
  rows: ResultRow[] | null;
  currentDurationId: number | null;
  status: 'loading' | 'ready' | 'failed';
  fromDevice?: boolean;
}) {
  if (!rows) return status === 'failed' ? <p role="alert">{slScreens.states.error}</p> : <Loading inline />;
  const earlier = rows.filter((r) => r.durationId !== currentDurationId);
  // Read from the device only (offline): an empty list says what the device holds, not that the
  // server has nothing.
  if (!earlier.length) return <p className="muted">{fromDevice ? slPhone.history.onlineOnly : slScreens.paths.noPrevious}</p>;
  return (
    <ul className="row-list" data-testid="path-history">
      {earlier.map((r) => (
        <li key={r.formId} className="history-row">
          <div className="row-link">
            <span className="row-link__main">
              <span className="row-link__title">
                {r.seasonName} · {r.kindTitle}
              </span>
              {r.explanation ? <FoldedScoreExplanation result={r.explanation} /> : null}
            </span>
            <ScoreBadge score={r.score} size="small" />
          </div>
        </li>
      ))}
    </ul>
  );
}
