/**
 * The poll scheduler (issue 17 §1, issue 18, issue 26 §1-§4) with an injected clock and a stand-in
 * for the rate window: which job polls when, from whose progress, what the plan counts, who
 * is woken, and no bursts.
 */
import { describe, expect, it } from '@jest/globals'
import { PollScheduler, type CallSupply } from '../../src/staging/wait/batch.js'
import type { PollAsk } from '../../src/staging/wait/planner.js'
import { FakeClock } from '../helpers/fakes.js'

/** Calls left now, and when calls come back: as set by the test. */
function supply(
  left: number,
  limit: number | null = 60,
): CallSupply & { left: number; backAt: number; waiters: number; sharers: number; othersInWindow: boolean } {
  return {
    left,
    backAt: Infinity,
    waiters: 0,
    sharers: 1,
    othersInWindow: false,
    limit,
    windowMs: 60_000,
    needs: () => Infinity,
    available() {
      return this.left
    },
    backBy(n: number) {
      return n <= this.left ? 0 : this.backAt
    },
  }
}

/** A batch of `n` followers that joined at the same time, each keyed by its own object. */
function batch(n: number, left: number) {
  const clock = new FakeClock()
  const calls = supply(left)
  const s = new PollScheduler(clock, calls)
  s.due = 0
  const keys = Array.from({ length: n }, () => ({}))
  const leaves = keys.map((key) => s.join(key)!)
  return { clock, s, keys, leaves, calls, start: clock.t }
}

/** An ask with no reading of its own yet. */
const wants = (wantedAt: number, answers = 0): PollAsk => ({ wantedAt, end: null, answers })
/** An ask whose own progress says the job ends between `from` and `to`. */
const ends = (wantedAt: number, from: number, to: number, answers = 1): PollAsk => ({
  wantedAt,
  end: { from, to },
  answers,
})
/** Two readings in a row that agree on the end (the ask of the one before, then this one). */
const confirmed = (s: PollScheduler, key: object, ask: PollAsk) => {
  s.pollAt(key, { ...ask, answers: ask.answers - 1 })
  return s.pollAt(key, ask)
}

describe('PollScheduler', () => {
  /** The scout looks three times with no end to read and ends at 11 s: the batch's jobs report no progress. */
  const noProgress = (left: number) => {
    const b = batch(20, left)
    for (const [i, at] of [1000, 6000, 11_000].entries()) {
      b.clock.t = b.start + at
      expect(b.s.pollAt(b.keys[0]!, wants(b.clock.t, i))).toMatchObject({ final: true })
    }
    b.leaves[0]!()
    return b
  }
  it('with no progress and calls short, the others are polled 1.3x the longest that ended, with no look first', () => {
    const { s, keys, start, clock } = noProgress(30)
    expect(s.pollAt(keys[5]!, wants(clock.t))).toEqual({ at: start + 1.3 * 11_000, final: false })
    // A final that finds it running: the next not before 1.3x how long it had run.
    clock.t = start + 1.3 * 11_000
    expect(s.pollAt(keys[5]!, wants(clock.t))).toMatchObject({ final: true })
    clock.t += 50
    expect(s.pollAt(keys[5]!, wants(clock.t, 1)).at).toBeCloseTo(start + 1.3 * 1.3 * 11_000 + 1.3 * 50)
  })
  it('with no progress and calls for every job to miss once, the others are polled just after the longest that ended', () => {
    const { s, keys, start, clock } = noProgress(45)
    expect(s.pollAt(keys[5]!, wants(clock.t))).toEqual({ at: start + 1.01 * 11_000 + 100, final: false })
  })
  it('while calls are plenty, each polls when its own planner wants, but a first look (the scout’s aside) no sooner than 5 s', () => {
    const { clock, s, keys, start } = batch(2, 59)
    expect(s.pollAt(keys[0]!, wants(start + 1000))).toEqual({ at: start + 1000, final: false })
    // A run that starts a moment later may need the calls, and no answer shows it yet.
    expect(s.pollAt(keys[1]!, wants(start + 1000))).toEqual({ at: start + 5000, final: false })
    clock.t = start + 5000
    expect(s.pollAt(keys[1]!, wants(clock.t))).toMatchObject({ final: true })
    // With a reading of its own, it polls when its planner wants.
    expect(s.pollAt(keys[1]!, wants(start + 6000, 1))).toEqual({ at: start + 6000, final: false })
  })
  it('with calls plenty but another run’s calls in the window (a run that joined late), each does not poll as it wants', () => {
    const { clock, s, keys, calls } = batch(2, 59)
    calls.othersInWindow = true
    // Not plenty: the second job is held until the first tells how long such jobs take.
    expect(s.pollAt(keys[1]!, wants(clock.t))).toMatchObject({ final: false, wake: expect.anything() })
    calls.othersInWindow = false
    expect(s.pollAt(keys[1]!, wants(clock.t))).toEqual({ at: clock.t + 5000, final: false })
  })
  it('tells the rate window the calls the run still needs: sites to start, a final per job followed, what comes after', () => {
    const { s, calls, leaves } = batch(3, 40)
    expect(calls.needs()).toBe(3)
    s.due = 5
    s.after = 2
    expect(calls.needs()).toBe(10)
    leaves[0]!()
    expect(calls.needs()).toBe(9)
  })
  it('with no limit known, nothing is held', () => {
    const clock = new FakeClock()
    const s = new PollScheduler(clock, supply(0, null))
    const key = {}
    s.join(key)
    expect(s.pollAt(key, wants(clock.t))).toMatchObject({ final: true })
  })
  it('when calls are scarce, the first to start polls as it wants; the others are held, each with its own wake-up', () => {
    // 30 left for 20 jobs: one final each, 10 to spare (fewer than two each).
    const { clock, s, keys } = batch(20, 30)
    clock.t += 1000
    expect(s.pollAt(keys[0]!, wants(clock.t))).toMatchObject({ final: true })
    const a = s.pollAt(keys[5]!, wants(clock.t))
    const b = s.pollAt(keys[6]!, wants(clock.t))
    expect(a.final).toBe(false)
    expect(a.wake?.aborted).toBe(false)
    expect(a.wake).not.toBe(b.wake)
  })
  it("each job's final poll comes from its own progress, at the latest end it allows, not from a sibling's", () => {
    const { clock, s, keys, start } = batch(20, 30)
    clock.t += 13_000
    // Two jobs whose own readings pin their ends 6 s apart (two readings each, past half of the job).
    const one = confirmed(s, keys[0]!, ends(clock.t + 500, start + 19_600, start + 20_000, 2))
    const two = confirmed(s, keys[1]!, ends(clock.t + 500, start + 25_500, start + 26_000, 2))
    expect(one.final).toBe(false)
    expect(one.at).toBeGreaterThanOrEqual(start + 20_000)
    expect(one.at).toBeLessThan(start + 20_600)
    expect(two.at).toBeGreaterThanOrEqual(start + 26_000)
    expect(two.at).toBeLessThan(start + 26_700)
    // When the time comes, it polls (once).
    clock.t = one.at
    expect(s.pollAt(keys[0]!, ends(clock.t, start + 19_600, start + 20_000, 2))).toMatchObject({
      final: true,
    })
  })
  it('one reading, or readings that agree early in the job, pin no end: a look where calls are to spare', () => {
    const { clock, s, keys, start } = batch(20, 30)
    clock.t += 3000
    // A single reading: a look at its planner's time, not a final.
    expect(s.pollAt(keys[0]!, ends(start + 8000, start + 19_600, start + 20_000))).toMatchObject({
      at: start + 8000,
    })
    // Two that agree at 3 s of a 20 s job (one straight stretch of a bar that need not be straight).
    expect(confirmed(s, keys[1]!, ends(start + 8000, start + 19_600, start + 20_000, 2))).toMatchObject({
      at: start + 8000,
    })
  })
  it('a measured job wakes the held followers (and only them); they first look at a fraction of the shortest job', () => {
    const { clock, s, keys, leaves, start } = batch(20, 30)
    clock.t += 1000
    const held = s.pollAt(keys[5]!, wants(clock.t))
    // A follower that waits for a time of its own is not woken by anything.
    const timed = s.pollAt(keys[0]!, ends(clock.t + 400, start + 19_000, start + 30_000))
    expect(timed.wake).toBeUndefined()
    // One more reading that narrows its end tells the batch nothing yet (it agrees with nothing
    // before it): the held are not woken.
    clock.t += 2000
    s.pollAt(keys[0]!, ends(clock.t + 400, start + 19_600, start + 20_000, 2))
    expect(held.wake?.aborted).toBe(false)
    // Past half of it, a reading that agrees pins the first job's end: news for the held.
    clock.t = start + 10_500
    s.pollAt(keys[0]!, ends(clock.t + 400, start + 19_600, start + 20_000, 3))
    expect(held.wake?.aborted).toBe(true)
    const next = s.pollAt(keys[5]!, wants(clock.t))
    expect(next.final).toBe(false)
    expect(next.at).toBeGreaterThan(start + 0.5 * 19_600)
    expect(next.at).toBeLessThan(start + 19_600)
    // Leaving wakes nobody who is not held.
    const later = s.pollAt(keys[7]!, wants(clock.t))
    leaves[3]!()
    expect(later.wake).toBeUndefined()
  })
  it('with no call to spare, a job whose end is not pinned is asked once, when the longest job measured would have ended', () => {
    // 20 left for 20 jobs: nothing to spare.
    const { clock, s, keys, start } = batch(20, 20)
    clock.t += 3000
    s.pollAt(keys[0]!, ends(clock.t + 400, start + 19_600, start + 20_000))
    // One reading of the first job tells how long such jobs take only once a second agrees with it:
    // until then the others are held.
    clock.t = start + 10_000
    expect(s.pollAt(keys[4]!, wants(clock.t)).wake).toBeDefined()
    s.pollAt(keys[0]!, ends(clock.t + 400, start + 19_600, start + 20_000, 2))
    clock.t = start + 12_000
    const blind = s.pollAt(keys[4]!, wants(clock.t))
    expect(blind.final).toBe(false)
    expect(blind.at).toBeGreaterThanOrEqual(start + 20_000)
  })
  it('with no call to spare for a final that finds its job running, finals go one at a time; one that misses holds the others until a job ends', () => {
    // 4 calls left for 4 jobs: one final each, nothing to spare.
    const { clock, s, keys, leaves, calls, start } = batch(4, 4)
    const pinned = (answers = 2) => ends(start + 5000, start + 10_000, start + 10_100, answers)
    clock.t = start + 6000
    const due = keys.map((key) => confirmed(s, key, pinned()).at)
    clock.t = Math.max(...due)
    expect(s.pollAt(keys[0]!, pinned())).toMatchObject({ final: true })
    calls.left = 3
    // The others wait for its answer, each on its own wake-up.
    const second = s.pollAt(keys[1]!, pinned())
    expect(second.final).toBe(false)
    expect(second.wake?.aborted).toBe(false)
    // Its answer: the job still runs (the bars mislead). The others are woken, and stay held while
    // no job has ended; the first job's own progress is still followed.
    clock.t += 100
    const wantedAt = clock.t + 500
    const again = () => ends(wantedAt, start + 12_000, start + 12_100, 3)
    const next = s.pollAt(keys[0]!, again())
    expect(next.at).toBeGreaterThan(clock.t)
    expect(second.wake?.aborted).toBe(true)
    const third = s.pollAt(keys[1]!, pinned())
    expect(third.final).toBe(false)
    expect(third.wake?.aborted).toBe(false)
    // The first job is asked again, and has ended: the others are asked once, no sooner than it took.
    clock.t = next.at
    // No call to spare for a look: its final, at the latest end its progress allows.
    const last = s.pollAt(keys[0]!, again())
    expect(last.final).toBe(false)
    expect(last.at).toBeGreaterThanOrEqual(start + 12_100)
    clock.t = last.at
    expect(s.pollAt(keys[0]!, again())).toMatchObject({ final: true })
    leaves[0]!()
    expect(third.wake?.aborted).toBe(true)
    const after = s.pollAt(keys[1]!, pinned())
    expect(after.final).toBe(false)
    expect(after.at).toBeGreaterThanOrEqual(clock.t)
  })
  it('a job whose end is not confirmed waits for the longest end confirmed while a call is to spare, else for every reading', () => {
    // 5 calls left for 3 jobs: one final each, 2 to spare.
    const { clock, s, keys, calls, start } = batch(3, 5)
    clock.t = start + 12_000
    confirmed(s, keys[0]!, ends(clock.t + 400, start + 19_600, start + 20_000, 2))
    // One reading (a plateau of the bar, say) puts the second job far out; the third's own end is near.
    s.pollAt(keys[1]!, ends(start + 40_000, start + 30_000, start + 33_000))
    const near = () => ends(start + 40_000, start + 18_000, start + 19_000)
    const spare = s.pollAt(keys[2]!, near())
    expect(spare.final).toBe(false)
    expect(spare.at).toBeGreaterThanOrEqual(start + 20_000)
    expect(spare.at).toBeLessThan(start + 21_000)
    // No call to spare for a final that misses: it waits for every job's current reading too.
    calls.left = 3
    expect(s.pollAt(keys[2]!, near()).at).toBeGreaterThanOrEqual(start + 33_000)
    // A later reading of the second job supersedes the far one: it holds nobody any more.
    s.pollAt(keys[1]!, ends(start + 40_000, start + 21_000, start + 21_500, 2))
    const after = s.pollAt(keys[2]!, near()).at
    expect(after).toBeGreaterThanOrEqual(start + 21_500)
    expect(after).toBeLessThan(start + 23_000)
  })
  it('once a final finds its job running, the other finals stretch by as much as that bar misled', () => {
    const { clock, s, keys, leaves, start } = batch(3, 4)
    clock.t = start + 12_500
    const first = (answers: number) => ends(clock.t + 400, start + 19_600, start + 20_000, answers)
    confirmed(s, keys[0]!, first(2))
    const second = () => ends(start + 40_000, start + 24_000, start + 24_500, 2)
    confirmed(s, keys[1]!, second())
    // A third job ended (12.5 s).
    leaves[2]!()
    const own = s.pollAt(keys[1]!, second()).at
    expect(own).toBeLessThan(start + 25_000)
    clock.t = start + 20_300
    expect(s.pollAt(keys[0]!, first(2))).toMatchObject({ final: true })
    // Its answer, at 26 s: still running, 30% longer than its readings said (and no new end).
    clock.t = start + 26_000
    s.pollAt(keys[0]!, wants(clock.t + 400, 3))
    const stretched = s.pollAt(keys[1]!, second())
    expect(stretched.final).toBe(false)
    expect(stretched.at).toBeGreaterThanOrEqual(start + 1.3 * 24_500)
  })
  it('with calls to spare for finals that miss, finals due together go together', () => {
    const { clock, s, keys, start } = batch(4, 10)
    const pinned = () => ends(start + 5000, start + 10_000, start + 10_100, 2)
    clock.t = start + 6000
    const due = keys.map((key) => confirmed(s, key, pinned()).at)
    clock.t = Math.max(...due)
    expect(keys.map((key) => s.pollAt(key, pinned()).final)).toEqual([true, true, true, true])
  })
  it('a look planned before the calls ran out is planned anew when its time comes', () => {
    const { clock, s, keys, calls, start } = batch(20, 30)
    clock.t += 3000
    // Its own reading leaves its end wide open: a look at its planner's time, calls to spare.
    const wide = () => ends(start + 8000, start + 12_000, start + 30_000)
    const first = s.pollAt(keys[2]!, wide())
    expect(first.at).toBe(start + 8000)
    // By then the calls left are all needed by the finals: no look; the final, at its latest end.
    calls.left = 20
    clock.t = start + 8000
    const again = s.pollAt(keys[2]!, wide())
    expect(again.final).toBe(false)
    expect(again.at).toBeGreaterThanOrEqual(start + 30_000)
  })
  it('counts the final status call of every job expected to end before calls come back, and no best-effort read', () => {
    // 10 jobs followed, alone on the account, 59 calls left: 30 kept in the run's first window (for a run that
    // starts later), 10 for the finals, 19 to spare (fewer than two looks each): scarce; 61 left: plenty.
    const scarce = batch(10, 59)
    expect(scarce.s.pollAt(scarce.keys[5]!, wants(scarce.clock.t)).final).toBe(false)
    const plenty = batch(10, 61)
    plenty.clock.t += 5000
    expect(plenty.s.pollAt(plenty.keys[5]!, wants(plenty.clock.t))).toMatchObject({ final: true })
    // Scarce, a first job measured: the final of a job expected to end after the calls come back is
    // not counted against a look now (52 calls left, 30 of them kept in the run's first window).
    const { clock, s, keys, calls, start } = batch(20, 52)
    calls.backAt = start + 60_000
    clock.t = start + 10_500
    confirmed(s, keys[0]!, ends(clock.t + 400, start + 19_600, start + 20_000, 2))
    expect(s.pollAt(keys[5]!, wants(start + 11_760)).at).toBe(start + 11_760)
    clock.t = start + 11_760
    expect(s.pollAt(keys[5]!, wants(clock.t)).final).toBe(false)
    calls.backAt = start + 15_000
    expect(s.pollAt(keys[5]!, wants(clock.t))).toMatchObject({ final: true })
  })
  it('with no call in the window (none to come back), keeps finals only for jobs that may end within a window', () => {
    // 55 three-minute jobs, every call of the window free (60), none in it to come back: a call
    // spent now is back a minute from now. The first job's end is pinned at 165-170 s; then another
    // job asks, `afterMs` from the start.
    const asks = (afterMs: number) => {
      const { clock, s, keys, start } = batch(55, 60)
      clock.t = start + afterMs
      confirmed(s, keys[0]!, ends(clock.t + 400, start + 165_000, start + 170_000, 2))
      return { now: clock.t, poll: s.pollAt(keys[5]!, wants(clock.t)) }
    }
    // At 100 s no job may end before 160 s, when a look spent now is back: the others look (at 0.6
    // of the shortest job, 99 s), not a final each timed by the longest job.
    const early = asks(100_000)
    expect(early.poll).toEqual({ at: early.now, final: true })
    // At 110 s every job may end within the window (from 165 s): a final kept for each, no look.
    expect(asks(110_000).poll.final).toBe(false)
  })
  it('alone, in its first window a run keeps half the limit out of its looks until a job ended (a run that starts later needs them)', () => {
    // Ten jobs, 40 calls left, no other run seen: were 30 not kept, calls would be plenty (two looks each).
    const { clock, s, keys, leaves, start } = batch(10, 40)
    clock.t = start + 5000
    expect(s.pollAt(keys[5]!, wants(clock.t)).final).toBe(false)
    expect(s.spareNow()).toBe(false)
    // The scout still looks: its reading times the others' finals.
    expect(s.pollAt(keys[0]!, wants(clock.t)).final).toBe(true)
    // Once a job has ended, the batch knows how long its jobs take: its looks pin the ends its finals need.
    clock.t = start + 12_000
    leaves[0]!()
    expect(s.spareNow()).toBe(true)
    // A window after its first job, nothing is kept either.
    const later = batch(10, 40)
    later.clock.t = later.start + 61_000
    expect(later.s.pollAt(later.keys[6]!, wants(later.clock.t))).toMatchObject({ final: true })
  })
  it('counts the calls of the sites still to start, and of the requests waiting for a call', () => {
    // Five jobs, 50 calls left, 30 of them kept in the run's first window: two looks each to spare.
    const { clock, s, keys, calls } = batch(5, 50)
    clock.t += 5000
    expect(s.pollAt(keys[3]!, wants(clock.t))).toMatchObject({ final: true })
    // 18 sites to start, each its request and its final.
    s.due = 36
    expect(s.pollAt(keys[4]!, wants(clock.t)).final).toBe(false)
    s.due = 0
    calls.waiters = 36
    expect(s.pollAt(keys[4]!, wants(clock.t)).final).toBe(false)
  })
  it('a best-effort call goes only with a call to spare while jobs are followed, and never waits a window', () => {
    const { s, leaves, calls } = batch(20, 20)
    expect(s.spareNow()).toBe(false)
    const plenty = batch(20, 60)
    expect(plenty.s.spareNow()).toBe(true)
    leaves.forEach((leave) => leave())
    expect(s.spareNow()).toBe(true)
    // No job followed, but no call left now: the read would wait for the window to turn.
    calls.left = 0
    expect(s.spareNow()).toBe(false)
  })
  it("the run's cancellation wakes a held follower", () => {
    const clock = new FakeClock()
    const s = new PollScheduler(clock, supply(25))
    s.due = 0
    const cancel = new AbortController()
    const keys = Array.from({ length: 20 }, () => ({}))
    keys.forEach((key) => s.join(key, cancel.signal))
    const held = s.pollAt(keys[9]!, wants(clock.t))
    expect(held.wake?.aborted).toBe(false)
    cancel.abort()
    expect(held.wake?.aborted).toBe(true)
  })
  it('a follower never polls twice within 250 ms, however its planner aims', () => {
    const { clock, s, keys } = batch(1, 59)
    expect(s.pollAt(keys[0]!, wants(clock.t)).final).toBe(true)
    clock.t += 10
    const again = s.pollAt(keys[0]!, wants(clock.t, 1))
    expect(again.final).toBe(false)
    expect(again.at).toBeGreaterThanOrEqual(clock.t + 240)
  })
  it('a follower that never joined (a single job) is its own batch', () => {
    const clock = new FakeClock()
    // Its final call and the read after it, the run's own call, and two to spare.
    const s = new PollScheduler(clock, supply(5))
    expect(s.pollAt({}, wants(clock.t))).toMatchObject({ final: true })
  })
})

describe('PollScheduler, other runs sharing the account (contract §6 r5)', () => {
  /** The final of a job that started at `start` and lasts `length` (FINAL_MARGIN 1%, plus 100 ms). */
  const finalOf = (start: number, length: number) => start + length * 1.01 + 100
  const sharing = (n: number, left: number, sharers: number) => {
    const b = batch(n, left)
    b.calls.sharers = sharers
    b.calls.othersInWindow = sharers > 1
    return b
  }

  it('a first look goes no sooner than 5 s (an earlier one rarely tells the end); alone, when its planner wants', () => {
    for (const [sharers, at] of [
      [1, 1000],
      [3, 5000],
    ] as const) {
      const { s, keys, start } = sharing(3, 30, sharers)
      expect(s.pollAt(keys[0]!, wants(start + 1000))).toMatchObject({ at: start + at, final: false })
    }
    // A late start: its window holds others' calls it does not count as sharing (they may predate it).
    const late = sharing(3, 30, 1)
    late.calls.othersInWindow = true
    expect(late.s.pollAt(late.keys[0]!, wants(late.start + 1000))).toMatchObject({
      at: late.start + 5000,
      final: false,
    })
  })
  it('one narrow reading pins the end: its final, with no look to confirm it; alone, a look first', () => {
    for (const sharers of [1, 3]) {
      const { clock, s, keys, start } = sharing(3, 30, sharers)
      clock.t = start + 5000
      expect(s.pollAt(keys[0]!, wants(clock.t)).final).toBe(true)
      const next = s.pollAt(keys[0]!, ends(start + 9000, start + 15_000, start + 15_200))
      expect(next).toMatchObject({ at: sharers > 1 ? finalOf(start, 15_200) : start + 9000, final: false })
    }
  })
  it('with no call to spare for a look, a final timed by another job’s length goes 10% later, at most 10 s (a miss costs a call the others need)', () => {
    // Jobs of about 15 s, and ten times as long: 10% of a 152 s job is more than 10 s.
    for (const [scale, later] of [
      [1, 1520],
      [10, 10_000],
    ] as const)
      for (const sharers of [1, 3]) {
        const { clock, s, keys, start } = sharing(3, sharers * 4, sharers)
        // The first job's end is agreed: two readings, the second past half of it.
        clock.t = start + 7000 * scale
        s.pollAt(keys[0]!, ends(start + 9000 * scale, start + 14_900 * scale, start + 15_200 * scale, 1))
        clock.t = start + 8000 * scale
        s.pollAt(keys[0]!, ends(start + 9000 * scale, start + 15_000 * scale, start + 15_200 * scale, 2))
        clock.t = start + 9500 * scale
        const blind = s.pollAt(keys[1]!, wants(clock.t))
        expect(blind.final).toBe(false)
        expect(blind.at).toBeCloseTo(finalOf(start, 15_200 * scale + (sharers > 1 ? later : 0)))
      }
  })
  it('in its first window a run leaves out of its looks its part of what a run that starts later needs; a window later it looks', () => {
    // Three runs, 42 calls left; this run's five jobs; the first one's end agreed (about 15 s, or ten times that).
    const looksAt = (scale: number) => {
      const { clock, s, keys, start } = sharing(5, 42, 3)
      clock.t = start + 7000 * scale
      s.pollAt(keys[0]!, ends(start + 9000 * scale, start + 14_900 * scale, start + 15_200 * scale, 1))
      clock.t = start + 8000 * scale
      s.pollAt(keys[0]!, ends(start + 9000 * scale, start + 15_000 * scale, start + 15_200 * scale, 2))
      // Past the others' first look (60% of the shortest job): each looks now if the budget has a call for it.
      clock.t = start + 10_000 * scale
      return keys.slice(1).filter((key) => s.pollAt(key, wants(clock.t)).final).length
    }
    // A share of 14 calls, 5 finals due, 1 kept for a final that misses, 3 kept while sharing: 5 to spare; in
    // the first window a third of 15 more (a run of five sites that starts later) leaves none.
    expect(looksAt(1)).toBe(0)
    expect(looksAt(10)).toBe(4)
  })
  it('the site list waits for the run’s jobs to end (one read serves them all), until a minute before the deadline (or half the time left), and not while sites are still to start', async () => {
    // A clock whose sleep ends only when woken: what the scheduler asks of it is recorded.
    const slept: number[] = []
    const clock = Object.assign(new FakeClock(), {
      sleep: (ms: number, signal?: AbortSignal) => {
        slept.push(ms)
        return new Promise<void>((_, reject) =>
          signal?.addEventListener('abort', () => reject(new Error('woken'))),
        )
      },
    })
    const scheduler = (deadline: number, jobs: number) => {
      const s = new PollScheduler(clock, supply(30), clock.t + deadline)
      s.due = 0
      return { s, leaves: Array.from({ length: jobs }, () => s.join({})!) }
    }
    const { s, leaves } = scheduler(600_000, 2)
    let read = false
    const reading = s.untilQuiet().then(() => (read = true))
    leaves[0]!()
    await new Promise((r) => setTimeout(r, 0))
    expect([read, s.idle]).toEqual([false, false])
    leaves[1]!()
    await reading
    // Idle once no job is followed and no site is to start: the site list's pages then wait their turn.
    expect([read, s.idle]).toEqual([true, true])
    expect(slept).toEqual([540_000])
    // Near the deadline, half the time left; with sites still to start, no wait at all.
    void scheduler(40_000, 1).s.untilQuiet()
    expect(slept).toEqual([540_000, 20_000])
    const starting = scheduler(600_000, 1).s
    starting.due = 10
    await starting.untilQuiet()
    expect(slept).toHaveLength(2)
    expect(starting.idle).toBe(false)
  })
})

describe('PollScheduler: calls that come after a job (issue 33, pushes with checkpoints)', () => {
  it('calls a followed job keeps for after it (a checkpoint’s push) are taken from the looks, and given back', () => {
    // 42 calls left, 30 of them kept in the run's first window: 12 for three jobs.
    const { clock, s, keys, start } = batch(3, 42)
    clock.t = start + 5000
    expect(s.pollAt(keys[0]!, wants(clock.t)).final).toBe(true)
    const alone = s.spareNow()
    s.after += 9
    expect([alone, s.spareNow()]).toEqual([true, false])
    s.after -= 9
    expect(s.spareNow()).toBe(true)
  })
  it('a final timed by other jobs while calls are scarce is planned anew when calls come back, not held to its time', () => {
    const { clock, s, keys, calls, start } = batch(3, 2)
    calls.sharers = 3
    calls.othersInWindow = true
    // The first job's end is agreed (two readings past half of it): about 30 s.
    clock.t = start + 16_000
    s.pollAt(keys[0]!, ends(start + 20_000, start + 30_000, start + 30_500, 1))
    clock.t = start + 17_000
    s.pollAt(keys[0]!, ends(start + 20_000, start + 30_000, start + 30_500, 2))
    // No call to spare for a look: the second job's final, timed by the first (10% later when
    // sharing), would go after calls come back at 32 s; it asks again then instead.
    calls.backAt = start + 32_000
    clock.t = start + 19_000
    const blind = s.pollAt(keys[1]!, wants(clock.t))
    expect(blind.final).toBe(false)
    expect(blind.at).toBe(start + 32_000)
  })
})
