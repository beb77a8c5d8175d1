import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
// The renderer itself (Preact's, synchronous, as in the build), outside testing-library's act(),
// which runs every effect before it returns.
import { createRoot } from 'react-dom/client';
import { sl } from '../../src/common/i18n/sl';
import { Modal } from '../../src/client/components/modal/modal';

afterEach(cleanup);

function tab(shift = false) {
  fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Tab', shiftKey: shift });
}

describe('Modal', () => {
  it('has a header with title, back and close buttons; close, Escape and backdrop call onClose', () => {
    const onClose = jest.fn();
    const onBack = jest.fn();
    render(
      <Modal title="Izbira" onClose={onClose} onBack={onBack}>
        <p>vsebina</p>
      </Modal>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Izbira' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: sl.common.back }));
    expect(onBack).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: sl.common.close }));
    fireEvent.keyDown(dialog, { key: 'Escape' });
    fireEvent.mouseDown(screen.getByTestId('modal-backdrop'));
    expect(onClose).toHaveBeenCalledTimes(3);
  });

  it('takes Escape and focus as soon as it is on screen, before its first paint', () => {
    // Rendered outside act(): effects that wait for a paint have not run when the key comes (a
    // key pressed right after the dialog appeared was lost, and the dialog stayed open).
    const onClose = jest.fn();
    const host = document.body.appendChild(document.createElement('div'));
    const root = createRoot(host);
    try {
      root.render(
        <Modal title="Takoj" onClose={onClose}>
          <p>vsebina</p>
        </Modal>,
      );
      expect(document.activeElement?.closest('[role="dialog"]')).not.toBeNull();
      fireEvent.keyDown(document.body, { key: 'Escape' });
      expect(onClose).toHaveBeenCalledTimes(1);
    } finally {
      root.unmount();
      host.remove();
    }
  });

  it('a click inside the dialog does not count as a backdrop click', () => {
    const onClose = jest.fn();
    render(
      <Modal title="X" onClose={onClose}>
        <p>vsebina</p>
      </Modal>,
    );
    fireEvent.mouseDown(screen.getByText('vsebina'));
    expect(onClose).not.toHaveBeenCalled();
  });

  it('required mode cannot be closed: no close button, Escape and backdrop ignored', () => {
    const onClose = jest.fn();
    render(
      <Modal title={sl.update.title} required onClose={onClose} footer={<button type="button">Osveži</button>}>
        <p>{sl.update.message}</p>
      </Modal>,
    );
    expect(screen.queryByRole('button', { name: sl.common.close })).toBeNull();
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    fireEvent.keyDown(document.body, { key: 'Escape' });
    fireEvent.mouseDown(screen.getByTestId('modal-backdrop'));
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: sl.update.title })).toBeTruthy();
  });

  it('traps focus: Tab from the last element goes to the first, Shift+Tab from the first to the last', () => {
    render(
      <Modal title="Past" onClose={() => undefined} footer={<button type="button">Zadnji</button>}>
        <input aria-label="polje" />
      </Modal>,
    );
    const close = screen.getByRole('button', { name: sl.common.close });
    const last = screen.getByRole('button', { name: 'Zadnji' });
    expect(document.activeElement).toBe(close); // first focusable gets focus on open
    last.focus();
    tab();
    expect(document.activeElement).toBe(close);
    tab(true);
    expect(document.activeElement).toBe(last);
  });

  it('focus that escapes the dialog is brought back', () => {
    render(
      <>
        <button type="button">zunaj</button>
        <Modal title="Past" required footer={<button type="button">Notri</button>} />
      </>,
    );
    screen.getByRole('button', { name: 'zunaj', hidden: true }).focus();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Notri' }));
  });

  it('restores focus to the element that opened it', () => {
    function Opener() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            odpri
          </button>
          {open ? <Modal title="D" onClose={() => setOpen(false)} /> : null}
        </>
      );
    }
    render(<Opener />);
    const opener = screen.getByRole('button', { name: 'odpri' });
    opener.focus();
    fireEvent.click(opener);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: sl.common.close }));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });
});
