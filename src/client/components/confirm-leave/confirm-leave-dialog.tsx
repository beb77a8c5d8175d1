/** The leave-confirmation dialog: the exact leave text (sl.ts), "stay" focused first so Enter is safe. */
import { useRef } from 'react';
import { sl } from '../../../common/i18n/sl';
import { Button } from '../button/button';
import { Modal } from '../modal/modal';

export function ConfirmLeaveDialog({ onStay, onLeave }: { onStay: () => void; onLeave: () => void }) {
  const stayRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      alert
      size="small"
      title={sl.confirmLeave.title}
      onClose={onStay}
      initialFocusRef={stayRef}
      footer={
        <>
          <Button ref={stayRef} kind="secondary" text={sl.confirmLeave.stay} onClick={onStay} />
          <Button kind="danger" text={sl.confirmLeave.leave} onClick={onLeave} />
        </>
      }
    >
      <p>{sl.leavePage.confirm}</p>
    </Modal>
  );
}
