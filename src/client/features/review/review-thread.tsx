/**
 * A form's thread between its farmer and the advisers (the comments table): oldest first, each
 * with its author ("Vi" for one's own), time, text, the indicator it is about (a button that shows
 * it on the form) and the state a review move came with. The reply box queues a comment insert
 * through the outbox (the caller's `onReply`), so it works offline; a comment not yet delivered
 * (an offline id) is marked as waiting to be sent. Read from the season rows: offline too.
 */
import { useState } from 'react';
import { formatDateTime } from '../../../common/format';
import { slReview, slReviewFarmer } from '../../../common/i18n/sl';
import { isReviewState } from '../../../common/review';
import { isLocalId } from '../../../common/record-id';
import type { FormKind } from '../../../common/schemas/config';
import { Button } from '../../components/button/button';
import { CommentInfoIcon, SyncIcon } from '../../components/icons/icons';
import type { Comment } from '../../lib/db/model';

export interface ReviewThreadProps {
  /** The form's comments, oldest first (threadOf). */
  comments: readonly Comment[];
  /** The form's kind: the indicators' names. */
  kind: FormKind | undefined;
  /** The signed-in user's e-mail: their comments are "Vi". */
  ownEmail: string | null;
  /** The form's farmer's e-mail: their comments are "Kmet" for an adviser. */
  farmerEmail?: string | null;
  online: boolean;
  /**
   * Queues a reply (text, the indicator's key or null) and resolves with the stored comment, shown
   * at once until the season's rows list it; absent: no reply box (readers).
   */
  onReply?: (text: string, indicator: string | null) => Promise<Comment | null>;
  /** Shows an indicator on the form (scrolls to it). */
  onShowIndicator?: (key: string) => void;
}

const same = (a: string | null | undefined, b: string | null | undefined) => Boolean(a && b && a.trim().toLowerCase() === b.trim().toLowerCase());

function authorOf(comment: Comment, props: ReviewThreadProps): string {
  const t = slReviewFarmer.thread;
  // Not delivered yet: the server sets the author, so a comment without one was written here.
  if (same(comment.author, props.ownEmail) || (!comment.author && isLocalId(comment.id))) return t.you;
  if (same(comment.author, props.farmerEmail)) return t.farmer;
  return comment.author ? `${t.adviser} (${comment.author})` : t.adviser;
}

export function ReviewThread(props: ReviewThreadProps) {
  const t = slReviewFarmer.thread;
  const { kind } = props;
  // Replies stored on this screen, shown until the season's rows change (the reload after the
  // save lists them from the device, under their offline id until delivered).
  const listed = props.comments.map((c) => c.id).join(',');
  const [sent, setSent] = useState<{ listed: string; rows: Comment[] }>({ listed, rows: [] });
  if (sent.listed !== listed) setSent({ listed, rows: [] });
  const comments = [...props.comments, ...(sent.listed === listed ? sent.rows : []).filter((r) => !props.comments.some((c) => c.id === r.id))];
  const [text, setText] = useState('');
  const [indicator, setIndicator] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const nameOf = (key: string) => kind?.indicators.find((d) => d.key === key)?.name ?? key;

  const reply = async () => {
    if (!props.onReply) return;
    if (!text.trim()) {
      setMessage({ kind: 'error', text: slReview.refused.commentEmpty });
      return;
    }
    setBusy(true);
    setMessage(null);
    try {
      const stored = await props.onReply(text.trim(), indicator || null);
      if (stored) setSent((s) => ({ listed: s.listed, rows: [...s.rows, stored] }));
      setText('');
      setIndicator('');
      setMessage({ kind: 'ok', text: props.online ? t.replySent : t.replySaved });
    } catch {
      setMessage({ kind: 'error', text: t.replyFailed });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card review-thread" aria-labelledby="review-thread-title" data-testid="review-thread">
      <h2 id="review-thread-title">
        <CommentInfoIcon size={20} aria-hidden="true" /> {t.title}
      </h2>
      {!props.online ? <p className="muted small">{t.offline}</p> : null}
      {comments.length === 0 ? (
        <p className="muted">{t.empty}</p>
      ) : (
        <ol className="review-thread__list">
          {comments.map((c) => {
            const waiting = isLocalId(c.id);
            const own = authorOf(c, props) === t.you;
            return (
              <li key={c.id} className={own ? 'review-comment review-comment--own' : 'review-comment'} data-testid={`comment-${c.id}`}>
                <p className="review-comment__meta">
                  <strong>{authorOf(c, props)}</strong> · <time dateTime={c.createdAt}>{formatDateTime(c.createdAt)}</time>
                  {isReviewState(c.state) ? <span className="review-comment__state"> · {t.moved(slReview.state[c.state])}</span> : null}
                </p>
                {c.indicator ? (
                  <p className="review-comment__indicator">
                    {t.about}:{' '}
                    {props.onShowIndicator ? (
                      <a
                        href={`#indicator-${c.indicator}`}
                        className="review-comment__link"
                        onClick={(e) => {
                          e.preventDefault();
                          props.onShowIndicator!(c.indicator!);
                        }}
                      >
                        {nameOf(c.indicator)}
                      </a>
                    ) : (
                      <strong>{nameOf(c.indicator)}</strong>
                    )}
                  </p>
                ) : null}
                <p className="review-comment__text">{c.text}</p>
                {waiting ? (
                  <p className="review-comment__waiting" data-testid="comment-waiting">
                    <SyncIcon size={16} aria-hidden="true" /> {t.waiting}
                  </p>
                ) : null}
              </li>
            );
          })}
        </ol>
      )}
      {props.onReply ? (
        <div className="review-thread__reply">
          <label className="field">
            <span className="field__label">{t.replyLabel}</span>
            <textarea rows={3} value={text} onChange={(e) => setText(e.target.value)} />
          </label>
          {kind ? (
            <label className="field">
              <span className="field__label">{t.replyIndicator}</span>
              <select value={indicator} onChange={(e) => setIndicator(e.target.value)}>
                <option value="">{t.noIndicator}</option>
                {kind.indicators.map((d) => (
                  <option key={d.key} value={d.key}>
                    {d.name}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <Button type="button" block text={t.reply} disabled={busy} onClick={() => void reply()} />
          {message ? (
            <p
              className={message.kind === 'ok' ? 'save-message save-message--ok' : 'save-message save-message--error'}
              role={message.kind === 'ok' ? 'status' : 'alert'}
            >
              {message.text}
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
