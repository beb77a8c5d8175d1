/**
 * Seeded fault injection for the outbox against the real server: random edits made
 * offline across all seven tables — children of offline-made parents, updates, deletes and photos
 * — then drained while the harness drops requests before and after the server committed, answers
 * 500/502/503 itself, delivers requests twice, restarts the server (same database file) and
 * reloads the page (a new store over the same IndexedDB). Afterwards the server must hold exactly
 * the expected rows: none lost, none duplicated, references pointing at the right parents.
 *
 * Used by chaos.test.ts (fixed seed, in CI) and chaos-cli.ts (`npm run chaos -- --seed N --runs M`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { LOCAL_ID_BOUND } from '../../../src/common/constants';
import type { AppConfig } from '../../../src/common/schemas/config';
import type { TableKey } from '../../../src/common/schemas/project';
import { drainOnce, rtkQueryTransport } from '../../../src/client/features/sync';
import { openOfflineDb, readOutbox, refKeysFor, saveEdit, type OfflineDb } from '../../../src/client/lib/db';
import { makeStore } from '../../../src/client/app/store';
import { buildTestApp, TEST_USER_HEADER, USERS, type TestApp } from '../../server/helpers/build-test-app';
import { seededRandom as random } from '../../../src/common/seeded-random';

export interface ChaosOptions {
  seed: number;
  edits: number;
  photos?: number;
  log?: (message: string) => void;
}

export interface ChaosReport {
  seed: number;
  edits: number;
  queued: number;
  faults: Record<string, number>;
  passes: number;
  rowsChecked: number;
  problems: string[];
}

/** Column that carries each row's unique marker (durationPaths are identified by their pair). */
const MARKER: Partial<Record<TableKey, string>> = {
  farmers: 'name',
  areas: 'name',
  paths: 'name',
  durations: 'name',
  forms: 'note',
  indicators: 'note',
  comments: 'text',
};
/** Column an update changes, with the value it writes. */
const UPDATE: Partial<Record<TableKey, [string, (n: number) => unknown]>> = {
  farmers: ['phone', (n) => `041 ${n}`],
  areas: ['gerk_pid', (n) => `G${n}`],
  paths: ['length_m', (n) => n],
  forms: ['completed', (n) => n % 2 === 0],
  indicators: ['value', (n) => n],
};
const PARENT: Partial<Record<TableKey, Array<[string, TableKey]>>> = {
  areas: [['user', 'farmers']],
  paths: [['parent', 'areas']],
  durationPaths: [
    ['duration_id', 'durations'],
    ['path_id', 'paths'],
  ],
  forms: [['parent', 'durationPaths']],
  indicators: [['parent', 'forms']],
  comments: [['parent', 'forms']],
};
const PHOTO_TABLES: TableKey[] = ['paths', 'forms', 'indicators'];

interface Entity {
  table: TableKey;
  /** The id saveEdit returned (a local id), or a server id for demo rows used as parents. */
  id: number;
  marker: string;
  parents: Record<string, Entity>;
  update?: unknown;
  deleted: boolean;
  photos: number;
  children: number;
  created: boolean;
}

interface Server {
  t: TestApp;
  origin: string;
}

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const log = options.log ?? (() => undefined);
  const rnd = random(options.seed);
  const pick = <T>(items: T[]): T => items[Math.floor(rnd() * items.length)]!;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'moj-travnik-chaos-'));
  const database = path.join(dir, 'chaos.sqlite');
  const start = async (): Promise<Server> => {
    const t = await buildTestApp({ database, dataDir: dir, logger: false });
    return { t, origin: t.origin };
  };
  let server = await start();
  const faults: Record<string, number> = { dropBefore: 0, dropAfter: 0, http500: 0, http502: 0, http503: 0, duplicate: 0, restart: 0, reload: 0 };
  const problems: string[] = [];
  const dbName = `chaos-${options.seed}-${Date.now()}`;
  let db: OfflineDb = openOfflineDb({ name: dbName });
  try {
    const config = (await (await fetch(`${server.origin}/config.json`)).json()) as AppConfig;
    const col = (table: TableKey, name: string) => String((config.tables[table].columns as Record<string, number>)[name]);
    const p = config.projectId;

    // Parents that already exist on the server: the demo farmers and durations.
    const pool: Record<TableKey, Entity[]> = { farmers: [], areas: [], paths: [], durations: [], durationPaths: [], forms: [], indicators: [], comments: [] };
    for (const table of ['farmers', 'durations'] as TableKey[]) {
      const rows = await server.t.app.db
        .selectFrom('records')
        .select(['id', 'properties'])
        .where('table_id', '=', config.tables[table].id)
        .where('deleted', '=', 0)
        .execute();
      for (const row of rows)
        pool[table].push({
          table,
          id: row.id,
          marker: String((JSON.parse(row.properties) as Record<string, unknown>)[col(table, MARKER[table]!)]),
          parents: {},
          deleted: false,
          photos: 0,
          children: 0,
          created: false,
        });
    }
    const png = await sharp({ create: { width: 6, height: 6, channels: 3, background: { r: 30, g: 130, b: 50 } } })
      .png()
      .toBuffer();
    const pngData = png.buffer.slice(png.byteOffset, png.byteOffset + png.byteLength) as ArrayBuffer;
    const created: Entity[] = [];
    let n = 0;
    let photos = options.photos ?? Math.max(2, Math.round(options.edits / 50));
    const live = (table: TableKey) => pool[table].filter((e) => !e.deleted);

    // --- offline edits -------------------------------------------------------------------------
    for (let i = 0; i < options.edits; i++) {
      n++;
      const roll = rnd();
      const mine = created.filter((e) => !e.deleted);
      if (roll < 0.6 || mine.length < 5) {
        const candidates = (Object.keys(pool) as TableKey[]).filter((table) => (PARENT[table] ?? []).every(([, parent]) => live(parent).length > 0));
        const table = pick(candidates);
        const parents: Record<string, Entity> = {};
        for (const [column, parentTable] of PARENT[table] ?? []) parents[column] = pick(live(parentTable));
        if (table === 'durationPaths') {
          // One link per (duration, path): skip when this pair exists already.
          const pairTaken = pool.durationPaths.some((e) => e.parents.duration_id === parents.duration_id && e.parents.path_id === parents.path_id);
          if (pairTaken) continue;
        }
        const marker = `chaos-${options.seed}-${n}`;
        const properties: Record<string, unknown> = {};
        if (MARKER[table]) properties[col(table, MARKER[table]!)] = marker;
        for (const [column, parent] of Object.entries(parents)) properties[col(table, column)] = parent.id;
        if (table === 'durations') {
          // Seasons may not overlap (the server refuses it): each gets a year of its own.
          properties[col(table, 'filter_start')] = `${2100 + n}-01-01`;
          properties[col(table, 'filter_end')] = `${2100 + n}-12-31`;
        }
        if (table === 'forms') properties[col(table, 'form_id')] = 1;
        // A key of its own: a form holds one live indicator per key (a second would become an update of the first).
        if (table === 'indicators') properties[col(table, 'key')] = `k${n}`;
        const saved = await saveEdit(db, { kind: 'insert', projectId: p, tableId: config.tables[table].id, properties, refs: refKeysFor(config, table) });
        const entity: Entity = { table, id: saved.id, marker, parents, deleted: false, photos: 0, children: 0, created: true };
        Object.values(parents).forEach((parent) => parent.children++);
        pool[table].push(entity);
        created.push(entity);
      } else if (roll < 0.85) {
        const entity = pick(mine.filter((e) => UPDATE[e.table]));
        if (!entity) continue;
        const [column, value] = UPDATE[entity.table]!;
        entity.update = value(n);
        await saveEdit(db, {
          kind: 'update',
          projectId: p,
          tableId: config.tables[entity.table].id,
          id: entity.id,
          properties: { [col(entity.table, column)]: entity.update },
        });
      } else if (roll < 0.93 && photos > 0) {
        const target = mine.filter((e) => PHOTO_TABLES.includes(e.table));
        if (!target.length) continue;
        const entity = pick(target);
        photos--;
        entity.photos++;
        const slot = config.tables[entity.table].attachments!.photos!;
        await saveEdit(db, {
          kind: 'attachment',
          projectId: p,
          tableId: config.tables[entity.table].id,
          recordId: entity.id,
          tableAttachmentInfoId: slot,
          name: `${entity.marker}.png`,
          mimeType: 'image/png',
          data: pngData,
        });
      } else {
        // Delete a leaf (nothing of ours hangs under it), never used again afterwards.
        const leaves = mine.filter((e) => e.children === 0 && e.photos === 0);
        if (!leaves.length) continue;
        const entity = pick(leaves);
        entity.deleted = true;
        Object.values(entity.parents).forEach((parent) => parent.children--);
        await saveEdit(db, { kind: 'delete', projectId: p, tableId: config.tables[entity.table].id, id: entity.id });
      }
    }
    const queued = (await readOutbox(db)).length;
    log(`seed ${options.seed}: ${created.length} rows made offline, ${queued} operations queued`);

    // --- drain with faults ---------------------------------------------------------------------
    let requests = 0;
    let restartAt = 5 + Math.floor(rnd() * 20);
    const fetchAs: typeof fetch = async (input, init) => {
      const url = String(input).replace('http://chaos.test', server.origin);
      requests++;
      if (requests === restartAt) {
        // The server restarts between two requests: same database file, new port.
        faults.restart!++;
        restartAt = requests + 40 + Math.floor(rnd() * 40);
        await server.t.close();
        server = await start();
      }
      const target = url.replace(/^http:\/\/127\.0\.0\.1:\d+/, server.origin);
      const headers = new Headers(init?.headers);
      headers.set(TEST_USER_HEADER, USERS.editor);
      const send = () => fetch(target, { ...init, headers });
      const roll = rnd();
      if (roll < 0.08) {
        faults.dropBefore!++;
        throw new TypeError('fetch failed (dropped before the server)');
      }
      if (roll < 0.16) {
        faults.dropAfter!++;
        await (await send()).arrayBuffer();
        throw new TypeError('fetch failed (dropped after the server answered)');
      }
      for (const [limit, status, key] of [
        [0.2, 500, 'http500'],
        [0.23, 502, 'http502'],
        [0.26, 503, 'http503'],
      ] as const) {
        if (roll < limit) {
          faults[key]!++;
          return new Response(JSON.stringify({ status, message: 'chaos' }), { status, headers: { 'content-type': 'application/json' } });
        }
      }
      if (roll < 0.31) {
        faults.duplicate!++;
        await (await send()).arrayBuffer(); // the same request arrives twice; the client sees the second answer
      }
      return send();
    };
    const newStore = () => makeStore(undefined, { extra: { db, api: { baseUrl: 'http://chaos.test', fetchFn: fetchAs } } });
    let store = newStore();
    let passes = 0;
    for (; passes < 2000; passes++) {
      const outcome = await drainOnce({ db, transport: rtkQueryTransport(store.dispatch), maxBatch: 1 + Math.floor(rnd() * 30) });
      if (outcome.kind === 'done') break;
      if (outcome.kind !== 'transient') {
        problems.push(`drain stopped with ${outcome.kind}`);
        break;
      }
      if (rnd() < 0.05) {
        faults.reload!++;
        db.close();
        db = openOfflineDb({ name: dbName });
        store = newStore();
      }
    }
    const left = await readOutbox(db);
    if (left.length) problems.push(`${left.length} operations left in the outbox: ${JSON.stringify(left.slice(0, 3).map((i) => [i.kind, i.status, i.error]))}`);

    // --- check the server ----------------------------------------------------------------------
    const serverRows = new Map<TableKey, Array<{ id: number; deleted: number; properties: Record<string, unknown> }>>();
    for (const table of Object.keys(pool) as TableKey[]) {
      const rows = await server.t.app.db
        .selectFrom('records')
        .select(['id', 'deleted', 'properties'])
        .where('table_id', '=', config.tables[table].id)
        .execute();
      serverRows.set(
        table,
        rows.map((r) => ({ id: r.id, deleted: Number(r.deleted), properties: JSON.parse(r.properties) as Record<string, unknown> })),
      );
    }
    const serverIdOf = new Map<Entity, number>();
    for (const entity of pool.farmers.concat(pool.durations).filter((e) => !e.created)) serverIdOf.set(entity, entity.id);
    // Parents before children, so a child's expected references are known.
    const order: TableKey[] = ['farmers', 'durations', 'areas', 'paths', 'durationPaths', 'forms', 'indicators', 'comments'];
    let rowsChecked = 0;
    for (const table of order) {
      for (const entity of created.filter((e) => e.table === table)) {
        const rows = serverRows.get(table)!;
        let matches;
        if (table === 'durationPaths') {
          const duration = serverIdOf.get(entity.parents.duration_id!);
          const pathId = serverIdOf.get(entity.parents.path_id!);
          matches = rows.filter((r) => r.properties[col(table, 'duration_id')] === duration && r.properties[col(table, 'path_id')] === pathId);
        } else {
          matches = rows.filter((r) => r.properties[col(table, MARKER[table]!)] === entity.marker);
        }
        rowsChecked++;
        if (matches.length !== 1) {
          problems.push(`${table} ${entity.marker}: ${matches.length} rows on the server`);
          continue;
        }
        const row = matches[0]!;
        serverIdOf.set(entity, row.id);
        if (row.id < LOCAL_ID_BOUND) problems.push(`${table} ${entity.marker}: server id ${row.id}`);
        if (Boolean(row.deleted) !== entity.deleted) problems.push(`${table} ${entity.marker}: deleted=${row.deleted}, expected ${entity.deleted}`);
        for (const [column, parent] of Object.entries(entity.parents)) {
          if (row.properties[col(table, column)] !== serverIdOf.get(parent))
            problems.push(`${table} ${entity.marker}: ${column}=${String(row.properties[col(table, column)])}, expected ${serverIdOf.get(parent)}`);
        }
        if (entity.update !== undefined) {
          const [column] = UPDATE[table]!;
          if (row.properties[col(table, column)] !== entity.update)
            problems.push(
              `${table} ${entity.marker}: ${column}=${JSON.stringify(row.properties[col(table, column)])}, expected ${JSON.stringify(entity.update)}`,
            );
        }
        if (entity.photos) {
          const attachments = await server.t.app.db.selectFrom('attachments').select('id').where('record_id', '=', row.id).execute();
          if (attachments.length !== entity.photos) problems.push(`${table} ${entity.marker}: ${attachments.length} photos, expected ${entity.photos}`);
        }
      }
    }
    log(`seed ${options.seed}: ${passes + 1} drain passes, faults ${JSON.stringify(faults)}, ${rowsChecked} rows checked, ${problems.length} problems`);
    return { seed: options.seed, edits: options.edits, queued, faults, passes: passes + 1, rowsChecked, problems };
  } finally {
    db.close();
    await server.t.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
