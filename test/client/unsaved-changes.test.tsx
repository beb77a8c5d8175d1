/**
 * The unsaved-changes registry (components/confirm-leave) on the runtime the farmers get (Preact
 * through preact/compat, jest.config.js): an editor that closes after saving no longer counts as
 * unsaved for its screen's next step, whatever order the effects run in.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { UnsavedChangesProvider, useLeaveConfirmation, useUnsavedChanges } from '../../src/client/components/confirm-leave/unsaved-changes';
import { sl } from '../../src/common/i18n/sl';

afterEach(cleanup);

function Editor() {
  useUnsavedChanges(true);
  return <p>urejevalnik</p>;
}

/**
 * A set-up screen's shape: the editor closes once its edit is saved, and the screen's effect then
 * goes back to the list, asking first whether anything is unsaved. Another render of the screen
 * (a store update that the save causes, say) comes before the effects of the first have run.
 */
function Screen({ onAsked }: { onAsked: (answer: Promise<boolean>) => void }) {
  const [open, setOpen] = useState(true);
  const [, setRenders] = useState(0);
  const leave = useLeaveConfirmation();
  useEffect(() => {
    if (!open) onAsked(leave.confirmLeave());
  }, [open, leave, onAsked]);
  const saved = () => {
    setOpen(false);
    setTimeout(() => setRenders((n) => n + 1), 0);
  };
  return (
    <>
      {open ? <Editor /> : <p>seznam</p>}
      <button type="button" onClick={saved}>
        shranjeno
      </button>
    </>
  );
}

describe('unsaved changes', () => {
  it('an editor that closed is not unsaved when its screen asks next, even if the screen renders again before the effects ran', async () => {
    const answers: Array<Promise<boolean>> = [];
    render(
      <UnsavedChangesProvider>
        <Screen onAsked={(answer) => answers.push(answer)} />
      </UnsavedChangesProvider>,
    );
    // A plain DOM click (not wrapped in act): the renders and effects are scheduled as in the app.
    screen.getByRole('button', { name: 'shranjeno' }).click();
    await waitFor(() => expect(answers.length).toBeGreaterThan(0));
    // What the question renders (the dialog, when it thinks something is unsaved) is on screen.
    await act(async () => undefined);
    expect(screen.queryByText(sl.confirmLeave.title)).toBeNull();
    await expect(answers[0]).resolves.toBe(true);
  });
});
