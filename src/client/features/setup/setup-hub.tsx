/** The editors' set-up menu: one card per set-up screen (readers see the same screens read-only). */
import { slAudit, slSetup } from '../../../common/i18n/sl';
import { routeHref } from '../../lib/links';

const SETUP_LINKS = [
  { href: routeHref('setup-seasons'), label: slSetup.seasons.title, lead: slSetup.seasons.lead },
  { href: routeHref('setup-farmers'), label: slSetup.farmers.title, lead: slSetup.farmers.lead },
  { href: routeHref('setup-areas'), label: slSetup.areas.title, lead: slSetup.areas.lead },
  { href: routeHref('setup-paths'), label: slSetup.paths.title, lead: slSetup.paths.lead },
  { href: routeHref('setup-import'), label: slSetup.import.title, lead: slSetup.import.lead, editorsOnly: true },
  { href: routeHref('setup-audit'), label: slAudit.title, lead: slAudit.lead, editorsOnly: true },
] as const;

export function SetupHub({ readOnly }: { readOnly: boolean }) {
  return (
    <div className="setup">
      {readOnly ? <p role="status">{slSetup.hub.readOnly}</p> : null}
      <ul className="setup__hub">
        {SETUP_LINKS.filter((link) => !(readOnly && 'editorsOnly' in link)).map((link) => (
          <li key={link.href}>
            <a className="card setup__hub-link" href={link.href}>
              <strong>{link.label}</strong>
              <span>{link.lead}</span>
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
