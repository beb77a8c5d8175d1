/**
 * A farmer's later chain steps asked ahead: as soon as the server's first answers say the user is
 * a farmer and name their record and the current season (season-requests.ts farmerAheadRequests),
 * their areas, paths, season links and forms are asked without waiting for the device to store
 * those answers. The chain (season-chain.ts) takes them in order, when the device agrees.
 */
import { askRows, type AskedRows, type StepContext } from './season-steps';
import { farmerAheadRequests, formsRequest } from './season-requests';

/** Forms asked under the season links a server answer named. */
interface AskedForms {
  /** The season links the forms were asked for. */
  linkIds: ReadonlySet<number>;
  /** Null when the answer named no link: nothing to ask. */
  asked: AskedRows | null;
}

/** A farmer's later steps, asked from the server's answers before these are on the device. */
export interface FarmerAhead {
  farmerId: number;
  durationId: number | null;
  areas: AskedRows | null;
  paths: AskedRows | null;
  links: AskedRows | null;
  forms: Promise<AskedForms | null>;
}

/** Asks the forms of the season links an answer named, once it is in. */
async function askForms(ctx: StepContext, links: AskedRows | null): Promise<AskedForms | null> {
  const result = links ? await links.answer : null;
  if (!result?.records || !ctx.online) return null;
  const linkIds = new Set(result.records.map((row) => row.id));
  return { linkIds, asked: linkIds.size ? askRows(ctx, formsRequest(ctx.config, [...linkIds])) : null };
}

/**
 * A farmer's areas, paths, season links and forms, asked as soon as the server's answers say the
 * user is a farmer and name their record and the current season (farmerAheadRequests), without
 * waiting for the device to store them; the forms are asked under the links the links' answer
 * named. Null for editors and readers and when an answer failed.
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
  return {
    farmerId: requests.farmerId,
    durationId: requests.durationId,
    areas: askRows(ctx, requests.areas),
    paths: askRows(ctx, requests.paths),
    links,
    forms: askForms(ctx, links),
  };
}
