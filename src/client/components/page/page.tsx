/**
 * The frame of one screen: a heading (the target of focus after navigation), an optional lead
 * paragraph and actions, then the content. Screens use it so they all look alike.
 */
import { useEffect, useRef, type ReactNode } from 'react';

export interface PageProps {
  title: ReactNode;
  lead?: ReactNode;
  /** Buttons shown beside the title on wide screens and below it on phones. */
  actions?: ReactNode;
  /** A back link shown above the title (e.g. from one path to the list). */
  back?: ReactNode;
  children?: ReactNode;
  className?: string;
}

export function Page({ title, lead, actions, back, children, className }: PageProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  // After a screen change the router parks focus on <main id="main">; the new heading takes it
  // over when it appears (also after a lazy chunk loaded), so screen readers announce the title.
  useEffect(() => {
    if (document.activeElement?.id === 'main') headingRef.current?.focus({ preventScroll: true });
  }, []);
  return (
    <section className={['page', className ?? ''].filter(Boolean).join(' ')}>
      {back ? <div className="page__back">{back}</div> : null}
      <div className="page__head">
        <div className="page__titles">
          <h1 ref={headingRef} className="page__title" tabIndex={-1} data-page-title="">
            {title}
          </h1>
          {lead ? <p className="page__lead">{lead}</p> : null}
        </div>
        {actions ? <div className="page__actions">{actions}</div> : null}
      </div>
      {children}
    </section>
  );
}
