/** The link from a set-up screen back to the set-up menu. */
import { slSetup } from '../../../common/i18n/sl';
import { Button } from '../../components/button/button';
import { BackIcon } from '../../components/icons/icons';
import { routeHref } from '../../lib/links';

export function SetupBack() {
  return <Button href={routeHref('setup')} kind="ghost" icon={BackIcon} text={slSetup.common.back} />;
}
