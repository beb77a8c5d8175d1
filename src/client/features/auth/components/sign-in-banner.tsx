/**
 * Shown when the session cannot be renewed and the server is reachable: sign in again (token
 * mode: to the login page; basic mode: the form right here). Queued edits stay on the device
 * meanwhile (the text says so); offline the banner is not shown at all.
 */
import { slAuth } from '../../../../common/i18n/sl';
import { Button } from '../../../components/button/button';
import { useAppSelector } from '../../../app/hooks';
import { selectConfig } from '../../../lib/config/config-slice';
import { selectSignInNeeded } from '../auth-slice';
import { getActiveSession } from '../auth-session';
import { BasicSignInForm } from './basic-sign-in-form';

export function SignInBanner({ reachable }: { reachable: boolean }) {
  const needed = useAppSelector(selectSignInNeeded);
  const config = useAppSelector(selectConfig);
  if (!needed || !reachable) return null;
  if (config?.auth.mode === 'basic') {
    return (
      <div className="sign-in-banner" role="region" aria-label={slAuth.session.signIn}>
        <BasicSignInForm projectId={config.projectId} />
      </div>
    );
  }
  return (
    <div className="sign-in-banner" role="status">
      <p>{slAuth.session.signInAgain}</p>
      <Button text={slAuth.session.signIn} onClick={() => void getActiveSession()?.login()} />
    </div>
  );
}
