import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { act, render, screen } from '@testing-library/react';
import { LOCATION_POLL_MS } from '../../../src/common/constants';
import { sl } from '../../../src/common/i18n/sl';
import { LocationWarning } from '../../../src/client/features/location/location-warning';
import { reportLocationDenied, watchLocationPermission, type LocationEnv } from '../../../src/client/features/location/location-permission';

// A scripted browser: the permission state is whatever the test says; polling runs on jest's
// fake timers so "30 s later" is a step, not a wait.
function scriptedEnv(initial: PermissionState) {
  let state: PermissionState = initial;
  const queries: number[] = [];
  const env: LocationEnv = {
    geolocation: {} as Geolocation,
    permissions: {
      query: async () => {
        queries.push(Date.now());
        return { state, addEventListener: () => undefined, removeEventListener: () => undefined } as unknown as PermissionStatus;
      },
    },
    setInterval: (fn, ms) => setInterval(fn, ms),
    clearInterval: (id) => clearInterval(id as ReturnType<typeof setInterval>),
  };
  return { env, queries, set: (s: PermissionState) => (state = s) };
}

afterEach(() => {
  jest.useRealTimers();
});

async function flush() {
  await act(async () => {
    await Promise.resolve();
    await Promise.resolve();
  });
}

describe('location permission warning', () => {
  it('shows the exact location warning while denied and removes it once granted at the next poll', async () => {
    jest.useFakeTimers();
    const browser = scriptedEnv('denied');
    render(<LocationWarning env={browser.env} />);
    await flush();
    expect(screen.getByRole('alert').textContent).toBe('Pozor! Za snemanje poti in lociranje indikatorjev aplikacija potrebuje dostop do vaše lokacije.');
    expect(sl.location.denied).toBe(screen.getByRole('alert').textContent);

    // Still denied after a poll: the warning stays (it has no close button).
    await act(async () => {
      jest.advanceTimersByTime(LOCATION_POLL_MS);
    });
    await flush();
    expect(screen.getByRole('alert')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();

    browser.set('granted');
    await act(async () => {
      jest.advanceTimersByTime(LOCATION_POLL_MS - 1);
    });
    await flush();
    expect(screen.queryByRole('alert')).not.toBeNull(); // not yet polled
    await act(async () => {
      jest.advanceTimersByTime(1);
    });
    await flush();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('polls every LOCATION_POLL_MS (30 s)', async () => {
    jest.useFakeTimers();
    const browser = scriptedEnv('granted');
    const seen: string[] = [];
    const stop = watchLocationPermission(browser.env, (s) => seen.push(s));
    await flush();
    const initial = browser.queries.length;
    await act(async () => {
      jest.advanceTimersByTime(LOCATION_POLL_MS * 3);
    });
    expect(browser.queries.length - initial).toBe(3);
    expect(LOCATION_POLL_MS).toBe(30_000);
    expect(seen).toEqual(['granted']);
    stop();
  });

  it('shows the warning at once when a geolocation call is denied, without waiting for a poll', async () => {
    const browser = scriptedEnv('prompt');
    render(<LocationWarning env={browser.env} />);
    await flush();
    expect(screen.queryByRole('alert')).toBeNull();
    act(() => reportLocationDenied());
    expect(screen.getByRole('alert').textContent).toBe(sl.location.denied);
  });

  it('shows nothing where geolocation does not exist (no false alarm)', async () => {
    const browser = scriptedEnv('denied');
    delete browser.env.geolocation;
    render(<LocationWarning env={browser.env} />);
    await flush();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
