/**
 * Renders the PNG app icons in public/icons/ from public/icons/icon.svg with sharp (no network).
 * The PNGs are committed; run `npx tsx scripts/generate-icons.ts` after changing the SVG.
 * PNGs exist because some platforms (iOS home screen, older Android) ignore SVG manifest icons.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'public', 'icons');
const svg = readFileSync(path.join(dir, 'icon.svg'), 'utf8');

// A maskable icon is cropped to a circle or squircle by the launcher: the same full-bleed artwork
// without the rounded-corner clip (the flower lies inside the central 80 % safe zone).
const maskable = svg.replace(/ clip-path="url\(#tile\)"/, '');

const jobs: Array<[string, string, number]> = [
  [svg, 'icon-192.png', 192],
  [svg, 'icon-512.png', 512],
  [svg, 'apple-touch-icon.png', 180],
  [maskable, 'icon-maskable-512.png', 512],
];
for (const [source, name, size] of jobs) {
  await sharp(Buffer.from(source)).resize(size, size).png({ compressionLevel: 9 }).toFile(path.join(dir, name));
  console.log(`public/icons/${name} ${size}×${size}`);
}
