/** features/notifications: short notices (saved, sent, failed) and where the layout shows them. */
export { noticeShown, notificationsSlice } from './notifications-slice';
export { NotificationArea } from './notification-area';
