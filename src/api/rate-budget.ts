import { RATE_LIMIT_HEADERS } from '../contract.js'
import { parseRetryAfter } from './retry.js'
import type { Clock } from '../types.js'

type Headers = Record<string, string | string[] | undefined>

/**
 * One rate budget shared by every request of a run (all sites, all workers), learning from what
 * the server says (contract §6): a 429's `Retry-After` pauses everybody until then; a 429 without
 * it pauses everybody for a growing while; `X-RateLimit-Remaining` running low spreads the
 * remaining calls evenly until `X-RateLimit-Reset`, so a batch slows down together instead of
 * every worker hammering the API into 429s.
 */
export class RateBudget {
  private pausedUntil = 0
  private nextSlotAt = 0
  private intervalMs = 0
  private consecutive429 = 0
  private remaining: number | null = null
  private limit: number | null = null
  private resetAt = 0
  private waiters = 0

  constructor(private readonly clock: Clock) {}

  /** A follower of a background job joins the budget for as long as it polls. */
  join(): () => void {
    this.waiters++
    let left = false
    return () => {
      if (!left) this.waiters--
      left = true
    }
  }

  /**
   * Status polls are the requests a batch can choose to spend or save. When the server says how many
   * calls are left until its window resets, every follower gets an equal share of them:
   * (time to reset) x (followers) / (calls left), once half of the window's calls are spent (before
   * that, polling as the planner wants costs nothing that matters). Unknown limits cost nothing.
   */
  fairIntervalMs(): number {
    const now = this.clock.now()
    if (this.remaining === null || this.resetAt <= now || this.waiters === 0) return 0
    if (this.limit !== null && this.remaining > this.limit / 2) return 0
    return ((this.resetAt - now) * this.waiters) / Math.max(1, this.remaining)
  }

  /** The time a request may go out now, or the wait before it may. Reserves its slot. */
  reserve(): number {
    const now = this.clock.now()
    const at = Math.max(now, this.pausedUntil, this.nextSlotAt)
    this.nextSlotAt = at + this.intervalMs
    return at - now
  }

  observe(status: number, headers: Headers): void {
    const now = this.clock.now()
    if (status === 429) {
      this.consecutive429++
      const retryAfter = parseRetryAfter(headers['retry-after'], now)
      const pause = retryAfter ?? Math.min(30_000, 500 * 2 ** Math.min(this.consecutive429, 6))
      this.pausedUntil = Math.max(this.pausedUntil, now + pause)
    } else {
      this.consecutive429 = 0
    }
    const limit = num(headers[RATE_LIMIT_HEADERS.limit])
    const remaining = num(headers[RATE_LIMIT_HEADERS.remaining])
    const reset = num(headers[RATE_LIMIT_HEADERS.reset])
    if (remaining === null || reset === null) return
    // Epoch seconds per the contract; a small number is taken as seconds from now.
    const resetAt = reset > 1e9 ? reset * 1000 : now + reset * 1000
    const untilReset = Math.max(0, resetAt - now)
    // Answers arrive out of order: within one window, the lowest remaining count is the truest.
    if (this.remaining === null || resetAt > this.resetAt + 500 || remaining < this.remaining)
      this.remaining = remaining
    this.resetAt = resetAt
    this.limit = limit
    const lowWater = Math.max(2, Math.ceil((limit ?? 20) * 0.15))
    if (remaining <= 0) {
      this.pausedUntil = Math.max(this.pausedUntil, resetAt)
      this.intervalMs = 0
    } else if (remaining <= lowWater) {
      this.intervalMs = untilReset / (remaining + 1)
    } else {
      this.intervalMs = 0
    }
  }
}

function num(value: string | string[] | undefined): number | null {
  const text = Array.isArray(value) ? value[0] : value
  if (text === undefined) return null
  const n = Number(text)
  return Number.isFinite(n) ? n : null
}
