import { RATE_RESET_MAX_AHEAD_MS } from '../contract.js'
import { headerValue } from './retry.js'

// The rate-limit header values the window ledger (window-ledger.ts) reads: whole counts, and a
// reset time within the sane bounds of contract §6.

/** A whole number from min to max, or null (absent, not a number, out of bounds). */
export function whole(value: string | string[] | undefined, min: number, max: number): number | null {
  const text = headerValue(value)
  if (!text || !/^-?\d+$/.test(text)) return null
  const n = Number(text)
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : null
}

/**
 * `X-RateLimit-Reset` as a time (monotonic clock ms, like `now`), or null when outside the sane
 * bounds of contract §6: epoch seconds (a date, read against the server's `wallNow`: its Date
 * header, else our wall clock; contract §11),
 * or seconds from now, at most RATE_RESET_MAX_AHEAD_MS ahead and not in the past.
 */
export function resetTime(value: string | string[] | undefined, now: number, wallNow: number): number | null {
  const text = headerValue(value)
  if (!text || !/^\d+(\.\d+)?$/.test(text)) return null
  const n = Number(text)
  let at: number
  if (n >= 1e9 && n < 1e11) at = now + (n * 1000 - wallNow)
  else if (n * 1000 <= RATE_RESET_MAX_AHEAD_MS) at = now + n * 1000
  else return null
  return at > now - 1000 && at <= now + RATE_RESET_MAX_AHEAD_MS ? Math.max(at, now) : null
}
