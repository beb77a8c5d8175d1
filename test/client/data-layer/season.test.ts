/**
 * @jest-environment node
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * The loading chain against the real server (demo project): roles → farmer by e-mail →
 * areas → current duration → paths → durationPaths (created through the outbox when missing, also
 * offline) → forms → indicators; offline reads from the offline database; the missing-farmer error.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { sl } from '../../../src/common/i18n/sl';
import { browserOnlineChanged, drainOnce, rtkQueryTransport } from '../../../src/client/features/sync';
import { farmerChosen, loadSeason, selectSeasonError, selectSeasonStatus, currentDuration, localDate } from '../../../src/client/features/season';
import { configLoaded } from '../../../src/client/lib/config';
import { authenticated } from '../../../src/client/features/auth/auth-slice';
import { isLocalId } from '../../../src/common/record-id';
import { readOutbox, refKeysFor, resolveIds, saveEdit } from '../../../src/client/lib/db';
import { USERS } from '../../server/helpers/build-test-app';
import { farmerRows, type FarmerRows } from '../../server/helpers/demo-ids';
import { PROJECT_ID, openTestDb, settleStores, until } from './helpers';
import { startRealServer, whileArchived, type RealServer } from './real-server';

// A budget for a loaded shared machine (several suites, real IndexedDB emulation, a real server); nothing here asserts time.
jest.setTimeout(30_000);

let server: RealServer;
let own: FarmerRows;
const JUNE_2025 = Date.parse('2025-06-15T10:00:00');
const JUNE_2026 = Date.parse('2026-06-15T10:00:00');

beforeAll(async () => {
  server = await startRealServer();
  own = await farmerRows(server.t.app, server.t.tables, USERS.farmer1);
});
afterEach(settleStores);
afterAll(async () => {
  await server.t.close();
});

/** A new season, the whole calendar `year` ('Sezona <year>'), made by the editor. */
async function newSeason(year: number): Promise<void> {
  const d = server.config.tables.durations;
  const created = await server.t.as(USERS.editor, {
    method: 'POST',
    url: '/api/Records/1',
    payload: {
      tableId: d.id,
      properties: { [d.columns.name]: `Sezona ${year}`, [d.columns.filter_start]: `${year}-01-01`, [d.columns.filter_end]: `${year}-12-31` },
    },
  });
  expect(created.statusCode).toBeLessThan(300);
}

describe('season loading chain', () => {
  it('loads a farmer’s season online, creating missing duration-path links through the outbox', async () => {
    // A season of its own, which no other test gives links (the demo's seasons are shared by the file's tests).
    await newSeason(2031);
    const db = openTestDb();
    const store = server.storeFor(db, USERS.farmer1, { now: () => Date.parse('2031-06-15T10:00:00') });
    const data = await store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap();
    expect(data).toMatchObject({ role: 'farmer', farmerId: own.farmer, source: 'server' });
    expect(data.farmers.map((f) => f.id)).toEqual([own.farmer]);
    expect(data.areas.map((a) => a.id).sort()).toEqual([...own.areas].sort());
    expect(data.duration!.properties[String(server.config.tables.durations.columns.name)]).toBe('Sezona 2031');
    expect(data.paths.map((p) => p.id).sort()).toEqual([...own.paths].sort());
    // A new season has no links yet: one per path, made offline-first (local ids, queued).
    expect(data.durationPaths).toHaveLength(own.paths.length);
    expect(data.durationPaths.every((d) => d.id < 10_000_000)).toBe(true);
    expect((await readOutbox(db)).filter((i) => i.kind === 'insert')).toHaveLength(own.paths.length);
    expect(data.forms).toEqual([]);
    expect(selectSeasonStatus(store.getState())).toBe('ready');

    // After the drain, loading again creates nothing new and uses the server ids.
    expect(await drainOnce({ db, transport: rtkQueryTransport(store.dispatch) })).toMatchObject({ kind: 'done', sent: own.paths.length });
    const again = await store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap();
    expect(again.durationPaths).toHaveLength(own.paths.length);
    expect(again.durationPaths.every((d) => d.id >= 10_000_000)).toBe(true);
    expect(await db.outbox.count()).toBe(0);
  });

  it('loads 2025 with its forms and indicators, then the same offline from the device', async () => {
    const db = openTestDb();
    const store = server.storeFor(db, USERS.farmer1, { now: () => JUNE_2025 });
    const online = await store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap();
    expect(online.durationPaths.map((d) => d.id).sort()).toEqual([...own.durationPaths].sort());
    expect(online.forms.map((f) => f.id).sort()).toEqual([...own.forms].sort());
    expect(online.indicators.map((i) => i.id).sort()).toEqual([...own.indicators].sort());
    expect(await db.outbox.count()).toBe(0);

    store.dispatch(browserOnlineChanged(false));
    const requestsBefore = server.requests.length;
    const offline = await store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap();
    expect(server.requests.length).toBe(requestsBefore); // nothing asked from the network
    expect(offline.source).toBe('device');
    expect(offline.role).toBe('farmer');
    expect(offline.indicators.map((i) => i.id).sort()).toEqual(online.indicators.map((i) => i.id).sort());
    expect(offline.forms.map((f) => f.id).sort()).toEqual(online.forms.map((f) => f.id).sort());
  });

  it('shows the device copy at once and refreshes behind it; roles, own record and durations are asked together', async () => {
    const db = openTestDb();
    let now = JUNE_2025;
    const store = server.storeFor(db, USERS.farmer1, { now: () => now });
    const first = await store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap();
    const ids = (rows: Array<{ id: number }>) => rows.map((r) => r.id).sort();

    // Every server read waits: the season must show from the device without them.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    server.gate = () => held;
    const before = server.requests.length;
    now = JUNE_2025 + 60_000;
    const loading = store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config }));
    try {
      await until(() => store.getState().season.loadedAt === new Date(now).toISOString(), 'the device copy shown');
      const shown = store.getState().season;
      expect(ids(shown.indicators)).toEqual(ids(first.indicators));
      expect(ids(shown.forms)).toEqual(ids(first.forms));
      // Not marked as read from the device while the server is still answering (no note flickers).
      expect(shown.source).toBe('server');
      // The chain's first three reads need no earlier answer: all in flight before any is answered.
      await until(() => server.requests.length - before >= 3, 'three reads in flight');
    } finally {
      server.gate = () => undefined;
      release();
    }
    const refreshed = await loading.unwrap();
    expect(refreshed.source).toBe('server');
    expect(ids(refreshed.indicators)).toEqual(ids(first.indicators));
  });

  it('asks a farmer’s areas, paths, season links and forms before the areas are answered, and takes the answers in order', async () => {
    const db = openTestDb();
    const store = server.storeFor(db, USERS.farmer1, { now: () => JUNE_2025 });
    const { areas, paths, durationPaths, forms } = server.config.tables;
    const searched = new Set<number>();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    server.gate = (url, init) => {
      if (!url.includes('/search')) return undefined;
      const { tableId } = JSON.parse(String(init?.body)) as { tableId: number };
      searched.add(tableId);
      return tableId === areas.id ? released : undefined;
    };
    const loading = store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap();
    try {
      // The areas are not answered yet: the paths, the links and the forms of the links are asked all the same.
      await until(
        () => searched.has(paths.id) && searched.has(durationPaths.id) && searched.has(forms.id),
        'paths, links and forms asked while the areas wait',
      );
    } finally {
      server.gate = () => undefined;
      release();
    }
    const data = await loading;
    const ids = (rows: Array<{ id: number }>) => rows.map((r) => r.id).sort();
    expect(data.source).toBe('server');
    expect(ids(data.areas)).toEqual([...own.areas].sort());
    expect(ids(data.paths)).toEqual([...own.paths].sort());
    expect(ids(data.durationPaths)).toEqual([...own.durationPaths].sort());
    expect(ids(data.forms)).toEqual([...own.forms].sort());
    expect(ids(data.indicators)).toEqual([...own.indicators].sort());
    expect(await db.outbox.count()).toBe(0);
  });

  it('reads the device for the rest of the chain when the areas are not answered, although paths and links were asked', async () => {
    const db = openTestDb();
    const store = server.storeFor(db, USERS.farmer1, { now: () => JUNE_2025 });
    const first = await store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap();
    const { areas } = server.config.tables;
    server.fault = (url, init) => (url.includes('/search') && String(init?.body ?? '').includes(`"tableId":${areas.id},`) ? 'drop-before' : undefined);
    try {
      const data = await store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap();
      expect(data.source).toBe('device');
      expect(data.paths.map((p) => p.id).sort()).toEqual(first.paths.map((p) => p.id).sort());
      expect(data.durationPaths.map((d) => d.id).sort()).toEqual(first.durationPaths.map((d) => d.id).sort());
      expect(await db.outbox.count()).toBe(0);
    } finally {
      server.fault = () => undefined;
    }
  });

  it('creates the links of a new season offline, and they reach the server once online', async () => {
    const db = openTestDb();
    let now = JUNE_2025;
    const store = server.storeFor(db, USERS.farmer2, { now: () => now });
    await store.dispatch(loadSeason({ email: USERS.farmer2, config: server.config })).unwrap();
    const other = await farmerRows(server.t.app, server.t.tables, USERS.farmer2);

    store.dispatch(browserOnlineChanged(false));
    now = JUNE_2026;
    const offline = await store.dispatch(loadSeason({ email: USERS.farmer2, config: server.config })).unwrap();
    expect(offline.source).toBe('device');
    expect(offline.duration!.properties[String(server.config.tables.durations.columns.name)]).toBe('Sezona 2026');
    expect(offline.durationPaths).toHaveLength(other.paths.length);
    expect(offline.durationPaths.every((d) => d.id < 10_000_000)).toBe(true);
    // Loading again offline reuses the pending links instead of making more.
    await store.dispatch(loadSeason({ email: USERS.farmer2, config: server.config })).unwrap();
    expect(await db.outbox.count()).toBe(other.paths.length);

    expect(await drainOnce({ db, transport: rtkQueryTransport(store.dispatch) })).toMatchObject({ kind: 'done', sent: other.paths.length });
    const after = await farmerRows(server.t.app, server.t.tables, USERS.farmer2);
    expect(after.durationPaths.length - other.durationPaths.length).toBe(other.paths.length);
  });

  it('ignores archived links and makes a new one for that path', async () => {
    const db = openTestDb();
    const archived = own.durationPaths[0]!;
    await whileArchived(server, 'durationPaths', archived, async () => {
      const store = server.storeFor(db, USERS.farmer1, { now: () => JUNE_2025 });
      const data = await store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap();
      expect(data.durationPaths.map((d) => d.id)).not.toContain(archived);
      expect(data.durationPaths).toHaveLength(data.paths.length); // one live link per path again
      expect((await readOutbox(db)).filter((i) => i.kind === 'insert')).toHaveLength(1);
    });
  });

  it('runs overlapping loads one after the other, so a missing link is created once', async () => {
    await newSeason(2027);
    const db = openTestDb();
    const store = server.storeFor(db, USERS.farmer1, { now: () => Date.parse('2027-05-01T10:00:00') });
    const [a, b] = await Promise.all([
      store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap(),
      store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap(),
    ]);
    expect((await readOutbox(db)).filter((i) => i.kind === 'insert')).toHaveLength(own.paths.length);
    expect(b.durationPaths.map((x) => x.id).sort()).toEqual(a.durationPaths.map((x) => x.id).sort());
  });

  it('a load that straddles the delivery of offline-made rows gives the screen the server ids and every child (resolved through identity, not read again)', async () => {
    const db = openTestDb();
    const { forms, indicators } = server.config.tables;
    const store = server.storeFor(db, USERS.farmer1, { now: () => JUNE_2026 });
    const first = await store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap();
    await drainOnce({ db, transport: rtkQueryTransport(store.dispatch) });
    const link = (await store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap()).durationPaths[0]!;
    expect(first.durationPaths.length).toBeGreaterThan(0);
    // A form with two indicators made on the device (local ids), not yet sent.
    const form = await saveEdit(db, {
      kind: 'insert',
      projectId: PROJECT_ID,
      tableId: forms.id,
      properties: { [forms.columns.parent]: link.id, [forms.columns.form_id]: 1 },
      refs: refKeysFor(server.config, 'forms'),
    });
    for (const name of ['a', 'b'] as const) {
      await saveEdit(db, {
        kind: 'insert',
        projectId: PROJECT_ID,
        tableId: indicators.id,
        properties: {
          [indicators.columns.parent]: form.record!.id,
          [indicators.columns.key]: name === 'a' ? 'salvia-pratensis' : 'lotus-corniculatus',
          [indicators.columns.value]: true,
        },
        refs: refKeysFor(server.config, 'indicators'),
      });
    }
    // The chain has read the forms (the offline id) when the outbox delivers them all and rewrites
    // the ids on the device; only then does the indicators read go on.
    let reachedIndicators!: () => void;
    const atIndicators = new Promise<void>((resolve) => (reachedIndicators = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    server.gate = (url, init) => {
      if (!url.includes('/search') || !String(init?.body ?? '').includes(`"tableId":${indicators.id}`)) return undefined;
      server.gate = () => undefined;
      reachedIndicators();
      return released;
    };
    const loading = store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap();
    await atIndicators;
    expect(await drainOnce({ db, transport: rtkQueryTransport(store.dispatch) })).toMatchObject({ kind: 'done', sent: 3 });
    release();
    const data = await loading;
    const season = store.getState().season;
    const formIds = season.forms.map((f) => f.id);
    expect(formIds.some(isLocalId)).toBe(false);
    const serverForm = formIds.find((id) => !first.forms.some((f) => f.id === id))!;
    expect(season.indicators.filter((i) => i.properties[String(indicators.columns.parent)] === serverForm)).toHaveLength(2);
    expect(data.indicators.filter((i) => i.properties[String(indicators.columns.parent)] === serverForm)).toHaveLength(2);
  });

  it('a delivery committing between the look-up of a parent’s delivered ids and the read of its children leaves no child out', async () => {
    const db = openTestDb();
    const { forms, indicators } = server.config.tables;
    const store = server.storeFor(db, USERS.farmer1, { now: () => JUNE_2026 });
    await store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap();
    await drainOnce({ db, transport: rtkQueryTransport(store.dispatch) });
    const link = (await store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap()).durationPaths[0]!;
    const form = await saveEdit(db, {
      kind: 'insert',
      projectId: PROJECT_ID,
      tableId: forms.id,
      properties: { [forms.columns.parent]: link.id, [forms.columns.form_id]: 1 },
      refs: refKeysFor(server.config, 'forms'),
    });
    for (const key of ['salvia-pratensis', 'lotus-corniculatus']) {
      await saveEdit(db, {
        kind: 'insert',
        projectId: PROJECT_ID,
        tableId: indicators.id,
        properties: { [indicators.columns.parent]: form.record!.id, [indicators.columns.key]: key, [indicators.columns.value]: true },
        refs: refKeysFor(server.config, 'indicators'),
      });
    }
    // The server has answered the drain's call; its acknowledgement begins only when the
    // offline chain looks up the delivered ids of the forms it read (under the offline id) for the
    // second time: the first look-up gives the indicators' parents, the second is the one
    // beside the indicators' read. IndexedDB runs transactions on the same stores in the order
    // they were made, so the acknowledgement lands right after that look-up.
    let lookUps = 0;
    let startAcknowledgement!: () => void;
    const acknowledgementMayStart = new Promise<void>((resolve) => (startAcknowledgement = resolve));
    const proto = IDBObjectStore.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
    const methods = ['getAllKeys', 'openKeyCursor', 'openCursor', 'getAll'] as const;
    const originals = methods.map((method) => proto[method]!);
    methods.forEach((method, index) => {
      proto[method] = function (this: IDBObjectStore, ...args: unknown[]) {
        // A key range, or (getAll/getAllKeys with options) an object holding it as `query`.
        const range = args[0] instanceof IDBKeyRange ? args[0] : (args[0] as { query?: unknown } | undefined)?.query;
        if (this.name === 'meta' && range instanceof IDBKeyRange && String(range.lower).startsWith('delivered:') && ++lookUps === 2) startAcknowledgement();
        return originals[index]!.apply(this, args);
      };
    });
    try {
      const transport = rtkQueryTransport(store.dispatch);
      let answered!: () => void;
      const answerArrived = new Promise<void>((resolve) => (answered = resolve));
      const draining = drainOnce({
        db,
        transport: {
          ...transport,
          bulk: async (...args) => {
            const answer = await transport.bulk(...args);
            answered();
            await acknowledgementMayStart;
            return answer;
          },
        },
      });
      await answerArrived;
      store.dispatch(browserOnlineChanged(false));
      const data = await store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap();
      expect(await draining).toMatchObject({ kind: 'done', sent: 3 });
      expect(lookUps).toBeGreaterThanOrEqual(2);
      // The form as the chain gives it to the screens (under either id), with both its answers.
      const serverId = (await resolveIds(db, 'record', [form.record!.id])).get(form.record!.id);
      expect(serverId).toBeDefined();
      const shown = data.forms.find((f) => f.id === form.record!.id || f.id === serverId);
      expect(shown).toBeDefined();
      expect(data.indicators.filter((i) => i.properties[String(indicators.columns.parent)] === shown!.id)).toHaveLength(2);
    } finally {
      methods.forEach((method, index) => (proto[method] = originals[index]!));
    }
  });

  it('raises the missing-farmer error when no farmer record matches the e-mail', async () => {
    const store = server.storeFor(openTestDb(), USERS.stranger, { now: () => JUNE_2026 });
    const result = await store.dispatch(loadSeason({ email: USERS.stranger, config: server.config }));
    expect(result.payload).toBe(sl.farmer.missing);
    expect(selectSeasonStatus(store.getState())).toBe('failed');
    expect(selectSeasonError(store.getState())).toBe(sl.farmer.missing);
  });

  it('loads all farmers for editors and readers', async () => {
    for (const email of [USERS.editor, USERS.reader]) {
      const store = server.storeFor(openTestDb(), email, { now: () => JUNE_2026 });
      const data = await store.dispatch(loadSeason({ email, config: server.config })).unwrap();
      expect(data.role).toBe(email === USERS.editor ? 'editor' : 'reader');
      expect(data.farmers.length).toBeGreaterThanOrEqual(2);
      expect(data.farmerId).toBeNull();
      // The season is known before a farmer is chosen (home shows it, and each farmer's progress in it).
      expect(data.duration!.properties[String(server.config.tables.durations.columns.name)]).toBe('Sezona 2026');
      const chosen = await store.dispatch(loadSeason({ email, farmerId: own.farmer, config: server.config })).unwrap();
      expect(chosen.areas.map((a) => a.id).sort()).toEqual([...own.areas].sort());
    }
  });
});

describe('start-up glue (app/store.ts)', () => {
  it('loads the season once the config and the signed-in user are known, and again for a chosen farmer', async () => {
    const store = server.storeFor(openTestDb(), USERS.editor, { now: () => JUNE_2025 });
    store.dispatch(configLoaded({ config: server.config, source: 'network' }));
    expect(selectSeasonStatus(store.getState())).toBe('idle');
    store.dispatch(authenticated({ user: { sub: 'u-editor', email: USERS.editor }, token: null }));
    await until(() => selectSeasonStatus(store.getState()) === 'ready', 'season loaded');
    expect(store.getState().season.role).toBe('editor');
    expect(store.getState().season.areas).toEqual([]);
    store.dispatch(farmerChosen(own.farmer));
    await until(() => store.getState().season.areas.length > 0, 'farmer season loaded');
    // (An earlier test archived one of the farmer's links, so its forms are out of the lookup.)
    const forms = store.getState().season.forms.map((f) => f.id);
    expect(forms.length).toBeGreaterThan(0);
    expect(own.forms).toEqual(expect.arrayContaining(forms));
  });
});

describe('current duration', () => {
  it('is the one whose window contains today, by the device’s calendar day', () => {
    const config = { tables: { durations: { id: 4, columns: { name: 41, filter_start: 42, filter_end: 43 } } } } as never;
    const row = (id: number, from: string, to: string) => ({
      id,
      tableId: 4,
      properties: { '42': from, '43': to },
      deleted: false,
      archived: false,
      createdAt: '',
      updatedAt: '',
      version: 1,
    });
    const rows = [row(1, '2025-01-01', '2025-12-31'), row(2, '2026-01-01', '2026-12-31')];
    expect(currentDuration(rows, config, '2026-12-31')?.id).toBe(2);
    expect(currentDuration(rows, config, '2025-01-01')?.id).toBe(1);
    expect(currentDuration(rows, config, '2027-01-01')).toBeNull();
    expect(localDate(new Date(2026, 0, 5, 23, 59).getTime())).toBe('2026-01-05');
  });
});
