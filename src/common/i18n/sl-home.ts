/**
 * The texts of the farmer's home as it is first painted, apart from the rest of sl.ts (which takes
 * them from here): a first visit paints home with them before the app's code, and the 60 kB of
 * the other texts with it, has arrived (src/client/app/bootstrap/first-visit-picture.ts).
 */
import { formatNumber } from '../format';

const num = (n: number): string => formatNumber(n, 0);

export const slHome = {
  title: 'Moj travnik',
  season: 'Sezona',
  /** A season's name as a title: duration names usually say "Sezona 2026" already; a bare "2026" gets the word. */
  seasonTitle: (name: string): string => (/sezon/i.test(name) ? name : `Sezona ${name}`),
  window: (from: string, to: string): string => `od ${from} do ${to}`,
  noSeason: 'Za današnji dan ni odprte sezone spremljanja. Pretekle rezultate najdete med rezultati.',
  progress: (done: number, total: number): string => `${num(done)} od ${num(total)} poti z izpolnjenim obrazcem`,
  areas: 'Vaši travniki',
  noPaths: 'Na tem travniku ni poti.',
  newPath: 'Nova pot',
  notWalked: 'Ni prehojena',
  noScore: 'Brez ocene',
} as const;
