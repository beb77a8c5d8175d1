/**
 * The review of a form, the one rule for server and client (docs/architecture.md, The review
 * loop): the states a form moves through, who may move it, which moves need a reason, the
 * deadlines of the season, and what a farmer may still change. The server refuses any other
 * move (repositories/review-rules.ts); the client offers only these and explains the rest.
 *
 *   draft ──farmer/editor──► submitted ──editor──► approved | returned | rejected
 *   returned ──farmer/editor──► submitted
 *   approved | rejected ──farmer──► appealed ──editor──► approved | rejected
 *   approved | rejected ──editor (reopen)──► submitted
 *
 * Pure: the caller passes today's date ('YYYY-MM-DD' in Slovenia, `dayInSlovenia`).
 */
import { formatDay } from './format';
import { fillText, slReview } from './i18n/sl';

// The screens show deadlines as the rule words them.
export { formatDay };

export const REVIEW_STATES = ['draft', 'submitted', 'returned', 'approved', 'rejected', 'appealed'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

/** Who moves a form: farmers (their own forms) and editors; readers move nothing. */
export type ReviewActor = 'farmer' | 'editor';

interface Transition {
  readonly from: readonly ReviewState[];
  readonly to: ReviewState;
  readonly by: readonly ReviewActor[];
  /** The move needs a reason (a comment of the form's thread). */
  readonly reason: boolean;
  /** Which of the season's deadlines bounds the move. */
  readonly deadline?: 'submit' | 'appeal';
}

const TRANSITIONS: readonly Transition[] = [
  { from: ['draft', 'returned'], to: 'submitted', by: ['farmer', 'editor'], reason: false, deadline: 'submit' },
  { from: ['submitted'], to: 'approved', by: ['editor'], reason: false },
  { from: ['submitted'], to: 'returned', by: ['editor'], reason: true },
  { from: ['submitted'], to: 'rejected', by: ['editor'], reason: true },
  { from: ['approved', 'rejected'], to: 'appealed', by: ['farmer'], reason: true, deadline: 'appeal' },
  { from: ['appealed'], to: 'approved', by: ['editor'], reason: true },
  { from: ['appealed'], to: 'rejected', by: ['editor'], reason: true },
  // Reopening a decision.
  { from: ['approved', 'rejected'], to: 'submitted', by: ['editor'], reason: true },
];

/** A stored review_state as a state: empty, missing or unknown is a draft. */
export function reviewStateOf(value: unknown): ReviewState {
  return typeof value === 'string' && (REVIEW_STATES as readonly string[]).includes(value) ? (value as ReviewState) : 'draft';
}

export function isReviewState(value: unknown): value is ReviewState {
  return typeof value === 'string' && (REVIEW_STATES as readonly string[]).includes(value);
}

/**
 * Whether a farmer may change the form's values and indicators in this state: while it is a draft
 * or returned to them. Editors may always correct a form.
 */
export function farmerMayEdit(state: ReviewState): boolean {
  return state === 'draft' || state === 'returned';
}

/** The states that wait for an adviser (the review queue). */
export const AWAITING_REVIEW: readonly ReviewState[] = ['submitted', 'appealed'];

/** The season's deadlines as stored on a durations row (dates 'YYYY-MM-DD', days a number). */
export interface SeasonDeadlines {
  submit_until: string | null;
  review_until?: string | null;
  appeal_days: number | null;
}

/** What a move is checked against: the form's review columns as stored now. */
export interface ReviewedForm {
  review_state: ReviewState;
  /** When the state last changed (ISO date-time). */
  reviewed_at: string | null;
  /** A returned form's own last day for resubmitting. */
  return_until: string | null;
}

export interface MoveRequest {
  from: ReviewedForm;
  to: ReviewState;
  actor: ReviewActor;
  reason: string | null | undefined;
  season: SeasonDeadlines | null;
  /** 'YYYY-MM-DD' (dayInSlovenia). */
  today: string;
}

// Made once, on first use: each construction with a time zone costs, the first one the most.
let slovenianDay: Intl.DateTimeFormat | undefined;

/** The calendar day of `now` in Slovenia: deadlines are whole Slovenian days. */
export function dayInSlovenia(now: Date): string {
  // en-CA writes dates as YYYY-MM-DD.
  slovenianDay ??= new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Ljubljana', year: 'numeric', month: '2-digit', day: '2-digit' });
  return slovenianDay.format(now);
}

/** 'YYYY-MM-DD' plus `days` days. */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day.slice(0, 10)}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Whole days from `today` to `until` (0 on the last day itself, negative once it passed). */
export function daysLeft(today: string, until: string): number {
  return Math.round((Date.parse(`${until.slice(0, 10)}T00:00:00Z`) - Date.parse(`${today.slice(0, 10)}T00:00:00Z`)) / 86_400_000);
}

/**
 * The last day a form in `form`'s state may be submitted: a returned form's own deadline when the
 * adviser set one (it may be later than the season's), else the season's; null when none is set.
 */
export function submitDeadline(form: Pick<ReviewedForm, 'review_state' | 'return_until'>, season: SeasonDeadlines | null): string | null {
  if (form.review_state === 'returned' && form.return_until) return form.return_until.slice(0, 10);
  return season?.submit_until?.slice(0, 10) ?? null;
}

/** The last day a decision may be appealed; null when the season sets no appeal period. */
export function appealDeadline(form: Pick<ReviewedForm, 'reviewed_at'>, season: SeasonDeadlines | null): string | null {
  const days = season?.appeal_days;
  if (days === null || days === undefined || !form.reviewed_at) return null;
  return addDays(dayInSlovenia(new Date(form.reviewed_at)), days);
}

/** The moves `actor` may make from `state` (ignoring deadlines and reasons): what a screen offers. */
export function movesFrom(state: ReviewState, actor: ReviewActor): ReviewState[] {
  return TRANSITIONS.filter((t) => t.from.includes(state) && t.by.includes(actor)).map((t) => t.to);
}

/** Whether the move needs a reason. */
export function moveNeedsReason(from: ReviewState, to: ReviewState): boolean {
  return TRANSITIONS.find((t) => t.from.includes(from) && t.to === to)?.reason ?? false;
}

/**
 * Why the move is refused (Slovenian, for the 4xx detail and the screen), or null when it is
 * allowed. Whether the form itself is complete and valid is the caller's check (submitting).
 */
export function refuseMove(request: MoveRequest): string | null {
  const { from, to, actor, today } = request;
  const state = from.review_state;
  if (state === to) return null;
  const transition = TRANSITIONS.find((t) => t.from.includes(state) && t.to === to);
  const names = { from: slReview.state[state], to: slReview.state[to] };
  if (!transition) return fillText(slReview.refused.transition, names);
  if (!transition.by.includes(actor)) return fillText(actor === 'farmer' ? slReview.refused.editorsOnly : slReview.refused.farmersOnly, names);
  if (transition.reason && !request.reason?.trim()) return fillText(slReview.refused.reasonMissing, names);
  if (transition.deadline === 'submit' && actor === 'farmer') {
    const until = submitDeadline(from, request.season);
    if (until && today > until) return fillText(slReview.refused.submitDeadline, { date: formatDay(until) });
  }
  if (transition.deadline === 'appeal') {
    const until = appealDeadline(from, request.season);
    if (until && today > until) return fillText(slReview.refused.appealDeadline, { date: formatDay(until) });
  }
  return null;
}
