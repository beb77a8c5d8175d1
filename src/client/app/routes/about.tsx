/**
 * About ('/about'): version, what the app is for, how offline work goes, whom to contact.
 * and who is signed in, with sign-out, storage used, sync state and the QA export.
 */
import { sl, slAuth } from '../../../common/i18n/sl';
import { Button } from '../../components/button/button';
import { LogoIcon } from '../../components/icons/icons';
import { selectAuthUser, signOut } from '../../features/auth';
import { useAppDispatch, useAppSelector } from '../hooks';
import { Page } from '../../components/page/page';
import { APP_VERSION } from '../version';
import { ActionLogExport, ActionLogImport } from '../../features/qa';
import { AboutStorage } from './about-storage';
import { makeStore } from '../store'; // the log import replays into stores made like the app's
import type { ScreenProps } from '../router/routes';

export default function AboutScreen(_props: ScreenProps) {
  const about = sl.screens.about;
  const user = useAppSelector(selectAuthUser);
  const dispatch = useAppDispatch();
  return (
    <Page title={about.title}>
      <div className="about-brand">
        <LogoIcon size={64} />
        <div>
          <p className="about-brand__name">{sl.common.appName}</p>
          <p className="about-brand__version">
            {sl.app.version} <span data-testid="app-version">{APP_VERSION}</span>
          </p>
        </div>
      </div>
      <div className="card">
        <h2>{about.purposeTitle}</h2>
        <p>{about.purpose}</p>
      </div>
      <div className="card">
        <h2>{about.offlineTitle}</h2>
        <p>{about.offline}</p>
      </div>
      {user ? (
        <div className="card card--row">
          <p>
            {about.signedInAs} <strong data-testid="signed-in-user">{user.email}</strong>
          </p>
          {/* Sign-out asks first when edits still wait to be sent (SignOutDialog in the layout). */}
          <Button kind="secondary" text={slAuth.session.signOut} onClick={() => void dispatch(signOut())} />
        </div>
      ) : null}
      <div className="card">
        <h2>{about.contactTitle}</h2>
        <p>
          {about.contact} <a href={`mailto:${about.contactEmail}`}>{about.contactEmail}</a>.
        </p>
      </div>
      <AboutStorage /> {/* storage used and sync state */}
      <ActionLogExport appVersion={APP_VERSION} /> {/* QA action log export */}
      <ActionLogImport makeStore={makeStore} /> {/* replay an imported log; test builds / qa.replayImport only */}
    </Page>
  );
}
