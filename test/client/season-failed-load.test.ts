/**
 * A season load that failed before it read the role says nothing about the role: the role the
 * device knew stays, so the farmer's screens do not turn read-only because, say, the network went
 * away in the middle of a load. A failure after the role was read (a farmer without a farmer
 * record) still sets it.
 */
import { expect, test } from '@jest/globals';
import { seasonLoadFailed, seasonSlice } from '../../src/client/features/season';

const reduce = seasonSlice.reducer;

test('a failed load keeps the known role unless it read one itself', () => {
  const known = { ...reduce(undefined, { type: 'init' }), role: 'farmer' as const, status: 'ready' as const };
  expect(reduce(known, seasonLoadFailed({ message: 'Ni povezave.', role: null })).role).toBe('farmer');
  expect(reduce(known, seasonLoadFailed({ message: 'Ni povezave.' })).role).toBe('farmer');
  expect(reduce(known, seasonLoadFailed({ message: 'Ni zapisa kmeta.', role: 'reader' })).role).toBe('reader');
});
