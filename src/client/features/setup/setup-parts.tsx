/** What every set-up screen shares: its props from the route, labelled fields, messages. */
import type { ReactNode } from 'react';
import { sl, slSetup } from '../../../common/i18n/sl';
import type { AppConfig } from '../../../common/schemas/config';
import type { TableKey } from '../../../common/schemas/project';
import type { StoredRecord } from '../../lib/db/database';
import type { LocalEdit, SavedEdit } from '../../lib/db/outbox';
import { columnKey } from '../../lib/db/refs';
import { ArchiveButton } from '../../components/archive-button/archive-button';
import { Button } from '../../components/button/button';

/** An outbox item of this screen's table the server refused, with its (Slovenian) reason. */
export interface RefusedEdit {
  id: number;
  message: string;
}

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
}

/** A row's text property by column name. */
export function prop(config: AppConfig, table: TableKey, row: StoredRecord | undefined, column: string): string {
  const value = row?.properties[columnKey(config, table, column)];
  return value === null || value === undefined ? '' : String(value);
}

export function TextField(props: { label: string; value: string; onChange: (value: string) => void; type?: string; required?: boolean; disabled?: boolean; name?: string }) {
  const { label, value, onChange, type = 'text', required, disabled, name } = props;
  return (
    <label className="field">
      <span className="field__label">{label}</span>
      <input type={type} name={name} value={value} required={required} disabled={disabled} onChange={(e) => onChange(e.target.value)} />
    </label>
  );
}

export function SelectField(props: { label: string; value: string; onChange: (value: string) => void; options: Array<{ value: string; label: string }>; placeholder?: string; name?: string }) {
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
  if (error) return <p className="field__error setup__error" role="alert">{error}</p>;
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
