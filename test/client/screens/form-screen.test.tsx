/**
 * The form screen: checklist in the kind's groups, live explained score, Slovenian
 * validation, saving offline into the outbox (fake-indexeddb, no server), read-only for readers,
 * archive for editors, the unsaved-changes guard, and its states.
 */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useSaveEdits } from '../../../src/client/app/routes/screen-data';
import { useLeaveConfirmation } from '../../../src/client/components/confirm-leave/unsaved-changes';
import { FormScreen, type FormScreenProps } from '../../../src/client/features/forms/form-screen';
import { planSave, initialDraft } from '../../../src/client/features/forms/form-draft';
import { PHOTO_MAX_SIDE } from '../../../src/client/features/forms/indicator-photos';
import type { ResizeEnv } from '../../../src/client/lib/image/resize';
import { openOfflineDb, type OfflineDb, type StoredRecord } from '../../../src/client/lib/db';
import { storeMappings } from '../../../src/client/lib/db/identity';
import { FORM_KINDS } from '../../../src/common/scheme/form-kinds';
import { sl, slPhone, slScreens, slSync } from '../../../src/common/i18n/sl';
import { config, renderWithStore, season } from './fixtures';

const dbs: OfflineDb[] = [];
afterEach(async () => {
  cleanup();
  for (const db of dbs.splice(0)) {
    db.close();
    await db.delete();
  }
});

function newDb(): OfflineDb {
  const db = openOfflineDb({ name: `form-screen-${dbs.length}-${Date.now()}-${Math.random()}` });
  dbs.push(db);
  return db;
}

type Props = Omit<FormScreenProps, 'saveEdits'>;

function Harness(props: Props) {
  const saveEdits = useSaveEdits();
  return <FormScreen {...props} saveEdits={saveEdits} />;
}

function props(form: StoredRecord | null, indicators: StoredRecord[], overrides: Partial<Props> = {}): Props {
  return {
    config,
    form,
    indicators,
    pathName: 'Pot 1',
    pathId: 5,
    seasonName: '2026',
    readOnly: null,
    canArchive: false,
    online: false,
    status: 'ready',
    error: null,
    fromDevice: true,
    hasData: true,
    onArchive: async () => undefined,
    getPosition: async () => [16.2, 46.8],
    ...overrides,
  };
}

/** The form's indicators in the document. */
function indicatorsShown(): number {
  return document.querySelectorAll('[data-testid^="indicator-"]').length;
}

/** Renders the form and waits for its whole checklist (the first screen comes first, the rest after paints). */
async function renderForm(ui: Parameters<typeof renderWithStore>[0], options: Parameters<typeof renderWithStore>[1]) {
  const rendered = renderWithStore(ui, options);
  await waitFor(() => expect(indicatorsShown()).toBe(FORM_KINDS.travnik.indicators.length));
  return rendered;
}

function liveScore(): string {
  return screen.getByTestId('live-score').querySelector('.score-badge')!.textContent ?? '';
}

describe('FormScreen', () => {
  it('shows the checklist in its groups with pictures and Latin names, and the stored values', async () => {
    const s = season();
    await renderForm(<Harness {...props(s.formDone, s.indicators)} />, { db: newDb() });
    const kind = FORM_KINDS.travnik;
    for (const group of kind.groups!) expect(screen.getByRole('heading', { level: 2, name: group.title })).toBeTruthy();
    const kadulja = screen.getByTestId('indicator-salvia-pratensis');
    expect(within(kadulja).getByText('Salvia pratensis')).toBeTruthy();
    expect(kadulja.querySelector('img')!.getAttribute('src')).toBe('/indicators/salvia-pratensis.svg');
    expect(within(kadulja).getByRole('radio', { name: slScreens.forms.yes }).getAttribute('aria-checked')).toBe('true');
    // Base 10? The rule's base plus kadulja (+7) and zlata rozga (−20), clamped.
    const expected = Math.max(0, kind.scoring.base + 7 - 20);
    expect(liveScore()).toContain(String(expected));
  });

  it('the live score moves as indicators are ticked, with the explanation (in the render after the tap)', async () => {
    const s = season();
    await renderForm(<Harness {...props(s.formDone, s.indicators)} />, { db: newDb() });
    const base = FORM_KINDS.travnik.scoring.base;
    fireEvent.click(within(screen.getByTestId('indicator-solidago')).getByRole('radio', { name: slScreens.forms.no }));
    await waitFor(() => expect(liveScore()).toContain(String(base + 7)));
    fireEvent.click(within(screen.getByTestId('indicator-lotus-corniculatus')).getByRole('radio', { name: slScreens.forms.yes }));
    await waitFor(() => expect(liveScore()).toContain(String(base + 14)));
    const explanation = screen.getByTestId('live-score');
    expect(explanation.querySelector('[data-key="lotus-corniculatus"]')!.textContent).toContain('+7 točk');
    // Zlata rozga no longer lowers it.
    expect(explanation.querySelector('[data-key="solidago"]')).toBeNull();
  });

  it('a tap is answered in a frame of its own: the answer at once, the score after that frame has painted', async () => {
    const s = season();
    await renderForm(<Harness {...props(s.formDone, s.indicators)} />, { db: newDb() });
    const before = liveScore();
    const no = within(screen.getByTestId('indicator-solidago')).getByRole('radio', { name: slScreens.forms.no });
    act(() => {
      fireEvent.click(no);
    });
    // The tap's own render is over (act flushed it): the answer shows, the score is still the last one.
    expect(no.getAttribute('aria-checked')).toBe('true');
    expect(liveScore()).toBe(before);
    await waitFor(() => expect(liveScore()).toContain(String(FORM_KINDS.travnik.scoring.base + 7)));
  });

  it('the checklist shows its first screen in the first render and the rest in slices after paints', async () => {
    const s = season();
    const fresh = { ...s.formDone, properties: { ...s.formDone.properties, [String(config.tables.forms.columns.completed)]: false } };
    renderWithStore(<Harness {...props(fresh, [])} />, { db: newDb() });
    const first = indicatorsShown();
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(FORM_KINDS.travnik.indicators.length);
    // A tap before the rest is there is answered.
    const firstCard = document.querySelector('[data-testid^="indicator-"]')!;
    const radio = within(firstCard as HTMLElement).getAllByRole('radio')[0]!;
    act(() => {
      fireEvent.click(radio);
    });
    expect(radio.getAttribute('aria-checked')).toBe('true');
    await waitFor(() => expect(indicatorsShown()).toBe(FORM_KINDS.travnik.indicators.length));
  });

  it('a completed form needs the required answers: Slovenian messages, nothing queued', async () => {
    const s = season();
    const db = newDb();
    await renderForm(<Harness {...props(s.formDone, s.indicators)} />, { db });
    fireEvent.click(screen.getByRole('button', { name: slScreens.forms.save }));
    const errors = await screen.findByTestId('form-errors');
    const kind = FORM_KINDS.travnik;
    for (const def of kind.indicators.filter((d) => d.required)) {
      expect(errors.textContent).toContain(sl.scheme.validation.required(def.name));
      expect(within(screen.getByTestId(`indicator-${def.key}`)).getByRole('alert').textContent).toBe(sl.scheme.validation.required(def.name));
    }
    expect(await db.outbox.count()).toBe(0);
  });

  it('a new form has no score yet until something is answered (not a bad 0)', async () => {
    const s = season();
    const fresh = {
      ...s.formDone,
      properties: { ...s.formDone.properties, [String(config.tables.forms.columns.completed)]: false, [String(config.tables.forms.columns.score)]: null },
    };
    await renderForm(<Harness {...props(fresh, [])} />, { db: newDb() });
    expect(liveScore()).toBe(slPhone.form.noScoreYet);
    fireEvent.click(within(screen.getByTestId('indicator-solidago')).getByRole('radio', { name: slScreens.forms.no }));
    await waitFor(() => expect(liveScore()).toContain(String(FORM_KINDS.travnik.scoring.base)));
  });

  it('saving a form not marked completed with required answers missing saves and warns; the warning links focus the field', async () => {
    const s = season();
    const db = newDb();
    const fresh = { ...s.formDone, properties: { ...s.formDone.properties, [String(config.tables.forms.columns.completed)]: false } };
    await renderForm(<Harness {...props(fresh, [])} />, { db });
    fireEvent.click(within(screen.getByTestId('indicator-solidago')).getByRole('radio', { name: slScreens.forms.no }));
    fireEvent.click(screen.getByRole('button', { name: slScreens.forms.save }));
    const warning = await screen.findByTestId('form-missing');
    expect(warning.textContent).toContain(slPhone.form.missingTitle);
    await waitFor(() => expect(document.activeElement).toBe(warning));
    expect(await db.outbox.count()).toBeGreaterThan(0); // saved all the same
    const required = FORM_KINDS.travnik.indicators.filter((d) => d.required);
    expect(required.length).toBeGreaterThan(0);
    const first = required[0]!;
    fireEvent.click(within(warning).getByRole('link', { name: sl.scheme.validation.required(first.name) }));
    expect(screen.getByTestId(`indicator-${first.key}`).contains(document.activeElement)).toBe(true);
  });

  it('radio groups are one Tab stop; arrow keys move the choice; required is announced', () => {
    const s = season();
    renderWithStore(<Harness {...props(s.formDone, s.indicators)} />, { db: newDb() });
    const group = within(screen.getByTestId('indicator-lotus-corniculatus')).getByRole('radiogroup');
    const [yes, no] = within(group).getAllByRole('radio');
    expect([yes!.tabIndex, no!.tabIndex]).toEqual([0, -1]);
    fireEvent.keyDown(yes!, { key: 'ArrowRight' });
    expect(no!.getAttribute('aria-checked')).toBe('true');
    expect([yes!.tabIndex, no!.tabIndex]).toEqual([-1, 0]);
    expect(document.activeElement).toBe(no);
    fireEvent.keyDown(no!, { key: 'ArrowLeft' });
    expect(yes!.getAttribute('aria-checked')).toBe('true');
    const required = FORM_KINDS.travnik.indicators.find((d) => d.required && d.valueKind === 'presence');
    if (required) {
      const card = screen.getByTestId(`indicator-${required.key}`);
      expect(within(card).getByRole('radiogroup').getAttribute('aria-required')).toBe('true');
      expect(card.textContent).toContain(slPhone.form.required);
    }
  });

  it("an indicator is one row: the plant's name opens its description, note, location and photos, and a row with any of them is marked", async () => {
    const s = season();
    await renderForm(<Harness {...props(s.formDone, s.indicators)} />, { db: newDb() });
    const glavinec = screen.getByTestId('indicator-centaurea-jacea');
    const head = within(glavinec).getByRole('button', { name: /navadni glavinec/ });
    // The name says what it opens (for screen readers too), and nothing of it is in the way before.
    expect(head.textContent).toContain(`${slScreens.forms.more} · ${slScreens.forms.note} · ${slScreens.forms.location} · ${slScreens.forms.photos}`);
    expect(head.getAttribute('aria-expanded')).toBe('false');
    expect(within(glavinec).queryByRole('textbox', { name: slScreens.forms.note })).toBeNull();
    expect(head.classList.contains('indicator__head--has-more')).toBe(false);
    fireEvent.click(head);
    expect(head.getAttribute('aria-expanded')).toBe('true');
    const panel = document.getElementById(head.getAttribute('aria-controls')!)!;
    expect(glavinec.contains(panel)).toBe(true);
    expect(within(panel).getByText(FORM_KINDS.travnik.indicators.find((i) => i.key === 'centaurea-jacea')!.description)).toBeTruthy();
    const note = within(glavinec).getByRole('textbox', { name: slScreens.forms.note }) as HTMLInputElement;
    fireEvent.input(note, { target: { value: 'ob robu' } });
    expect(within(glavinec).getByRole('button', { name: slScreens.forms.useMyLocation })).toBeTruthy();
    fireEvent.click(head);
    expect(head.getAttribute('aria-expanded')).toBe('false');
    expect(within(glavinec).queryByRole('textbox', { name: slScreens.forms.note })).toBeNull();
    // Closed again, the row shows it holds a note.
    expect(head.classList.contains('indicator__head--has-more')).toBe(true);
  });

  it('an invalid value is refused even for a draft', async () => {
    const s = season();
    const db = newDb();
    renderWithStore(<Harness {...props(s.formDone, s.indicators)} />, { db });
    fireEvent.click(screen.getByRole('checkbox', { name: slScreens.forms.markCompleted }));
    const orchids = within(screen.getByTestId('indicator-orchidaceae')).getByRole('spinbutton');
    fireEvent.input(orchids, { target: { value: '2.5' } });
    fireEvent.click(screen.getByRole('button', { name: slScreens.forms.save }));
    expect((await screen.findByTestId('form-errors')).textContent).toContain(sl.scheme.validation.count('Kukavičevke', 10000));
    expect(await db.outbox.count()).toBe(0);
  });

  it('saves offline through the outbox: new and changed indicators, a location, then the form with its score', async () => {
    const s = season();
    const db = newDb();
    await renderForm(<Harness {...props(s.formDone, s.indicators)} />, { db });
    const orchids = screen.getByTestId('indicator-orchidaceae');
    fireEvent.input(within(orchids).getByRole('spinbutton'), { target: { value: '2' } });
    fireEvent.click(within(orchids).getByRole('button', { name: /Kukavičevke/i }));
    fireEvent.click(within(orchids).getByRole('button', { name: slScreens.forms.useMyLocation }));
    await within(orchids).findByTestId('location-value');
    fireEvent.click(within(screen.getByTestId('indicator-solidago')).getByRole('radio', { name: slScreens.forms.no }));
    // Not finished yet: a draft may leave required answers for later.
    fireEvent.click(screen.getByRole('checkbox', { name: slScreens.forms.markCompleted }));
    fireEvent.click(screen.getByRole('button', { name: slScreens.forms.save }));
    await screen.findByText(slScreens.states.saved);
    const queued = await db.outbox.orderBy('seq').toArray();
    const ic = config.tables.indicators.columns;
    const fc = config.tables.forms.columns;
    expect(queued.map((q) => [q.kind, q.tableId])).toEqual([
      ['insert', config.tables.indicators.id],
      ['update', config.tables.indicators.id],
      ['update', config.tables.forms.id],
    ]);
    expect(queued[0]!.properties).toMatchObject({ [ic.parent]: s.formDone.id, [ic.key]: 'orchidaceae', [ic.value]: 2 });
    expect(queued[0]!.geometry).toEqual({ type: 'Point', coordinates: [16.2, 46.8] });
    expect(queued[1]!.properties).toMatchObject({ [ic.value]: false });
    const base = FORM_KINDS.travnik.scoring.base;
    expect(queued[2]!.properties).toMatchObject({ [fc.score]: base + 7 + 10, [fc.rule_version]: FORM_KINDS.travnik.scoring.version, [fc.completed]: false });
  });

  it('photos are resized to JPEG and stored as attachments of the new indicator row', async () => {
    const s = season();
    const db = newDb();
    // jsdom cannot decode images: stand-ins for the browser's bitmap and canvas; the resize code itself runs.
    const drawn: number[][] = [];
    const resizeEnv: ResizeEnv = {
      createImageBitmap: async () => ({ width: 4000, height: 3000, close: () => undefined }),
      createCanvas: (width, height) => {
        drawn.push([width, height]);
        return {
          canvas: { getContext: () => ({ drawImage: () => undefined, fillRect: () => undefined, fillStyle: '', imageSmoothingQuality: 'high' }) },
          toBlob: async (type) => new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type }),
        };
      },
    };
    renderWithStore(<Harness {...props(s.formDone, s.indicators, { resizeEnv })} />, { db });
    const card = screen.getByTestId('indicator-centaurea-jacea');
    fireEvent.click(within(card).getByRole('radio', { name: slScreens.forms.yes }));
    const input = within(card).getByLabelText(`${slScreens.forms.addPhoto}: navadni glavinec`) as HTMLInputElement;
    expect(input.getAttribute('accept')).toBe('image/*');
    expect(input.getAttribute('capture')).toBe('environment');
    await act(async () => {
      fireEvent.change(input, { target: { files: [new File([new Uint8Array([1, 2, 3])], 'IMG_1.heic', { type: 'image/heic' })] } });
    });
    await within(card).findByTestId('new-photo');
    fireEvent.click(screen.getByRole('checkbox', { name: slScreens.forms.markCompleted }));
    fireEvent.click(screen.getByRole('button', { name: slScreens.forms.save }));
    await screen.findByText(slScreens.states.saved);
    const queued = await db.outbox.orderBy('seq').toArray();
    const insert = queued.find((q) => q.kind === 'insert')!;
    const attachment = queued.find((q) => q.kind === 'attachment')!;
    expect(attachment).toMatchObject({
      recordId: insert.id,
      tableAttachmentInfoId: config.tables.indicators.attachments!.photos,
      name: 'IMG_1.jpg',
      mimeType: 'image/jpeg',
    });
    expect((await db.attachments.get(attachment.id))!.size).toBe(3);
    expect(drawn).toEqual([[PHOTO_MAX_SIDE, 1200]]);
  });

  it('readers see the form read-only: no save, no archive, inputs disabled', () => {
    const s = season();
    renderWithStore(<Harness {...props(s.formDone, s.indicators, { readOnly: 'role' })} />, { db: newDb() });
    expect(screen.getByText(slScreens.states.readOnly)).toBeTruthy();
    expect(screen.queryByRole('button', { name: slScreens.forms.save })).toBeNull();
    expect(screen.queryByRole('button', { name: slScreens.forms.archive })).toBeNull();
    expect((within(screen.getByTestId('indicator-salvia-pratensis')).getByRole('radio', { name: slScreens.forms.yes }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect(screen.queryByLabelText(`${slScreens.forms.addPhoto}: travniška kadulja`)).toBeNull();
  });

  it('editors archive after confirming', async () => {
    const s = season();
    const onArchive = jest.fn(async () => undefined);
    renderWithStore(<Harness {...props(s.formDone, s.indicators, { canArchive: true, onArchive })} />, { db: newDb() });
    fireEvent.click(screen.getByRole('button', { name: slScreens.forms.archive }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain(slScreens.forms.archiveConfirm);
    fireEvent.click(within(dialog).getByRole('button', { name: sl.common.cancel }));
    expect(onArchive).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: slScreens.forms.archive }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: slScreens.forms.archive }));
    await waitFor(() => expect(onArchive).toHaveBeenCalledTimes(1));
  });

  it('unsaved changes ask before the tab closes, and not after saving', async () => {
    const s = season();
    renderWithStore(<Harness {...props(s.formDone, s.indicators)} />, { db: newDb() });
    const unload = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(unload()).toBe(false);
    fireEvent.click(within(screen.getByTestId('indicator-lotus-corniculatus')).getByRole('radio', { name: slScreens.forms.yes }));
    await waitFor(() => expect(unload()).toBe(true));
    fireEvent.click(screen.getByRole('checkbox', { name: slScreens.forms.markCompleted }));
    fireEvent.click(screen.getByRole('button', { name: slScreens.forms.save }));
    await screen.findByText(slScreens.states.saved);
    await waitFor(() => expect(unload()).toBe(false));
  });

  it('states: loading, not found, unknown kind', () => {
    const s = season();
    renderWithStore(<Harness {...props(null, [], { status: 'loading', hasData: false })} />, { db: newDb() });
    expect(screen.getByText(sl.common.loading)).toBeTruthy();
    cleanup();
    renderWithStore(<Harness {...props(null, [])} />, { db: newDb() });
    expect(screen.getByText(slScreens.forms.notFound)).toBeTruthy();
    cleanup();
    const odd = { ...s.formDone, properties: { ...s.formDone.properties, [config.tables.forms.columns.form_id]: 99 } };
    renderWithStore(<Harness {...props(odd, [])} />, { db: newDb() });
    expect(screen.getByText(slScreens.forms.unknownKind)).toBeTruthy();
  });
});

describe('unsaved answers kept on the device', () => {
  /** The rows of kept answers on the device. */
  const keptRows = (db: OfflineDb) => db.meta.where('key').startsWith('formDraft:').toArray();
  /** Taps an answer of an indicator. */
  const tap = (key: string, answer: string) => fireEvent.click(within(screen.getByTestId(`indicator-${key}`)).getByRole('radio', { name: answer }));
  /** The queued edits of indicators rows. */
  const queuedIndicators = async (db: OfflineDb) => (await db.outbox.toArray()).filter((item) => item.tableId === config.tables.indicators.id);
  const answerOf = (key: string, answer: string) =>
    within(screen.getByTestId(`indicator-${key}`))
      .getByRole('radio', { name: answer })
      .getAttribute('aria-checked');

  it('come back after the screen was lost without a save (a tab the phone killed), and go once saved', async () => {
    const s = season();
    const db = newDb();
    await renderForm(<Harness {...props(s.formDone, s.indicators)} />, { db });
    tap('salvia-pratensis', slScreens.forms.no);
    tap('centaurea-jacea', slScreens.forms.yes);
    await waitFor(async () => expect(await keptRows(db)).toHaveLength(1));
    expect(screen.queryByTestId('form-restored')).toBeNull();
    // The screen goes without a save and without asking, as a killed tab's.
    cleanup();

    await renderForm(<Harness {...props(s.formDone, s.indicators)} />, { db });
    expect((await screen.findByTestId('form-restored')).textContent).toContain(slScreens.forms.restoredTitle);
    expect(answerOf('salvia-pratensis', slScreens.forms.no)).toBe('true');
    expect(answerOf('centaurea-jacea', slScreens.forms.yes)).toBe('true');
    // Unchanged answers are the stored ones.
    expect(answerOf('solidago', slScreens.forms.yes)).toBe('true');
    expect(await db.outbox.count()).toBe(0);

    // Not finished yet: a draft may leave required answers for later.
    fireEvent.click(screen.getByRole('checkbox', { name: slScreens.forms.markCompleted }));
    fireEvent.click(screen.getByRole('button', { name: slScreens.forms.save }));
    await screen.findByText(slScreens.states.saved);
    expect(screen.queryByTestId('form-restored')).toBeNull();
    // Gone once "saved" shows: a reload right after must not bring the saved answers back as unsaved.
    expect(await keptRows(db)).toHaveLength(0);
    expect(await queuedIndicators(db)).toHaveLength(2);
  });

  it('go with the save in one transaction: the device never holds the saved answers and the same answers unsaved', async () => {
    const s = season();
    const db = newDb();
    await renderForm(<Harness {...props(s.formDone, s.indicators)} />, { db });
    tap('salvia-pratensis', slScreens.forms.no);
    await waitFor(async () => expect(await keptRows(db)).toHaveLength(1));
    // The kept answers cannot be removed (the device fails at that very write): the save is not stored either.
    const refuse = () => {
      throw new Error('the disk went away');
    };
    db.meta.hook('deleting', refuse);
    // Not finished yet: a draft may leave required answers for later.
    fireEvent.click(screen.getByRole('checkbox', { name: slScreens.forms.markCompleted }));
    // Tapped just before the save: not kept yet when it starts.
    tap('centaurea-jacea', slScreens.forms.yes);
    fireEvent.click(screen.getByRole('button', { name: slScreens.forms.save }));
    await screen.findByText(slSync.sync.storageFailed);
    expect(await db.outbox.count()).toBe(0);
    expect(answerOf('salvia-pratensis', slScreens.forms.no)).toBe('true');
    // The save failed: every answer on the screen is kept, the last one too.
    await waitFor(async () => {
      const [row] = await keptRows(db);
      expect(Object.keys((row!.value as { indicators: object }).indicators).sort()).toEqual(['centaurea-jacea', 'salvia-pratensis']);
    });

    db.meta.hook('deleting').unsubscribe(refuse);
    fireEvent.click(screen.getByRole('button', { name: slScreens.forms.save }));
    await screen.findByText(slScreens.states.saved);
    expect(await keptRows(db)).toHaveLength(0);
    expect(await queuedIndicators(db)).toHaveLength(2);
  });

  it('an answer tapped while the save runs stays on the screen, unsaved, and is kept', async () => {
    const s = season();
    const db = newDb();
    await renderForm(<Harness {...props(s.formDone, s.indicators)} />, { db });
    fireEvent.click(screen.getByRole('checkbox', { name: slScreens.forms.markCompleted }));
    tap('salvia-pratensis', slScreens.forms.no);
    fireEvent.click(screen.getByRole('button', { name: slScreens.forms.save }));
    // The save has started (its button says so); the farmer taps the next plant at once.
    expect(screen.getByRole('button', { name: slScreens.forms.saving })).toBeTruthy();
    tap('centaurea-jacea', slScreens.forms.yes);
    await screen.findByText(slScreens.states.saved);
    expect(answerOf('salvia-pratensis', slScreens.forms.no)).toBe('true');
    expect(answerOf('centaurea-jacea', slScreens.forms.yes)).toBe('true');
    // Saved: the first answer; not saved: the one tapped meanwhile, which the device keeps.
    const queued = await queuedIndicators(db);
    expect(queued).toHaveLength(1);
    await waitFor(async () => {
      const [row] = await keptRows(db);
      expect(Object.keys((row!.value as { indicators: object }).indicators)).toEqual(['centaurea-jacea']);
    });
  });

  it('are discarded on request: the form as stored, nothing kept', async () => {
    const s = season();
    const db = newDb();
    await renderForm(<Harness {...props(s.formDone, s.indicators)} />, { db });
    tap('salvia-pratensis', slScreens.forms.no);
    await waitFor(async () => expect(await keptRows(db)).toHaveLength(1));
    cleanup();

    await renderForm(<Harness {...props(s.formDone, s.indicators)} />, { db });
    await screen.findByTestId('form-restored');
    fireEvent.click(screen.getByRole('button', { name: slScreens.forms.discardRestored }));
    expect(screen.queryByTestId('form-restored')).toBeNull();
    expect(answerOf('salvia-pratensis', slScreens.forms.yes)).toBe('true');
    await waitFor(async () => expect(await keptRows(db)).toHaveLength(0));
  });

  it('are forgotten when the user agrees to leave the form without saving (as the question says: they will be lost)', async () => {
    const s = season();
    const db = newDb();
    function Leave() {
      const leave = useLeaveConfirmation();
      return <button onClick={() => void leave.confirmLeave()}>odidi</button>;
    }
    await renderForm(
      <>
        <Harness {...props(s.formDone, s.indicators)} />
        <Leave />
      </>,
      { db },
    );
    tap('salvia-pratensis', slScreens.forms.no);
    await waitFor(async () => expect(await keptRows(db)).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: 'odidi' }));
    fireEvent.click(await screen.findByRole('button', { name: sl.confirmLeave.leave }));
    await waitFor(async () => expect(await keptRows(db)).toHaveLength(0));
  });

  it('are found again after the outbox delivered the form (kept under its offline id, opened by its server id)', async () => {
    const s = season();
    const db = newDb();
    const offlineId = 4242;
    const form = { ...s.formDone, id: offlineId };
    const indicators = s.indicators.map((row) => ({ ...row, properties: { ...row.properties, [config.tables.indicators.columns.parent]: offlineId } }));
    await renderForm(<Harness {...props(form, indicators)} />, { db });
    tap('salvia-pratensis', slScreens.forms.no);
    await waitFor(async () => expect(await keptRows(db)).toHaveLength(1));
    cleanup();
    const announce = await db.transaction('rw', db.meta, () =>
      storeMappings(db, [{ tableId: config.tables.forms.id, localId: offlineId, id: s.formDone.id, of: 'record' }]),
    );
    announce();

    await renderForm(<Harness {...props(s.formDone, s.indicators)} />, { db });
    await screen.findByTestId('form-restored');
    expect(answerOf('salvia-pratensis', slScreens.forms.no)).toBe('true');
  });

  it('are not kept for a form the user cannot change', async () => {
    const s = season();
    const db = newDb();
    await db.meta.put({ key: `formDraft:${s.formDone.id}`, value: { ids: [s.formDone.id], indicators: {} } });
    await renderForm(<Harness {...props(s.formDone, s.indicators, { readOnly: 'role' })} />, { db });
    expect(screen.queryByTestId('form-restored')).toBeNull();
    expect(await keptRows(db)).toHaveLength(1);
  });
});

describe('planSave', () => {
  it('clearing a stored answer deletes its row; an untouched form only updates the form row', () => {
    const s = season();
    const kind = FORM_KINDS.travnik;
    const initial = initialDraft(config, kind, s.formDone, s.indicators);
    expect(planSave({ config, kind, form: s.formDone, rows: s.indicators, draft: initial, initial }).map((step) => step.kind)).toEqual(['update']);
    const draft = { ...initial, indicators: { ...initial.indicators, solidago: { ...initial.indicators.solidago!, value: '' } } };
    const steps = planSave({ config, kind, form: s.formDone, rows: s.indicators, draft, initial });
    expect(steps[0]).toMatchObject({ kind: 'delete', id: s.indicators[1]!.id });
  });
});
