/**
 * Evaluating one platform answer for one entity: the judge model decides when there is
 * one, the deterministic matcher (mention-matcher.ts) cross-checks it; with no judge, or
 * when the judge call fails, the matcher decides. Pure orchestration: the judge is a port
 * (its adapter is adapters/external/model/judge.ts).
 */
import { matchAnswer } from './mention-matcher';
import { checkResult, type AnswerVerdict, type EntityIdentity, type PlatformAnswer } from './platform-answer';

export type JudgeOutcome = { ok: true; verdict: AnswerVerdict } | { ok: false; reason: string };

/** The evaluating model. Never throws for a model, network or output error: `{ok: false}`. */
export interface Judge {
  /** The model it asks, for responses and logs. */
  readonly model: string;
  evaluate(answer: PlatformAnswer, entity: EntityIdentity): Promise<JudgeOutcome>;
}

export interface AnswerEvaluation {
  /** What counts: the judge's verdict, or the matcher's (no judge, or the judge failed). */
  verdict: AnswerVerdict;
  /** The matcher's verdict, always computed. */
  matcherVerdict: AnswerVerdict;
  /** The judge decided and its `checkResult` differs from the matcher's. */
  disagreement: boolean;
  /** Why the judge gave no verdict (the matcher decided instead). */
  judgeError?: string;
}

export async function evaluateAnswer(answer: PlatformAnswer, entity: EntityIdentity, judge: Judge | null): Promise<AnswerEvaluation> {
  const matcherVerdict = matchAnswer(answer, entity);
  if (!judge) return { verdict: matcherVerdict, matcherVerdict, disagreement: false };
  let outcome: JudgeOutcome;
  try {
    outcome = await judge.evaluate(answer, entity);
  } catch (err) {
    // The port promises not to throw; a broken judge still never loses the check.
    outcome = { ok: false, reason: `judge threw: ${(err as Error)?.message ?? String(err)}` };
  }
  if (!outcome.ok) return { verdict: matcherVerdict, matcherVerdict, disagreement: false, judgeError: outcome.reason };
  return {
    verdict: outcome.verdict,
    matcherVerdict,
    disagreement: checkResult(outcome.verdict) !== checkResult(matcherVerdict),
  };
}
