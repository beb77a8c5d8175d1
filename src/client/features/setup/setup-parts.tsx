/** What every set-up screen shares: its props from the route, labelled fields, messages. */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { sl, slScreens, slSetup } from '../../../common/i18n/sl';
import type { AppConfig } from '../../../common/schemas/config';
import type { ColumnName, TableKey } from '../../../common/schemas/project';
import type { StoredRecord } from '../../lib/db/database';
import type { LocalEdit, SavedEdit } from '../../lib/db/outbox';
import { readRow } from '../../lib/db/model';
import { ArchiveButton } from '../../components/archive-button/archive-button';
import { Button } from '../../components/button/button';
import { useUnsavedChanges } from '../../components/confirm-leave/unsaved-changes';

/** An outbox item of this screen's table the server refused, with its (Slovenian) reason. */
export interface RefusedEdit {
  id: number;
  message: string;
}

/** The record a set-up screen's address opens in its editor ('new' for a new one); null on the list. */
export type OpenRecord = number | 'new' | null;

export interface SetupScreenProps {
  config: AppConfig;
  rows: StoredRecord[];
  loaded: boolean;
  /** Readers look; only editors change. */
  readOnly: boolean;
  online: boolean;
  /** Saves the edits in order through the outbox; resolves once they are stored on the device. */
  save: (edits: LocalEdit[]) => Promise<SavedEdit[]>;
  refused: RefusedEdit[];
  /** The record the address opens (the router gives the id it has now: the server's once delivered). */
  openId: OpenRecord;
  /** Goes to a record's editor, or back to the list (null), by its address. */
  go: (to: OpenRecord) => void;
}

/**
 * A set-up screen's editor follows its address ('/setup/areas/{recordId}', 'new' for a new row),
 * so a reload, a bookmark or the back button lands where the editor was:
 * - the address opens the editor of its row (`openRow`) once the rows are read; a row that is
 *   gone (archived, unknown) sends the address back to the list;
 * - the editor closing (saved, cancelled) sends the address back to the list;
 * - the address going back to the list (the back button; leaving a draft asks first) closes it.
 * The screen stays mounted throughout (the routes share their screen), and an open editor stays
 * open when the router moves the address on to a delivered record's server id.
 */
export function useAddressedEditor(props: SetupScreenProps, editorOpen: boolean, openRow: (row?: StoredRecord) => void, close: () => void): void {
  const { openId, go, rows, loaded, readOnly } = props;
  /** The record whose editor this address opened (followed to its server id while open). */
  const shown = useRef<OpenRecord>(null);
  useEffect(() => {
    if (openId === null || readOnly) {
      shown.current = null;
      if (editorOpen) close();
      return;
    }
    if (editorOpen) {
      shown.current = openId;
      return;
    }
    if (shown.current !== null) {
      go(null);
      return;
    }
    if (!loaded) return;
    const row = openId === 'new' ? undefined : rows.find((r) => r.id === openId && !r.archived);
    if (openId !== 'new' && !row) {
      go(null);
      return;
    }
    shown.current = openId;
    openRow(row);
  });
}

/**
 * The draft a set-up screen edits and the state of its save: leaving with a draft open asks first,
 * and the draft closes only once its edits are stored on the device.
 */
export function useSetupDraft<D>() {
  const [draft, setDraft] = useState<D | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  useUnsavedChanges(draft !== null);
  const open = (next: D) => {
    setSaved(false);
    setError(null);
    setDraft(next);
  };
  /** Shows the draft's problem (Slovenian, or null) and saves only without one. */
  const submit = async (problem: string | null, store: () => Promise<unknown>) => {
    setError(problem);
    if (problem) return;
    setBusy(true);
    try {
      await store();
      setDraft(null);
      setSaved(true);
    } catch (e) {
      setError(e instanceof Error && e.message ? e.message : slScreens.states.saveFailed);
    } finally {
      setBusy(false);
    }
  };
  return { draft, setDraft, error, saved, busy, open, close: () => setDraft(null), submit };
}

/** A row's column as the text an input shows ('' when it has none). */
export function prop<T extends TableKey>(config: AppConfig, table: T, row: StoredRecord | undefined, column: ColumnName<T>): string {
  const value: unknown = row ? readRow(config, table, row)[column] : null;
  return value === null || value === undefined ? '' : String(value);
}

export function TextField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: string;
  required?: boolean;
  disabled?: boolean;
  name?: string;
  /** A line under the label saying what the field means. */
  hint?: string;
  inputMode?: 'numeric' | 'decimal' | 'text' | 'email' | 'tel';
}) {
  const { label, value, onChange, type = 'text', required, disabled, name, hint, inputMode } = props;
  return (
    <label className="field">
      <span className="field__label">{label}</span>
      {hint ? <span className="field__hint">{hint}</span> : null}
      <input type={type} name={name} value={value} required={required} disabled={disabled} inputMode={inputMode} onChange={(e) => onChange(e.target.value)} />
    </label>
  );
}

export function SelectField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: Array<{ value: string; label: string }>;
  placeholder?: string;
  name?: string;
}) {
  const { label, value, onChange, options, placeholder, name } = props;
  return (
    <label className="field">
      <span className="field__label">{label}</span>
      <select name={name} value={value} onChange={(e) => onChange(e.target.value)}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The outcome of the last save: an error (role=alert) or where the edit is now (role=status). */
export function SaveMessage({ error, saved, online }: { error: string | null; saved: boolean; online: boolean }) {
  if (error)
    return (
      <p className="field__error setup__error" role="alert">
        {error}
      </p>
    );
  if (saved) return <p role="status">{online ? slSetup.common.saved : slSetup.common.savedOffline}</p>;
  return null;
}

/** Edits of this table the server refused: its reason stays visible until the editor acts on it. */
export function RefusedNotes({ refused }: { refused: RefusedEdit[] }) {
  if (!refused.length) return null;
  return (
    <div className="setup__refused" role="alert">
      {refused.map((r) => (
        <p key={`${r.id}-${r.message}`}>
          {slSetup.common.refused}: {r.message}
        </p>
      ))}
    </div>
  );
}

export function SetupSection({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="card setup__section">
      <div className="setup__section-head">
        <h2>{title}</h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** A set-up draft's form: its fields, the last save's error, then save and cancel. */
export function DraftForm(props: { onSubmit: () => void; onCancel: () => void; busy: boolean; error: string | null; online: boolean; children: ReactNode }) {
  return (
    <form
      className="setup__form"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit();
      }}
    >
      {props.children}
      <SaveMessage error={props.error} saved={false} online={props.online} />
      <div className="form-actions">
        <Button type="submit" text={sl.common.save} disabled={props.busy} />
        <Button kind="secondary" text={sl.common.cancel} onClick={props.onCancel} />
      </div>
    </form>
  );
}

/**
 * The list of a set-up table without a map: a table on a wide screen, cards on a phone (each cell
 * labelled by its column). The first column heads its row; editors get an actions cell.
 */
export function SetupTable(props: {
  columns: string[];
  rows: StoredRecord[];
  testId: (row: StoredRecord) => string;
  cells: (row: StoredRecord) => ReactNode[];
  actions?: (row: StoredRecord) => ReactNode;
}) {
  const { columns, rows, testId, cells, actions } = props;
  return (
    <table className="data-table setup__table">
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c} scope="col">
              {c}
            </th>
          ))}
          {actions ? (
            <th scope="col">
              <span className="visually-hidden">{slSetup.common.edit}</span>
            </th>
          ) : null}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const [head, ...rest] = cells(row);
          return (
            <tr key={row.id} data-testid={testId(row)}>
              <th scope="row">{head}</th>
              {rest.map((cell, i) => (
                <td key={columns[i + 1]} data-label={columns[i + 1]}>
                  {cell}
                </td>
              ))}
              {actions ? <td className="setup__actions-cell">{actions(row)}</td> : null}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** An item of a set-up list beside the map: its name, a line of details, and the editor's actions. */
export function SetupListItem(props: { testId: string; name: string; details: ReactNode; actions: ReactNode }) {
  return (
    <li className="setup__item" data-testid={props.testId}>
      <div>
        <strong>{props.name}</strong>
        <span>{props.details}</span>
      </div>
      {props.actions}
    </li>
  );
}

/** A set-up list row's actions: edit, any action of the row's own (`children`), archive after confirming. */
export function RowActions(props: { onEdit: () => void; archiveConfirm: string; onArchive: () => Promise<void>; children?: ReactNode }) {
  return (
    <div className="setup__row-actions">
      <Button kind="secondary" size="small" text={slSetup.common.edit} onClick={props.onEdit} />
      {props.children}
      <ArchiveButton text={slSetup.common.archive} title={slSetup.common.archive} confirm={props.archiveConfirm} onArchive={props.onArchive} />
    </div>
  );
}
