import { roundedSeconds } from '../duration.js'
import { isFailure, overallOutcome, type Result } from '../types.js'
import { finalLine } from './lines.js'
import { outputsFor, type Outputs } from './outputs.js'

/**
 * The one assembly of a run's report, shared by the action (src/action.ts) and the CLI
 * (src/cli/run.ts): each front door only writes these pieces its own way.
 */
export interface Report {
  /** The run failed: the action calls setFailed, the CLI exits 1. */
  failed: boolean
  outputs: Outputs
  /** Every warning of every site, once. */
  warnings: string[]
  /** One per site that failed with an error: a title naming the site, and what to do. */
  errors: { title: string; hint: string }[]
  /** The last line of the run (lines.ts). */
  finalLine: string
}

/** The report of `results`, for a run that took `elapsedMs`. */
export function assembleReport(results: Result[], elapsedMs: number): Report {
  const failed = isFailure(overallOutcome(results))
  return {
    failed,
    outputs: outputsFor(results, roundedSeconds(elapsedMs)),
    warnings: [...new Set(results.flatMap((r) => r.warnings))],
    errors: failed
      ? results
          .filter((r) => isFailure(r.result) && r.error)
          .map((r) => ({
            title: `Staging ${r.operation} ${r.result} (site ${r.siteId})`,
            hint: r.error!.hint,
          }))
      : [],
    finalLine: finalLine(results),
  }
}
