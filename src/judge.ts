/** The room that judges a Result: failure or not, and the outcome of a whole run. */
import type { Outcome, Result } from './types.js'

/** Whether an outcome fails the run (exit code 1, `core.setFailed`). */
export function isFailure(outcome: Outcome): boolean {
  return outcome === 'failed' || outcome === 'timed-out' || outcome === 'cancelled'
}

/** The outcome of a whole run: the worst of its sites. */
export function overallOutcome(results: Result[]): Outcome {
  const has = (o: Outcome) => results.some((r) => r.result === o)
  for (const o of ['cancelled', 'failed', 'timed-out', 'accepted'] as const) if (has(o)) return o
  if (results.every((r) => r.result === 'dry-run')) return 'dry-run'
  if (results.every((r) => r.result === 'skipped')) return 'skipped'
  return 'succeeded'
}
