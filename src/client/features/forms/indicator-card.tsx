/**
 * One indicator of a form: its picture and name, the answer, a note, an optional location (the
 * current position or a tap on the map), photos, and for editors the archive action.
 */
import { useCallback, useId, useState } from 'react';
import { slPhone, slReviewFarmer, slScreens } from '../../../common/i18n/sl';
import type { AppConfig, IndicatorDefinition } from '../../../common/schemas/config';
import { ArchiveButton } from '../../components/archive-button/archive-button';
import { Button } from '../../components/button/button';
import { MapIcon } from '../../components/icons/icons';
import type { ResizeEnv } from '../../lib/image/resize';
import { ValueInput } from './answer-fields';
import type { IndicatorDraft, NewPhoto } from './form-draft';
import { IndicatorPhotos } from './indicator-photos';

export interface IndicatorCardProps {
  config: AppConfig;
  def: IndicatorDefinition;
  draft: IndicatorDraft;
  recordId: number | null;
  error?: string;
  /** The indicator a review is about (a returned form opens here): marked, with a word for screen readers. */
  highlight?: boolean;
  readOnly: boolean;
  online: boolean;
  /** The same function between renders while the indicator is the same (the photos' callbacks follow it). */
  onChange: (patch: Partial<IndicatorDraft>) => void;
  onPickOnMap?: () => void;
  /** Editors: archive this indicator's stored row. */
  onArchive?: () => Promise<void>;
  getPosition: () => Promise<[number, number]>;
  resizeEnv?: ResizeEnv;
}

export function IndicatorCard({
  config,
  def,
  draft,
  recordId,
  error,
  highlight = false,
  readOnly,
  online,
  onChange,
  onPickOnMap,
  onArchive,
  getPosition,
  resizeEnv,
}: IndicatorCardProps) {
  const t = slScreens.forms;
  const [locError, setLocError] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const moreId = useId();
  const errorId = error ? `err-${def.key}` : undefined;
  const filled = draft.value !== '' && draft.value !== undefined && draft.value !== null;
  const extras = draft.note !== '' || draft.location !== null || draft.photos.length > 0;
  // The same functions while the photos stay the same, so a tap on the answer skips the photos.
  const { photos } = draft;
  const addPhoto = useCallback((photo: NewPhoto) => onChange({ photos: [...photos, photo] }), [onChange, photos]);
  const removePhoto = useCallback((tempId: string) => onChange({ photos: photos.filter((p) => p.tempId !== tempId) }), [onChange, photos]);
  return (
    <li
      className={[
        'indicator',
        def.valueKind === 'presence' ? 'indicator--row' : '',
        filled ? 'indicator--filled' : '',
        error ? 'indicator--error' : '',
        highlight ? 'indicator--highlight' : '',
      ].join(' ')}
      data-highlight={highlight ? 'true' : undefined}
      data-testid={`indicator-${def.key}`}
    >
      {/* The plant's name opens the rest (description, note, location, photos): the row itself stays
          one line of picture, names and answer, so a phone screen shows several to answer. */}
      <button
        type="button"
        className={extras ? 'indicator__head indicator__head--has-more' : 'indicator__head'}
        aria-expanded={open}
        aria-controls={moreId}
        onClick={() => setOpen((wasOpen) => !wasOpen)}
      >
        {def.image ? <img className="indicator__img" src={def.image} alt="" width={64} height={64} loading="lazy" /> : null}
        <span className="indicator__names">
          <span className="indicator__name">
            {def.name}
            {def.required ? (
              <>
                <span className="required" aria-hidden="true">
                  {' '}
                  *
                </span>
                <span className="visually-hidden"> {slPhone.form.required}</span>
              </>
            ) : null}
          </span>
          {def.latin ? <i className="indicator__latin">{def.latin}</i> : null}
          {highlight ? <span className="indicator__flag">{slReviewFarmer.review.flagged}</span> : null}
          {/* On a narrow phone only screen readers hear it: the chevron shows that the name opens. */}
          <span className="indicator__hint visually-hidden shown-wide">
            {t.more} · {t.note} · {t.location} · {t.photos}
          </span>
        </span>
      </button>
      <ValueInput def={def} value={draft.value} readOnly={readOnly} onChange={(value) => onChange({ value })} errorId={errorId} />
      {error ? (
        <p className="field__error" id={errorId} role="alert">
          {error}
        </p>
      ) : null}
      <div className="indicator__more" id={moreId} hidden={!open}>
        <p className="indicator__desc">{def.description}</p>
        <label className="field">
          <span className="field__label">{t.note}</span>
          <input type="text" value={draft.note} readOnly={readOnly} onChange={(e) => onChange({ note: e.target.value })} />
        </label>
        <div className="location">
          <span className="field__label">{t.location}</span>
          {draft.location ? (
            <p data-testid="location-value">{t.locationSet(draft.location[1].toFixed(5).replace('.', ','), draft.location[0].toFixed(5).replace('.', ','))}</p>
          ) : null}
          {!readOnly ? (
            <div className="location__actions">
              <Button
                size="small"
                kind="secondary"
                text={t.useMyLocation}
                onClick={() => {
                  setLocError(null);
                  getPosition()
                    .then((location) => onChange({ location }))
                    .catch(() => setLocError(t.locationFailed));
                }}
              />
              {onPickOnMap ? <Button size="small" kind="secondary" icon={MapIcon} text={t.pickOnMap} onClick={onPickOnMap} /> : null}
              {draft.location ? <Button size="small" kind="ghost" text={t.removeLocation} onClick={() => onChange({ location: null })} /> : null}
            </div>
          ) : null}
          {locError ? <p role="alert">{locError}</p> : null}
        </div>
        <IndicatorPhotos
          config={config}
          indicatorName={def.name}
          recordId={recordId}
          photos={photos}
          online={online}
          readOnly={readOnly}
          onAdd={addPhoto}
          onRemove={removePhoto}
          resizeEnv={resizeEnv}
        />
      </div>
      {onArchive && !readOnly && recordId !== null ? (
        <div className="indicator__archive">
          <ArchiveButton
            text={slScreens.archive.indicator}
            title={slScreens.archive.indicatorTitle}
            confirm={slScreens.archive.indicatorConfirm(def.name)}
            onArchive={onArchive}
          />
        </div>
      ) : null}
    </li>
  );
}
