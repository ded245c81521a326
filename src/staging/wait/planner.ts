/** A job's ask of the poll scheduler: when it wants to poll, its end by its progress, its answers so far. */
export type PollAsk = { wantedAt: number; end: End | null; answers: number }
type End = { from: number; to: number }

/** Two readings of a job's end in a row agree (`start`: the job's), the later one past CONFIRM_AFTER
 * of it (a bar need not be linear): the poll scheduler's "pinned", with a narrow window. */
export function agrees(start: number, before: End | null, end: End | null, now: number): boolean {
  if (end === null || before === null) return false
  return near(end.to, before.to, start) && now - start >= CONFIRM_AFTER * (end.to - start)
}
export const narrow = (end: End, start: number) => near(end.from, end.to, start)
const near = (a: number, b: number, start: number) =>
  Math.abs(b - a) <= NARROW * (Math.max(a, b) - start) + NARROW_MS

/**
 * The planner: when to ask again whether ONE background job has finished. It uses what the server
 * tells, and never trusts it so far that a misleading progress bar costs more than fixed polling.
 *
 * 1. No progress (no `percentage_complete`, or 0%): ask after FIRST_POLL_MS, then every
 *    NO_PROGRESS_POLL_MS (the end is noticed within 5 s). With no sign of the end, fixed polling is
 *    the best there is: an interval that grows makes (lateness × calls) exceed the job's length.
 * 2. Progress: the earliest plausible time the bar reaches 99 (many jobs end there, never showing
 *    100), the earliest of several readings: the average pace, a power law through two samples (a
 *    bar that speeds up), after a stall the best pace so far, and a straight line through the recent
 *    answers (each whole-number answer says the bar is between it and the next number; together
 *    they pin when it reaches 99 and 100 within seconds). Ask again APPROACH of the way to that
 *    estimate, never later than GROWTH times the time run so far, and soon after the bar sped up.
 * 3. Near it: every NEAR_END_POLL_MS across the window where the end can fall. Past it without
 *    movement (a bar stuck at 99, a stall), back off, but never beyond LATE_FRACTION of the time run
 *    (at least NO_PROGRESS_POLL_MS) nor AVERAGE_FACTOR × the average interval so far, which keeps
 *    (lateness × calls) within the job's length, as fixed polling does.
 * Pure and clock-free: times are passed in (tests and the bench run it in virtual time).
 */
export class PollPlanner {
  private readonly samples: Sample[] = []
  private readonly readings: Reading[] = []
  /** The lines that fit the readings as they are (a job asks again at every wake). */
  private readonly lines = new Map<number, Line | null>()
  answers = 0
  private stale = 0
  private lastAnswer = 0

  /** `startedAt`: when the job was accepted (ms). */
  constructor(private readonly startedAt: number) {}

  /** One answer of a running job (`percent` undefined: the server gave none). */
  observe(at: number, percent: number | undefined): void {
    this.answers++
    const t = at - this.startedAt
    const from = this.lastAnswer
    this.lastAnswer = t
    if (percent === undefined || !Number.isFinite(percent)) return
    const p = Math.min(100, Math.max(0, percent))
    this.readings.push({ t, percent: p })
    this.lines.clear()
    if (this.readings.length > MAX_READINGS) this.readings.shift()
    // A step back: the readings above it were wrong (or the job began again); what it says now counts.
    while (this.samples.length > 0 && this.samples.at(-1)!.percent > p) this.samples.pop()
    const last = this.samples.at(-1)
    if (last ? p <= last.percent : p <= 0) this.stale++
    else {
      this.stale = 0
      this.samples.push({ t, percent: p, from })
    }
  }

  /** How long to wait, from `now`, before the next poll (the first poll too, before any answer). */
  nextDelay(now: number): number {
    const t = Math.max(0, now - this.startedAt)
    const last = this.samples.at(-1)
    if (!last) return clamp(this.answers === 0 ? FIRST_POLL_MS : NO_PROGRESS_POLL_MS)
    const window = this.endWindow(t, last)
    if (t < window.from - NEAR_END_POLL_MS) {
      let wait = Math.min((window.from - t) * APPROACH, Math.max(FIRST_POLL_MS, GROWTH * t))
      // A bar that just sped up may be going much faster than the samples show: look again soon.
      const speedUp = this.speedUp()
      if (speedUp !== null) wait = Math.min(wait, speedUp / 8)
      return clamp(wait)
    }
    if (t <= window.to) return clamp(Math.min(NEAR_END_POLL_MS, Math.max(FIRST_POLL_MS, window.to - t)))
    const lateCap = Math.max(NO_PROGRESS_POLL_MS, t * LATE_FRACTION)
    const averageCap = Math.max(FIRST_POLL_MS, (AVERAGE_FACTOR * t) / Math.max(1, this.answers))
    return clamp(Math.min(Math.max(NEAR_END_POLL_MS, BACKOFF * (t - window.to)), lateCap, averageCap))
  }

  /** When the job ends by its own progress (clock ms), earliest and latest; null before the bar moved. */
  end(now: number): End | null {
    const last = this.samples.at(-1)
    if (!last) return null
    const window = this.endWindow(Math.max(0, now - this.startedAt), last)
    return { from: this.startedAt + window.from, to: this.startedAt + window.end }
  }

  /** Where the end is expected (ms since the start): when the bar reaches the next mark (99, or 100 once it shows 99). */
  endWindow(t: number, last: Sample = this.samples.at(-1)!): { from: number; to: number; end: number } {
    const mark = last.percent >= DONE_AT ? DONE_AT + 1 : DONE_AT
    const slowing = this.slowing()
    const step = 1 / Math.max(slowing ?? this.pace(last), 1e-9)
    const line = this.line(LINE_VALUES)
    // The earliest readings: the average pace (unless the bar has been slowing down steadily); a
    // line through the recent answers (or the last three values, if the bar sped up lately);
    // without a line, the recent pace and when the bar reached its value; a power law; after a
    // stall, the best pace so far.
    const early: number[] = []
    if (mark === DONE_AT && slowing === null) early.push(last.t * (DONE_AT / last.percent))
    if (line) {
      early.push(line.earliest(mark))
      const recent = this.line(3)
      if (recent && recent.slope() > 1.1 * line.slope()) early.push(recent.earliest(mark))
    } else {
      if (mark === DONE_AT) {
        const recent = this.recentPace(last)
        if (recent > 0) early.push(last.t + (DONE_AT - last.percent) / recent)
      }
      early.push(Math.max(last.from, last.t - step) + (mark - last.percent) * step)
    }
    const power = mark === DONE_AT ? this.powerLawEnd(last) : null
    if (power !== null) early.push(power)
    if (this.stalled()) {
      const best = Math.max(...this.samples.map((s) => s.percent / Math.max(1, s.t)))
      early.push(Math.max(t, last.t) + (mark - last.percent) / best)
    }
    const from = Math.max(last.t, Math.min(...early))
    const to = line ? Math.max(from, line.latest(mark)) : last.t + (mark + 1 - last.percent) * step
    // The latest the job itself can end: the bar at 100 (a job may show 99 until it ends).
    const end = line ? line.latest(DONE_AT + 1) : last.t + (DONE_AT + 1 - last.percent) * step
    return { from, to: Math.max(from, to), end: Math.max(from, to, end) }
  }

  /** The faster of the average and the recent pace (percent per ms). */
  private pace(last: Sample): number {
    return Math.max(last.percent / Math.max(1, last.t), this.recentPace(last))
  }

  /** Percent per ms over the last ~40% of the job's elapsed time. */
  private recentPace(last: Sample): number {
    const from = last.t - Math.max(5000, 0.4 * last.t)
    const ref = this.samples.find((s) => s.t >= from && s !== last)
    if (!ref || last.t <= ref.t) return 0
    return Math.max(0, (last.percent - ref.percent) / (last.t - ref.t))
  }

  /** Where p = a·t^k through the last sample and one from at most 2/3 of its time reaches 99. */
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
    return last.t * (DONE_AT / last.percent) ** (1 / k)
  }

  /** The latest (long) interval when the bar moved at over 2.5 times the pace before it. */
  private speedUp(): number | null {
    const n = this.samples.length
    if (n < 1 || this.stale > 0) return null
    const c = this.samples[n - 1]!
    const b = this.samples[n - 2] ?? { t: 0, percent: 0, from: 0 }
    const a = this.samples[n - 3] ?? { t: 0, percent: 0, from: 0 }
    if (b.t <= a.t) return null
    const latest = (c.percent - b.percent) / Math.max(1, c.t - Math.max(b.t, c.from))
    const before = (b.percent - a.percent) / (b.t - a.t)
    return latest > 2.5 * before && c.t - b.t > 8 * NEAR_END_POLL_MS ? c.t - b.t : null
  }

  /** The recent pace when the bar has been slowing down steadily (its last two intervals), else null. */
  private slowing(): number | null {
    const n = this.samples.length
    if (n < 3 || this.stale > 0) return null
    const pace = (k: number) => {
      const [a, b] = [this.samples[k - 1]!, this.samples[k]!]
      return (b.percent - a.percent) / Math.max(1, b.t - a.t)
    }
    const average = (k: number) => this.samples[k]!.percent / Math.max(1, this.samples[k]!.t)
    const [latest, before] = [pace(n - 1), pace(n - 2)]
    if (latest < 0.5 * average(n - 2) || latest >= 0.8 * average(n - 2)) return null
    if (before >= 0.8 * average(n - 3) || latest > 1.2 * before) return null
    return Math.max(latest, before)
  }

  /** The latest answer did not move, or moved at less than half the average pace before it, or the
   * bar stood still for over two of its steps between its last two values (it is bursty). */
  private stalled(): boolean {
    if (this.stale > 0) return true
    const n = this.samples.length
    if (n < 2) return false
    const [b, c] = [this.samples[n - 2]!, this.samples[n - 1]!]
    const slow = (c.percent - b.percent) / Math.max(1, c.t - b.t) < (0.5 * b.percent) / Math.max(1, b.t)
    return slow || c.from - b.t > (2 * b.t) / b.percent
  }

  private line(maxValues: number): Line | null {
    if (!this.lines.has(maxValues)) this.lines.set(maxValues, fitLine(this.readings, maxValues))
    return this.lines.get(maxValues) ?? null
  }
}

/** An answer that carried a percentage (t: ms since the job's start). */
interface Reading {
  t: number
  percent: number
}

/** A value the bar showed for the first time; `from`: when the answer before it came. */
interface Sample extends Reading {
  from: number
}

/**
 * The lines v = a + b·t that fit the recent readings (each whole-number answer says the bar was at
 * least its value and below the next one): a convex polygon in the (a, b) plane, cut one reading at
 * a time, over as many recent readings as fit one line, spanning at most `maxValues` values. Null
 * when fewer than three values fit one line (the pace is not bounded).
 */
function fitLine(readings: readonly Reading[], maxValues: number): Line | null {
  let polygon: Point[] = [
    [-1e8, 1e-9],
    [1e8, 1e-9],
    [1e8, 1],
    [-1e8, 1],
  ]
  let values = 0
  let previous: number | null = null
  let fitted: Point[] | null = null
  for (let i = readings.length - 1; i >= 0; i--) {
    const { t, percent } = readings[i]!
    if (percent !== previous && values + 1 > maxValues) break
    const next = clip(clip(polygon, 1, t, percent), -1, -t, -(percent + 1))
    if (next.length < 3) break
    polygon = next
    if (percent !== previous) values++
    previous = percent
    if (values >= 3) fitted = polygon
  }
  return fitted ? new Line(fitted) : null
}

type Point = [number, number]

/** The lines that fit: when they reach a mark, at the earliest and at the latest. */
class Line {
  constructor(private readonly polygon: Point[]) {}
  earliest(mark: number): number {
    return Math.min(...this.polygon.map(([a, b]) => (mark - a) / b))
  }
  latest(mark: number): number {
    return Math.max(...this.polygon.map(([a, b]) => (mark - a) / b))
  }
  slope(): number {
    return this.polygon.reduce((sum, [, b]) => sum + b, 0) / this.polygon.length
  }
}

/** The part of a convex polygon where ca·a + cb·b >= c (Sutherland-Hodgman). */
function clip(polygon: Point[], ca: number, cb: number, c: number): Point[] {
  const out: Point[] = []
  const side = (p: Point) => ca * p[0] + cb * p[1] - c
  for (let i = 0; i < polygon.length; i++) {
    const [p, q] = [polygon[i]!, polygon[(i + 1) % polygon.length]!]
    const [sp, sq] = [side(p), side(q)]
    if (sp >= 0) out.push(p)
    if (sp >= 0 !== sq >= 0) {
      const k = sp / (sp - sq)
      out.push([p[0] + k * (q[0] - p[0]), p[1] + k * (q[1] - p[1])])
    }
  }
  return out
}

const clamp = (ms: number) => Math.round(Math.max(FIRST_POLL_MS, ms))

/** The first poll, and the shortest interval. */
const FIRST_POLL_MS = 1000
/** The interval while the server gives no progress: its end is noticed within 5 s. */
const NO_PROGRESS_POLL_MS = 4900
/** The fraction of the way to the estimated end waited before the next poll. */
const APPROACH = 0.6
/** The interval across the window where the end can fall. */
const NEAR_END_POLL_MS = 1900
/** Far from the end, never wait longer than this many times the time the job has run. */
const GROWTH = 2
/** Past the expected end: this fraction of the time overdue, within LATE_FRACTION of the time run and AVERAGE_FACTOR × the average interval. */
const BACKOFF = 0.25
const LATE_FRACTION = 1 / 40
const AVERAGE_FACTOR = 0.9
/** The bar is read as complete at 99 (many jobs sit there, never at 100) or at 100. */
const DONE_AT = 99
/** The line through the recent answers spans at most LINE_VALUES values of the bar (of MAX_READINGS answers). */
const LINE_VALUES = 6
const MAX_READINGS = 60
/** An end is pinned when its window is this narrow (a fraction of its length, plus ms), confirmed only CONFIRM_AFTER into it. */
const NARROW = 0.04
const NARROW_MS = 400
const CONFIRM_AFTER = 0.5
