/**
 * A farmer's first visit on a device: nothing of their season is stored yet, so the chain's
 * device-first rule has nothing to show first, and taking the answers into the device step by step
 * (a write and a read or two per step, each its own transaction, each after the last) held the
 * season back by the main thread's time of all of them. Here the season is shown from the
 * server's answers as soon as they are all in, taken by the very rules the chain takes the device's
 * rows by (season-requests.ts `inSeason`), and every answer is stored in one transaction begun in
 * the same turn: an edit the user then makes on the season is written after the answers, never
 * before them (IndexedDB runs transactions on the same rows in the order they were begun). The
 * chain goes on as always — it finds the answers stored and does not store them again — and its
 * season, read back from the device (with the season links it creates), replaces the one shown.
 */
import { slSync } from '../../../common/i18n/sl';
import type { TableKey } from '../../../common/schemas/project';
import type { WireRecord } from '../../../common/schemas/wire';
import { refreshTables, toStoredRecord } from '../../lib/db/local-data';
import type { StoredRecord } from '../../lib/db/database';
import { emptySeason, type SeasonData } from './season-actions';
import type { FarmerAhead } from './season-ahead';
import type { FirstReads } from './season-chain';
import { currentDuration, inSeason, isOwnFarmer } from './season-requests';
import type { AskedRows, StepContext } from './season-steps';

/** A step's server answer: the read it answers, its rows as sent and as the season holds them. */
interface Answered {
  table: TableKey;
  asked: AskedRows;
  wire: WireRecord[];
  rows: StoredRecord[];
}

/** Every answer of a farmer's season, or null when one failed (or the user is not a farmer). */
async function answersOf(first: FirstReads, ahead: FarmerAhead | null) {
  const rows = async (table: TableKey, asked: AskedRows | null): Promise<Answered | null> => {
    const result = asked ? await asked.answer : null;
    return asked && result?.records ? { table, asked, wire: result.records, rows: result.records.map(toStoredRecord) } : null;
  };
  const roles = first.rolesAnswer ? await first.rolesAnswer : null;
  if (!ahead || !roles?.data || roles.data.editor || roles.data.reader) return null;
  const [forms, underForms] = await Promise.all([ahead.forms, ahead.underForms]);
  const answers = await Promise.all([
    rows('farmers', first.ownAsked),
    rows('durations', first.durationsAsked),
    rows('areas', ahead.areas),
    rows('paths', ahead.paths),
    rows('durationPaths', ahead.links),
    rows('forms', forms?.asked ?? null),
    rows('indicators', underForms?.indicators ?? null),
    rows('comments', underForms?.comments ?? null),
  ]);
  const [farmers, durations, areas, paths, links, formRows, indicators, comments] = answers;
  if (!farmers || !durations || !areas || !paths) return null;
  // A season with links needs their forms, and forms their indicators (comments only when the config has the table).
  if (ahead.links && (!links || (links.rows.length > 0 && !formRows))) return null;
  if (formRows && formRows.rows.length > 0 && !indicators) return null;
  return { farmers, durations, areas, paths, links, forms: formRows, indicators, comments };
}

type Answers = NonNullable<Awaited<ReturnType<typeof answersOf>>>;

/** A step's rows taken by its rule, without deleted ones, by id (as the device read gives them). */
const take = (answer: Answered | null, rule: (row: StoredRecord) => boolean) =>
  (answer?.rows ?? []).filter((row) => !row.deleted && rule(row)).sort((a, b) => a.id - b.id);

/** The season as the answers give it, with each step's rule (null without the farmer's record). */
function seasonOf(
  ctx: StepContext,
  answers: Answers,
  email: string,
  today: string,
  now: number,
): { data: SeasonData; scopes: Array<[Answered | null, (row: StoredRecord) => boolean]> } | null {
  const { config } = ctx;
  const mine = isOwnFarmer(config, email);
  const farmers = take(answers.farmers, mine);
  const farmer = farmers[0];
  if (!farmer) return null;
  const data = emptySeason(config, 'farmer', farmers, farmer.id, now);
  data.source = 'server';
  data.duration = currentDuration(
    take(answers.durations, () => true),
    config,
    today,
  );
  const areasRule = inSeason.areas(config, farmer.id);
  data.areas = take(answers.areas, areasRule);
  const pathsRule = inSeason.paths(config, new Set(data.areas.map((row) => row.id)));
  data.paths = take(answers.paths, pathsRule);
  const scopes: Array<[Answered | null, (row: StoredRecord) => boolean]> = [
    [answers.farmers, mine],
    [answers.durations, () => true],
    [answers.areas, areasRule],
    [answers.paths, pathsRule],
  ];
  if (!data.duration) {
    data.notice = slSync.season.noCurrentDuration;
    return { data, scopes };
  }
  const linksRule = inSeason.links(config, data.duration.id, new Set(data.paths.map((row) => row.id)));
  data.durationPaths = take(answers.links, linksRule).filter((row) => !row.archived);
  const formsRule = inSeason.forms(config, new Set(data.durationPaths.map((row) => row.id)));
  data.forms = take(answers.forms, formsRule);
  const formIds = new Set(data.forms.map((row) => row.id));
  const indicatorsRule = inSeason.indicators(config, formIds);
  const commentsRule = inSeason.comments(config, formIds);
  data.indicators = take(answers.indicators, indicatorsRule);
  data.comments = take(answers.comments, commentsRule);
  scopes.push([answers.links, linksRule], [answers.forms, formsRule], [answers.indicators, indicatorsRule], [answers.comments, commentsRule]);
  return { data, scopes };
}

/**
 * On a farmer's first visit: once every answer is in and the device copy's turn is over, shows the
 * season from the answers (`show` says whether it did: only while nothing is on screen) and stores
 * them all in one transaction; resolves when they are stored, or at once when nothing was shown.
 * The chain stores no answer before this settles, and none this stored (`ctx.storedAhead`).
 * Never rejects: a failure leaves the storing to the chain's steps.
 */
export async function showAnswersFirst(
  ctx: StepContext,
  first: FirstReads,
  email: string,
  now: number,
  deviceFirst: Promise<unknown> | undefined,
  show: (data: SeasonData) => boolean,
): Promise<void> {
  try {
    const answers = await answersOf(first, first.farmerAhead ? await first.farmerAhead : null);
    await deviceFirst;
    // Edits waiting on the device belong in what is shown: the chain's device reads bring them.
    if (!answers || !ctx.online || (await ctx.db.outbox.count()) > 0) return;
    const season = seasonOf(ctx, answers, email, first.today, now);
    if (!season || !show(season.data)) return;
    // Begun as the season is shown, before the screen can take an edit (a task later).
    const stored = season.scopes.filter((scope): scope is [Answered, (row: StoredRecord) => boolean] => scope[0] !== null);
    await refreshTables(
      ctx.db,
      stored.map(([answer, inScope]) => ({
        rows: answer.wire,
        options: { projectId: ctx.config.projectId, tableId: ctx.config.tables[answer.table].id, inScope, requestedAt: answer.asked.requestedAt },
      })),
    );
    for (const [answer] of stored) ctx.storedAhead.add(answer.asked);
  } catch {
    // The chain's steps store what was not stored here.
  }
}
