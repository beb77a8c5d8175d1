export { notificationsSlice, noticeShown, noticeDismissed, noticesCleared, selectNotices } from './notifications-slice';
export type { Notice, NoticeInput, NoticeKind, NotificationsState } from './notifications-slice';
export { NotificationArea } from './notification-area';
