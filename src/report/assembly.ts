import { roundedSeconds } from '../duration.js'
import { isFailure, overallOutcome, type Result } from '../types.js'
import { countOutcomes, serverWords } from './markdown.js'
import { outputsFor, type Outputs } from './outputs.js'

/** The one assembly of a run's report, shared by the action (src/action.ts) and the CLI (src/cli/run.ts):
 * each front door only writes these pieces its own way. */
export interface Report {
  /** The run failed: the action calls setFailed, the CLI exits 1. */
  failed: boolean
  outputs: Outputs
  /** Every warning of every site, once. */
  warnings: string[]
  /** One per site that failed with an error: a title naming the site, and what to do. */
  errors: { title: string; hint: string }[]
  finalLine: string
}

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

/** The last line of a run, for the action's log and the CLI: what happened, in our words, and the server's
 * own words quoted as such (for a job that ended, never "started" as the last word). */
export function finalLine(results: Result[]): string {
  const first = results[0]
  if (!first) return 'Nothing ran.'
  if (results.length > 1) {
    // Sites a refused token, a cancel or fail-fast kept from starting: named, so a reader of the
    // log knows which sites the run never touched (their results say why).
    const notStarted = results.filter((r) => r.summary.startsWith('Not started')).map((r) => r.siteId)
    const more = notStarted.length > 10 ? ` and ${notStarted.length - 10} more` : ''
    const named = notStarted.length ? ` Not started: ${notStarted.slice(0, 10).join(', ')}${more}.` : ''
    return `Staging ${first.operation} on ${results.length} sites: ${countOutcomes(results)} (${overallOutcome(results)} overall).${named}`
  }
  const r = first
  const what = r.summary || r.result
  const said = serverWords(r)
  if (!said) return `Staging ${r.operation} ${r.result} (site ${r.siteId}): ${what}`
  // The server's words first, as what they were; ours last, so a job that ended never ends on "started".
  const when =
    r.operation !== 'status' && r.httpStatus !== null && r.httpStatus < 300 ? ' when it accepted the job' : ''
  return `Staging ${r.operation} ${r.result} (site ${r.siteId}). The server said${when}: "${said}" ${what}`
}
