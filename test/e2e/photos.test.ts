/**
 * A camera photo on a form, in Chromium against the real server: the app resizes it in a worker
 * of its own (the page's main thread stays free for the farmer's taps), to a JPEG whose longer
 * side is the stored size, upright as the camera's orientation tag says; that JPEG is what the
 * server keeps once the form is delivered.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, jest, test } from '@jest/globals';
import sharp from 'sharp';
import { slScreens } from '../../src/common/i18n/sl';
import type { AttachmentInfoList } from '../../src/common/schemas/wire';
import { PHOTO_MAX_SIDE } from '../../src/client/features/forms/indicator-photos';
import { describeApp } from './fixture';
import { DEMO_USERS, recordArtifacts } from './harness';
import { REQUIRED_ANSWERS, homePathRow, openNewMeadowForm, waitForOutboxEmpty } from './scenarios/helpers';

jest.setTimeout(180_000);

const PHOTO_ON = 'salvia-pratensis';
const dir = mkdtempSync(path.join(os.tmpdir(), 'moj-travnik-photo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A 3000×2000 camera JPEG stored sideways, as phones store a portrait photo: its orientation tag
 * (6) turns it a quarter clockwise for display, so upright it is 2000×3000 with the stored left
 * half (red) on top and the right half (blue) below.
 */
async function sidewaysPhoto(): Promise<string> {
  const [width, height] = [3000, 2000];
  const half = (colour: { r: number; g: number; b: number }) => ({ create: { width: width / 2, height, channels: 3 as const, background: colour } });
  const red = await sharp(half({ r: 220, g: 20, b: 20 }))
    .png()
    .toBuffer();
  const blue = await sharp(half({ r: 20, g: 20, b: 220 }))
    .png()
    .toBuffer();
  const jpeg = await sharp({ create: { width, height, channels: 3, background: { r: 0, g: 0, b: 0 } } })
    .composite([
      { input: red, left: 0, top: 0 },
      { input: blue, left: width / 2, top: 0 },
    ])
    .jpeg({ quality: 90 })
    .withMetadata({ orientation: 6 })
    .toBuffer();
  const file = path.join(dir, 'kadulja.jpg');
  writeFileSync(file, jpeg);
  return file;
}

/** The colour of the pixel at (x, y) of a JPEG. */
async function pixelAt(jpeg: Buffer, x: number, y: number): Promise<{ r: number; g: number; b: number }> {
  const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return { r: data[at]!, g: data[at + 1]!, b: data[at + 2]! };
}

describeApp('a camera photo on a form (Chromium)', {}, (e2e) => {
  test('is resized in a worker to the stored size, upright, and the server keeps that JPEG', async () => {
    const { data } = e2e;
    const [farmPath] = await data.pathsOf(DEMO_USERS.farmer1.email);
    const formsBefore = new Set((await data.formsOfPath(farmPath!.id)).map((form) => form.id));
    const photo = await sidewaysPhoto();
    const { page, log, close } = await e2e.signedIn('farmer1', { viewport: { width: 390, height: 844 } });
    try {
      await recordArtifacts('photo-resize', page, log, async () => {
        await homePathRow(page, farmPath!.id).waitFor();
        await openNewMeadowForm(page, farmPath!.id);
        for (const answer of REQUIRED_ANSWERS) {
          const card = page.getByTestId(`indicator-${answer.key}`);
          if ('label' in answer) await card.getByRole('radio', { name: answer.label, exact: true }).click();
          else await card.locator('input[type=number]').fill(String(answer.value));
        }
        const photoCard = page.getByTestId(`indicator-${PHOTO_ON}`);
        await photoCard.getByRole('radio', { name: slScreens.forms.yes, exact: true }).click();
        await photoCard.locator('.indicator__head').click();

        const workers: string[] = [];
        page.on('worker', (worker) => workers.push(worker.url()));
        await photoCard.locator('input[type=file]').setInputFiles(photo);
        await page.waitForFunction((key) => {
          const image = document.querySelector<HTMLImageElement>(`[data-testid="indicator-${key}"] [data-testid="new-photo"] img`);
          return Boolean(image?.complete && image.naturalWidth > 0);
        }, PHOTO_ON);
        // The app's own script (a worker of the build), not a map's: the only one this screen starts.
        expect(workers).toEqual([expect.stringMatching(new RegExp(`^${e2e.server.origin}/static/js/[^/]+\\.js$`))]);

        await page.getByRole('button', { name: slScreens.forms.save }).click();
        await page.getByText(slScreens.states.savedOnline, { exact: true }).waitFor();
        await waitForOutboxEmpty(page);
      });
    } finally {
      await close();
    }

    const [form] = (await data.formsOfPath(farmPath!.id)).filter((candidate) => !formsBefore.has(candidate.id));
    const keyCol = await data.col('indicators', 'key');
    const photoRow = (await data.indicatorsOfForm(form!.id)).find((row) => row.properties[keyCol] === PHOTO_ON);
    const config = await data.config();
    const slot = config.tables.indicators.attachments!.photos!;
    const list = await data.call<AttachmentInfoList>(DEMO_USERS.farmer1, `/api/Records/${config.projectId}/record/${photoRow!.id}/attachmentinfo/${slot}`);
    expect(list.body.attachments).toHaveLength(1);
    const stored = await fetch(`${e2e.server.origin}/api/Records/${config.projectId}/attachment/${list.body.attachments[0]!.id}`, {
      headers: { authorization: `Bearer ${await data.token(DEMO_USERS.farmer1)}` },
    });
    expect(stored.status).toBe(200);
    const jpeg = Buffer.from(await stored.arrayBuffer());
    const meta = await sharp(jpeg).metadata();
    // Upright (no orientation tag left to apply) and at the stored size: 2000×3000 → 1067×1600.
    expect(meta).toMatchObject({ format: 'jpeg', width: Math.round((2000 * PHOTO_MAX_SIDE) / 3000), height: PHOTO_MAX_SIDE });
    expect(meta.orientation ?? 1).toBe(1);
    const top = await pixelAt(jpeg, Math.floor(meta.width! / 2), 100);
    const bottom = await pixelAt(jpeg, Math.floor(meta.width! / 2), meta.height! - 100);
    expect(top.r).toBeGreaterThan(150);
    expect(top.b).toBeLessThan(100);
    expect(bottom.b).toBeGreaterThan(150);
    expect(bottom.r).toBeLessThan(100);
  });
});
