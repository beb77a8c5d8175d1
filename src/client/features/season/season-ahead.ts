/**
 * A farmer's later chain steps asked ahead: as soon as the server's first answers say the user is
 * a farmer and name their record and the current season (season-requests.ts farmerAheadRequests),
 * their areas, paths, season links, forms and the forms' indicators and comments are asked without
 * waiting for the device to store those answers. The chain (season-chain.ts) takes them in order,
 * when the device agrees.
 */
import type { AppConfig } from '../../../common/schemas/config';
import { askRows, type AskedRows, type StepContext } from './season-steps';
import { commentsRequest, farmerAheadRequests, formsRequest, indicatorsRequest } from './season-requests';

/** Forms asked under the season links a server answer named. */
interface AskedForms {
  /** The season links the forms were asked for. */
  linkIds: ReadonlySet<number>;
  /** Null when the answer named no link: nothing to ask. */
  asked: AskedRows | null;
}

/** Indicators and comments asked under the forms a server answer named. */
interface AskedUnderForms {
  /** The forms they were asked for. */
  formIds: ReadonlySet<number>;
  /** Null when the answer named no form (or, for comments, an older cached config.json has no comments table). */
  indicators: AskedRows | null;
  comments: AskedRows | null;
}

/** A farmer's later steps, asked from the server's answers before these are on the device. */
export interface FarmerAhead {
  farmerId: number;
  durationId: number | null;
  areas: AskedRows | null;
  paths: AskedRows | null;
  links: AskedRows | null;
  forms: Promise<AskedForms | null>;
  underForms: Promise<AskedUnderForms | null>;
}

/** Asks the forms of the season links an answer named, once it is in. */
async function askForms(ctx: StepContext, links: AskedRows | null): Promise<AskedForms | null> {
  const result = links ? await links.answer : null;
  if (!result?.records || !ctx.online) return null;
  const linkIds = new Set(result.records.map((row) => row.id));
  return { linkIds, asked: linkIds.size ? askRows(ctx, formsRequest(ctx.config, [...linkIds])) : null };
}

/** Asks the indicators and comments of the forms an answer named, once it is in (ids ascending, as the early reads ask). */
async function askUnderForms(ctx: StepContext, forms: Promise<AskedForms | null>): Promise<AskedUnderForms | null> {
  const asked = (await forms)?.asked;
  const result = asked ? await asked.answer : null;
  if (!result?.records || !ctx.online) return null;
  const formIds = result.records.map((row) => row.id).sort((a, b) => a - b);
  const withComments = (ctx.config.tables as Partial<AppConfig['tables']>).comments !== undefined;
  return {
    formIds: new Set(formIds),
    indicators: formIds.length ? askRows(ctx, indicatorsRequest(ctx.config, formIds)) : null,
    comments: formIds.length && withComments ? askRows(ctx, commentsRequest(ctx.config, formIds)) : null,
  };
}

/**
 * A farmer's areas, paths, season links, forms and the forms' indicators and comments, asked as soon as the server's answers say the
 * user is a farmer and name their record and the current season (farmerAheadRequests), without
 * waiting for the device to store them; the forms are asked under the links the links' answer
 * named, the indicators and comments under the forms the forms' answer named. Null for editors and readers and when an answer failed.
 */
export async function askFarmerAhead(
  ctx: StepContext,
  rolesAnswer: Promise<{ data?: { editor: boolean; reader: boolean } }>,
  own: AskedRows,
  durations: AskedRows,
  email: string,
  today: string,
): Promise<FarmerAhead | null> {
  const [roles, ownResult, durationsResult] = await Promise.all([rolesAnswer, own.answer, durations.answer]);
  if (!ctx.online || !roles.data || !ownResult.records || !durationsResult.records) return null;
  const requests = farmerAheadRequests(ctx.config, roles.data, ownResult.records, durationsResult.records, email, today);
  if (!requests) return null;
  const links = requests.links && askRows(ctx, requests.links);
  const forms = askForms(ctx, links);
  return {
    farmerId: requests.farmerId,
    durationId: requests.durationId,
    areas: askRows(ctx, requests.areas),
    paths: askRows(ctx, requests.paths),
    links,
    forms,
    underForms: askUnderForms(ctx, forms),
  };
}
