/**
 * The notice dialog: titled 'Obvestilo', shown in required mode (it cannot be
 * dismissed) while a new version waits. Accepting activates it and reloads the page.
 */
import { createContext, useContext } from 'react';
import { sl } from '../../../common/i18n/sl';
import { Button } from '../../components/button/button';
import { SyncIcon } from '../../components/icons/icons';
import { Modal } from '../../components/modal/modal';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { selectUpdateAccepted, selectUpdateReady, updateAccepted } from './app-update-slice';
import type { AppUpdater } from './app-updater';

export const AppUpdaterContext = createContext<AppUpdater | null>(null);

export function UpdateDialog() {
  const ready = useAppSelector(selectUpdateReady);
  const accepted = useAppSelector(selectUpdateAccepted);
  const updater = useContext(AppUpdaterContext);
  const dispatch = useAppDispatch();
  if (!ready) return null;
  return (
    <Modal
      required
      alert
      size="small"
      title={sl.update.title}
      footer={
        <Button
          icon={SyncIcon}
          text={accepted ? sl.common.loading : sl.update.accept}
          disabled={accepted}
          onClick={() => {
            dispatch(updateAccepted());
            updater?.accept();
          }}
        />
      }
    >
      <p>{sl.update.message}</p>
    </Modal>
  );
}
