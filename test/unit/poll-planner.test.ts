import { describe, expect, it } from '@jest/globals'
import { PollPlanner } from '../../src/staging/poll-planner.js'

/** Follows a model job in virtual time: where its end is noticed, and after how many polls. */
function follow(durationMs: number, progress: ((f: number) => number) | null) {
  const planner = new PollPlanner({ startedAt: 0 })
  let t = planner.firstDelay()
  let polls = 0
  for (;;) {
    polls++
    if (t >= durationMs) return { lateMs: t - durationMs, polls }
    planner.observe(t, progress ? Math.min(99, Math.floor(progress(t / durationMs))) : undefined)
    t += planner.nextDelay(t)
  }
}
const linear = (f: number) => f * 100
/** Quick start, long plateau, jump, slow tail: the shape of a real install. */
const stepped = (f: number) =>
  f < 0.15
    ? (f / 0.15) * 30
    : f < 0.55
      ? 30 + ((f - 0.15) / 0.4) * 6
      : f < 0.62
        ? 36 + ((f - 0.55) / 0.07) * 42
        : 78 + ((f - 0.62) / 0.38) * 21

describe('PollPlanner', () => {
  it('without progress backs off from 1 s to a 4.9 s cap', () => {
    const p = new PollPlanner({ startedAt: 0 })
    const delays: number[] = []
    let t = p.firstDelay()
    delays.push(t)
    for (let i = 0; i < 6; i++) {
      p.observe(t, undefined)
      const d = p.nextDelay(t)
      delays.push(d)
      t += d
    }
    expect(delays).toEqual([1000, 3000, 4900, 4900, 4900, 4900, 4900])
  })
  it('with progress far from the end, waits long; near the end, polls densely', () => {
    const p = new PollPlanner({ startedAt: 0 })
    p.observe(10_000, 10)
    const far = p.nextDelay(10_000)
    expect(far).toBeGreaterThan(20_000)
    expect(far).toBeLessThanOrEqual(30_000)
    p.observe(95_000, 96)
    expect(p.nextDelay(95_000)).toBeLessThanOrEqual(2000)
  })
  it('never polls faster than once a second, even past the estimated end', () => {
    const p = new PollPlanner({ startedAt: 0 })
    p.observe(1000, 99)
    expect(p.nextDelay(50_000)).toBeGreaterThanOrEqual(1000)
  })
  it('slows down while a job stays still near its end', () => {
    const p = new PollPlanner({ startedAt: 0 })
    let t = 100_000
    p.observe(t, 99)
    const first = p.nextDelay(t)
    for (let i = 0; i < 10; i++) p.observe((t += 1000), 99)
    const later = p.nextDelay(t)
    expect(later).toBeGreaterThan(first)
    expect(later).toBeLessThanOrEqual(4000)
  })
  it('re-estimates after a plateau: the next poll moves out when progress stalls', () => {
    const p = new PollPlanner({ startedAt: 0 })
    p.observe(10_000, 30)
    const early = p.nextDelay(10_000)
    p.observe(60_000, 31)
    expect(p.nextDelay(60_000)).toBeGreaterThan(early)
  })
  // The model-level targets of issue 6 (the benchmark measures them against the simulator).
  it.each([
    ['linear', linear],
    ['stepped', stepped],
  ])('a 3-minute job with %s progress: end noticed within 2 s, at most 20 polls', (_, curve) => {
    for (const d of [160_000, 171_000, 180_000, 188_500, 199_000]) {
      const { lateMs, polls } = follow(d, curve)
      expect(lateMs).toBeLessThanOrEqual(2000)
      expect(polls).toBeLessThanOrEqual(20)
    }
  })
  it.each([
    ['linear', linear],
    ['stepped', stepped],
  ])('a 20-second job with %s progress: within 1.5 s, at most 10 polls', (_, curve) => {
    for (const d of [17_000, 19_300, 20_000, 21_700, 23_000]) {
      const { lateMs, polls } = follow(d, curve)
      expect(lateMs).toBeLessThanOrEqual(1500)
      expect(polls).toBeLessThanOrEqual(10)
    }
  })
  it('a 3-minute job without progress: within 5 s, at most 40 polls', () => {
    for (const d of [175_000, 180_000, 183_000]) {
      const { lateMs, polls } = follow(d, null)
      expect(lateMs).toBeLessThanOrEqual(5000)
      expect(polls).toBeLessThanOrEqual(40)
    }
  })
})
