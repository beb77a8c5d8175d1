/**
 * Farmers: create and edit (name, e-mail, phone, KMG-MID), archive; e-mail and KMG-MID are unique
 * in the project (checked here and by the server). Once a farmer is on the server, the editor sees
 * the sign-in account and the activation link (AccountPanel, online only).
 */
import { useState } from 'react';
import { slSetup } from '../../../common/i18n/sl';
import type { ColumnName } from '../../../common/schemas/project';
import { Button } from '../../components/button/button';
import { archiveEdit } from '../../lib/db/archive-edit';
import type { StoredRecord } from '../../lib/db/database';
import { readRow, toProperties } from '../../lib/db/model';
import { AccountPanel } from './account-panel';
import {
  DraftForm,
  RefusedNotes,
  RowActions,
  SaveMessage,
  SetupSection,
  SetupTable,
  TextField,
  prop,
  useAddressedEditor,
  useSetupDraft,
  type SetupScreenProps,
} from './setup-parts';
import { farmerProblem, type FarmerDraft } from './setup-rules';

const EMPTY: FarmerDraft = { name: '', email: '', phone: '', kmgMid: '' };

export function FarmersSetupScreen(props: SetupScreenProps) {
  const { config, rows, loaded, readOnly, online, save, refused, openId, go } = props;
  const { draft, setDraft, error, saved, busy, open, close, submit } = useSetupDraft<FarmerDraft>();
  // The farmer whose account is shown (after a save, or chosen in the list), by e-mail: unique,
  // and unchanged when the outbox delivers an offline-made farmer and the row gets its server id.
  const [selected, setSelected] = useState<string | null>(null);
  const live = rows.filter((r) => !r.archived).sort((a, b) => prop(config, 'farmers', a, 'name').localeCompare(prop(config, 'farmers', b, 'name'), 'sl'));
  const p = (row: StoredRecord | undefined, column: ColumnName<'farmers'>) => prop(config, 'farmers', row, column);

  const edit = (row?: StoredRecord) => {
    setSelected(row ? p(row, 'email') : null);
    open(row ? { name: p(row, 'name'), email: p(row, 'email'), phone: p(row, 'phone'), kmgMid: p(row, 'kmg_mid') } : EMPTY);
  };

  useAddressedEditor(props, draft !== null, edit, close);
  /** The farmer being edited (the id the row has now); null for a new one. */
  const editing = typeof openId === 'number' ? openId : null;

  const store = (d: FarmerDraft) =>
    submit(
      farmerProblem(
        editing === null ? d : { ...d, id: editing },
        rows.map((r) => readRow(config, 'farmers', r)),
      ),
      async () => {
        const properties = toProperties(config, 'farmers', { name: d.name.trim(), email: d.email.trim(), phone: d.phone.trim(), kmg_mid: d.kmgMid.trim() });
        const base = { projectId: config.projectId, tableId: config.tables.farmers.id };
        await save([editing === null ? { ...base, kind: 'insert', properties } : { ...base, kind: 'update', id: editing, properties }]);
        setSelected(d.email.trim());
      },
    );

  const selectedRow = selected === null ? undefined : live.find((r) => p(r, 'email').toLowerCase() === selected.toLowerCase());
  return (
    <div className="setup">
      <RefusedNotes refused={refused} />
      <SaveMessage error={draft ? null : error} saved={saved && !draft} online={online} />
      {draft ? (
        <SetupSection title={editing === null ? slSetup.farmers.add : draft.name || slSetup.farmers.title}>
          <DraftForm onSubmit={() => void store(draft)} onCancel={close} busy={busy} error={error} online={online}>
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
      {/* A new farmer only once the device's are read: its e-mail and KMG-MID are checked against them. */}
      <SetupSection
        title={slSetup.farmers.title}
        actions={readOnly || draft || !loaded ? null : <Button text={slSetup.farmers.add} onClick={() => go('new')} />}
      >
        {!loaded ? null : live.length === 0 ? (
          <p>{slSetup.common.none}</p>
        ) : (
          <SetupTable
            columns={[slSetup.farmers.name, slSetup.farmers.email, slSetup.farmers.phone, slSetup.farmers.kmgMid]}
            rows={live}
            testId={(row) => `farmer-${row.id}`}
            cells={(row) => [p(row, 'name'), p(row, 'email'), p(row, 'phone'), p(row, 'kmg_mid')]}
            actions={
              readOnly
                ? undefined
                : (row) => (
                    <RowActions
                      onEdit={() => go(row.id)}
                      archiveConfirm={slSetup.farmers.archiveConfirm(p(row, 'name'))}
                      onArchive={() => save([archiveEdit(config, 'farmers', row.id)]).then(() => undefined)}
                    >
                      <Button kind="secondary" size="small" text={slSetup.farmers.accountButton} onClick={() => setSelected(p(row, 'email'))} />
                    </RowActions>
                  )
            }
          />
        )}
      </SetupSection>
    </div>
  );
}
