/**
 * One path (seed §2 '/paths/{pathId}'). Placeholder until issues 6 and 7: the map, walk
 * recording, this season's duration-path and its forms, previous seasons' results.
 */
import { sl } from '../../../common/i18n/sl';
import { Button } from '../../components/button/button';
import { EmptyState } from '../../components/empty-state/empty-state';
import { BackIcon, MapIcon } from '../../components/icons/icons';
import { Page } from '../../components/page/page';
import type { ScreenProps } from '../router/routes';

export default function PathScreen({ params }: ScreenProps) {
  return (
    <Page
      title={`${sl.screens.path.title} ${params.pathId ?? ''}`.trim()}
      lead={sl.screens.path.lead}
      back={<Button href="#/paths" kind="ghost" icon={BackIcon} text={sl.nav.paths} />}
    >
      <dl className="facts">
        <dt>{sl.screens.path.idLabel}</dt>
        <dd data-testid="path-id">{params.pathId}</dd>
      </dl>
      <EmptyState icon={MapIcon}>
        <p>{sl.screens.path.empty}</p>
      </EmptyState>
    </Page>
  );
}
