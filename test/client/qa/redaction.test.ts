/**
 * @jest-environment node
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * What the action log may keep: no secrets anywhere (keys like token/password/secret/
 * authorization, bearer/basic values and JWTs inside text), photos only as size + SHA-256.
 */
import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { configureStore, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import {
  ActionLogRecorder,
  actionLogMiddleware,
  MemoryLogSink,
  redact,
  redactAsync,
  REDACTED,
  StateHasher,
  withActionLogHandler,
  type ActionEntry,
} from '../../../src/client/features/qa';

const sha = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');
const JWT = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLXNlY3JldA';

describe('secrets are redacted', () => {
  it('replaces every value under a secret-like key, at any depth, and keeps absent ones absent', () => {
    const out = redact({
      token: JWT,
      refreshToken: 'r-123',
      idToken: 'i-456',
      password: 'demo',
      clientSecret: 's',
      headers: { Authorization: 'Bearer abcdefgh', Accept: 'application/json' },
      nested: [{ credentials: { kind: 'basic', username: 'kmet1', password: 'demo' } }],
      session: { token: null, accessToken: '' },
      name: 'Njiva pri potoku',
    });
    expect(out).toEqual({
      token: REDACTED,
      refreshToken: REDACTED,
      idToken: REDACTED,
      password: REDACTED,
      clientSecret: REDACTED,
      headers: { Authorization: REDACTED, Accept: 'application/json' },
      nested: [{ credentials: { kind: 'basic', username: 'kmet1', password: REDACTED } }],
      session: { token: null, accessToken: '' },
      name: 'Njiva pri potoku',
    });
  });

  it('cuts bearer/basic credentials and JWTs out of free text', () => {
    const out = redact({ detail: `header was Bearer ${JWT} and Basic a21ldDE6ZGVtbw==`, note: `see ${JWT}` }) as Record<string, string>;
    expect(out.detail).toBe(`header was ${REDACTED} and ${REDACTED}`);
    expect(out.note).toBe(`see ${REDACTED}`);
  });

  it('cuts OAuth codes and tokens out of URLs, keeping the rest of the URL', () => {
    expect(redact('https://app.example/#/?state=abc&code=SplxlOBeZQQYbYS6WxSbIA&session_state=xyz')).toBe(
      `https://app.example/#/?state=abc&code=${REDACTED}&session_state=${REDACTED}`,
    );
    expect(redact('/api/x?token=t0k3n&page=2')).toBe(`/api/x?token=${REDACTED}&page=2`);
    expect(redact('/api/Records/1/search?tableIds=3')).toBe('/api/Records/1/search?tableIds=3');
  });

  it('hashes a state with a token like the same state rebuilt from the redacted log', () => {
    const hasher = new StateHasher();
    const live = { auth: { token: JWT, user: { email: 'kmet1@example.si' } }, sync: { pendingCount: 2 } };
    const fromLog = redact(live);
    expect(hasher.hashState(fromLog)).toBe(new StateHasher().hashState(live));
    // …while a real difference still changes the hash.
    expect(hasher.hashState({ ...live, sync: { pendingCount: 3 } })).not.toBe(hasher.hashState(live));
  });

  it('logs no token or password string from a store session', async () => {
    const auth = createSlice({
      name: 'auth',
      initialState: { token: null as string | null, user: null as string | null },
      reducers: {
        authenticated: (state, action: PayloadAction<{ token: string; user: string }>) => {
          state.token = action.payload.token;
          state.user = action.payload.user;
        },
        passwordTyped: (state, _action: PayloadAction<{ password: string }>) => state,
      },
    });
    const sink = new MemoryLogSink(100);
    const recorder = new ActionLogRecorder({ sink });
    const store = withActionLogHandler(recorder, () =>
      configureStore({ reducer: { auth: auth.reducer }, middleware: (getDefault) => getDefault().concat(actionLogMiddleware({})) }),
    );
    store.dispatch(auth.actions.authenticated({ token: JWT, user: 'kmet1@example.si' }));
    store.dispatch(auth.actions.passwordTyped({ password: 'skrivnost-123' }));
    await recorder.flush();
    const text = JSON.stringify(await sink.readAll());
    expect(text).not.toContain(JWT);
    expect(text).not.toContain('skrivnost-123');
    expect(text).toContain('kmet1@example.si');
  });

  it('leaves no token, JWT or password in any recorded fixture', () => {
    const dir = path.join(process.cwd(), 'test/fixtures/action-logs');
    const files = readdirSync(dir).filter((name) => name.endsWith('.json') && name !== 'expected.json');
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const name of files) {
      const text = readFileSync(path.join(dir, name), 'utf8');
      expect(text).not.toMatch(/eyJ[A-Za-z0-9_-]{4,}\./); // no JWT (the fixture sessions signed in with one)
      expect(text).not.toMatch(/Bearer [A-Za-z0-9]/);
      expect(text).not.toMatch(/"(token|refreshToken|idToken|password|authorization)":\s*"(?!\[redacted\])/i);
      // The signed-in state is still visible: the token key is there, redacted.
      expect(text).toMatch(/"token":\s*"\[redacted\]"/);
    }
  });
});

describe('photos and other binary content are replaced by size and SHA-256', () => {
  const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4, 5]);

  it('Blob, ArrayBuffer, typed array and data: URL', async () => {
    const dataUrl = `data:image/png;base64,${Buffer.from(bytes).toString('base64')}`;
    const out = (await redactAsync({
      photo: new Blob([bytes], { type: 'image/png' }),
      buffer: bytes.buffer.slice(0),
      view: bytes,
      preview: dataUrl,
    })) as Record<string, unknown>;
    const digest = sha(bytes);
    expect(out.photo).toEqual({ $binary: 'blob', size: 9, mimeType: 'image/png', sha256: digest });
    expect(out.buffer).toEqual({ $binary: 'arrayBuffer', size: 9, sha256: digest });
    expect(out.view).toEqual({ $binary: 'bytes', size: 9, sha256: digest });
    expect(out.preview).toEqual({ $binary: 'dataUrl', size: 9, mimeType: 'image/png', sha256: digest });
  });

  it('multipart bodies keep their fields, files as descriptors', async () => {
    const form = new FormData();
    form.append('recordId', '12');
    form.append('file', new Blob([bytes], { type: 'image/jpeg' }), 'foto.jpg');
    const out = await redactAsync({ body: form });
    expect(out).toEqual({
      body: {
        $formData: [
          ['recordId', '12'],
          ['file', { $binary: 'blob', size: 9, mimeType: 'image/jpeg', sha256: sha(bytes) }],
        ],
      },
    });
  });

  it('a state holding a photo hashes like the state holding its descriptor', () => {
    const live = { cache: { photo: new Blob([bytes]) } };
    expect(new StateHasher().hashState(redact(live))).toBe(new StateHasher().hashState(live));
  });

  it('the field-day fixture keeps its photo as a descriptor, in the queued edit and in the upload', () => {
    const file = JSON.parse(readFileSync(path.join(process.cwd(), 'test/fixtures/action-logs/farmer-field-day.json'), 'utf8')) as {
      entries: Array<ActionEntry | { kind: 'net'; url: string; requestBody?: unknown }>;
    };
    const queued = file.entries.find(
      (e): e is ActionEntry =>
        e.kind === 'action' &&
        e.type === 'sync/editSaved/pending' &&
        (e.action as unknown as { meta: { arg: { kind: string } } }).meta.arg.kind === 'attachment',
    );
    const data = (queued!.action as unknown as { meta: { arg: { data: { $binary: string; size: number; sha256: string } } } }).meta.arg.data;
    // The browser queues the photo as the Blob the file input gave it.
    expect(data).toMatchObject({ $binary: 'blob', size: expect.any(Number), mimeType: 'image/jpeg' });
    expect(data.sha256).toMatch(/^[0-9a-f]{64}$/);
    const upload = file.entries.find((e) => e.kind === 'net' && e.url.endsWith('/attachment')) as { requestBody: { $formData: Array<[string, unknown]> } };
    const part = upload.requestBody.$formData.find(([name]) => name === 'file')![1];
    // The same photo: the same size and hash in the outbox edit and in the HTTP upload.
    expect(part).toMatchObject({ $binary: 'blob', size: data.size, sha256: data.sha256 });
  });
});
