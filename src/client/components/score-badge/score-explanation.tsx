/**
 * Why a form scored what it did (docs/architecture.md, Beyond the basics): the rule's starting points, then each indicator that
 * raised or lowered the score with its reason, as src/common/scheme/scoring.ts explains it.
 * The form screen shows it live, results and a path's earlier seasons show it too.
 */
import { sl, slScreens } from '../../../common/i18n/sl';
import type { ScoreResult } from '../../../common/scheme/scoring';

const signed = (n: number) => `${n > 0 ? '+' : '−'}${sl.scheme.points(Math.abs(n))}`;

export function ScoreExplanation({ result }: { result: ScoreResult }) {
  const t = slScreens.forms;
  return (
    <div className="score-explanation" data-testid="score-explanation">
      <p className="muted small">
        {t.base(sl.scheme.points(result.base))} · {t.rule} {result.ruleVersion}
      </p>
      {result.explanation.length === 0 ? (
        <p className="muted">{t.noEffects}</p>
      ) : (
        <ul className="score-explanation__list">
          {result.explanation.map((item) => (
            <li key={item.key} className={item.points > 0 ? 'score-explanation__up' : 'score-explanation__down'} data-key={item.key}>
              <span className="score-explanation__points">{signed(item.points)}</span> <span className="score-explanation__name">{item.name}</span>{' '}
              <span className="muted small">({item.reason})</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The explanation folded under "Kaj je vplivalo na oceno" (result rows, earlier seasons). */
export function FoldedScoreExplanation({ result }: { result: ScoreResult }) {
  return (
    <details>
      <summary>{slScreens.forms.explain}</summary>
      <ScoreExplanation result={result} />
    </details>
  );
}
