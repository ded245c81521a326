/**
 * When to ask again whether a background job has finished: use what the server tells.
 *
 * With progress (`percentage_complete`), estimate the earliest plausible end from two rates, the
 * average since the job started and the recent one, poll 60% of the way to that end, and so
 * converge on it: few calls while the end is far, dense polling (every `minMs`) only near it, and a
 * fresh estimate at every answer (real progress is not linear). A job that stops moving near its
 * end is polled less and less often, never more than `nearEndCapMs` apart.
 *
 * Without progress, back off quickly from `minMs` to `noProgressCapMs` (1 s, 3 s, then 4.9 s: the
 * longest interval that still notices the end within 5 s).
 *
 * Pure and clock-free: the caller passes times in, so it can be tested and benchmarked in virtual time.
 */
export interface PollPlannerOptions {
  /** When the job was accepted (ms). */
  startedAt: number
  minMs?: number
  maxMs?: number
  noProgressCapMs?: number
  nearEndCapMs?: number
  /** Fraction of the estimated time left to wait before the next poll. */
  approach?: number
}

interface Sample {
  at: number
  percent: number
}

export class PollPlanner {
  private readonly samples: Sample[] = []
  private polls = 0
  private stalePolls = 0
  private readonly startedAt: number
  private readonly minMs: number
  private readonly maxMs: number
  private readonly noProgressCapMs: number
  private readonly nearEndCapMs: number
  private readonly approach: number

  constructor(options: PollPlannerOptions) {
    this.startedAt = options.startedAt
    this.minMs = options.minMs ?? 1000
    this.maxMs = options.maxMs ?? 30_000
    this.noProgressCapMs = options.noProgressCapMs ?? 4900
    this.nearEndCapMs = options.nearEndCapMs ?? 4000
    this.approach = options.approach ?? 0.6
  }

  /** The delay before the first poll. */
  firstDelay(): number {
    return this.minMs
  }

  /** Records one answer: `percent` undefined when the server gave none. */
  observe(at: number, percent: number | undefined): void {
    this.polls++
    if (percent === undefined) return
    const last = this.samples.at(-1)
    this.stalePolls = last && percent <= last.percent ? this.stalePolls + 1 : 0
    this.samples.push({ at, percent })
  }

  /** How long to wait, from `now`, before the next poll. */
  nextDelay(now: number): number {
    const last = this.samples.at(-1)
    if (!last) return this.clamp(this.minMs * 3 ** this.polls, this.noProgressCapMs)
    const elapsed = Math.max(1, last.at - this.startedAt)
    if (last.percent <= 0) return this.clamp(0.5 * elapsed, 10_000)
    const rate = Math.max(last.percent / elapsed, this.recentRate(last, elapsed))
    // Aim at 99%: many jobs sit at 99 (never 100) until they complete.
    const remaining = Math.max(0, 99 - last.percent) / rate - (now - last.at)
    if (remaining <= 2 * this.minMs) {
      // Near (or past) the estimated end: dense, but slower while nothing moves.
      return this.clamp(this.minMs * 1.25 ** this.stalePolls, this.nearEndCapMs)
    }
    return this.clamp(remaining * this.approach, this.maxMs)
  }

  /** Percent per ms over the recent part of the job (the last ~40% of its elapsed time). */
  private recentRate(last: Sample, elapsed: number): number {
    const from = last.at - Math.max(5000, 0.4 * elapsed)
    const ref = this.samples.find((s) => s.at >= from && s !== last)
    if (!ref || last.at <= ref.at) return 0
    return Math.max(0, (last.percent - ref.percent) / (last.at - ref.at))
  }

  private clamp(ms: number, cap: number): number {
    return Math.round(Math.min(cap, Math.max(this.minMs, ms)))
  }
}
