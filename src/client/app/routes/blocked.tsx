/** Shown when a route guard blocks the screen (reader on an edit screen, no farmer record). */
import { sl } from '../../../common/i18n/sl';
import { Button } from '../../components/button/button';
import { EmptyState } from '../../components/empty-state/empty-state';
import { HomeIcon, LockIcon } from '../../components/icons/icons';
import { Page } from '../../components/page/page';
import type { Blocked } from '../router/guards';
import { routeHref } from '../../lib/links';

export function BlockedScreen({ blocked }: { blocked: Blocked }) {
  return (
    <Page title={sl.router.blockedTitle}>
      <EmptyState
        icon={LockIcon}
        tone="warning"
        action={
          blocked.reason === 'farmer-record-missing' ? (
            <Button href={routeHref('about')} kind="secondary" text={sl.header.about} />
          ) : (
            <Button href={routeHref('home')} icon={HomeIcon} text={sl.router.backHome} />
          )
        }
      >
        <p data-blocked-reason={blocked.reason}>{blocked.message}</p>
      </EmptyState>
    </Page>
  );
}
