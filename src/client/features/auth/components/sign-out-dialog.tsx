/**
 * Asks what to do when sign-out would delete edits that have not reached the server yet:
 * sync first (the app wires `onSyncFirst` to the outbox drain), sign out anyway, or cancel.
 */
import { slAuth } from '../../../../common/i18n/sl';
import { sl } from '../../../../common/i18n/sl';
import { Button } from '../../../components/button/button';
import { Modal } from '../../../components/modal/modal';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { selectSignOutPendingEdits, signOutCancelled } from '../auth-slice';
import { signOut } from '../sign-out';

export function SignOutDialog({ onSyncFirst }: { onSyncFirst: () => void }) {
  const dispatch = useAppDispatch();
  const pending = useAppSelector(selectSignOutPendingEdits);
  if (pending === null) return null;
  const close = () => dispatch(signOutCancelled());
  return (
    <Modal
      title={slAuth.session.pendingTitle}
      alert
      onClose={close}
      footer={
        <>
          <Button
            text={slAuth.session.syncFirst}
            onClick={() => {
              close();
              onSyncFirst();
            }}
          />
          <Button kind="danger" text={slAuth.session.signOutAnyway} onClick={() => void dispatch(signOut({ force: true }))} />
          <Button kind="secondary" text={sl.common.cancel} onClick={close} />
        </>
      }
    >
      <p>{slAuth.session.pendingMessage.replace('{count}', String(pending))}</p>
    </Modal>
  );
}
