/** /about's storage and sync card. */
import { describe, expect, it } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import { StorageCard } from '../../../src/client/features/home/storage-card';
import { formatFileSize } from '../../../src/common/format';
import { slScreens } from '../../../src/common/i18n/sl';

describe('StorageCard', () => {
  it('shows the storage used of the quota and the sync state', async () => {
    render(<StorageCard online={false} pending={2} lastSyncAt={null} estimate={async () => ({ usage: 5 * 1024 * 1024, quota: 2 * 1024 ** 3 })} />);
    expect(await screen.findByText(slScreens.about.storageUsed(formatFileSize(5 * 1024 * 1024), formatFileSize(2 * 1024 ** 3)))).toBeTruthy();
    expect(screen.getByText(slScreens.home.offline)).toBeTruthy();
    expect(screen.getByText(slScreens.home.pending(2))).toBeTruthy();
  });

  it('says so when the browser cannot tell', async () => {
    render(<StorageCard online pending={0} lastSyncAt={null} estimate={async () => ({})} />);
    expect(await screen.findByText(slScreens.about.storageUnknown)).toBeTruthy();
  });
});
