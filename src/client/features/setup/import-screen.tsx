/**
 * Import of farmers (CSV) and meadows (GeoJSON, GeoPackage, zipped Shapefile) for editors, online
 * only: choose the kind and the file → the server's preview (its columns and a guessed mapping)
 * → the editor confirms the mapping → a dry run shows per row what would be created, updated or
 * refused and why → "Uvozi" commits, all or nothing (the server refuses the commit while any row
 * is refused).
 */
import { useState } from 'react';
import { slSetup } from '../../../common/i18n/sl';
import { Button } from '../../components/button/button';
import type { ApiError } from '../../lib/api/base-query';
import { SelectField, SetupSection } from './setup-parts';
import {
  useImportCommitMutation,
  useImportDryRunMutation,
  useImportPreviewMutation,
  type ImportKind,
  type ImportMapping,
  type ImportPreview,
} from './setup-api';
import type { ImportReport } from '../../../common/schemas/wire';

const ACCEPT: Record<ImportKind, string> = {
  farmers: '.csv,text/csv',
  areas: '.geojson,.json,.gpkg,.zip,application/geo+json,application/zip',
};

/** The Slovenian names of the columns an import fills (the server names them by column name). */
const TARGET_LABELS: Record<ImportKind, Record<string, string>> = {
  farmers: { name: slSetup.farmers.name, email: slSetup.farmers.email, phone: slSetup.farmers.phone, kmg_mid: slSetup.farmers.kmgMid },
  // The owner is given by the farmer's KMG-MID.
  areas: { name: slSetup.areas.name, gerk_pid: slSetup.areas.gerkPid, user: slSetup.areas.owner },
};

function failureText(error: unknown): string {
  const e = error as ApiError | undefined;
  return e?.detail ?? e?.message ?? slSetup.import.failed;
}

export function ImportScreen({ online }: { online: boolean }) {
  const [kind, setKind] = useState<ImportKind>('farmers');
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [mapping, setMapping] = useState<ImportMapping>({});
  const [report, setReport] = useState<ImportReport | null>(null);
  const [done, setDone] = useState<ImportReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [readPreview, previewState] = useImportPreviewMutation();
  const [dryRun, dryRunState] = useImportDryRunMutation();
  const [commit, commitState] = useImportCommitMutation();
  const busy = previewState.isLoading || dryRunState.isLoading || commitState.isLoading;

  const reset = () => {
    setPreview(null);
    setReport(null);
    setDone(null);
    setError(null);
  };

  const onPreview = async () => {
    reset();
    if (!file) return setError(slSetup.import.chooseFile);
    const result = await readPreview({ kind, file });
    if (result.error) return setError(failureText(result.error));
    setPreview(result.data);
    setMapping({ ...result.data.suggested });
  };

  const onDryRun = async () => {
    if (!file) return;
    setReport(null);
    setError(null);
    const result = await dryRun({ kind, file, mapping });
    if (result.error) return setError(failureText(result.error));
    setReport(result.data);
  };

  const onCommit = async () => {
    if (!file) return;
    setError(null);
    const result = await commit({ kind, file, mapping });
    if (result.error) {
      const status = (result.error as ApiError).status;
      return setError(status === 400 && report && report.refused > 0 ? slSetup.import.refusedRows : failureText(result.error));
    }
    setDone(result.data);
    setReport(null);
    setPreview(null);
  };

  if (!online)
    return (
      <p className="setup__offline" role="status">
        {slSetup.common.onlineOnly}
      </p>
    );

  const columnOptions = (preview?.targets ?? []).map((c) => ({ value: String(c.id), label: TARGET_LABELS[kind][c.name] ?? c.name }));
  return (
    <div className="setup">
      <SetupSection title={slSetup.import.file}>
        <form
          className="setup__form"
          onSubmit={(e) => {
            e.preventDefault();
            void onPreview();
          }}
        >
          <SelectField
            label={slSetup.import.kind}
            name="kind"
            value={kind}
            options={[
              { value: 'farmers', label: slSetup.import.kindFarmers },
              { value: 'areas', label: slSetup.import.kindAreas },
            ]}
            onChange={(value) => {
              setKind(value as ImportKind);
              reset();
            }}
          />
          <label className="field">
            <span className="field__label">{slSetup.import.file}</span>
            <input
              type="file"
              name="file"
              accept={ACCEPT[kind]}
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null);
                reset();
              }}
            />
          </label>
          <div className="form-actions">
            <Button type="submit" text={slSetup.import.preview} disabled={busy || !file} />
          </div>
        </form>
      </SetupSection>
      {error ? (
        <p className="field__error setup__error" role="alert">
          {error}
        </p>
      ) : null}
      {done ? <p role="status">{slSetup.import.committed(done.created, done.updated)}</p> : null}
      {preview ? (
        <SetupSection title={slSetup.import.mapping}>
          <p>{slSetup.import.mappingLead}</p>
          {preview.crs ? (
            <p>
              {slSetup.import.crs}: <strong>{preview.crs}</strong>
            </p>
          ) : null}
          <table className="data-table setup__table" data-testid="import-mapping">
            <thead>
              <tr>
                <th scope="col">{slSetup.import.source}</th>
                <th scope="col">{slSetup.import.sample}</th>
                <th scope="col">{slSetup.import.target}</th>
              </tr>
            </thead>
            <tbody>
              {preview.columns.map((source) => (
                <tr key={source}>
                  <th scope="row">{source}</th>
                  <td data-label={slSetup.import.sample}>{sampleOf(preview, source)}</td>
                  <td data-label={slSetup.import.target}>
                    <select
                      aria-label={`${slSetup.import.target}: ${source}`}
                      value={mapping[source] === null || mapping[source] === undefined ? '' : String(mapping[source])}
                      onChange={(e) => {
                        const picked = preview.targets.find((c) => String(c.id) === e.target.value);
                        setMapping({ ...mapping, [source]: picked ? picked.id : null });
                        setReport(null);
                      }}
                    >
                      <option value="">{slSetup.import.skip}</option>
                      {columnOptions.map((o) => (
                        <option key={o.value} value={o.value}>
                          {o.label}
                        </option>
                      ))}
                    </select>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="form-actions">
            <Button text={slSetup.import.dryRun} disabled={busy} onClick={() => void onDryRun()} />
          </div>
        </SetupSection>
      ) : null}
      {report ? (
        <SetupSection title={slSetup.import.report}>
          <p data-testid="import-counts">{slSetup.import.counts(report.created, report.updated, report.refused)}</p>
          <table className="data-table setup__table" data-testid="import-report">
            <thead>
              <tr>
                <th scope="col">{slSetup.import.row}</th>
                <th scope="col">{slSetup.import.action}</th>
                <th scope="col">{slSetup.import.key}</th>
                <th scope="col">{slSetup.import.reason}</th>
              </tr>
            </thead>
            <tbody>
              {report.rows.map((row) => (
                <tr key={row.row} className={row.action === 'refuse' ? 'setup__refused-row' : undefined}>
                  <th scope="row">{row.row}</th>
                  <td data-label={slSetup.import.action}>{slSetup.import.actions[row.action]}</td>
                  <td data-label={slSetup.import.key}>{row.key ?? ''}</td>
                  <td data-label={slSetup.import.reason}>{row.reason ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {report.refused > 0 ? <p role="alert">{slSetup.import.refusedRows}</p> : null}
          <div className="form-actions">
            <Button text={slSetup.import.commit} disabled={busy || report.refused > 0} onClick={() => void onCommit()} />
          </div>
        </SetupSection>
      ) : null}
    </div>
  );
}

function sampleOf(preview: ImportPreview, source: string): string {
  const values = preview.sample
    .map((row) => row[source])
    .filter((v) => v !== null && v !== undefined && v !== '')
    .slice(0, 2)
    .map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v)));
  return values.join(', ');
}
