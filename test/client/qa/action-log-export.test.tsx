/**
 * The export on /about: the button downloads the ring buffer as a dated JSON action-log file,
 * and says so in Slovenian; an empty log is said to be empty.
 */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { slQa } from '../../../src/common/i18n/sl';
import { ActionLogExport, ACTION_LOG_FORMAT, MemoryLogSink, parseActionLogFile, type ActionLogFile } from '../../../src/client/features/qa';

afterEach(cleanup);

describe('ActionLogExport', () => {
  it('exports the log as moj-travnik-dnevnik-<date>.json that the replay accepts', async () => {
    const sink = new MemoryLogSink(10);
    await sink.write([
      { kind: 'session', t: 1, hash: 'aa', state: { counter: 0 } },
      { kind: 'action', t: 2, type: 'counter/incremented', action: { type: 'counter/incremented' }, hash: 'bb' },
    ]);
    const onExport = jest.fn<(file: ActionLogFile, name: string) => void>();
    render(<ActionLogExport sink={sink} appVersion="1.2.3" onExport={onExport} />);
    expect(screen.getByRole('heading', { name: slQa.qa.title })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: slQa.qa.export }));
    await waitFor(() => expect(onExport).toHaveBeenCalledTimes(1));
    const [file, name] = onExport.mock.calls[0]!;
    expect(name).toMatch(/^moj-travnik-dnevnik-\d{4}-\d{2}-\d{2}-\d{4}\.json$/);
    expect(file).toMatchObject({ format: ACTION_LOG_FORMAT, appVersion: '1.2.3', capacity: 10 });
    expect(parseActionLogFile(JSON.parse(JSON.stringify(file))).entries.map((entry) => entry.seq)).toEqual([1, 2]);
    expect(screen.getByRole('status').textContent).toContain(slQa.qa.exported);
  });

  it('says the log is empty instead of downloading nothing', async () => {
    const onExport = jest.fn();
    render(<ActionLogExport sink={new MemoryLogSink(10)} onExport={onExport} />);
    fireEvent.click(screen.getByRole('button', { name: slQa.qa.export }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe(slQa.qa.empty));
    expect(onExport).not.toHaveBeenCalled();
  });

  it('rejects a file that is not an action log with a clear message', () => {
    expect(() => parseActionLogFile({ format: 'other', version: 1, entries: [] })).toThrow(/not an action log/);
    expect(() => parseActionLogFile({ format: ACTION_LOG_FORMAT, version: 1, entries: [{ seq: 1, kind: 'action', action: {} }] })).toThrow(/entry 0/);
  });
});
