/**
 * The path screen's recorder section: correcting the stored line with Draw, or recording a walk.
 * The correction's state lives here (usePathCorrection): the line as it was when correcting began
 * (a reload meanwhile must not restart the drawing), whether the drawing differs from it and
 * whether a corrected walk waits in the recorder (both the leave guard), and the "saved" note.
 * The drawing tool and the recorder are features/map's, passed in by app/routes as slots.
 */
import { useCallback, useState, type ReactNode } from 'react';
import type { Geometry } from 'geojson';
import { slSetup } from '../../../common/i18n/sl';
import { Button } from '../../components/button/button';
import { useUnsavedChanges } from '../../components/confirm-leave/unsaved-changes';

export interface PathCorrection {
  /** The line being corrected (as it was when correcting began), or null. */
  correcting: Geometry | null;
  saved: boolean;
  begin: (line: Geometry | null) => void;
  /** The drawing changed: it counts as unsaved once it differs from the line it began with. */
  onChange: (geometry: Geometry | null) => void;
  /** The drawing closed: saved (the geometry, then `onSaved`) or cancelled (null). */
  onDone: (geometry: Geometry | null) => void;
  /** The walk recorder holds a corrected walk not saved yet. */
  onWalkCorrecting: (correcting: boolean) => void;
}

export function usePathCorrection(onSaved: () => void): PathCorrection {
  const [correcting, setCorrecting] = useState<Geometry | null>(null);
  const [corrected, setCorrected] = useState(false);
  const [saved, setSaved] = useState(false);
  const [walkCorrected, setWalkCorrected] = useState(false);
  useUnsavedChanges((correcting !== null && corrected) || walkCorrected);
  const onChange = useCallback(
    (geometry: Geometry | null) => setCorrected(correcting !== null && JSON.stringify(geometry) !== JSON.stringify(correcting)),
    [correcting],
  );
  return {
    correcting,
    saved,
    begin: (line) => {
      setSaved(false);
      setCorrecting(line);
    },
    onChange,
    onDone: (geometry) => {
      setCorrecting(null);
      setCorrected(false);
      setSaved(geometry !== null);
      if (geometry) onSaved();
    },
    onWalkCorrecting: setWalkCorrected,
  };
}

export interface PathRecorderProps {
  correction: PathCorrection;
  /** The stored path's line; a line (not a walk being recorded) can be corrected. */
  line: Geometry | null | undefined;
  /** A walk is being recorded (it has segments). */
  walking: boolean;
  /** The drawing tool over the line being corrected (features/map GeometryEditor); null without the path's record. */
  corrector: ((initial: Geometry) => ReactNode) | null;
  /** The walk recorder (features/map WalkRecorderPanel). */
  recorder: ReactNode;
}

export function PathRecorder({ correction, line, walking, corrector, recorder }: PathRecorderProps) {
  if (correction.correcting && corrector) return corrector(correction.correcting);
  // The recorder first: starting a walk is what a farmer at the meadow came for; correcting the
  // line is rarer.
  return (
    <>
      {recorder}
      {line && (line.type === 'LineString' || line.type === 'MultiLineString') && !walking ? (
        <div className="mt-recorder__actions">
          <Button kind="secondary" text={slSetup.paths.correct} onClick={() => correction.begin(line)} />
        </div>
      ) : null}
      {correction.saved ? <p role="status">{slSetup.paths.corrected}</p> : null}
    </>
  );
}
