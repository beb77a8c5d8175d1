/**
 * Counts in the Slovenian texts are written the Slovenian way, from the one formatter: a dot between
 * thousands ('1.000', '12.345'), as sizes and areas are, whatever the screen.
 */
import { describe, expect, it } from '@jest/globals';
import { slAudit, slReviewQueue, slScreens } from '../../src/common/i18n/sl';

describe('counts in the texts', () => {
  it('group thousands with a dot', () => {
    expect(slReviewQueue.total(12_345)).toBe('12.345 obrazcev');
    expect(slAudit.total(1_000_000)).toBe('Najdenih sprememb: 1.000.000');
    expect(slAudit.recordHistory.more(50, 12_000)).toBe('Prikazanih je zadnjih 50 od 12.000 sprememb; vse so v zgodovini sprememb projekta.');
    expect(slScreens.results.exportProgress(1000, 10_000)).toBe('Pripravljam izvoz... 1.000/10.000');
  });

  it('keep small counts as they are', () => {
    expect(slReviewQueue.total(3)).toBe('3 obrazci');
  });
});
