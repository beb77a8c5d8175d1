/**
 * About (seed §2 '/about'): version, what the app is for, how offline work goes, whom to contact.
 * Issue 7 adds storage used, sync state and the QA action-log export.
 */
import { sl } from '../../../common/i18n/sl';
import { LogoIcon } from '../../components/icons/icons';
import { Page } from '../../components/page/page';
import { APP_VERSION } from '../version';
import { ActionLogExport } from '../../features/qa/action-log-export'; // H7
import type { ScreenProps } from '../router/routes';

export default function AboutScreen(_props: ScreenProps) {
  const about = sl.screens.about;
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
      <div className="card">
        <h2>{about.contactTitle}</h2>
        <p>
          {about.contact} <a href={`mailto:${about.contactEmail}`}>{about.contactEmail}</a>.
        </p>
      </div>
      <ActionLogExport appVersion={APP_VERSION} /> {/* H7: QA action log export (issue 8) */}
    </Page>
  );
}
