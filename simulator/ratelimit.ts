/**
 * Rate limiting per token, in one of three ways (`RateLimitOptions.kind`, contract §6 r3):
 * - `fixed`: a token's window starts with its first request, to the millisecond, and lasts
 *   `windowMs`; within it, `limit` requests are processed and the rest get 429.
 * - `framework`: the framework's limiter. Its timer is kept in whole seconds: the window runs from
 *   the second of the first request for the decay time (whole seconds), so it may end up to a
 *   second sooner than `fixed`'s; `Retry-After` is the timer less the current second.
 * - `sliding`: the requests of the last `windowMs` are counted; a call comes back `windowMs` after
 *   the request that used it (what proxies and gateways in front of an API count).
 * A refused request is not counted (the framework checks before it counts). Time comes from the
 * caller (the API core's clock), so windows roll at virtual times too. Which headers an answer
 * carries is the profile's business (see profiles/), unless `resetHeader` says.
 */
import type { RateLimitOptions } from './types.js'

export interface RateDecision {
  allowed: boolean
  limit: number
  /** Requests left in the window after this one. */
  remaining: number
  /** When a call comes back, ms epoch: the window's end (fixed, framework), or when the oldest counted request leaves it (sliding). */
  resetAt: number
  /** The Retry-After value of a refusal (per the `retryAfter` option); undefined when allowed or 'none'. */
  retryAfter?: string
}

interface Window {
  start: number
  end: number
  count: number
}

export class RateLimiter {
  private windows = new Map<string, Window>()
  /** Sliding: when each counted request of a token came, oldest first. */
  private counted = new Map<string, number[]>()

  constructor(private readonly options: () => RateLimitOptions | null) {}

  /** Counts a request of `key` at `now`; null when no limit is set. */
  check(key: string, now: number): RateDecision | null {
    const options = this.options()
    if (options === null) return null
    const kind = options.kind ?? 'fixed'
    const { allowed, count, resetAt } =
      kind === 'sliding' ? this.slide(key, now, options) : this.fix(key, now, options)
    const decision: RateDecision = {
      allowed,
      limit: options.limit,
      remaining: Math.max(0, options.limit - count),
      resetAt,
    }
    if (!allowed) {
      const mode = options.retryAfter ?? 'seconds'
      if (mode === 'seconds') {
        // The framework's Retry-After: its timer (whole seconds) less the current second.
        const seconds =
          kind === 'framework'
            ? Math.floor(resetAt / 1000) - Math.floor(now / 1000)
            : Math.ceil((resetAt - now) / 1000)
        decision.retryAfter = String(Math.max(1, seconds))
      }
      if (mode === 'http-date') decision.retryAfter = new Date(Math.ceil(resetAt / 1000) * 1000).toUTCString()
    }
    return decision
  }

  reset(): void {
    this.windows.clear()
    this.counted.clear()
  }

  private fix(key: string, now: number, options: RateLimitOptions) {
    let window = this.windows.get(key)
    if (window === undefined || now >= window.end) {
      const framework = options.kind === 'framework'
      const start = framework ? Math.floor(now / 1000) * 1000 : now
      const length = framework ? Math.max(1, Math.ceil(options.windowMs / 1000)) * 1000 : options.windowMs
      window = { start, end: start + length, count: 0 }
      this.windows.set(key, window)
    }
    const allowed = window.count < options.limit
    if (allowed) window.count += 1
    return { allowed, count: window.count, resetAt: window.end }
  }

  private slide(key: string, now: number, options: RateLimitOptions) {
    const times = (this.counted.get(key) ?? []).filter((at) => at > now - options.windowMs)
    this.counted.set(key, times)
    const allowed = times.length < options.limit
    if (allowed) times.push(now)
    const oldest = times[0] ?? now
    return { allowed, count: times.length, resetAt: oldest + options.windowMs }
  }
}
