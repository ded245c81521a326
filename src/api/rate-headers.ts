import {
  RATE_LIMIT_HEADERS,
  RATE_LIMIT_MAX,
  RATE_RESET_MAX_AHEAD_MS,
  RETRY_AFTER_BUDGET_MAX_MS,
} from '../contract.js'
import { exponential } from '../backoff.js'
import { headerValue, parseRetryAfter, pauseAfterMs, serverNow } from './retry.js'

export type Headers = Record<string, string | string[] | undefined>

// What an answer says of the account's rate limit (contract §6), within its sane bounds: read by
// the rate window (rate-window.ts).

/**
 * `X-RateLimit-Limit`, `-Remaining` and `-Reset` (as a monotonic time), each null when absent or out
 * of bounds; a count is only worth its window, so with a reset that is not sane it is ignored too.
 * `serverWall`: the server's own "now" (its Date header, else our wall clock; contract §11).
 */
export function limitHeaders(headers: Headers, now: number, wallNow: number, known: number | null) {
  const limit = whole(headers[RATE_LIMIT_HEADERS.limit], 1, RATE_LIMIT_MAX)
  const serverWall = serverNow(headers.date, wallNow)
  const reset = resetTime(headers[RATE_LIMIT_HEADERS.reset], now, serverWall)
  const badReset = reset === null && headerValue(headers[RATE_LIMIT_HEADERS.reset]) !== undefined
  const max = limit ?? known ?? RATE_LIMIT_MAX
  const remaining = badReset ? null : whole(headers[RATE_LIMIT_HEADERS.remaining], 0, max)
  return { limit, remaining, reset, serverWall }
}

/**
 * How long every request pauses after the `n`th 429 in a row: its `Retry-After` (one longer than
 * the cap is ignored here: the client that got it ends its run, saying when), else 0.5 s · 2ⁿ up to
 * 30 s; never less than a second, so a hostile `Retry-After: 0` cannot make a batch hammer.
 */
export function pauseAfter429(headers: Headers, serverWall: number, n: number): number {
  const said = parseRetryAfter(headers['retry-after'], serverWall)
  const pause =
    said !== null && said <= RETRY_AFTER_BUDGET_MAX_MS
      ? pauseAfterMs(said, n - 1)
      : PAUSE_AFTER_429(n, 0, () => 0)
  return Math.max(1000, pause)
}

/** A whole number from min to max, or null (absent, not a number, out of bounds). */
function whole(value: string | string[] | undefined, min: number, max: number): number | null {
  const text = headerValue(value)
  if (!text || !/^-?\d+$/.test(text)) return null
  const n = Number(text)
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : null
}

/**
 * `X-RateLimit-Reset` as a time (monotonic ms, like `now`), or null outside the bounds of contract
 * §6: epoch seconds (read against the server's `wallNow`, contract §11), or seconds from now; at
 * most RATE_RESET_MAX_AHEAD_MS ahead and not in the past.
 */
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
