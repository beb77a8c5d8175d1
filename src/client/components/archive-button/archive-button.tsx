/**
 * An archive button with its confirmation dialog (editors archive records): nothing
 * happens until the dialog's own archive button is pressed; cancel, Escape or the backdrop close
 * it with nothing changed. A failed `onArchive` shows the Slovenian save-failed message.
 */
import { useState } from 'react';
import { sl, slScreens } from '../../../common/i18n/sl';
import { Button } from '../button/button';
import { Modal } from '../modal/modal';

export interface ArchiveButtonProps {
  /** Text of both buttons (the one that opens the dialog and the one that archives). */
  text: string;
  title: string;
  confirm: string;
  onArchive: () => Promise<void>;
}

export function ArchiveButton({ text, title, confirm, onArchive }: ArchiveButtonProps) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <Button kind="danger" size="small" text={text} onClick={() => setOpen(true)} />
      {error ? <p role="alert">{error}</p> : null}
      {open ? (
        <Modal
          title={title}
          alert
          size="small"
          onClose={() => setOpen(false)}
          footer={
            <>
              <Button kind="secondary" text={sl.common.cancel} onClick={() => setOpen(false)} />
              <Button
                kind="danger"
                text={text}
                onClick={() => {
                  setOpen(false);
                  setError(null);
                  onArchive().catch(() => setError(slScreens.states.saveFailed));
                }}
              />
            </>
          }
        >
          <p>{confirm}</p>
        </Modal>
      ) : null}
    </>
  );
}
