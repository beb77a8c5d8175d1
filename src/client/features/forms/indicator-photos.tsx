/**
 * Photos of one indicator: those already stored (on the device waiting to be sent, and on the
 * server when online — thumbnails come with the attachment list as data: URLs) and the new ones
 * taken in this session. New photos are taken with the phone's camera (`capture=environment`),
 * resized to JPEG off the page's main thread (lib/image/resize-off-page) and kept in the draft
 * until the form is saved.
 */
import { memo, useEffect, useMemo, useState } from 'react';
import { slScreens } from '../../../common/i18n/sl';
import type { AppConfig } from '../../../common/schemas/config';
import { useOfflineDb } from '../../app/hooks';
import { useAttachmentInfoQuery } from '../../lib/api/records';
import type { AttachmentRow } from '../../lib/db/database';
import { isLocalId } from '../../../common/record-id';
import type { ResizeEnv } from '../../lib/image/resize';
import { resizePhoto } from '../../lib/image/resize-off-page';
import type { NewPhoto } from './form-draft';

/** Longest side of a stored photo: sharp enough to tell plant species apart, small enough for slow uploads. */
export const PHOTO_MAX_SIDE = 1600;

function useObjectUrls(blobs: Blob[]): string[] {
  const urls = useMemo(() => blobs.map((b) => (typeof URL.createObjectURL === 'function' ? URL.createObjectURL(b) : '')), [blobs]);
  useEffect(() => () => urls.forEach((u) => u && URL.revokeObjectURL(u)), [urls]);
  return urls;
}

function useDeviceAttachments(tableId: number, recordId: number | null): AttachmentRow[] {
  const db = useOfflineDb();
  const [rows, setRows] = useState<AttachmentRow[]>([]);
  useEffect(() => {
    if (recordId === null) return undefined;
    let cancelled = false;
    void db.attachments
      .where('[tableId+featureId]')
      .equals([tableId, recordId])
      .toArray()
      .then((list) => {
        if (!cancelled) setRows(list.filter((r) => r.isDelete !== 1));
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [tableId, recordId, db]);
  return rows;
}

export interface IndicatorPhotosProps {
  config: AppConfig;
  indicatorName: string;
  recordId: number | null;
  photos: NewPhoto[];
  online: boolean;
  readOnly: boolean;
  onAdd: (photo: NewPhoto) => void;
  onRemove: (tempId: string) => void;
  /** Browser image APIs for a resize on the page (tests pass stand-ins; jsdom cannot decode images). */
  resizeEnv?: ResizeEnv;
}

let photoCounter = 0;

/** Memoised: a tap on the indicator's answer does not render its photos (and their queries) again. */
export const IndicatorPhotos = memo(function IndicatorPhotos({
  config,
  indicatorName,
  recordId,
  photos,
  online,
  readOnly,
  onAdd,
  onRemove,
  resizeEnv,
}: IndicatorPhotosProps) {
  const t = slScreens.forms;
  const tableId = config.tables.indicators.id;
  const slot = config.tables.indicators.attachments?.photos;
  const device = useDeviceAttachments(tableId, recordId);
  const server = useAttachmentInfoQuery(
    { projectId: config.projectId, recordId: recordId ?? 0, tableAttachmentInfoId: slot ?? 0, thumb: true },
    { skip: !online || recordId === null || isLocalId(recordId) || slot === undefined },
  );
  const deviceBlobs = useMemo(() => device.filter((r) => r.data).map((r) => new Blob([r.data!], { type: r.mimeType })), [device]);
  const deviceUrls = useObjectUrls(deviceBlobs);
  const newBlobs = useMemo(() => photos.map((p) => p.blob), [photos]);
  const newUrls = useObjectUrls(newBlobs);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (slot === undefined) return null;
  const serverList = (server.data?.attachments ?? []).filter((a) => !device.some((d) => d.id === a.id));

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    setError(null);
    try {
      const blob = await resizePhoto(file, { maxSide: PHOTO_MAX_SIDE }, resizeEnv);
      photoCounter += 1;
      const base = file.name.replace(/\.[^.]+$/, '') || 'foto';
      onAdd({ tempId: `p${Date.now()}-${photoCounter}`, name: `${base}.jpg`, blob });
    } catch {
      setError(t.photoFailed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="photos">
      <span className="field__label">{t.photos}</span>
      <ul className="photos__list">
        {serverList.map((a) => (
          <li key={`s${a.id}`}>
            {a.thumbnail ? <img src={a.thumbnail} alt={t.photoAlt(indicatorName)} width={72} height={72} /> : <span className="photos__file">{a.name}</span>}
          </li>
        ))}
        {device.map((a, i) => (
          <li key={`d${a.id}`}>
            {deviceUrls[i] ? (
              <img src={deviceUrls[i]} alt={t.photoAlt(indicatorName)} width={72} height={72} />
            ) : (
              <span className="photos__file">{a.name}</span>
            )}
            {a.isInsert ? <span className="photos__pending small">{t.photoPending}</span> : null}
          </li>
        ))}
        {photos.map((p, i) => (
          <li key={p.tempId} data-testid="new-photo">
            {newUrls[i] ? <img src={newUrls[i]} alt={t.photoAlt(indicatorName)} width={72} height={72} /> : <span className="photos__file">{p.name}</span>}
            {!readOnly ? (
              <button type="button" className="photos__remove" aria-label={t.removePhoto} onClick={() => onRemove(p.tempId)}>
                ×
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {!readOnly ? (
        <label
          className={
            busy ? 'btn btn--secondary btn--small btn--radius-medium btn--disabled photos__add' : 'btn btn--secondary btn--small btn--radius-medium photos__add'
          }
        >
          <span className="btn__text">{busy ? slScreens.forms.saving : t.addPhoto}</span>
          <input
            className="visually-hidden"
            type="file"
            accept="image/*"
            capture="environment"
            aria-label={`${t.addPhoto}: ${indicatorName}`}
            disabled={busy}
            onChange={(e) => {
              void onFile(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
        </label>
      ) : null}
      {error ? <p role="alert">{error}</p> : null}
    </div>
  );
});
