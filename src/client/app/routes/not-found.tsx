/** Shown for a hash path that matches no route (eager: it must work even when chunks do not). */
import { sl } from '../../../common/i18n/sl';
import { Button } from '../../components/button/button';
import { EmptyState } from '../../components/empty-state/empty-state';
import { HomeIcon, SearchOffIcon } from '../../components/icons/icons';
import { Page } from '../../components/page/page';
import { routeHref } from '../../lib/links';

export function NotFoundScreen({ path }: { path: string }) {
  return (
    <Page title={sl.router.notFoundTitle}>
      <EmptyState
        icon={SearchOffIcon}
        title={<code className="path-code">#{path}</code>}
        action={<Button href={routeHref('home')} icon={HomeIcon} text={sl.router.backHome} />}
      >
        <p>{sl.router.notFoundText}</p>
      </EmptyState>
    </Page>
  );
}
