/**
 * The location-denied warning, for the layout (rendered once, under the header): while location
 * permission is denied it stays visible — no close button — until the permission is granted.
 */
import { sl } from '../../../common/i18n/sl';
import type { LocationEnv } from './location-permission';
import { useLocationPermission } from './use-location';

export interface LocationWarningProps {
  /** Injected in tests; the browser's APIs by default. */
  env?: LocationEnv;
  pollMs?: number;
}

// Inline so the warning looks right wherever the layout puts it, with no stylesheet to load.
const style = {
  background: '#fdecea',
  color: '#7f1d1d',
  border: '1px solid #e57373',
  borderRadius: 6,
  padding: '10px 12px',
  fontSize: 16,
  lineHeight: 1.4,
} as const;

export function LocationWarning({ env, pollMs }: LocationWarningProps) {
  const state = useLocationPermission(env, pollMs);
  if (state !== 'denied') return null;
  return (
    <div className="mt-location-warning" style={style} role="alert" data-testid="location-denied">
      {sl.location.denied}
    </div>
  );
}
