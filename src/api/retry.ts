import { exponential } from '../backoff.js'
import {
  RATE_LIMIT_HEADERS,
  RATE_LIMIT_MAX,
  RATE_RESET_MAX_AHEAD_MS,
  RETRY_AFTER_BUDGET_MAX_MS,
  RETRY_AFTER_MAX_MS,
} from '../contract.js'
import { ApiError, type Processing, type RequestKind } from './errors.js'
export type { RequestKind } from './errors.js'
import { setting } from '../words.js'

/**
 * May a request that failed this way be sent again? Not processed: always (nothing happened). Unknown:
 * reads, settings, pull (it only overwrites staging) and create (a 409/422 that follows means the first try
 * went through, which the operation layer handles). Processed: never (the same answer, or done twice).
 */
export function mayResend(kind: RequestKind, processing: Processing): boolean {
  if (processing === 'not-processed') return true
  if (processing === 'unknown')
    return kind === 'read' || kind === 'pull' || kind === 'create' || kind === 'setting'
  return false
}

/**
 * `Retry-After` as delta-seconds or an HTTP date (RFC 9110 §10.2.3), in ms from now (a past date: 0). A
 * date is read against the answer's own `Date` (serverNow: the server's clock may be off by hours, contract
 * §11). Null when absent, unreadable or outside contract §6's bounds (RETRY_AFTER_MAX_MS): the caller backs off.
 */
export function parseRetryAfter(
  value: string | string[] | undefined | null,
  wallNowMs: number,
  dateHeader?: string | string[] | null,
): number | null {
  const text = headerValue(value)
  if (!text) return null
  if (/^\d+(\.\d+)?$/.test(text)) {
    const ms = Math.round(parseFloat(text) * 1000)
    return Number.isFinite(ms) && ms <= RETRY_AFTER_MAX_MS ? ms : null
  }
  const date = httpDate(text)
  if (date === null) return null
  const ms = Math.max(0, date - serverNow(dateHeader, wallNowMs))
  return ms <= RETRY_AFTER_MAX_MS ? ms : null
}

/** The server's "now" (its answer's `Date` header), to read its other dates as durations; else our wall clock. */
export function serverNow(dateHeader: string | string[] | null | undefined, wallNowMs: number): number {
  const text = headerValue(dateHeader)
  return (text ? httpDate(text) : null) ?? wallNowMs
}

/** An HTTP date (IMF-fixdate or an obsolete form) in epoch ms, or null. */
function httpDate(text: string): number | null {
  if (!HTTP_DATE.some((format) => format.test(text))) return null
  const ms = Date.parse(text)
  return Number.isNaN(ms) ? null : ms
}

/** Below this a Retry-After means "soon" (0, or a date already past because the server's clock is slow). */
export const RETRY_SOON_BELOW_MS = 1000
/** "Soon": 1-2 s, then growing like an ordinary backoff (x2, up to 30 s), so max-retries are never burnt in a loop. */
const RETRY_SOON = exponential({ firstMs: 1500, factor: 2, capMs: 30_000, jitter: 1 / 3 })

/** Contract §6 (r3): the pause before retry number `retry` (0: the first) after a `Retry-After`: the server's
 * value, or for "soon" a short pause that grows with each retry. */
export function pauseAfterMs(
  retryAfterMs: number,
  retry: number,
  random: () => number = Math.random,
): number {
  return retryAfterMs >= RETRY_SOON_BELOW_MS ? retryAfterMs : RETRY_SOON(retry, 0, random)
}

/** §5 (issue 17): the server asks for a wait longer than the run has left. Waiting cannot help and retrying early
 * only draws the same refusal: the run ends at once, saying when the server accepts again (words and ISO 8601). */
export function refusedUntil(
  error: ApiError,
  retryAfterMs: number,
  leftMs: number,
  wallNowMs: number,
): ApiError {
  const at = new Date(wallNowMs + retryAfterMs)
  const iso = at.toISOString().replace(/\.\d{3}Z$/, 'Z')
  const refused = error.retold({
    acceptsAgainAt: iso,
    message:
      `${error.message.replace(/\.?$/, '.')} The server asks to wait ${durationWords(retryAfterMs)} (Retry-After): ` +
      `it accepts requests again ${dateWords(at)} (${iso}). That is after this run's timeout ` +
      `(${durationWords(Math.max(0, leftMs))} left), so the run ends now instead of waiting or retrying early.`,
    hint: `Run again after ${iso}, or raise ${setting('timeout')} above ${durationWords(retryAfterMs)} to wait for it.`,
  })
  refused.afterUnknown = error.afterUnknown
  return refused
}

/** `about 24 hours`, `5 minutes`, `40 seconds`: a duration a person reads at a glance. */
export function durationWords(ms: number): string {
  const s = Math.round(ms / 1000)
  const n = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'}`
  if (s < 120) return n(s, 'second')
  if (s < 90 * 60) return n(Math.round(s / 60), 'minute')
  if (s < 36 * 3600) return `about ${n(Math.round(s / 3600), 'hour')}`
  return `about ${n(Math.round(s / 86_400), 'day')}`
}

/** `on Wednesday 25 November 2026 at 11:40 UTC` */
function dateWords(d: Date): string {
  const hm = `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`
  const name = (part: 'weekday' | 'month') => d.toLocaleString('en', { [part]: 'long', timeZone: 'UTC' })
  return `on ${name('weekday')} ${d.getUTCDate()} ${name('month')} ${d.getUTCFullYear()} at ${hm} UTC`
}

/** A header's value, trimmed (the first, when it came more than once); undefined when absent or empty. */
export function headerValue(value: string | string[] | undefined | null): string | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim()
  return text === '' ? undefined : text
}

/** IMF-fixdate, and the obsolete RFC 850 and asctime forms an HTTP date may take. */
const HTTP_DATE = [
  /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/,
  /^[A-Z][a-z]+, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT$/,
  /^[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/,
]

export type Headers = Record<string, string | string[] | undefined>

/**
 * An answer's `X-RateLimit-Limit`, `-Remaining` and `-Reset` (monotonic), for the rate window (contract §6):
 * each null when absent or out of bounds; a count is only worth its window, so with an insane reset it is
 * ignored too. An epoch reset is read against the server's own "now" (contract §11).
 */
export function limitHeaders(headers: Headers, now: number, wallNow: number, known: number | null) {
  const limit = whole(headers[RATE_LIMIT_HEADERS.limit], 1, RATE_LIMIT_MAX)
  const reset = resetTime(headers[RATE_LIMIT_HEADERS.reset], now, serverNow(headers.date, wallNow))
  const badReset = reset === null && headerValue(headers[RATE_LIMIT_HEADERS.reset]) !== undefined
  const max = limit ?? known ?? RATE_LIMIT_MAX
  const remaining = badReset ? null : whole(headers[RATE_LIMIT_HEADERS.remaining], 0, max)
  return { limit, remaining, reset }
}

/**
 * How long every request pauses after the `n`th 429 in a row: its `Retry-After` (one longer than
 * the cap is ignored here: the client that got it ends its run, saying when), else the window's stated
 * reset (`resetIn`, bounded), else 0.5 s · 2ⁿ up to 30 s; at least a second (a hostile `Retry-After: 0`).
 */
export function pauseAfter429(headers: Headers, wallNow: number, n: number, resetIn: number | null): number {
  const said = parseRetryAfter(headers['retry-after'], wallNow, headers.date)
  const pause =
    said !== null && said <= RETRY_AFTER_BUDGET_MAX_MS
      ? pauseAfterMs(said, n - 1)
      : (resetIn ?? PAUSE_AFTER_429(n, 0, () => 0))
  return Math.max(1000, pause)
}

/** A whole number from min to max, or null (absent, not a number, out of bounds). */
function whole(value: string | string[] | undefined, min: number, max: number): number | null {
  const text = headerValue(value)
  if (!text || !/^-?\d+$/.test(text)) return null
  const n = Number(text)
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : null
}

/** `X-RateLimit-Reset` (epoch seconds against the server's `wallNow`, contract §11, or seconds from now) as a
 * monotonic time; null outside contract §6's bounds (in the past, or over RATE_RESET_MAX_AHEAD_MS ahead). */
function resetTime(value: string | string[] | undefined, now: number, wallNow: number): number | null {
  const text = headerValue(value)
  if (!text || !/^\d+(\.\d+)?$/.test(text)) return null
  const n = Number(text)
  let at: number
  if (n >= 1e9 && n < 1e11) at = now + (n * 1000 - wallNow)
  else if (n * 1000 <= RATE_RESET_MAX_AHEAD_MS) at = now + n * 1000
  else return null
  return at > now - 1000 && at <= now + RATE_RESET_MAX_AHEAD_MS ? Math.max(at, now) : null
}

const PAUSE_AFTER_429 = exponential({ firstMs: 500, factor: 2, capMs: 30_000, jitter: 0 })
