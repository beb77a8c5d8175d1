/**
 * The sync panel (docs/architecture.md, Sync rules): how many edits wait, the last successful sync, and every item
 * that needs the user — failed ones (server message, "Poskusi znova" / "Zavrzi spremembo") and
 * conflicts ("Obdrži mojo različico" / "Prevzemi različico s strežnika"). Nothing leaves the
 * outbox without one of these clicks or the server's acknowledgement. The header opens it.
 */
import { formatDateTime } from '../../../../common/format';
import { sl, slSync } from '../../../../common/i18n/sl';
import { Button } from '../../../components/button/button';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { selectConfig } from '../../../lib/config/config-slice';
import { attentionDetails } from '../attention-details';
import { selectIsOnline } from '../connectivity-slice';
import { selectAttentionItems, selectLastSyncAt, selectPendingCount, selectRetryAt, selectSyncAuthRequired, type AttentionItem } from '../sync-slice';
import { conflictKeptMine, conflictTookTheirs, failedItemDiscarded, failedItemRetried, lockedEditDiscarded, lockedEditSentAsComment } from '../sync-thunks';

function ItemRow({ item }: { item: AttentionItem }) {
  const dispatch = useAppDispatch();
  const config = useAppSelector(selectConfig);
  const conflict = item.status === 'conflict';
  const { record, reason, detail, differences, locked } = attentionDetails(config, item);
  return (
    <li className={`sync-panel__item sync-panel__item--${item.status}`} data-testid={`sync-item-${item.seq}`}>
      <div className="sync-panel__item-title">
        <strong>{conflict ? slSync.sync.conflict : slSync.sync.failed}</strong>: {slSync.sync.kinds[item.kind]}
      </div>
      <div className="sync-panel__item-record" data-testid="sync-item-record">
        {record}
      </div>
      <div className="sync-panel__item-message">
        {reason}
        {detail ? (
          <span className="sync-panel__item-detail">
            {' '}
            {slSync.sync.details}: {detail}
          </span>
        ) : null}
      </div>
      {conflict && differences.length ? (
        <table className="sync-panel__differences">
          <thead>
            <tr>
              <th scope="col">{slSync.sync.field}</th>
              <th scope="col">{slSync.sync.yours}</th>
              <th scope="col">{slSync.sync.theirs}</th>
            </tr>
          </thead>
          <tbody>
            {differences.map((difference) => (
              <tr key={difference.column}>
                <th scope="row">{difference.column}</th>
                <td>{difference.yours}</td>
                <td>{difference.theirs}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {locked?.values.length ? (
        <table className="sync-panel__differences">
          <thead>
            <tr>
              <th scope="col">{slSync.sync.field}</th>
              <th scope="col">{slSync.sync.lockedValues}</th>
            </tr>
          </thead>
          <tbody>
            {locked.values.map((value) => (
              <tr key={value.column}>
                <th scope="row">{value.column}</th>
                <td>{value.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {conflict && !locked && item.current !== undefined && !differences.length ? <p className="sync-panel__item-message">{slSync.sync.sameValues}</p> : null}
      <div className="sync-panel__item-actions">
        {locked ? (
          // Keeping mine would only be refused again while the form is under review.
          <>
            <Button text={slSync.sync.sendAsComment} onClick={() => void dispatch(lockedEditSentAsComment(item.seq))} />
            <Button kind="secondary" text={slSync.sync.discardMine} onClick={() => void dispatch(lockedEditDiscarded(item.seq))} />
          </>
        ) : conflict ? (
          <>
            <Button text={slSync.sync.keepMine} onClick={() => void dispatch(conflictKeptMine(item.seq))} />
            <Button kind="secondary" text={slSync.sync.takeTheirs} onClick={() => void dispatch(conflictTookTheirs(item.seq))} />
          </>
        ) : (
          <>
            <Button text={slSync.sync.retry} onClick={() => void dispatch(failedItemRetried(item.seq))} />
            <Button kind="danger" text={slSync.sync.discard} onClick={() => void dispatch(failedItemDiscarded(item.seq))} />
          </>
        )}
      </div>
    </li>
  );
}

export function SyncPanel() {
  const pending = useAppSelector(selectPendingCount);
  const lastSyncAt = useAppSelector(selectLastSyncAt);
  const items = useAppSelector(selectAttentionItems);
  const authRequired = useAppSelector(selectSyncAuthRequired);
  const retryAt = useAppSelector(selectRetryAt);
  const online = useAppSelector(selectIsOnline);
  return (
    <section className="sync-panel" aria-label={slSync.sync.panelTitle}>
      <h2>{slSync.sync.panelTitle}</h2>
      <p data-testid="sync-last">
        {slSync.sync.lastSync}: {lastSyncAt ? formatDateTime(lastSyncAt) : slSync.sync.neverSynced}
      </p>
      {/* An edit the server refused is not sent: "all sent" only when nothing waits for the user either. */}
      <p data-testid="sync-pending">
        {pending > 0 ? sl.header.pendingEdits(pending) : items.length > 0 ? sl.header.needsDecision(items.length) : slSync.sync.allSent}
      </p>
      {authRequired ? <p role="status">{slSync.sync.signInRequired}</p> : null}
      {!authRequired && pending > 0 && (!online || retryAt !== null) ? <p role="status">{slSync.sync.backingOff}</p> : null}
      {items.length ? (
        <ul className="sync-panel__items">
          {items.map((item) => (
            <ItemRow key={item.seq} item={item} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}
