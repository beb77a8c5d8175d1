/**
 * A farmer's new transect on their own meadow ('/paths/new?area=ID'): drawn with Mapbox GL Draw or
 * walked (the walk recorder creates the path when the walk is saved). Both go through the outbox,
 * offline too. The map, the drawing tool and the recorder are features/map's, passed in by
 * app/routes as slots.
 */
import { useMemo, type ReactNode } from 'react';
import { slSetup } from '../../../common/i18n/sl';
import type { AppConfig } from '../../../common/schemas/config';
import { Button } from '../../components/button/button';
import { BackIcon } from '../../components/icons/icons';
import { Page } from '../../components/page/page';
import type { StoredRecord } from '../../lib/db/database';
import { routeHref } from '../../lib/links';
import type { DrawSlots } from './draw-slots';
import { PathForm, type PathDraft } from './path-form';
import { pathEdit } from './paths-setup-screen';
import type { SetupScreenProps } from './setup-parts';

export interface OwnPathScreenProps extends DrawSlots {
  config: AppConfig;
  /** The season's meadows (archived ones are left out here). */
  areas: readonly StoredRecord[];
  hasData: boolean;
  /** The meadow chosen before (the address's `area`), or ''. */
  areaId: string;
  save: SetupScreenProps['save'];
  onCancel: () => void;
  onDone: (pathId: number) => void;
  /** The walk recorder for the drafted path: `createPath` saves the path, `finish` once the walk is saved. */
  renderWalk: (draft: PathDraft, createPath: () => Promise<number>, finish: (pathId: number) => void) => ReactNode;
}

export function OwnPathScreen({ config, areas: all, hasData, areaId, save, onCancel, onDone, renderWalk, renderMap, renderDraw }: OwnPathScreenProps) {
  const areas = useMemo(() => all.filter((a) => !a.archived), [all]);
  const start = useMemo<PathDraft>(() => ({ name: '', areaId, how: 'draw', initial: null }), [areaId]);
  const back = <Button href={routeHref('paths')} kind="ghost" icon={BackIcon} text={slSetup.paths.title} />;
  return (
    <Page title={slSetup.paths.newForFarmer} lead={slSetup.paths.newForFarmerLead} back={back}>
      {hasData && areas.length === 0 ? (
        <p>{slSetup.paths.noAreas}</p>
      ) : (
        <PathForm
          config={config}
          areas={areas}
          draft={start}
          walkLabel={slSetup.paths.howWalkSelf}
          renderMap={renderMap}
          renderDraw={renderDraw}
          onCancel={onCancel}
          onSave={async (draft, geometry) => (await save([pathEdit(config, draft, geometry)]))[0]?.id}
          onDone={onDone}
          walkSlot={(draft, finish) => (
            <section className="card">
              <p>{slSetup.paths.walkNext}</p>
              {renderWalk(
                draft,
                async () => {
                  const [saved] = await save([pathEdit(config, draft, null)]);
                  if (!saved) throw new Error(slSetup.common.refused);
                  return saved.id;
                },
                finish,
              )}
            </section>
          )}
        />
      )}
    </Page>
  );
}
