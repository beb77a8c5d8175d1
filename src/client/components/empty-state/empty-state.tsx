/** A designed empty (or blocked, or not-found) state: icon, short title, text and an action. */
import type { ComponentType, ReactNode } from 'react';
import type { IconProps } from '../icons/icons';

export interface EmptyStateProps {
  icon?: ComponentType<IconProps>;
  title?: ReactNode;
  children?: ReactNode;
  action?: ReactNode;
  tone?: 'neutral' | 'warning';
}

export function EmptyState({ icon: Icon, title, children, action, tone = 'neutral' }: EmptyStateProps) {
  return (
    <div className={`empty-state empty-state--${tone}`}>
      {Icon ? (
        <div className="empty-state__icon">
          <Icon size={40} />
        </div>
      ) : null}
      {title ? <p className="empty-state__title">{title}</p> : null}
      {children ? <div className="empty-state__text">{children}</div> : null}
      {action ? <div className="empty-state__action">{action}</div> : null}
    </div>
  );
}
