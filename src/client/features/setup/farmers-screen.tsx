/**
 * Farmers: create and edit (name, e-mail, phone, KMG-MID), archive; e-mail and KMG-MID are unique
 * in the project (checked here and by the server). Once a farmer is on the server, the editor sees
 * the sign-in account and the activation link (AccountPanel, online only).
 */
import { useState } from 'react';
import { slScreens, slSetup } from '../../../common/i18n/sl';
import { Button } from '../../components/button/button';
import { useUnsavedChanges } from '../../components/confirm-leave/unsaved-changes';
import type { StoredRecord } from '../../lib/db/database';
import { columnKey } from '../../lib/db/refs';
import { AccountPanel } from './account-panel';
import { DraftForm, RefusedNotes, RowActions, SaveMessage, SetupSection, TextField, prop, type SetupScreenProps } from './setup-parts';
import { farmerProblem, type FarmerDraft } from './setup-rules';

const EMPTY: FarmerDraft = { name: '', email: '', phone: '', kmgMid: '' };

export function FarmersSetupScreen({ config, rows, loaded, readOnly, online, save, refused }: SetupScreenProps) {
  const col = (name: string) => columnKey(config, 'farmers', name);
  const [draft, setDraft] = useState<FarmerDraft | null>(null);
  // The farmer whose account is shown (after a save, or chosen in the list), by e-mail: unique,
  // and unchanged when the outbox delivers an offline-made farmer and the row gets its server id.
  const [selected, setSelected] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  useUnsavedChanges(draft !== null);
  const live = rows.filter((r) => !r.archived).sort((a, b) => prop(config, 'farmers', a, 'name').localeCompare(prop(config, 'farmers', b, 'name'), 'sl'));
  const p = (row: StoredRecord | undefined, column: string) => prop(config, 'farmers', row, column);

  const open = (row?: StoredRecord) => {
    setSaved(false);
    setError(null);
    setSelected(row ? p(row, 'email') : null);
    setDraft(row ? { id: row.id, name: p(row, 'name'), email: p(row, 'email'), phone: p(row, 'phone'), kmgMid: p(row, 'kmg_mid') } : EMPTY);
  };

  const submit = async () => {
    if (!draft) return;
    const problem = farmerProblem(draft, rows, { email: col('email'), kmgMid: col('kmg_mid') });
    setError(problem);
    if (problem) return;
    const properties = { [col('name')]: draft.name.trim(), [col('email')]: draft.email.trim(), [col('phone')]: draft.phone.trim(), [col('kmg_mid')]: draft.kmgMid.trim() };
    setBusy(true);
    try {
      const base = { projectId: config.projectId, tableId: config.tables.farmers.id };
      await save([draft.id === undefined ? { ...base, kind: 'insert', properties } : { ...base, kind: 'update', id: draft.id, properties }]);
      setSelected(draft.email.trim());
      setDraft(null);
      setSaved(true);
    } catch (e) {
      setError(e instanceof Error && e.message ? e.message : slScreens.states.saveFailed);
    } finally {
      setBusy(false);
    }
  };

  const selectedRow = selected === null ? undefined : live.find((r) => p(r, 'email').toLowerCase() === selected.toLowerCase());
  return (
    <div className="setup">
      <RefusedNotes refused={refused} />
      <SaveMessage error={draft ? null : error} saved={saved && !draft} online={online} />
      {draft ? (
        <SetupSection title={draft.id === undefined ? slSetup.farmers.add : draft.name || slSetup.farmers.title}>
          <DraftForm onSubmit={() => void submit()} onCancel={() => setDraft(null)} busy={busy} error={error} online={online}>
            <TextField label={slSetup.farmers.name} name="name" value={draft.name} onChange={(name) => setDraft({ ...draft, name })} />
            <TextField label={slSetup.farmers.email} name="email" type="email" value={draft.email} onChange={(email) => setDraft({ ...draft, email })} />
            <TextField label={slSetup.farmers.phone} name="phone" type="tel" value={draft.phone} onChange={(phone) => setDraft({ ...draft, phone })} />
            <TextField label={slSetup.farmers.kmgMid} name="kmg_mid" value={draft.kmgMid} onChange={(kmgMid) => setDraft({ ...draft, kmgMid })} />
          </DraftForm>
        </SetupSection>
      ) : null}
      {selectedRow && !draft && !readOnly ? (
        <SetupSection title={p(selectedRow, 'name')}>
          <AccountPanel farmerId={selectedRow.id} online={online} />
        </SetupSection>
      ) : null}
      <SetupSection title={slSetup.farmers.title} actions={readOnly || draft ? null : <Button text={slSetup.farmers.add} onClick={() => open()} />}>
        {!loaded ? null : live.length === 0 ? (
          <p>{slSetup.common.none}</p>
        ) : (
          <table className="data-table setup__table">
            <thead>
              <tr>
                <th scope="col">{slSetup.farmers.name}</th>
                <th scope="col">{slSetup.farmers.email}</th>
                <th scope="col">{slSetup.farmers.phone}</th>
                <th scope="col">{slSetup.farmers.kmgMid}</th>
                {readOnly ? null : (
                  <th scope="col">
                    <span className="visually-hidden">{slSetup.common.edit}</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {live.map((row) => (
                <tr key={row.id} data-testid={`farmer-${row.id}`}>
                  <th scope="row">{p(row, 'name')}</th>
                  <td data-label={slSetup.farmers.email}>{p(row, 'email')}</td>
                  <td data-label={slSetup.farmers.phone}>{p(row, 'phone')}</td>
                  <td data-label={slSetup.farmers.kmgMid}>{p(row, 'kmg_mid')}</td>
                  {readOnly ? null : (
                    <td className="setup__actions-cell">
                      <RowActions
                        onEdit={() => open(row)}
                        archiveConfirm={slSetup.farmers.archiveConfirm(p(row, 'name'))}
                        onArchive={async () => {
                          await save([{ kind: 'archive', projectId: config.projectId, tableId: config.tables.farmers.id, id: row.id }]);
                        }}
                      >
                        <Button kind="secondary" size="small" text={slSetup.farmers.accountButton} onClick={() => setSelected(p(row, 'email'))} />
                      </RowActions>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </SetupSection>
    </div>
  );
}
