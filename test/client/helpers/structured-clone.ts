/**
 * Run before each client test file (jest.config.js, setupFiles, before fake-indexeddb). jsdom's
 * window has no `structuredClone`, which fake-indexeddb (the tests' stand-in for IndexedDB) uses
 * to store every value: without it each write into the device database fails. Node's serializer
 * clones what the app stores (plain objects, arrays, dates, ArrayBuffers).
 */
import { deserialize, serialize } from 'node:v8';

globalThis.structuredClone ??= ((value: unknown) => deserialize(serialize(value))) as typeof structuredClone;
