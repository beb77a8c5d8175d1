/**
 * Importing a log in a test build: the recorded editor session is picked in the file input,
 * replayed inside the page into the app's makeStore (throw-away database), and the screen says
 * every state matched and shows the final hash; a tampered log names its first divergence; a
 * file that is not a log says so.
 */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { slQaReplay } from '../../../src/common/i18n/sl';
import { makeStore } from '../../../src/client/app/store';
import { ActionLogImport } from '../../../src/client/features/qa';

afterEach(cleanup);

const fixture = readFileSync(path.join(process.cwd(), 'test/fixtures/action-logs/editor-review.json'), 'utf8');
const expected = (
  JSON.parse(readFileSync(path.join(process.cwd(), 'test/fixtures/action-logs/expected.json'), 'utf8')) as Record<string, { finalHash: string }>
)['editor-review.json']!.finalHash;

function pick(content: string) {
  const input = screen.getByTestId('action-log-import').querySelector('input[type="file"]') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [new File([content], 'dnevnik.json', { type: 'application/json' })] } });
}

describe('ActionLogImport', () => {
  it('replays a picked log in the page: every state matches, the final hash is shown, the state can be downloaded', async () => {
    const onDownloadState = jest.fn<(json: string) => void>();
    render(<ActionLogImport makeStore={makeStore} enabled onDownloadState={onDownloadState} />);
    pick(fixture);
    await waitFor(() => expect(screen.getByText(slQaReplay.replay.match)).toBeTruthy());
    expect(screen.getByRole('status').textContent).toContain(expected);
    fireEvent.click(screen.getByRole('button', { name: slQaReplay.replay.downloadState }));
    expect(JSON.parse(onDownloadState.mock.calls[0]![0])).toMatchObject({ season: { role: 'editor' } });
  });

  it('names the first divergence of a tampered log', async () => {
    const file = JSON.parse(fixture) as { entries: Array<{ kind: string; type?: string; hash?: string }> };
    const index = file.entries.findIndex((entry) => entry.type === 'season/loaded');
    file.entries[index]!.hash = '00000000000000';
    render(<ActionLogImport makeStore={makeStore} enabled />);
    pick(JSON.stringify(file));
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain(slQaReplay.replay.diverged));
    expect(screen.getByRole('status').textContent).toContain(`${slQaReplay.replay.diverged} ${index} (${slQaReplay.replay.action} season/loaded)`);
  });

  it('says a file that is not an action log is not one, and renders nothing where import is off', async () => {
    const { unmount } = render(<ActionLogImport makeStore={makeStore} enabled />);
    pick('{"format":"drugo"}');
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe(slQaReplay.replay.invalid));
    unmount();
    render(<ActionLogImport makeStore={makeStore} enabled={false} />);
    expect(screen.queryByTestId('action-log-import')).toBeNull();
  });
});
