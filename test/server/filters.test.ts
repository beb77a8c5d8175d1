/**
 * The filter model (docs/architecture.md, Wire contract): every one of the 21 comparisons with matching and non-matching rows,
 * And/Or nesting, meta columns, sorts with nulls last, paging and totalCount, and the 400s for
 * unknown comparisons, operators, columns and wrongly typed values — each leaving data unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FilterNode } from '../../src/common/filter';
import { createProject } from '../../src/server/repositories/project-repository';
import { buildTestApp, snapshot, type TestApp } from './helpers/build-test-app';

const EDITOR = 'Urednik@Example.si';
let t: TestApp;
let tableId: number;
const col: Record<string, number> = {};
const ids: Record<'A' | 'B' | 'C' | 'D', number> = { A: 0, B: 0, C: 0, D: 0 };

beforeAll(async () => {
  t = await buildTestApp();
  const projectId = await createProject(t.app.db, t.app.dialect, {
    id: 2,
    name: 'Filtri',
    tables: [
      {
        key: 'samples' as never,
        name: 'Vzorci',
        columns: [
          { name: 'name', type: 'text' },
          { name: 'n', type: 'number' },
          { name: 'b', type: 'boolean' },
          { name: 'd', type: 'date' },
          { name: 'email', type: 'text' },
          { name: 'due', type: 'date' },
          { name: 'j', type: 'json' },
        ],
      },
    ],
  });
  await t.app.db.insertInto('project_roles').values({ project_id: projectId, email: 'urednik@example.si', role: 'editor' }).execute();
  t.app.projects.invalidate(projectId);
  const schema = (await t.app.projects.get(projectId))!;
  const table = schema.tablesByKey.get('samples')!;
  tableId = table.id;
  for (const c of table.columns) col[c.name] = c.id;
  const rows = {
    A: { name: 'Travník Kuzma', n: 5, b: true, d: '2025-06-14', email: 'kmet1@example.si', due: '2099-01-01T00:00:00Z', j: 3 },
    B: { name: 'Senožet Grad', n: 10, b: false, d: '2025-06-15T10:00:00Z', email: 'URednik@example.si', due: '2000-01-01T00:00:00Z', j: 'many' },
    C: { name: '100% trava_x', n: 15.5, b: null, d: null, email: null, due: null, j: true },
    D: {},
  };
  for (const [key, values] of Object.entries(rows)) {
    const properties = Object.fromEntries(Object.entries(values).map(([name, value]) => [String(col[name]), value]));
    const response = await t.as(EDITOR, { method: 'POST', url: '/api/Records/2', payload: { tableId, properties } });
    expect(response.statusCode).toBe(201);
    ids[key as 'A'] = response.json().id;
  }
});

afterAll(async () => {
  await t.close();
});

/** Column names written as '@name' in the case tables (defined before the columns exist) → ids. */
function resolve(value: unknown): unknown {
  if (typeof value === 'string' && value.startsWith('@')) return col[value.slice(1)];
  if (Array.isArray(value)) return value.map(resolve);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'value' ? v : resolve(v)]));
  return value;
}

async function search(filters: FilterNode | undefined, extra: Record<string, unknown> = {}) {
  return t.as(EDITOR, { method: 'POST', url: '/api/Records/2/search', payload: { tableId, filters: resolve(filters), ...extra } });
}

async function matching(filters: FilterNode): Promise<string[]> {
  const response = await search(filters);
  expect(response.statusCode).toBe(200);
  const found = new Set<number>(response.json().records.map((r: { id: number }) => r.id));
  return (Object.keys(ids) as Array<keyof typeof ids>).filter((k) => found.has(ids[k])).sort();
}

const leaf = (name: string | number, comparison: string, value?: unknown): FilterNode =>
  ({
    kind: 'filter',
    columnId: typeof name === 'number' || ['id', 'createdAt', 'updatedAt', 'version', 'archived', 'deleted'].includes(name) ? name : `@${name}`,
    comparison,
    value,
  }) as FilterNode;

describe('each comparison matches the right rows and only those', () => {
  const cases: Array<[string, FilterNode, string[]]> = [
    ['Equals text', leaf('name', 'Equals', 'Senožet Grad'), ['B']],
    ['Equals number', leaf('n', 'Equals', 5), ['A']],
    ['Equals boolean', leaf('b', 'Equals', true), ['A']],
    ['NotEqual (missing values count as not equal)', leaf('n', 'NotEqual', 5), ['B', 'C', 'D']],
    ['LessThan', leaf('n', 'LessThan', 10), ['A']],
    ['GreaterThan', leaf('n', 'GreaterThan', 10), ['C']],
    ['LessThanOrEqual', leaf('n', 'LessThanOrEqual', 10), ['A', 'B']],
    ['GreaterThanOrEqual', leaf('n', 'GreaterThanOrEqual', 10), ['B', 'C']],
    ['Contains is case-insensitive', leaf('name', 'Contains', 'GRAD'), ['B']],
    ['Contains treats % literally', leaf('name', 'Contains', '%'), ['C']],
    ['Contains treats _ literally', leaf('name', 'Contains', 'a_x'), ['C']],
    ['Contains folds non-ASCII case', leaf('name', 'Contains', 'SENOŽET'), ['B']],
    ['NotContains', leaf('name', 'NotContains', 'grad'), ['A', 'C', 'D']],
    ['StartsWith', leaf('name', 'StartsWith', 'trav'), ['A']],
    ['EndsWith', leaf('name', 'EndsWith', 'kuzma'), ['A']],
    ['DateEquals compares the date part', leaf('d', 'DateEquals', '2025-06-15'), ['B']],
    ['DateNotEquals', leaf('d', 'DateNotEquals', '2025-06-15T23:00:00Z'), ['A', 'C', 'D']],
    ['SelectInRange is inclusive', leaf('n', 'SelectInRange', [5, 10]), ['A', 'B']],
    ['SelectNotInRange', leaf('n', 'SelectNotInRange', [5, 10]), ['C', 'D']],
    ['In', leaf('n', 'In', [5, 15.5]), ['A', 'C']],
    ['In with an empty list matches nothing', leaf('n', 'In', []), []],
    ['NotIn', leaf('n', 'NotIn', [5, 15.5]), ['B', 'D']],
    ['IsNull (missing or null)', leaf('b', 'IsNull'), ['C', 'D']],
    ['IsNotNull', leaf('b', 'IsNotNull'), ['A', 'B']],
    ['AfterNow', leaf('due', 'AfterNow'), ['A']],
    ['BeforeNow', leaf('due', 'BeforeNow'), ['B']],
    ['EqualsUserEmail uses the caller e-mail, case-insensitively', leaf('email', 'EqualsUserEmail'), ['B']],
    ['json column: number value', leaf('j', 'Equals', 3), ['A']],
    ['json column: text value', leaf('j', 'Equals', 'many'), ['B']],
    ['json column: boolean value', leaf('j', 'Equals', true), ['C']],
    ['a bound value is never SQL', leaf('name', 'Equals', "' or 1=1 --"), []],
  ];
  it.each(cases)('%s', async (_name, filter, expected) => {
    expect(await matching(filter)).toEqual(expected);
  });

  it('covers all 21 comparisons', () => {
    const used = new Set(cases.map(([, f]) => (f as { comparison: string }).comparison));
    expect(used.size).toBe(21);
  });
});

describe('nesting, meta columns, sorts and paging', () => {
  it('And/Or nest to any depth', async () => {
    const inner: FilterNode = {
      kind: 'expression',
      operator: 'Or',
      nodes: [{ kind: 'expression', operator: 'And', nodes: [leaf('n', 'GreaterThan', 4), leaf('name', 'Contains', 'trav')] }, leaf('b', 'Equals', false)],
    };
    expect(await matching(inner)).toEqual(['A', 'B', 'C']);
    let deep: FilterNode = leaf('n', 'Equals', 10);
    for (let i = 0; i < 12; i++) deep = { kind: 'expression', operator: i % 2 ? 'And' : 'Or', nodes: [deep] };
    expect(await matching(deep)).toEqual(['B']);
    expect(await matching({ kind: 'expression', operator: 'And', nodes: [] })).toEqual(['A', 'B', 'C', 'D']);
    expect(await matching({ kind: 'expression', operator: 'Or', nodes: [] })).toEqual([]);
  });

  it('filters on record fields (id, version, createdAt, archived)', async () => {
    expect(await matching(leaf('id', 'In', [ids.A, ids.D]))).toEqual(['A', 'D']);
    expect(await matching(leaf('version', 'Equals', 1))).toEqual(['A', 'B', 'C', 'D']);
    expect(await matching(leaf('createdAt', 'AfterNow'))).toEqual([]);
    expect(await matching(leaf('archived', 'Equals', false))).toEqual(['A', 'B', 'C', 'D']);
  });

  it('sorts by several columns, nulls last, and pages with totalCount', async () => {
    const sorted = await search(undefined, { sorts: [{ columnId: col.n, direction: 'desc' }] });
    expect(sorted.json().records.map((r: { id: number }) => r.id)).toEqual([ids.C, ids.B, ids.A, ids.D]);
    const multi = await search(undefined, {
      sorts: [
        { columnId: col.b, direction: 'asc' },
        { columnId: 'id', direction: 'desc' },
      ],
    });
    expect(multi.json().records.map((r: { id: number }) => r.id)).toEqual([ids.B, ids.A, ids.D, ids.C]);
    const page2 = await search(undefined, { page: 2, perPage: 3, sorts: [{ columnId: 'id', direction: 'asc' }] });
    expect(page2.json()).toMatchObject({ totalCount: 4 });
    expect(page2.json().records.map((r: { id: number }) => r.id)).toEqual([ids.D]);
    const page3 = await search(undefined, { page: 3, perPage: 3 });
    expect(page3.json()).toEqual({ records: [], totalCount: 4 });
    const idsPage = await t.as(EDITOR, {
      method: 'POST',
      url: '/api/Records/2/search/ids',
      payload: { tableId, perPage: 2, filters: resolve(leaf('n', 'IsNotNull')) },
    });
    expect(idsPage.json()).toEqual({ ids: [ids.A, ids.B], totalCount: 3 });
  });

  it('excludes deleted rows unless includeDeleted', async () => {
    const extra = await t.as(EDITOR, { method: 'POST', url: '/api/Records/2', payload: { tableId, properties: { [col.name!]: 'izbrisan' } } });
    const id = extra.json().id as number;
    expect((await t.as(EDITOR, { method: 'POST', url: '/api/Records/2/delete', payload: { tableId, ids: [id] } })).statusCode).toBe(200);
    const without = await search(leaf('name', 'Equals', 'izbrisan'));
    expect(without.json().totalCount).toBe(0);
    const withDeleted = await search(leaf('name', 'Equals', 'izbrisan'), { includeDeleted: true });
    expect(withDeleted.json().records).toEqual([expect.objectContaining({ id, deleted: true })]);
  });
});

describe('bad filters are 400s naming the problem and change nothing', () => {
  const bad: Array<[string, unknown, RegExp]> = [
    ['unknown comparison', leaf('n', 'Like', 5), /unknown comparison "Like"/],
    ['unknown operator', { kind: 'expression', operator: 'Xor', nodes: [] }, /unknown operator "Xor"/],
    ['unknown node kind', { kind: 'sql', value: '1=1' }, /unknown node kind "sql"/],
    ['unknown column', leaf(999, 'Equals', 1), /unknown column 999/],
    ['column given as a name', { kind: 'filter', columnId: 'name', comparison: 'Equals', value: 'x' }, /unknown column "name"/],
    ['number column with a text value', leaf('n', 'Equals', 'abc'), /must be a number/],
    ['boolean column with a number', leaf('b', 'Equals', 1), /must be true or false/],
    ['date column with a non-date', leaf('d', 'DateEquals', 'yesterday'), /ISO 8601/],
    ['In without an array', leaf('n', 'In', 5), /needs an array/],
    ['In with an object', leaf('n', 'In', [{ a: 1 }]), /single value/],
    ['range with three values', leaf('n', 'SelectInRange', [1, 2, 3]), /needs \[from, to\]/],
    ['Equals without a value', leaf('n', 'Equals'), /needs a value/],
    ['LessThan on a boolean', leaf('b', 'LessThan', true), /not defined for boolean/],
    ['nodes not an array', { kind: 'expression', operator: 'And', nodes: 'x' }, /must be an array/],
  ];
  it.each(bad)('%s', async (_name, filters, message) => {
    const before = await snapshot(t.app);
    const response = await search(filters as FilterNode);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ status: 400, message: 'Bad Request' });
    expect(response.json().detail).toMatch(message);
    expect(await snapshot(t.app)).toBe(before);
  });

  it('rejects unknown sort columns and directions', async () => {
    expect((await search(undefined, { sorts: [{ columnId: 4242, direction: 'asc' }] })).json().detail).toMatch(/unknown column 4242/);
    expect((await search(undefined, { sorts: [{ columnId: col.n, direction: 'sideways' }] })).statusCode).toBe(400);
    expect((await search(undefined, { perPage: 0 })).statusCode).toBe(400);
    expect((await search(undefined, { page: 'two' })).statusCode).toBe(400);
  });

  it('bounds the size of a filter (values and leaves)', async () => {
    const many = Array.from({ length: 9000 }, (_, i) => i);
    const wide: FilterNode = { kind: 'expression', operator: 'Or', nodes: [leaf('n', 'In', many), leaf('n', 'In', many), leaf('n', 'In', many)] };
    const tooMany = await search(wide);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().detail).toMatch(/more than 20000 values/);
    const leaves: FilterNode = { kind: 'expression', operator: 'Or', nodes: Array.from({ length: 501 }, () => leaf('n', 'Equals', 1)) };
    expect((await search(leaves)).json().detail).toMatch(/at most 500 filter leaves/);
    const fine = await search({ kind: 'expression', operator: 'Or', nodes: [leaf('n', 'In', many)] });
    expect(fine.statusCode).toBe(200);
  });
});
