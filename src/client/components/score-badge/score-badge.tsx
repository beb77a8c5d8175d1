/**
 * A form score 0–100 with its class (above 66 good, above 33 medium, else bad) as a word,
 * a colour and an icon (never colour alone, for colour-blind users). Home, paths, forms and
 * results all show it.
 */
import { sl, slScreens } from '../../../common/i18n/sl';
import { classifyScore, type ScoreClass } from '../../../common/score';

const SHAPES: Record<ScoreClass, string> = {
  // good: a check, medium: a horizontal bar, bad: a cross — distinguishable in greyscale.
  good: 'M5 12.5l4.5 4.5L19 7.5',
  medium: 'M6 12h12',
  bad: 'M7 7l10 10M17 7L7 17',
};

export function ScoreBadge({
  score,
  size = 'medium',
  noneText = slScreens.score.none,
}: {
  score: number | null | undefined;
  size?: 'small' | 'medium' | 'large';
  noneText?: string;
}) {
  if (score === null || score === undefined || !Number.isFinite(score)) {
    return (
      <span className={`score-badge score-badge--none score-badge--${size}`} data-score-class="none">
        {noneText}
      </span>
    );
  }
  const cls = classifyScore(score);
  const word = sl.scheme.scoreClass[cls];
  return (
    <span className={`score-badge score-badge--${cls} score-badge--${size}`} data-score-class={cls} aria-label={slScreens.score.aria(score, word)} role="img">
      <svg className="score-badge__icon" viewBox="0 0 24 24" width="1em" height="1em" aria-hidden="true" focusable="false">
        <path d={SHAPES[cls]} fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <span className="score-badge__value">{score}</span>
      <span className="score-badge__word">{word}</span>
    </span>
  );
}
