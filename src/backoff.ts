import type { Clock } from './types.js'

/** The one backoff helper: every retry and every wait-and-ask-again of the project (the request retry layer in
 * api/client.ts, if-busy: wait in staging/jobs.ts, wait-for-url in staging/url-check.ts) takes its delays
 * from a Schedule and sleeps through a Backoff. */

/** The delay before retry number `retry` (0 for the first), `waitedMs` into the waiting. */
export type Schedule = (retry: number, waitedMs: number, random: () => number) => number

/** `firstMs · factor^retry`, at most `capMs`. Jitter: `full` draws from [0, delay] (requests: many clients
 * retrying together spread out), a fraction draws from delay·[1 - f, 1 + f]. */
export function exponential(options: {
  firstMs: number
  factor: number
  capMs: number
  jitter: 'full' | number
}): Schedule {
  return (retry, _waitedMs, random) => {
    const delayMs = Math.min(options.capMs, options.firstMs * options.factor ** Math.max(0, retry))
    if (options.jitter === 'full') return Math.floor(random() * delayMs)
    return Math.round(delayMs * (1 - options.jitter + 2 * options.jitter * random()))
  }
}

/** Requests (api/client.ts): 1 s · 2ⁿ up to 30 s, full jitter, when the server names no Retry-After. */
export const REQUEST_RETRY = exponential({ firstMs: 1000, factor: 2, capMs: 30_000, jitter: 'full' })

/** if-busy: wait: 2 s, 3 s, 4.5 s ... up to 15 s, each within ±20%: the other job usually ends within minutes. */
export const BUSY_WAIT = exponential({ firstMs: 2000, factor: 1.5, capMs: 15_000, jitter: 0.2 })

/** wait-for-url: a quarter of the time waited so far (late by a quarter at most), from 1 s to 15 s. */
export const URL_WAIT: Schedule = (_retry, waitedMs) => Math.min(15_000, Math.max(1000, waitedMs / 4))

/** Sleeps of one schedule under one deadline, counted. */
export class Backoff {
  private sleptCount = 0

  constructor(
    private readonly schedule: Schedule,
    /** `deadlineMs`: the absolute time (clock ms) no sleep may reach. */
    private readonly deps: { clock: Clock; deadlineMs: number; signal?: AbortSignal; random?: () => number },
  ) {}

  /** How many sleeps this helper allowed: the retries it stands for. */
  get retries(): number {
    return this.sleptCount
  }

  delayMs(retry: number, waitedMs = 0): number {
    return this.schedule(retry, waitedMs, this.deps.random ?? Math.random)
  }

  /** Would a sleep of `delayMs` from now reach the deadline? */
  passesDeadline(delayMs: number): boolean {
    return this.deps.clock.now() + delayMs >= this.deps.deadlineMs
  }

  /** Sleeps `delayMs` (counted) unless that reaches the deadline: then returns false at once. Throws
   * CancelledError when the run is cancelled. */
  async sleep(delayMs: number): Promise<boolean> {
    if (this.passesDeadline(delayMs)) return false
    await this.deps.clock.sleep(delayMs, this.deps.signal)
    this.sleptCount++
    return true
  }
}
