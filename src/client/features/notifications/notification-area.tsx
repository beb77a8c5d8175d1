/**
 * The notification area. Errors go to an assertive live region (role=alert), the rest
 * to a polite one (role=status), so screen readers announce them without stealing focus.
 */
import { useCallback, useEffect } from 'react';
import { sl } from '../../../common/i18n/sl';
import { Button } from '../../components/button/button';
import { CloseIcon, ErrorIcon, InfoIcon, SuccessIcon } from '../../components/icons/icons';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { noticeDismissed, selectNotices, type Notice } from './notifications-slice';

const ICONS = { info: InfoIcon, success: SuccessIcon, error: ErrorIcon } as const;

function NoticeItem({ notice, onDismiss }: { notice: Notice; onDismiss: (id: string) => void }) {
  const { id, timeout } = notice;
  useEffect(() => {
    if (timeout === null) return undefined;
    const timer = setTimeout(() => onDismiss(id), timeout);
    return () => clearTimeout(timer);
  }, [id, timeout, onDismiss]);
  const Icon = ICONS[notice.kind];
  return (
    <li className={`notice notice--${notice.kind}`} data-kind={notice.kind}>
      <Icon size={24} title={sl.notifications[notice.kind]} />
      <p className="notice__message">{notice.message}</p>
      {notice.hasClose ? <Button icon={CloseIcon} kind="ghost" size="small" tooltip={sl.notifications.close} onClick={() => onDismiss(id)} /> : null}
    </li>
  );
}

export function NotificationArea() {
  const notices = useAppSelector(selectNotices);
  const dispatch = useAppDispatch();
  // Stable across renders so a notice's timer is not restarted when others come and go.
  const onDismiss = useCallback((id: string) => dispatch(noticeDismissed(id)), [dispatch]);
  const errors = notices.filter((n) => n.kind === 'error');
  const others = notices.filter((n) => n.kind !== 'error');
  return (
    <section className="notification-area" aria-label={sl.notifications.region}>
      <ul className="notification-area__list" role="alert" aria-live="assertive">
        {errors.map((n) => (
          <NoticeItem key={n.id} notice={n} onDismiss={onDismiss} />
        ))}
      </ul>
      <ul className="notification-area__list" role="status" aria-live="polite">
        {others.map((n) => (
          <NoticeItem key={n.id} notice={n} onDismiss={onDismiss} />
        ))}
      </ul>
    </section>
  );
}
