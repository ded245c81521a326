import { fitLine, type Line, type Reading } from './poll-line.js'

/**
 * When to ask again whether a background job has finished: use what the server tells, and never
 * trust it so far that a misleading progress bar costs more than fixed polling would.
 *
 * 1. No progress (no `percentage_complete`, or 0%): ask after `minMs`, then every `noProgressMs`
 *    (4.9 s: the end is noticed within 5 s). With no sign of the end, fixed polling is the best
 *    there is: an interval that grows makes (lateness × calls) exceed the job's length for some
 *    length, which is worse than fixed polling with as many calls.
 * 2. Progress: estimate the earliest plausible time the bar reaches 99 (many jobs end there, never
 *    showing 100) and take the earliest of several readings: the average pace since the start, a
 *    power law through two samples (a bar that speeds up, like a back-loaded one), after a stall the
 *    best pace so far (a stalled bar may resume at any moment), and a straight line through the
 *    recent answers (each whole-number answer says the bar is between it and the next number;
 *    together they pin when the bar reaches 99 and 100 to within seconds; without such a line, the
 *    recent pace and when the bar reached its value). Ask again `approach` (60%) of the way to that
 *    estimate, never later than `growth` (2) times the time the job has already run (one early
 *    sample cannot send it to sleep for an hour), and soon after the bar sped up (it may be going
 *    faster than the samples show): few calls while the end is far, a fresh estimate at every answer.
 * 3. Near it: every `denseMs` across the window where the end can fall (from reaching 99 to what
 *    would be 100). Past that window without movement (a bar stuck at 99, a stall), back off, but
 *    never beyond `lateFraction` of the time run so far (and at least `noProgressMs`) nor beyond
 *    `averageFactor` × the average interval so far: waiting at most the average interval keeps
 *    (lateness × calls) within the job's length, which is what fixed polling achieves.
 *
 * Pure and clock-free: the caller passes times in, so it can be tested and benchmarked in virtual time.
 */
export interface PollPlannerOptions {
  /** When the job was accepted (ms). */
  startedAt: number
  /** The shortest interval, and the first delay. */
  minMs?: number
  /** The interval while the server gives no progress (or 0%). */
  noProgressMs?: number
  /** Fraction of the estimated time left to wait before the next poll. */
  approach?: number
  /** The interval where the end is expected. */
  denseMs?: number
  /** Far from the end, never wait longer than this many times the time the job has run. */
  growth?: number
  /** Past the window where the end was expected, wait this fraction of the time overdue... */
  backoff?: number
  /** ... but at most this fraction of the time run (or noProgressMs)... */
  lateFraction?: number
  /** ... and at most this many times the average interval so far. */
  averageFactor?: number
}

/** A value the bar showed for the first time. */
interface Sample {
  /** ms since the start: the first answer that showed it */
  t: number
  percent: number
  /** ms since the start of the answer before (the bar reached the value after that) */
  from: number
}

/** The bar is read as complete at 99 (many jobs sit there, never at 100) or at 100. */
const TARGET = 99

export class PollPlanner {
  private readonly samples: Sample[] = []
  private readonly readings: Reading[] = []
  /** The lines that fit the readings as they are (a site asks again at every wake). */
  private readonly lines = new Map<number, Line | null>()
  private polls = 0
  private stale = 0
  private lastAnswer = 0
  private readonly startedAt: number
  private readonly minMs: number
  private readonly noProgressMs: number
  private readonly approach: number
  private readonly denseMs: number
  private readonly growth: number
  private readonly backoff: number
  private readonly lateFraction: number
  private readonly averageFactor: number

  constructor(options: PollPlannerOptions) {
    this.startedAt = options.startedAt
    this.minMs = options.minMs ?? 1000
    this.noProgressMs = options.noProgressMs ?? 4900
    this.approach = options.approach ?? 0.6
    this.denseMs = options.denseMs ?? 1900
    this.growth = options.growth ?? 2
    this.backoff = options.backoff ?? 0.25
    this.lateFraction = options.lateFraction ?? 1 / 40
    this.averageFactor = options.averageFactor ?? 0.9
  }

  /** The delay before the first poll. */
  firstDelay(): number {
    return this.minMs
  }

  /** Records one answer of a running job: `percent` undefined when the server gave none. */
  observe(at: number, percent: number | undefined): void {
    this.polls++
    const t = at - this.startedAt
    const from = this.lastAnswer
    this.lastAnswer = t
    if (percent === undefined || !Number.isFinite(percent)) return
    const p = Math.min(100, Math.max(0, percent))
    this.readings.push({ t, percent: p })
    this.lines.clear()
    if (this.readings.length > MAX_READINGS) this.readings.shift()
    const last = this.samples.at(-1)
    if (last ? p <= last.percent : p <= 0) {
      // No movement (a step back is read as none).
      this.stale++
      return
    }
    this.stale = 0
    this.samples.push({ t, percent: p, from })
  }

  /** How long to wait, from `now`, before the next poll. */
  nextDelay(now: number): number {
    const t = Math.max(0, now - this.startedAt)
    const last = this.samples.at(-1)
    if (!last) return this.clamp(this.polls === 0 ? this.minMs : this.noProgressMs)
    const window = this.endWindow(t, last)
    if (t < window.from - this.denseMs) {
      let wait = Math.min((window.from - t) * this.approach, Math.max(this.minMs, this.growth * t))
      // A bar that just sped up may be going much faster than the samples show: look again soon.
      const speedUp = this.speedUp()
      if (speedUp !== null) wait = Math.min(wait, speedUp / 8)
      return this.clamp(wait)
    }
    if (t <= window.to) return this.clamp(Math.min(this.denseMs, Math.max(this.minMs, window.to - t)))
    // Past the window and not there yet: back off, within the caps.
    const lateCap = Math.max(this.noProgressMs, t * this.lateFraction)
    const averageCap = Math.max(this.minMs, (this.averageFactor * t) / Math.max(1, this.polls))
    return this.clamp(Math.min(Math.max(this.denseMs, this.backoff * (t - window.to)), lateCap, averageCap))
  }

  /** Answers recorded so far. */
  get answers(): number {
    return this.polls
  }

  /**
   * When this job ends by its own progress (clock ms): at the earliest and at the latest its
   * readings allow; null before the bar has moved.
   */
  end(now: number): { from: number; to: number } | null {
    const last = this.samples.at(-1)
    if (!last) return null
    const window = this.endWindow(Math.max(0, now - this.startedAt), last)
    return { from: this.startedAt + window.from, to: this.startedAt + window.end }
  }

  /**
   * Where the end is expected (ms since the start): from the earliest plausible time the bar
   * reaches the next mark (99, or 100 once it shows 99) to the latest.
   */
  endWindow(t: number, last: Sample = this.samples.at(-1)!): { from: number; to: number; end: number } {
    const mark = last.percent >= TARGET ? TARGET + 1 : TARGET
    const slowing = this.slowing()
    const step = 1 / Math.max(slowing ?? this.pace(last), 1e-9)
    const line = this.line(LINE_VALUES)
    // The earliest readings of when the bar reaches the mark: the average pace (unless the bar has
    // been slowing down steadily); a straight line through the recent answers, or through the last
    // three values if the bar sped up lately; without a line (too few values, or a bar that is not
    // straight), the recent pace and when the bar reached its value (after the answer before it,
    // and at most one step before); a power law; after a stall, the best pace so far.
    const early: number[] = []
    if (mark === TARGET && slowing === null) early.push(last.t * (TARGET / last.percent))
    if (line) {
      early.push(line.earliest(mark))
      // If the bar sped up lately, the older answers hold the line back: then a line through the
      // last values only.
      const recent = this.line(3)
      if (recent && recent.slope() > 1.1 * line.slope()) early.push(recent.earliest(mark))
    } else {
      if (mark === TARGET) {
        const recent = this.recentPace(last)
        if (recent > 0) early.push(last.t + (TARGET - last.percent) / recent)
      }
      early.push(Math.max(last.from, last.t - step) + (mark - last.percent) * step)
    }
    const power = mark === TARGET ? this.powerLawEnd(last) : null
    if (power !== null) early.push(power)
    if (this.stalled() || this.stoodStill()) {
      const best = Math.max(...this.samples.map((s) => s.percent / Math.max(1, s.t)))
      early.push(Math.max(t, last.t) + (mark - last.percent) / best)
    }
    const from = Math.max(last.t, Math.min(...early))
    const to = line ? Math.max(from, line.latest(mark)) : last.t + (mark + 1 - last.percent) * step
    // The latest the job itself can end: the bar at 100 (a job may show 99 until it ends).
    const end = line ? line.latest(TARGET + 1) : last.t + (TARGET + 1 - last.percent) * step
    return { from, to: Math.max(from, to), end: Math.max(from, to, end) }
  }

  /** The pace of the bar, percent per ms: the faster of the average and the recent one. */
  private pace(last: Sample): number {
    return Math.max(last.percent / Math.max(1, last.t), this.recentPace(last))
  }

  /** Percent per ms over the recent part of the job (the last ~40% of its elapsed time). */
  private recentPace(last: Sample): number {
    const from = last.t - Math.max(5000, 0.4 * last.t)
    const ref = this.samples.find((s) => s.t >= from && s !== last)
    if (!ref || last.t <= ref.t) return 0
    return Math.max(0, (last.percent - ref.percent) / (last.t - ref.t))
  }

  /**
   * Where a power law p = a·t^k through the latest sample and one from at most two thirds of its
   * time reaches 99: exact for a bar that speeds up (k > 1) as for a linear one (k = 1).
   */
  private powerLawEnd(last: Sample): number | null {
    const ref = [...this.samples].reverse().find((s) => s.t <= last.t / 1.5)
    if (!ref) return null
    const k = Math.log(last.percent / ref.percent) / Math.log(last.t / ref.t)
    if (!Number.isFinite(k) || k <= 0.5) return null
    // Only if it agrees with how fast the bar moved lately (a plateau then a jump is no power law).
    const before = this.samples.at(-2)
    if (before && before.t < last.t) {
      const local = (last.percent - before.percent) / (last.t - before.t)
      if ((k * last.percent) / last.t > 2 * local) return null
    }
    return last.t * (TARGET / last.percent) ** (1 / k)
  }

  /** The length of the latest (long) interval when the bar moved at over 2.5 times the pace before it. */
  private speedUp(): number | null {
    const n = this.samples.length
    if (n < 1 || this.stale > 0) return null
    const c = this.samples[n - 1]!
    const b = this.samples[n - 2] ?? { t: 0, percent: 0, from: 0 }
    const a = this.samples[n - 3] ?? { t: 0, percent: 0, from: 0 }
    if (b.t <= a.t) return null
    // The move happened after the answer before it (answers that did not move may lie between).
    const latest = (c.percent - b.percent) / Math.max(1, c.t - Math.max(b.t, c.from))
    const before = (b.percent - a.percent) / (b.t - a.t)
    // Once: the look that follows is short, and shows the new pace.
    return latest > 2.5 * before && c.t - b.t > 8 * this.denseMs ? c.t - b.t : null
  }

  /**
   * The bar's recent pace (percent per ms) when it has been slowing down steadily: its last two
   * intervals each below the average pace before them (but not stalled). The average and recent
   * paces would then keep calling the end too early.
   */
  private slowing(): number | null {
    const n = this.samples.length
    if (n < 3 || this.stale > 0) return null
    const pace = (k: number) => {
      const [a, b] = [this.samples[k - 1]!, this.samples[k]!]
      return (b.percent - a.percent) / Math.max(1, b.t - a.t)
    }
    const average = (k: number) => this.samples[k]!.percent / Math.max(1, this.samples[k]!.t)
    const [latest, before] = [pace(n - 1), pace(n - 2)]
    // Both intervals clearly below the average before them, neither stalled, and not speeding up.
    if (latest < 0.5 * average(n - 2) || latest >= 0.8 * average(n - 2)) return null
    if (before >= 0.8 * average(n - 3) || latest > 1.2 * before) return null
    return Math.max(latest, before)
  }

  /**
   * The bar stood still for over two of its steps between its last two values (answers that did
   * not move lie between them): it is bursty, and may now go at its best pace again.
   */
  private stoodStill(): boolean {
    const n = this.samples.length
    if (n < 2) return false
    const [b, c] = [this.samples[n - 2]!, this.samples[n - 1]!]
    return c.from - b.t > (2 * b.t) / b.percent
  }

  /** The latest answer did not move, or moved at less than half the average pace before it. */
  private stalled(): boolean {
    if (this.stale > 0) return true
    const n = this.samples.length
    if (n < 2) return false
    const [b, c] = [this.samples[n - 2]!, this.samples[n - 1]!]
    const latest = (c.percent - b.percent) / Math.max(1, c.t - b.t)
    return latest < (0.5 * b.percent) / Math.max(1, b.t)
  }

  /** fitLine over the readings, worked out once per new reading. */
  private line(maxValues: number): Line | null {
    const known = this.lines.get(maxValues)
    if (known !== undefined) return known
    const line = fitLine(this.readings, maxValues)
    this.lines.set(maxValues, line)
    return line
  }

  private clamp(ms: number): number {
    return Math.round(Math.max(this.minMs, ms))
  }
}

const MAX_READINGS = 60
/** The line through the recent answers spans at most this many values of the bar. */
const LINE_VALUES = 6
