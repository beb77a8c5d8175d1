/**
 * CPU time of this machine's Chromium processes by kind (the browser process, where IndexedDB
 * runs here; the page's renderer; the GPU process; utilities such as the network service), and of
 * this Node process (the server the benches run in-process), read from /proc: where a figure's
 * two cores went. Linux only; elsewhere a snapshot has this process alone.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's times (USER_HZ: 100 on Linux). */
const TICKS_PER_S = 100;

export type CpuByKind = Map<string, number>;

function chromiumKind(cmdline: string[]): string | null {
  if (!cmdline[0]?.includes('chromium')) return null;
  // Chromium's crash reporter runs beside the browser from the same folder (and idles).
  if (cmdline[0].endsWith('crashpad_handler')) return 'crashpad';
  const type = cmdline.find((arg) => arg.startsWith('--type='))?.slice('--type='.length);
  if (!type) return 'browser';
  if (type === 'utility')
    return `utility (${
      cmdline
        .find((arg) => arg.startsWith('--utility-sub-type='))
        ?.split('.')
        .pop() ?? '?'
    })`;
  return type;
}

/** CPU ms so far of each kind of Chromium process and of this process ('server'). */
export function cpuSnapshot(): CpuByKind {
  const byKind: CpuByKind = new Map();
  const own = process.cpuUsage();
  byKind.set('server', (own.user + own.system) / 1000);
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return byKind;
  }
  for (const pid of pids) {
    try {
      // Chromium's child processes rewrite their command line into one space-separated string.
      const kind = chromiumKind(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/));
      if (!kind) continue;
      // utime and stime: the 14th and 15th fields, counted after the command's closing parenthesis.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_S;
      byKind.set(kind, (byKind.get(kind) ?? 0) + ms);
    } catch {
      // The process ended meanwhile.
    }
  }
  return byKind;
}

/** The CPU ms one kind of process ('server': this process) used between two snapshots. */
export function cpuUsedBy(kind: string, before: CpuByKind, after: CpuByKind): number {
  return (after.get(kind) ?? 0) - (before.get(kind) ?? 0);
}

/** What each kind used between two snapshots, as "renderer 1,234, browser 567, …" (largest first), with the sum. */
export function describeCpu(before: CpuByKind, after: CpuByKind, runs = 1): string {
  const used = [...after]
    .map(([kind]) => [kind, cpuUsedBy(kind, before, after) / runs] as const)
    .filter(([, ms]) => ms >= 1)
    .sort((a, b) => b[1] - a[1]);
  const total = used.reduce((sum, [, ms]) => sum + ms, 0);
  return `${used.map(([kind, ms]) => `${kind} ${ms.toFixed(0)}`).join(', ')}; in all ${total.toFixed(0)} ms`;
}

/**
 * Resolves once this machine's Chromium processes have used at most `idleMs` of CPU in a window
 * of `windowMs` (/proc counts in 10 ms ticks), or after `maxMs`: a timed visit then starts with
 * the browser quiet, not beside the teardown of the page before it (a closed map page keeps its
 * renderer and the GPU process busy for about half a second). Returns how long it waited.
 */
export async function untilChromiumQuiet({ windowMs = 200, idleMs = 10, maxMs = 10_000 } = {}): Promise<number> {
  const chromiumMs = (snapshot: CpuByKind) => [...snapshot].reduce((sum, [kind, ms]) => (kind === 'server' ? sum : sum + ms), 0);
  const start = performance.now();
  let before = chromiumMs(cpuSnapshot());
  while (performance.now() - start < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const now = chromiumMs(cpuSnapshot());
    if (now - before <= idleMs) break;
    before = now;
  }
  return performance.now() - start;
}
