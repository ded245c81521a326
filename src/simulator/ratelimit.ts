/**
 * Rate limiting per token in fixed windows: a token's window starts with its first request and
 * lasts `windowMs`; within it, `limit` requests are processed and the rest get 429.
 */
import type { RateLimitOptions } from './types.js'

export interface RateDecision {
  allowed: boolean
  /** X-RateLimit-* and, when refused, Retry-After. */
  headers: Record<string, string>
}

interface Window {
  start: number
  count: number
}

export class RateLimiter {
  private windows = new Map<string, Window>()

  constructor(private readonly options: () => RateLimitOptions | null) {}

  /** Counts a request of `key` at `now`; null when no limit is set. */
  check(key: string, now = Date.now()): RateDecision | null {
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
    const headers: Record<string, string> = {
      'X-RateLimit-Limit': String(options.limit),
      'X-RateLimit-Remaining': String(Math.max(0, options.limit - window.count)),
      'X-RateLimit-Reset': String(Math.ceil(resetAt / 1000)),
    }
    if (!allowed) {
      const mode = options.retryAfter ?? 'seconds'
      if (mode === 'seconds') headers['Retry-After'] = String(Math.max(1, Math.ceil((resetAt - now) / 1000)))
      if (mode === 'http-date')
        headers['Retry-After'] = new Date(Math.ceil(resetAt / 1000) * 1000).toUTCString()
    }
    return { allowed, headers }
  }

  reset(): void {
    this.windows.clear()
  }
}
