/**
 * Shown when the session cannot be renewed and the server is reachable: sign in again. Queued
 * edits stay on the device meanwhile (the text says so); offline the banner is not shown at all.
 */
import { slAuth } from '../../../../common/i18n/sl';
import { Button } from '../../../components/button/button';
import { useAppSelector } from '../../../app/hooks';
import { selectSignInNeeded } from '../auth-slice';
import { getAuthClient } from '../auth-session';

export function SignInBanner({ reachable }: { reachable: boolean }) {
  const needed = useAppSelector(selectSignInNeeded);
  if (!needed || !reachable) return null;
  return (
    <div className="sign-in-banner" role="status">
      <p>{slAuth.session.signInAgain}</p>
      <Button text={slAuth.session.signIn} onClick={() => void getAuthClient()?.login()} />
    </div>
  );
}
