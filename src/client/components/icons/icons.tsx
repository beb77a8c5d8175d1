/**
 * Inline SVG icons (docs/architecture.md, Look and feel: nothing is loaded from the internet, so the first offline start
 * looks like an online one). Every icon is decorative (aria-hidden) unless it gets a `title`,
 * which then names it for screen readers. Icons draw with currentColor so they follow the text.
 */
import { useId, type ReactNode, type SVGProps } from 'react';

export interface IconProps extends Omit<SVGProps<SVGSVGElement>, 'children'> {
  /** Pixel size of the square icon (default 24). */
  size?: number;
  /** Accessible name; without it the icon is hidden from assistive technology. */
  title?: string;
}

function makeIcon(displayName: string, body: ReactNode, viewBox = '0 0 24 24') {
  function Icon({ size = 24, title, ...rest }: IconProps) {
    return (
      <svg
        width={size}
        height={size}
        viewBox={viewBox}
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
        focusable="false"
        className="icon"
        data-icon={displayName}
        {...(title ? { role: 'img', 'aria-label': title } : { 'aria-hidden': true })}
        {...rest}
      >
        {title ? <title>{title}</title> : null}
        {body}
      </svg>
    );
  }
  Icon.displayName = displayName;
  return Icon;
}

/** The app logo: meadow, sun and a meadow-sage flower (same drawing as public/icons/icon.svg). */
export function LogoIcon({ size = 40, title, ...rest }: IconProps) {
  // The meadow reaches the tile's edge: clip it to the rounded square (ids must be unique per use).
  const clipId = `logo-clip-${useId().replace(/[^A-Za-z0-9_-]/g, '')}`;
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 512 512"
      focusable="false"
      className="icon icon--logo"
      data-icon="logo"
      {...(title ? { role: 'img', 'aria-label': title } : { 'aria-hidden': true })}
      {...rest}
    >
      {title ? <title>{title}</title> : null}
      <clipPath id={clipId}>
        <rect width="512" height="512" rx="112" />
      </clipPath>
      <g clipPath={`url(#${clipId})`}>
        <rect width="512" height="512" fill="#1f5f2a" />
        <circle cx="372" cy="150" r="54" fill="#f4d35e" />
        <path d="M0 350 C110 290 210 300 290 330 C370 360 440 340 512 300 V400 H0Z" fill="#3e8e41" />
        <path d="M0 400 C130 360 260 370 512 392 V512 H0Z" fill="#5aa83f" />
        <g stroke="#d9f0c6" strokeWidth="14" strokeLinecap="round" fill="none">
          <path d="M120 440 C118 400 106 372 86 350" />
          <path d="M150 440 C152 398 166 368 190 346" />
          <path d="M340 440 C338 408 330 386 314 368" />
          <path d="M370 440 C372 410 384 388 404 372" />
        </g>
        <path d="M256 448 V262" stroke="#d9f0c6" strokeWidth="16" strokeLinecap="round" />
        <g fill="#a77fe0">
          <ellipse cx="256" cy="196" rx="30" ry="44" />
          <ellipse cx="214" cy="232" rx="30" ry="40" transform="rotate(-50 214 232)" />
          <ellipse cx="298" cy="232" rx="30" ry="40" transform="rotate(50 298 232)" />
        </g>
        <circle cx="256" cy="236" r="18" fill="#f4d35e" />
      </g>
    </svg>
  );
}

/** Speech bubble with an "i": information and notes ("comment info"). */
export const CommentInfoIcon = makeIcon(
  'comment-info',
  <>
    <path d="M21 12a8 8 0 0 1-11.6 7.1L4 20.5l1.4-4.6A8 8 0 1 1 21 12z" />
    <path d="M12 11v5" />
    <path d="M12 7.5h.01" strokeWidth={2.6} />
  </>,
);

/** Wi-Fi crossed out: offline ("no wifi"). */
export const NoWifiIcon = makeIcon(
  'no-wifi',
  <>
    <path d="M2 2l20 20" />
    <path d="M8.5 16.4a5 5 0 0 1 7 0" />
    <path d="M5 12.9a10 10 0 0 1 5.2-2.7" />
    <path d="M19 12.9a10 10 0 0 0-2.3-1.6" />
    <path d="M1.5 9.3a15 15 0 0 1 4.3-2.7" />
    <path d="M22.5 9.3A15 15 0 0 0 10.7 5" />
    <path d="M12 20h.01" strokeWidth={2.6} />
  </>,
);

/** Wi-Fi: online. */
export const WifiIcon = makeIcon(
  'wifi',
  <>
    <path d="M8.5 16.4a5 5 0 0 1 7 0" />
    <path d="M5 12.9a10 10 0 0 1 14 0" />
    <path d="M1.5 9.3a15 15 0 0 1 21 0" />
    <path d="M12 20h.01" strokeWidth={2.6} />
  </>,
);

/** Arrow into a tray: download offline data ("download"). */
export const DownloadIcon = makeIcon(
  'download',
  <>
    <path d="M12 3v12" />
    <path d="M7 10l5 5 5-5" />
    <path d="M4 17v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2" />
  </>,
);

export const InfoIcon = makeIcon(
  'info',
  <>
    <circle cx="12" cy="12" r="9.5" />
    <path d="M12 11v6" />
    <path d="M12 7.5h.01" strokeWidth={2.6} />
  </>,
);

export const SuccessIcon = makeIcon(
  'success',
  <>
    <circle cx="12" cy="12" r="9.5" />
    <path d="M7.5 12.5l3 3 6-6.5" />
  </>,
);

export const ErrorIcon = makeIcon(
  'error',
  <>
    <path d="M10.3 3.9L2.4 17.5A2 2 0 0 0 4.1 20.5h15.8a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z" />
    <path d="M12 9v4.5" />
    <path d="M12 17h.01" strokeWidth={2.6} />
  </>,
);

export const CloseIcon = makeIcon(
  'close',
  <>
    <path d="M6 6l12 12" />
    <path d="M18 6L6 18" />
  </>,
);

export const BackIcon = makeIcon(
  'back',
  <>
    <path d="M15 5l-7 7 7 7" />
  </>,
);

export const ChevronRightIcon = makeIcon('chevron-right', <path d="M9 5l7 7-7 7" />);

export const HomeIcon = makeIcon(
  'home',
  <>
    <path d="M3 11l9-7 9 7" />
    <path d="M5 10v10h5v-6h4v6h5V10" />
  </>,
);

/** A walked line between two markers: paths (transects). */
export const PathIcon = makeIcon(
  'path',
  <>
    <circle cx="5" cy="19" r="2" />
    <circle cx="19" cy="5" r="2" />
    <path d="M6.5 17.5C9 14 8 11 11 10s5 0 6.5-3.5" strokeDasharray="2.5 2.5" />
  </>,
);

/** A clipboard with ticks: forms. */
export const FormIcon = makeIcon(
  'form',
  <>
    <rect x="5" y="4" width="14" height="17" rx="2" />
    <path d="M9 4V3h6v1" />
    <path d="M8.5 10l1.5 1.5 2.5-2.5" />
    <path d="M14.5 10.5H16" />
    <path d="M8.5 15.5l1.5 1.5 2.5-2.5" />
    <path d="M14.5 16H16" />
  </>,
);

/** Bar chart: results. */
export const ResultsIcon = makeIcon(
  'results',
  <>
    <path d="M4 20h16" />
    <path d="M7 16v-5" />
    <path d="M12 16V6" />
    <path d="M17 16v-8" />
  </>,
);

/** Two arrows in a circle: sync. */
export const SyncIcon = makeIcon(
  'sync',
  <>
    <path d="M20 11a8 8 0 0 0-14.3-4.3L4 8.5" />
    <path d="M4 4v4.5h4.5" />
    <path d="M4 13a8 8 0 0 0 14.3 4.3L20 15.5" />
    <path d="M20 20v-4.5h-4.5" />
  </>,
);

export const LockIcon = makeIcon(
  'lock',
  <>
    <rect x="5" y="11" width="14" height="10" rx="2" />
    <path d="M8 11V7.5a4 4 0 0 1 8 0V11" />
  </>,
);

export const PlusIcon = makeIcon(
  'plus',
  <>
    <path d="M12 5v14" />
    <path d="M5 12h14" />
  </>,
);

/** A folded map: map screens and downloaded areas. */
export const MapIcon = makeIcon(
  'map',
  <>
    <path d="M3 6.5l6-2.5 6 2.5 6-2.5v13.5l-6 2.5-6-2.5-6 2.5z" />
    <path d="M9 4v13.5" />
    <path d="M15 6.5V20" />
  </>,
);

/** A magnifier over a question: nothing found. */
export const SearchOffIcon = makeIcon(
  'search-off',
  <>
    <circle cx="10.5" cy="10.5" r="6.5" />
    <path d="M15.5 15.5L21 21" />
    <path d="M8 8l5 5" />
    <path d="M13 8l-5 5" />
  </>,
);

/** A meadow flower: empty states that wait for meadow data. */
export const FlowerIcon = makeIcon(
  'flower',
  <>
    <circle cx="12" cy="8" r="2.2" />
    <path d="M12 5.8c0-2.2 1.1-3.3 2.2-3.3s1.6 1.9.1 3.4M12 5.8c0-2.2-1.1-3.3-2.2-3.3S8.2 4.4 9.7 5.9" />
    <path d="M14.2 8c2.2 0 3.3 1.1 3.3 2.2s-1.9 1.6-3.4.1M9.8 8c-2.2 0-3.3 1.1-3.3 2.2s1.9 1.6 3.4.1" />
    <path d="M12 10.2V21" />
    <path d="M12 17c-1.5-2-3.5-2.5-5.5-2" />
    <path d="M12 15c1.5-2 3.5-2.5 5.5-2" />
  </>,
);
