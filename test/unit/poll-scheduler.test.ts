/**
 * The poll scheduler (issue 17 §1, issue 18) with an injected clock and a stand-in for the window
 * ledger: which follower polls when, what the plan counts, and no bursts.
 */
import { describe, expect, it } from '@jest/globals'
import type { CallSupply } from '../../src/api/window-ledger.js'
import { PollScheduler } from '../../src/staging/poll-scheduler.js'
import { FakeClock } from '../helpers/fakes.js'

/** Calls left: as set by the test. */
function supply(left: number, limit: number | null = 60): CallSupply & { left: number } {
  return {
    left,
    limit,
    windowMs: 60_000,
    available() {
      return this.left
    },
    backBy() {
      return 0
    },
  }
}

/** A batch of `n` followers that joined at the same time, each keyed by its own object. */
function batch(n: number, left: number, plan: { callsAfterJob?: number; sitesToStart?: number } = {}) {
  const clock = new FakeClock()
  const calls = supply(left)
  const s = new PollScheduler(clock, calls)
  s.expect({ sitesToStart: 0, callsPerSite: 2, callsAfterJob: 1, perRun: 0, ...plan })
  const keys = Array.from({ length: n }, () => ({}))
  const leaves = keys.map((key) => s.join(key))
  return { clock, s, keys, leaves, calls }
}

describe('PollScheduler', () => {
  it('while calls are plenty, each polls when its planner wants', () => {
    const { clock, s, keys } = batch(2, 59)
    expect(s.pollAt(keys[1]!, clock.t + 1000)).toMatchObject({ at: clock.t + 1000, final: false })
    clock.t += 1000
    expect(s.pollAt(keys[1]!, clock.t)).toMatchObject({ final: true })
  })
  it('with no limit known, nothing is held', () => {
    const clock = new FakeClock()
    const s = new PollScheduler(clock, supply(0, null))
    const key = {}
    s.join(key)
    expect(s.pollAt(key, clock.t)).toMatchObject({ final: true })
  })
  it('when calls are scarce, the first to start polls as it wants and the others are held', () => {
    // 20 left: one for each job's final call, none to spare.
    const { clock, s, keys } = batch(20, 20)
    clock.t += 1000
    expect(s.pollAt(keys[0]!, clock.t)).toMatchObject({ final: true })
    const held = s.pollAt(keys[5]!, clock.t)
    expect(held.final).toBe(false)
    expect(held.wake?.aborted).toBe(false)
  })
  it('once a sibling has ended, the held wake up and poll when their job has run as long', () => {
    const { clock, s, keys, leaves } = batch(20, 20)
    clock.t += 1000
    const held = s.pollAt(keys[5]!, clock.t)
    clock.t += 19_000
    leaves[0]!()
    expect(held.wake?.aborted).toBe(true)
    expect(s.pollAt(keys[5]!, clock.t - 5000)).toMatchObject({ final: true })
    // It was still running; a second sibling took 25 s: the next poll waits for that.
    clock.t += 5000
    leaves[1]!()
    const next = s.pollAt(keys[5]!, clock.t - 1000)
    expect(next).toMatchObject({ final: true })
  })
  it('counts every call a site makes: the read after each job can make calls scarce', () => {
    // 20 jobs followed, 60 calls left: with one call after each job, 40 to spare (two each: plenty);
    // with the staging read after each job too, 20: scarce, the others are held.
    const one = batch(20, 60, { callsAfterJob: 1 })
    expect(one.s.pollAt(one.keys[5]!, one.clock.t)).toMatchObject({ final: true })
    const two = batch(20, 60, { callsAfterJob: 2 })
    expect(two.s.pollAt(two.keys[5]!, two.clock.t).final).toBe(false)
  })
  it("counts each follower's own calls after its job: no read counted where the URL is already known", () => {
    const clock = new FakeClock()
    const s = new PollScheduler(clock, supply(60))
    s.expect({ sitesToStart: 0, callsPerSite: 3, callsAfterJob: 2, perRun: 0 })
    const keys = Array.from({ length: 20 }, () => ({}))
    // The answers gave the URL: one call after each job, 40 to spare (two each: plenty).
    keys.forEach((key) => s.join(key, 1))
    expect(s.pollAt(keys[5]!, clock.t)).toMatchObject({ final: true })
    // Ten more that will read the staging environment after their job: 20 to spare for 30, scarce.
    const more = Array.from({ length: 10 }, () => ({}))
    more.forEach((key) => s.join(key))
    expect(s.pollAt(more[5]!, clock.t).final).toBe(false)
  })
  it('counts the calls of the sites still to start', () => {
    const { clock, s, keys } = batch(5, 40, { sitesToStart: 0 })
    expect(s.pollAt(keys[3]!, clock.t)).toMatchObject({ final: true })
    s.expect({ sitesToStart: 18 })
    expect(s.pollAt(keys[4]!, clock.t).final).toBe(false)
  })
  it('calls nobody needs go to a held follower once the first job has run for more than a window', () => {
    // 20 followers, 25 left: 5 to spare, fewer than 2 each (scarce), but more than none.
    const { clock, s, keys, calls } = batch(20, 25)
    clock.t += 1000
    expect(s.pollAt(keys[5]!, clock.t).final).toBe(false)
    clock.t += 60_000
    expect(s.pollAt(keys[5]!, clock.t)).toMatchObject({ final: true })
    // None to spare: held.
    calls.left = 20
    clock.t += 1000
    expect(s.pollAt(keys[6]!, clock.t).final).toBe(false)
  })
  it('no burst: aimed at an unchanged time, the scout looks early once, then waits for that time', () => {
    // Scarce, with calls to spare for the scout's early looks.
    const { clock, s, keys } = batch(4, 13)
    const aim = clock.t + 1800
    const polls: number[] = []
    for (let i = 0; i < 40; i++) {
      const { at, final } = s.pollAt(keys[0]!, aim)
      if (final) polls.push(clock.t)
      clock.t = Math.max(clock.t + 1, Math.min(at, clock.t + 50))
    }
    expect(polls.length).toBeLessThanOrEqual(2)
    for (let i = 1; i < polls.length; i++) expect(polls[i]! - polls[i - 1]!).toBeGreaterThanOrEqual(250)
  })
  it('a follower never polls twice within 250 ms, however its planner aims', () => {
    const { clock, s, keys } = batch(1, 59)
    expect(s.pollAt(keys[0]!, clock.t).final).toBe(true)
    clock.t += 10
    const again = s.pollAt(keys[0]!, clock.t)
    expect(again.final).toBe(false)
    expect(again.at).toBeGreaterThanOrEqual(clock.t + 240)
  })
  it('a follower that never joined (a single job) is its own batch', () => {
    const clock = new FakeClock()
    const s = new PollScheduler(clock, supply(2))
    expect(s.pollAt({}, clock.t)).toMatchObject({ final: true })
  })
})
