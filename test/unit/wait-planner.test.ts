import { describe, expect, it } from '@jest/globals'
import { PollPlanner } from '../../src/staging/wait/planner.js'
import { PROGRESS_MODES, percentage, type CurveMode } from '../../simulator/progress.js'

type Mode = (typeof PROGRESS_MODES)[number]

/**
 * Follows a job of `durationMs` in virtual time, as the waiting loop does: the first poll after
 * nextDelay() before any answer, then observe() and nextDelay() after every answer of a running job. The curve is
 * the simulator's own (simulator/progress.ts), so these are the benchmark's jobs in miniature.
 */
function follow(durationMs: number, mode: Mode | ((f: number) => number | undefined)) {
  const planner = new PollPlanner(0)
  const curve =
    typeof mode === 'function'
      ? mode
      : (f: number) => (mode === 'none' ? undefined : percentage(mode as CurveMode, f))
  let t = planner.nextDelay(0)
  let polls = 0
  const delays: number[] = []
  for (;;) {
    polls++
    if (t >= durationMs) return { lateMs: t - durationMs, polls, delays }
    planner.observe(t, curve(t / durationMs))
    const d = planner.nextDelay(t)
    delays.push(d)
    t += d
  }
}

/** A row of the benchmark: jobs of `nominalMs` give or take 15%, spread so every phase is hit. */
function row(nominalMs: number, mode: Mode, jobs = 20) {
  const runs = Array.from({ length: jobs }, (_, i) =>
    follow(Math.round(nominalMs * (0.85 + 0.3 * ((i * 0.6180339887 + 0.31) % 1))), mode),
  )
  const late = runs.map((r) => r.lateMs).sort((a, b) => a - b)
  const p95 = late[Math.ceil(0.95 * late.length) - 1]!
  const meanPolls = runs.reduce((sum, r) => sum + r.polls, 0) / runs.length
  return { p95, meanPolls, maxPolls: Math.max(...runs.map((r) => r.polls)) }
}

const MIN = 60_000
const HONEST: Mode[] = ['linear', 'nonlinear']
const MISLEADING: Mode[] = ['backloaded', 'frontloaded', 'stuck-then-jump', 'stalled-middle']

describe('PollPlanner without progress', () => {
  it('asks after 1 s, then every 4.9 s: fixed polling, which no growing interval can beat', () => {
    const { delays } = follow(60_000, 'none')
    expect(delays.slice(0, 4)).toEqual([4900, 4900, 4900, 4900])
    expect(new Set(delays)).toEqual(new Set([4900]))
  })
  it('reads a bar stuck at 0 as no progress', () => {
    expect(follow(60_000, () => 0).delays).toEqual(follow(60_000, 'none').delays)
  })
  it('one reading that goes back (a false 60% early) does not turn the rest of the job into fast polling', () => {
    let first = true
    const hostile = (f: number) => (first ? ((first = false), 60) : Math.round(100 * f))
    const honest = follow(150_000, (f) => Math.round(100 * f))
    const misled = follow(150_000, hostile)
    expect(misled.polls).toBeLessThanOrEqual(honest.polls + 4)
  })
  it.each([20_000, 3 * MIN, 15 * MIN, 60 * MIN])('notices the end of a %i ms job within 5 s', (ms) => {
    expect(row(ms, 'none').p95).toBeLessThanOrEqual(5000)
  })
})

describe('PollPlanner with honest progress', () => {
  it.each(HONEST)('%s: within 2 s at p95 for 20 s, 3 min, 15 min and 1 h jobs', (mode) => {
    for (const ms of [20_000, 3 * MIN, 15 * MIN, 60 * MIN])
      expect(row(ms, mode).p95).toBeLessThanOrEqual(2000)
  })
  it.each(HONEST)(
    '%s: at most 20 calls for a 3-minute job and about 40 for an hour (the benchmark measures the target)',
    (mode) => {
      expect(row(3 * MIN, mode).maxPolls).toBeLessThanOrEqual(20)
      expect(row(60 * MIN, mode).meanPolls).toBeLessThanOrEqual(45)
    },
  )
  it('waits long while the end is far and converges on it', () => {
    const p = new PollPlanner(0)
    p.observe(1000, 0)
    p.observe(10_000, 5)
    const far = p.nextDelay(10_000)
    expect(far).toBeGreaterThan(10_000)
    // Never more than twice the time the job has run, however far the estimate.
    expect(far).toBeLessThanOrEqual(20_000)
    p.observe(185_000, 96)
    p.observe(189_000, 98)
    expect(p.nextDelay(189_000)).toBeLessThanOrEqual(2000)
  })
  it('pins a straight bar from its whole-number answers: the end window is a few seconds wide', () => {
    const p = new PollPlanner(0)
    // A bar of 1 point per 30 s, asked at odd moments.
    for (const t of [7_000, 95_000, 401_000, 1_210_000, 2_333_000, 2_700_000, 2_841_000, 2_893_000])
      p.observe(t, Math.floor(t / 30_000))
    const { from, to } = p.endWindow(2_893_000)
    // It reaches 99 at 2_970_000.
    expect(from).toBeLessThanOrEqual(2_970_000)
    expect(to).toBeGreaterThanOrEqual(2_970_000)
    expect(to - from).toBeLessThan(30_000)
  })
})

describe('PollPlanner with misleading progress', () => {
  it.each(MISLEADING)('%s: within 5 s at p95 for 20 s and 3 min jobs', (mode) => {
    expect(row(20_000, mode).p95).toBeLessThanOrEqual(5000)
    expect(row(3 * MIN, mode).p95).toBeLessThanOrEqual(5000)
  })
  it.each(MISLEADING)(
    '%s: never worse than fixed polling with as many calls (p95 late × calls ≤ length)',
    (mode) => {
      for (const ms of [3 * MIN, 15 * MIN, 60 * MIN]) {
        const r = row(ms, mode)
        expect(r.p95 * r.meanPolls).toBeLessThanOrEqual(ms)
      }
    },
  )
  it('a bar at 99% from a fifth of an hour-long job on: far fewer calls than dense polling', () => {
    const { polls, lateMs } = follow(60 * MIN, 'frontloaded')
    expect(polls).toBeLessThan(700)
    expect(lateMs * polls).toBeLessThanOrEqual(60 * MIN)
  })
  it('a bar that stalls and resumes: the stall does not send the poller to sleep past the end', () => {
    for (const ms of [3 * MIN, 15 * MIN, 60 * MIN])
      expect(row(ms, 'stalled-middle').p95).toBeLessThanOrEqual(2000)
  })
  it('back-loaded progress (speeding up) is read as a power law, not as a slow job', () => {
    // 100 f^3: even more back-loaded than the simulator's curve.
    for (const ms of [20_000, 3 * MIN, 60 * MIN])
      expect(follow(ms, (f) => Math.floor(100 * f ** 3)).lateMs).toBeLessThanOrEqual(5000)
  })
})

describe('PollPlanner against hostile values', () => {
  it('ignores NaN and infinities, clamps out-of-range values, and reads a step back as no movement', () => {
    const p = new PollPlanner(0)
    p.observe(1000, Number.NaN)
    p.observe(2000, Number.POSITIVE_INFINITY)
    expect(p.nextDelay(2000)).toBe(4900)
    p.observe(3000, -5)
    p.observe(4000, 40)
    p.observe(5000, 10)
    p.observe(6000, 1e9)
    const d = p.nextDelay(6000)
    expect(Number.isFinite(d)).toBe(true)
    expect(d).toBeGreaterThanOrEqual(1000)
  })
  it('never waits less than the minimum, whatever it is told', () => {
    const p = new PollPlanner(0)
    for (let t = 1000; t < 30_000; t += 1000) {
      p.observe(t, 99)
      expect(p.nextDelay(t)).toBeGreaterThanOrEqual(1000)
    }
  })
})
