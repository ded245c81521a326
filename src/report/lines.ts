import { overallOutcome } from '../staging/batch.js'
import type { Result } from '../types.js'
import { countOutcomes } from './markdown.js'

/**
 * The last line of a run, for the action's log and the CLI: what happened, in our words, and the
 * server's own words quoted as such (for a job that ended, never "started" as the last word).
 */
export function finalLine(results: Result[]): string {
  const first = results[0]
  if (!first) return 'Nothing ran.'
  if (results.length > 1)
    return `Staging ${first.operation} on ${results.length} sites: ${countOutcomes(results)} (${overallOutcome(results)} overall).`
  const r = first
  const quoted =
    r.message && !r.summary.includes(r.message)
      ? ` The server said${r.result === 'succeeded' && r.operation !== 'status' ? ', when it accepted the job' : ''}: "${r.message}"`
      : ''
  return `Staging ${r.operation} ${r.result} (site ${r.siteId}): ${r.summary || r.result}${quoted}`
}
