// --dotenv: the outputs as KEY=value lines, for GitLab's dotenv reports.
import type { OutputName, Outputs } from '../report/outputs.js'
import type { Result } from '../types.js'

/** GitLab refuses dotenv reports of 5 KB or more. */
const DOTENV_LIMIT_BYTES = 5000

/** `staging-url` -> `STAGING_URL`. */
export const dotenvKey = (name: OutputName): string => name.toUpperCase().replace(/-/g, '_')

/** One line per output, values raw (GitLab keeps quotes literally) with line breaks turned into spaces. */
export function dotenvText(outputs: Outputs): string {
  return (
    Object.entries(outputs)
      .map(([name, value]) => `${dotenvKey(name as OutputName)}=${singleLine(value)}`)
      .join('\n') + '\n'
  )
}

function singleLine(value: string): string {
  return value
    .replace(/[\0\r\n\u2028\u2029]+/g, ' ')
    .replace(/\s{2,}/g, ' ')
    .trim()
}

/**
 * The dotenv file: all outputs; when that passes GitLab's 5 KB limit (many sites), RESULTS keeps
 * only siteId/result/stagingSiteId/stagingUrl per site, and is left empty if even that is too big.
 */
export function dotenvFor(outputs: Outputs, results: Result[]): { text: string; note: string | null } {
  const full = dotenvText(outputs)
  if (Buffer.byteLength(full) < DOTENV_LIMIT_BYTES) return { text: full, note: null }
  const compact = JSON.stringify(
    results.map((r) => ({
      siteId: r.siteId,
      result: r.result,
      stagingSiteId: r.stagingSiteId,
      stagingUrl: r.stagingUrl,
    })),
  )
  const shorter = dotenvText({ ...outputs, results: compact })
  if (Buffer.byteLength(shorter) < DOTENV_LIMIT_BYTES)
    return {
      text: shorter,
      note: 'RESULTS in the dotenv file keeps only siteId, result, stagingSiteId and stagingUrl (5 KB limit); use --json for everything.',
    }
  return {
    text: dotenvText({ ...outputs, results: '' }),
    note: 'RESULTS in the dotenv file is empty: it would pass the 5 KB limit; use --json for per-site results.',
  }
}
