/**
 * /api/openapi.json documents every API call (docs/architecture.md, Wire contract) from the routes' own schemas (a route added
 * without schemas, or registered before the OpenAPI plugin, would be missing here), and /api/docs
 * is a browsable UI whose assets are all served locally.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { IdsBody, REGISTERED_SCHEMAS, RolesResult } from '../../src/common/schemas/wire';
import { buildTestApp, type TestApp } from './helpers/build-test-app';

/** The API's calls, one by one (method, OpenAPI path). */
const SEED_CALLS: Array<[string, string]> = [
  ['get', '/api/Features/{projectId}/{tableId}/{recordId}'],
  ['get', '/api/Features/{projectId}/{tableId}/{recordId}/detailed'],
  ['post', '/api/Features/{projectId}/{tableId}'],
  ['put', '/api/Features/{projectId}/{tableId}/{recordId}'],
  ['post', '/api/Features/{projectId}/delete'],
  ['get', '/api/Features/{projectId}/extenttables'],
  ['post', '/api/Features/{projectId}/{tableId}/full'],
  ['post', '/api/Features/{projectId}/search'],
  ['post', '/api/Features/{projectId}/bulk'],
  ['get', '/api/PublicApp/{projectId}/roles'],
  ['get', '/api/Records/{projectId}/{tableId}/{recordId}'],
  ['put', '/api/Records/{projectId}/{tableId}/{recordId}'],
  ['post', '/api/Records/{projectId}/ids'],
  ['post', '/api/Records/{projectId}/delete'],
  ['post', '/api/Records/{projectId}/archive'],
  ['post', '/api/Records/{projectId}'],
  ['post', '/api/Records/{projectId}/search'],
  ['post', '/api/Records/{projectId}/search/ids'],
  ['get', '/api/Records/{projectId}/search/{profileId}/{limit}/{page}/{query}'],
  ['post', '/api/Records/{projectId}/bulk'],
  ['post', '/api/Records/{projectId}/attachment'],
  ['delete', '/api/Records/{projectId}/attachment/{recordAttachmentId}'],
  ['get', '/api/Records/{projectId}/attachment/{recordAttachmentId}'],
  ['get', '/api/Records/{projectId}/record/{recordId}/attachmentinfo/{tableAttachmentInfoId}'],
  ['post', '/api/Records/{projectId}/spatial'],
  ['get', '/api/Records/{projectId}/extenttables'],
  ['post', '/api/Records/{projectId}/full'],
  ['get', '/config.json'],
  ['get', '/api/Test'],
  ['get', '/keycloak.json'],
];

interface Operation {
  operationId?: string;
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
  responses: Record<string, unknown>;
}
type Doc = {
  openapi: string;
  servers?: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
};

let t: TestApp;
let doc: Doc;

beforeAll(async () => {
  t = await buildTestApp();
  const response = await fetch(`${t.origin}/api/openapi.json`);
  expect(response.status).toBe(200);
  doc = (await response.json()) as Doc;
});

afterAll(async () => t.close());

describe('OpenAPI document', () => {
  it('is public OpenAPI 3.1, for the server that serves it, and lists every API call', () => {
    // 3.1: the wire schemas are JSON Schema 2020-12 (the bulk operation's if/then is not 3.0).
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: '/', description: 'Ta strežnik' }]);
    const missing = SEED_CALLS.filter(([method, path]) => !doc.paths[path]?.[method]);
    expect(missing).toEqual([]);
    expect(SEED_CALLS).toHaveLength(30);
    // The specification's 28 calls under /api, beside /config.json and /keycloak.json.
    expect(SEED_CALLS.filter(([, path]) => path.startsWith('/api/'))).toHaveLength(28);
  });

  it('documents the path parameters, a success answer and the error answers of every API call', () => {
    for (const [method, path] of SEED_CALLS) {
      const op = doc.paths[path]![method]!;
      const declared = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      const documented = (op.parameters ?? [])
        .filter((p) => p.in === 'path')
        .map((p) => p.name)
        .sort();
      expect({ path, method, params: documented }).toEqual({ path, method, params: declared });
      expect(Object.keys(op.responses).some((status) => status.startsWith('2'))).toBe(true);
      if (path.startsWith('/api/') && path !== '/api/Test') {
        expect({ path, method, has401: '401' in op.responses }).toEqual({ path, method, has401: true });
      }
    }
  });

  it('names every operation once, from its method and address, and gives each path template one set of parameter names', () => {
    const ids = Object.entries(doc.paths).flatMap(([, ops]) => Object.values(ops).map((op) => op.operationId));
    expect(ids.every((id) => typeof id === 'string' && /^[a-z]+[A-Za-z0-9]*$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/api/Records/{projectId}/search/{profileId}/{limit}/{page}/{query}']!.get!.operationId).toBe('getRecordsSearch');
    expect(doc.paths['/api/Records/{projectId}/attachment']!.post!.operationId).toBe('postRecordsAttachment');
    // Templates that differ only in their parameter names would be one address twice.
    const shapes = Object.keys(doc.paths).map((path) => path.replace(/\{\w+\}/g, '{}'));
    expect(new Set(shapes).size).toBe(shapes.length);
  });

  it('declares a client error for every operation but the three public reads (redocly.yaml says why)', () => {
    const without = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => !Object.keys(op.responses).some((status) => status.startsWith('4')))
        .map(([method]) => `${method} ${path}`),
    );
    expect(without.sort()).toEqual(['get /api/Test', 'get /config.json', 'get /keycloak.json']);
  });

  it('documents multipart bodies of the upload calls with their parts, and 413/415 answers', () => {
    const upload = doc.paths['/api/Records/{projectId}/attachment']!.post!;
    expect(Object.keys(upload.requestBody!.content)).toEqual(['multipart/form-data']);
    expect(Object.keys(upload.requestBody!.content['multipart/form-data']!.schema.properties!).sort()).toEqual([
      'file',
      'recordId',
      'tableAttachmentInfoId',
      'tableId',
    ]);
    expect(upload.responses).toHaveProperty('413');
    expect(upload.responses).toHaveProperty('415');
    expect(doc.paths['/api/Records/{projectId}/full']!.post!.requestBody!.content['multipart/form-data']!.schema.properties).toHaveProperty('record');
    expect(doc.paths['/api/Features/{projectId}/{tableId}/full']!.post!.requestBody!.content['multipart/form-data']!.schema.properties).toHaveProperty(
      'feature',
    );
  });

  it('names the shared wire schemas as components', () => {
    for (const name of ['ApiError', 'WireRecord', 'WireFeature', 'AttachmentInfo', 'SearchRequest', 'BulkBody']) {
      expect(doc.components.schemas).toHaveProperty(name);
    }
  });

  it('takes its components from the TypeBox wire schemas, one for each registered schema', () => {
    expect(Object.keys(doc.components.schemas).sort()).toEqual(REGISTERED_SCHEMAS.map((schema) => schema.$id).sort());
    // Schemas without references appear as they are written (less the $id the component name carries).
    for (const schema of [RolesResult, IdsBody]) {
      const { $id, ...json } = JSON.parse(JSON.stringify(schema)) as { $id: string };
      expect(doc.components.schemas[$id]).toEqual(json);
    }
  });
});

describe('API docs UI', () => {
  it('serves the Swagger UI page and every asset it references from this server', async () => {
    const page = await fetch(`${t.origin}/api/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(3);
    for (const ref of refs) {
      expect(ref).toMatch(/^\/api\/docs\//);
      const asset = await fetch(`${t.origin}${ref}`);
      await asset.arrayBuffer(); // read it all: an unread body keeps the connection (and close) busy
      expect({ ref, status: asset.status }).toEqual({ ref, status: 200 });
    }
    // The initializer points at our own document, not at a public validator.
    const init = await (await fetch(`${t.origin}/api/docs/static/swagger-initializer.js`)).text();
    expect(init).not.toMatch(/validator\.swagger\.io|petstore/);
    const json = await fetch(`${t.origin}/api/docs/json`);
    expect(((await json.json()) as Doc).paths).toEqual(doc.paths);
  });
});
