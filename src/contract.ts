/**
 * Everything this project assumes where the v2 specification is silent, in one place.
 * Each constant names the section of ../shared/spec/where-the-spec-is-silent.md it relies on
 * (copied into docs/assumptions.md). Code elsewhere imports these; it never re-states them.
 */

/** §1: any 2xx from a staging endpoint means "accepted"; `status: false` on a 2xx is a failure. */
export const isAccepted = (status: number): boolean => status >= 200 && status < 300

/** §2: the task id of a response that started background work. */
export function taskIdOf(data: unknown): string | null {
  const value = field(data, 'task_id')
  if (typeof value === 'string' && value.trim() !== '') return value.trim()
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return null
}

/** §2: what a task's `data.status` means. Unknown values keep waiting. */
export type TaskState = 'running' | 'completed' | 'failed' | 'unknown'
export function taskState(status: string): TaskState {
  const s = status.trim().toLowerCase()
  if (s === 'progress' || s === 'queued' || s === 'pending' || s === 'running') return 'running'
  if (s === 'completed' || s === 'success' || s === 'done') return 'completed'
  if (['error', 'failed', 'cancelled', 'canceled', 'timeout'].includes(s)) return 'failed'
  return 'unknown'
}

/** §2: a 404 on the task status this soon after the job started means "not visible yet". */
export const TASK_INVISIBLE_GRACE_MS = 30_000

/** §2: the failure reason of a task, without the conventional "Error:" prefix. */
export function taskComment(comment: unknown): string | null {
  if (typeof comment !== 'string' || comment.trim() === '') return null
  return comment.trim().replace(/^error:\s*/i, '')
}

/** §3: what the staging probe (`GET /v2/sites/{site}/staging`) says of the environment. */
export type ProbeState = 'busy' | 'ready' | 'unknown'
export function probeState(data: unknown): ProbeState {
  if (field(data, 'is_syncing') === true) return 'busy'
  const status = field(data, 'status')
  if (typeof status !== 'string') return 'unknown'
  const s = status.toLowerCase()
  if (['creating', 'syncing', 'pushing', 'deleting', 'pulling', 'resetting'].includes(s)) return 'busy'
  if (['ready', 'active', 'idle'].includes(s)) return 'ready'
  return 'unknown'
}
/** §3: probe answers that mean completion cannot be tracked. */
export const PROBE_UNSUPPORTED = [405, 501]

/** §4: statuses that mean "another job runs on this site: not processed, try later". */
export const BUSY_STATUSES = [409, 423]
/** §4 and the spec §7: create when a staging environment exists. */
export const EXISTS_STATUS = 422
/** §4: pull / push / delete on a site without staging (or an unknown site). */
export const MISSING_STATUS = 404

/** §5: staging site id and URL, in order of preference. */
export function stagingSiteIdOf(data: unknown): string | null {
  for (const name of ['staging_site_id', 'staging_id', 'id']) {
    const v = field(data, name)
    if (typeof v === 'string' && v !== '') return v
    if (typeof v === 'number') return String(v)
  }
  return null
}
export function stagingUrlOf(data: unknown): string | null {
  for (const name of ['staging_url', 'wp_url', 'url']) {
    const v = field(data, name)
    if (typeof v === 'string' && v !== '') return v
  }
  return null
}

/** §5: names of fields in `data` whose values are credentials. */
export function isCredentialField(name: string): boolean {
  const n = name.toLowerCase()
  if (n === 's_hash') return true
  return /password|secret|token|key|hash|credential/.test(n)
}

/** §6: rate-limit headers (none promised). */
export const RATE_LIMIT_HEADERS = {
  limit: 'x-ratelimit-limit',
  remaining: 'x-ratelimit-remaining',
  reset: 'x-ratelimit-reset',
} as const

/**
 * §6 (r2): the rate window when no header says otherwise ("a minute"), and the longest wait any
 * `X-RateLimit-*` value may cause: a reset further ahead is waited for one window at most, then
 * the client looks again with a single request.
 */
export const RATE_WINDOW_MS = 60_000

/**
 * §6 (r2): sane bounds of the rate-limit headers; a value outside them is ignored, as if absent.
 * - `X-RateLimit-Limit`: a whole number from 1 to RATE_LIMIT_MAX.
 * - `X-RateLimit-Remaining`: a whole number from 0 to the limit (a negative count means nothing).
 * - `X-RateLimit-Reset`: epoch seconds (1e9 to 1e11) or, as some servers send, seconds from now
 *   (at most RATE_RESET_MAX_AHEAD_MS); either way no more than RATE_RESET_MAX_AHEAD_MS ahead and
 *   not in the past. Epoch milliseconds, years ahead, 1e300: ignored.
 */
export const RATE_LIMIT_MAX = 1_000_000
export const RATE_RESET_MAX_AHEAD_MS = 3_600_000

/**
 * §6 (r2): `Retry-After` is honoured from 0 up to this (delta-seconds or an HTTP date); anything
 * longer (a value in milliseconds read as seconds, a date years ahead, 1e300), negative, or not a
 * number or an HTTP date is ignored, and the client backs off on its own instead. A wait that long
 * never idles a run past its `timeout`: the client gives up at once when the wait would end after it.
 */
export const RETRY_AFTER_MAX_MS = 3_600_000

/** §7: extra error text the service may put beside `message`. */
export const ERROR_DETAIL_FIELDS = ['exception', 'error', 'errors'] as const

/** §8: the localization header and its values. */
export const LOCALIZATION_HEADER = 'X-localization'

function field(data: unknown, name: string): unknown {
  if (data && typeof data === 'object' && !Array.isArray(data)) return (data as Record<string, unknown>)[name]
  return undefined
}
