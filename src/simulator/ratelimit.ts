/**
 * Rate limiting per token in fixed windows: a token's window starts with its first request and
 * lasts `windowMs`; within it, `limit` requests are processed and the rest get 429. Time comes from
 * the caller (the API core's clock), so windows roll at virtual times too. Which headers an answer
 * carries is the profile's business (see profiles/).
 */
import type { RateLimitOptions } from './types.js'

export interface RateDecision {
  allowed: boolean
  limit: number
  /** Requests left in the window after this one. */
  remaining: number
  /** End of the window, ms epoch. */
  resetAt: number
  /** The Retry-After value of a refusal (per the `retryAfter` option); undefined when allowed or 'none'. */
  retryAfter?: string
}

interface Window {
  start: number
  count: number
}

export class RateLimiter {
  private windows = new Map<string, Window>()

  constructor(private readonly options: () => RateLimitOptions | null) {}

  /** Counts a request of `key` at `now`; null when no limit is set. */
  check(key: string, now: number): RateDecision | null {
    const options = this.options()
    if (options === null) return null
    let window = this.windows.get(key)
    if (window === undefined || now >= window.start + options.windowMs) {
      window = { start: now, count: 0 }
      this.windows.set(key, window)
    }
    const resetAt = window.start + options.windowMs
    const allowed = window.count < options.limit
    if (allowed) window.count += 1
    const decision: RateDecision = {
      allowed,
      limit: options.limit,
      remaining: Math.max(0, options.limit - window.count),
      resetAt,
    }
    if (!allowed) {
      const mode = options.retryAfter ?? 'seconds'
      if (mode === 'seconds') decision.retryAfter = String(Math.max(1, Math.ceil((resetAt - now) / 1000)))
      if (mode === 'http-date') decision.retryAfter = new Date(Math.ceil(resetAt / 1000) * 1000).toUTCString()
    }
    return decision
  }

  reset(): void {
    this.windows.clear()
  }
}
