/**
 * What a failed GitHub request means for the user, in one line: refused permissions name the
 * permission to add, network trouble says so. GitHub's own text is shown bounded and inert.
 * Nothing here is fatal: GitHub's side of a run never fails a staging run.
 */
import { oneLine } from '../text.js'

const UNAFFECTED = 'The staging result is not affected.'

/** A GitHub request cut short by its time limit (or by the run's cancellation). */
export class GitHubTimeout extends Error {
  constructor() {
    super('GitHub did not answer in time')
    this.name = 'GitHubTimeout'
  }
}

/** `Could not <doing> <where> (HTTP 403: ...). The github-token lacks ...`: one sentence of what failed, one
 * of what to do, for a refused, timed-out or failed request. */
export function githubFailure(
  e: unknown,
  doing: string,
  permission: string,
  scrub: (t: string) => string,
  forkNote = '',
): string {
  const name = (e as Error)?.name
  if (name === 'GitHubTimeout' || name === 'AbortError' || name === 'TimeoutError')
    return `Could not ${doing}: GitHub did not answer in time. ${UNAFFECTED}`
  // 0 when no answer came; GitHub's text on one line, without control characters or `::`, bounded.
  const s = (e as { status?: unknown })?.status
  const status = typeof s === 'number' && Number.isInteger(s) ? s : 0
  const detail = oneLine(scrub(String((e as Error)?.message ?? e)))
    .replace(/::/g, ': :')
    .slice(0, 300)
  if (rateLimited(e))
    return `Could not ${doing}: GitHub's API rate limit was reached (HTTP ${status}: ${detail}). ${UNAFFECTED}`
  if (status === 403 || status === 404)
    return (
      `Could not ${doing} (HTTP ${status}: ${detail}). The github-token lacks the permission ${permission}: ` +
      `add it under "permissions:" in the workflow or job.${forkNote} ${UNAFFECTED}`
    )
  if (status === 401)
    return `Could not ${doing}: the github-token was refused (HTTP 401). Check the github-token input. ${UNAFFECTED}`
  if (status === 0) return `Could not ${doing}: GitHub could not be reached (${detail}). ${UNAFFECTED}`
  return `Could not ${doing} (HTTP ${status}: ${detail}). ${UNAFFECTED}`
}

/** GitHub's primary or secondary rate limit (a 403 or 429 that says so, or its headers): no missing permission. */
export function rateLimited(e: unknown): boolean {
  const { status, message, response } = (e ?? {}) as {
    status?: unknown
    message?: unknown
    response?: { headers?: Record<string, unknown> }
  }
  const headers = response?.headers ?? {}
  const said =
    /rate limit/i.test(String(message)) ||
    String(headers['x-ratelimit-remaining']) === '0' ||
    'retry-after' in headers
  return (status === 403 || status === 429) && said
}
