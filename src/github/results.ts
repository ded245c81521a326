/**
 * Results of a step that did not run a staging operation, as values every report renders
 * (src/report/): a run not started (a fork without secrets, `if-staging-taken` refusing) and
 * `release`. Nothing was sent to the staging service, so no request is counted.
 */
import { NOT_STARTED } from '../report/summary.js'
import { newResult, type Clock, type Outcome, type Result, type ResultOperation } from '../types.js'

/** One Result per site: `outcome`, our `summary`; a failure carries `hint` as what to do. */
export function stepResults(
  operation: ResultOperation,
  siteIds: string[],
  outcome: Outcome,
  summary: string,
  o: { clock: Clock; kind: string; hint?: string; warning?: string },
): Result[] {
  return siteIds.map((siteId) => ({
    ...newResult(operation, siteId, o.clock.wallNow()),
    result: outcome,
    summary,
    warnings: o.warning ? [o.warning] : [],
    error: o.hint ? { kind: o.kind, hint: o.hint } : null,
  }))
}

/** The operation did not start (`outcome`: skipped, failed, timed-out or cancelled): `message` says why. */
export function notStartedResults(
  operation: ResultOperation,
  siteIds: string[],
  outcome: Outcome,
  message: string,
  clock: Clock,
): Result[] {
  return stepResults(operation, siteIds, outcome, message, {
    clock,
    kind: NOT_STARTED,
    hint: message,
    warning: outcome === 'skipped' ? message : undefined,
  })
}
