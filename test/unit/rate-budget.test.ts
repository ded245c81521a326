import { describe, expect, it } from '@jest/globals'
import { RateBudget } from '../../src/api/rate-budget.js'
import { RATE_WINDOW_MS } from '../../src/contract.js'
import { FakeClock } from '../helpers/fakes.js'

const epoch = (ms: number) => String(Math.floor(ms / 1000))
const limits = (limit: number, remaining: number, resetAt?: number) => ({
  'x-ratelimit-limit': String(limit),
  'x-ratelimit-remaining': String(remaining),
  ...(resetAt === undefined ? {} : { 'x-ratelimit-reset': epoch(resetAt) }),
})

/** Sends one request through the budget: its wait, and if it may go, its answer. */
function request(b: RateBudget, answer?: Record<string, string>, status = 200): number {
  const wait = b.reserve()
  if (wait === 0 && answer) b.observe(status, answer)
  return wait
}

describe('RateBudget: calls', () => {
  it('sends one request alone until an answer tells the count; none told: nothing to respect', () => {
    const b = new RateBudget(new FakeClock())
    expect(b.reserve()).toBe(0)
    expect(b.reserve()).toBeGreaterThan(0)
    b.observe(200, {})
    expect([b.reserve(), b.reserve(), b.reserve()]).toEqual([0, 0, 0])
  })
  it('sends what the window has left, counting requests still in flight, then waits for the reset', () => {
    const clock = new FakeClock()
    const b = new RateBudget(clock)
    request(b, limits(60, 3, clock.t + 20_000))
    expect([b.reserve(), b.reserve(), b.reserve()]).toEqual([0, 0, 0])
    const wait = b.reserve()
    expect(wait).toBeGreaterThanOrEqual(20_000)
    expect(wait).toBeLessThan(21_000)
  })
  it('a new window after the reset: one request first, the rest once its answer confirms the count', () => {
    const clock = new FakeClock()
    const b = new RateBudget(clock)
    request(b, limits(5, 0, clock.t + 10_000))
    expect(b.reserve()).toBeGreaterThanOrEqual(10_000)
    clock.t += 10_100
    expect(b.reserve()).toBe(0)
    expect(b.reserve()).toBeGreaterThan(0)
    b.observe(200, limits(5, 4, clock.t + 60_000))
    expect([b.reserve(), b.reserve(), b.reserve(), b.reserve()]).toEqual([0, 0, 0, 0])
    expect(b.reserve()).toBeGreaterThan(50_000)
  })
  it('keeps the lowest count of a window when answers arrive out of order', () => {
    const clock = new FakeClock()
    const b = new RateBudget(clock)
    const reset = clock.t + 30_000
    request(b, limits(60, 20, reset))
    for (let i = 0; i < 12; i++) expect(b.reserve()).toBe(0)
    // Twelve in flight; the answer of a later one comes first.
    b.observe(200, limits(60, 8, reset))
    b.observe(200, limits(60, 18, reset))
    // 8 left, 10 still in flight: nothing may go.
    expect(b.reserve()).toBeGreaterThan(0)
  })
  it('a higher count arriving late is not read as a new window (answers come in any order)', () => {
    const clock = new FakeClock()
    const b = new RateBudget(clock)
    const reset = clock.t + 30_000
    request(b, limits(60, 12, reset))
    for (let i = 0; i < 12; i++) expect(b.reserve()).toBe(0)
    for (let r = 11; r >= 1; r--) b.observe(200, limits(60, r - 1, reset))
    // The answer of a request counted long before comes last, with a count far above the last one.
    b.observe(200, limits(60, 7, reset))
    expect(b.reserve()).toBeGreaterThan(0)
  })
  it('a request that got no answer (network error) frees its call at once', () => {
    const b = new RateBudget(new FakeClock())
    expect(b.reserve()).toBe(0)
    expect(b.reserve()).toBeGreaterThan(0)
    b.unanswered()
    expect(b.reserve()).toBe(0)
  })
  it('a request that never got an answer frees its call after a while', () => {
    const clock = new FakeClock()
    const b = new RateBudget(clock)
    request(b, limits(60, 1, clock.t + 60_000))
    expect(b.reserve()).toBe(0)
    expect(b.reserve()).toBeGreaterThan(0)
    clock.t += 36_000
    expect(b.reserve()).toBe(0)
  })
})

describe('RateBudget: 429', () => {
  it('Retry-After pauses every request of the batch until then', () => {
    const clock = new FakeClock()
    const b = new RateBudget(clock)
    request(b, { 'retry-after': '12' }, 429)
    expect(b.reserve()).toBe(12_000)
    clock.t += 5000
    expect(b.reserve()).toBe(7000)
    clock.t += 7000
    expect(b.reserve()).toBe(0)
  })
  it('without Retry-After pauses for a growing while, and at least a second for Retry-After: 0', () => {
    const clock = new FakeClock()
    const b = new RateBudget(clock)
    request(b, {}, 429)
    const first = b.reserve()
    clock.t += first
    request(b, {}, 429)
    expect(b.reserve()).toBeGreaterThan(first)
    const c = new FakeClock()
    const zero = new RateBudget(c)
    request(zero, { 'retry-after': '0' }, 429)
    const soon = zero.reserve()
    expect(soon).toBeGreaterThanOrEqual(1000)
    expect(soon).toBeLessThanOrEqual(2000)
  })
  it('a Retry-After date in the past (a slow server clock) pauses 1-2 s, growing with each 429', () => {
    const clock = new FakeClock()
    const b = new RateBudget(clock)
    const past = new Date(clock.wallNow() - 3_600_000).toUTCString()
    const waits: number[] = []
    for (let i = 0; i < 5; i++) {
      request(b, { 'retry-after': past }, 429)
      const w = b.reserve()
      waits.push(w)
      clock.t += w
    }
    expect(waits[0]).toBeGreaterThanOrEqual(1000)
    expect(waits[0]).toBeLessThanOrEqual(2000)
    expect(waits[4]).toBeGreaterThan(waits[0]! * 4)
    expect(waits.reduce((a, b) => a + b, 0)).toBeGreaterThan(20_000)
  })
})

describe('RateBudget: two clocks (contract §11)', () => {
  it('reads an epoch reset against the wall clock, and keeps its window when the wall clock steps back', () => {
    const clock = new FakeClock()
    const b = new RateBudget(clock)
    // The server's reset is 30 s ahead by the wall clock; the wall clock is then stepped back an hour.
    request(b, limits(60, 0, clock.wallNow() + 30_000))
    clock.wallShift = -3_600_000
    const wait = b.reserve()
    expect(wait).toBeGreaterThan(25_000)
    expect(wait).toBeLessThanOrEqual(32_000)
  })
  it('an epoch reset from a server whose clock is an hour fast is read against its Date header', () => {
    const clock = new FakeClock()
    const b = new RateBudget(clock)
    const serverNow = clock.wallNow() + 3_600_000
    request(b, { ...limits(60, 0, serverNow + 30_000), date: new Date(serverNow).toUTCString() })
    const wait = b.reserve()
    expect(wait).toBeGreaterThan(25_000)
    expect(wait).toBeLessThanOrEqual(32_000)
  })
  it('an epoch reset read while the wall clock is an hour behind still means 30 s', () => {
    const clock = new FakeClock()
    clock.wallShift = -3_600_000
    const b = new RateBudget(clock)
    request(b, limits(60, 0, clock.wallNow() + 30_000))
    const wait = b.reserve()
    expect(wait).toBeGreaterThan(25_000)
    expect(wait).toBeLessThanOrEqual(32_000)
  })
})

describe('RateBudget against hostile rate-limit headers (contract §6)', () => {
  /** After `headers` on a 429 and on a 200, no request waits longer than one window. */
  const neverLongerThanAWindow = (headers: Record<string, string>) => {
    for (const status of [200, 429]) {
      const clock = new FakeClock()
      const b = new RateBudget(clock)
      request(b, headers, status)
      let waited = 0
      for (let i = 0; i < 5; i++) {
        const w = b.reserve()
        expect(w).toBeLessThanOrEqual(RATE_WINDOW_MS + 1000)
        waited += w
        clock.t += w
      }
      expect(waited).toBeLessThanOrEqual(5 * (RATE_WINDOW_MS + 1000))
    }
  }
  const now = new FakeClock().t
  it.each([
    ['a reset in epoch milliseconds', { ...limits(60, 0), 'x-ratelimit-reset': String(now + 30_000) }],
    ['a reset in the year 10^300', { ...limits(60, 0), 'x-ratelimit-reset': '1e300' }],
    ['a reset a year ahead', { ...limits(60, 0), 'x-ratelimit-reset': epoch(now + 365 * 86_400_000) }],
    ['a reset far in the past', { ...limits(60, 0), 'x-ratelimit-reset': '1000000000' }],
    ['a negative remaining', { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '-1' }],
    ['a remaining above the limit', { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '61' }],
    ['a limit of 0', { 'x-ratelimit-limit': '0', 'x-ratelimit-remaining': '0' }],
    ['a limit of 1e300', { 'x-ratelimit-limit': '1e300', 'x-ratelimit-remaining': '0' }],
    ['a remaining of NaN', { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': 'NaN' }],
    ['a Retry-After of 1e300 seconds', { 'retry-after': '1e300' }],
    ['a Retry-After in milliseconds', { 'retry-after': '60000' }],
    ['a negative Retry-After', { 'retry-after': '-30' }],
    ['a Retry-After date years ahead', { 'retry-after': 'Fri, 01 Jan 2100 00:00:00 GMT' }],
  ])('%s makes nobody wait longer than one window', (_, headers) => {
    neverLongerThanAWindow(headers)
  })
  it.each([
    ['in epoch milliseconds', String(now + 3_600_000)],
    ['in the year 10^300', '1e300'],
    ['that is not a number', 'soon'],
  ])('a count of 0 with a reset %s is ignored with it: requests keep going', (_, reset) => {
    const clock = new FakeClock()
    const b = new RateBudget(clock)
    request(b, { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset })
    expect([b.reserve(), b.reserve(), b.reserve()]).toEqual([0, 0, 0])
  })
  it('a count of 0 with no reset at all waits one window at most', () => {
    const clock = new FakeClock()
    const b = new RateBudget(clock)
    request(b, { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0' })
    const wait = b.reserve()
    expect(wait).toBeGreaterThan(0)
    expect(wait).toBeLessThanOrEqual(RATE_WINDOW_MS + 1000)
  })
  it('a window whose end is never stated is learnt by one request at a time, not waited out for a minute', () => {
    const clock = new FakeClock()
    const b = new RateBudget(clock)
    const counted = { 'x-ratelimit-limit': '4' }
    request(b, { ...counted, 'x-ratelimit-remaining': '0' })
    // None left, no reset: wait, but only a few seconds before one request goes to find out.
    const wait = b.reserve()
    expect(wait).toBeGreaterThan(0)
    expect(wait).toBeLessThanOrEqual(5000)
    clock.t += wait
    expect(b.reserve()).toBe(0) // the probe
    expect(b.reserve()).toBeGreaterThan(0) // one at a time
    // A 429 states the end (Retry-After): nobody goes before it, and no more probes are needed.
    b.observe(429, { ...counted, 'x-ratelimit-remaining': '0', 'retry-after': '20' })
    const held = b.reserve()
    expect(held).toBeGreaterThanOrEqual(19_000)
    clock.t += held
    expect(b.reserve()).toBe(0)
    b.observe(200, { ...counted, 'x-ratelimit-remaining': '3' })
    expect([b.reserve(), b.reserve()]).toEqual([0, 0])
  })
  it('a probe that comes back with calls left means the unstated window has turned', () => {
    const clock = new FakeClock()
    const b = new RateBudget(clock)
    request(b, { 'x-ratelimit-limit': '4', 'x-ratelimit-remaining': '0' })
    clock.t += b.reserve()
    expect(b.reserve()).toBe(0)
    b.observe(200, { 'x-ratelimit-limit': '4', 'x-ratelimit-remaining': '3' })
    expect([b.reserve(), b.reserve(), b.reserve()]).toEqual([0, 0, 0])
    expect(b.reserve()).toBeGreaterThan(0)
  })
  it('ignores a remaining count that is not sane: requests keep going', () => {
    const clock = new FakeClock()
    const b = new RateBudget(clock)
    request(b, { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '-1' })
    expect([b.reserve(), b.reserve(), b.reserve()]).toEqual([0, 0, 0])
  })
  it('a reset further ahead than a window is waited for one window, then one request looks again', () => {
    const clock = new FakeClock()
    const b = new RateBudget(clock)
    request(b, limits(60, 0, clock.t + 10 * 60_000))
    const wait = b.reserve()
    expect(wait).toBeLessThanOrEqual(RATE_WINDOW_MS + 1000)
    clock.t += wait
    expect(b.reserve()).toBe(0)
    expect(b.reserve()).toBeGreaterThan(0)
  })
  it('honours a sane Retry-After longer than a window (the server says so)', () => {
    const clock = new FakeClock()
    const b = new RateBudget(clock)
    request(b, { 'retry-after': '300' }, 429)
    expect(b.reserve()).toBe(300_000)
  })
})

describe('RateBudget: status polls of a batch', () => {
  it('a follower that joins with its key is bound to it at once', () => {
    const clock = new FakeClock()
    const b = new RateBudget(clock)
    request(b, limits(60, 40, clock.t + 60_000))
    const keys = Array.from({ length: 20 }, () => ({}))
    const leaves = keys.map((key) => b.join(key))
    // The first to join is the one followed while calls are scarce, whatever order they poll in.
    clock.t += 1000
    expect(b.pollAt(keys[3]!, clock.t).final).toBe(false)
    expect(b.pollAt(keys[0]!, clock.t).final).toBe(true)
    leaves.forEach((leave) => leave())
  })
  /** A batch of `n` followers that joined at the same time, each keyed by its own object. */
  function batch(n: number, remaining: number) {
    const clock = new FakeClock()
    const b = new RateBudget(clock)
    request(b, limits(60, remaining, clock.t + 60_000))
    const keys = Array.from({ length: n }, () => ({}))
    const leaves = keys.map((key) => {
      const leave = b.join()
      b.pollAt(key, clock.t + 1000)
      return leave
    })
    return { clock, b, keys, leaves }
  }
  it('while calls are plenty, each polls when its planner wants', () => {
    const { clock, b, keys } = batch(2, 59)
    expect(b.pollAt(keys[1]!, clock.t + 1000)).toMatchObject({ at: clock.t + 1000, final: false })
    clock.t += 1000
    expect(b.pollAt(keys[1]!, clock.t)).toMatchObject({ final: true })
  })
  it('when calls are scarce, the first to start polls as it wants and the others are held', () => {
    const { clock, b, keys } = batch(20, 40)
    clock.t += 1000
    expect(b.pollAt(keys[0]!, clock.t)).toMatchObject({ final: true })
    const held = b.pollAt(keys[5]!, clock.t)
    expect(held.final).toBe(false)
    expect(held.wake?.aborted).toBe(false)
  })
  it('once a sibling has ended, the held wake up and poll when their job has run as long', () => {
    const { clock, b, keys, leaves } = batch(20, 40)
    clock.t += 1000
    const held = b.pollAt(keys[5]!, clock.t)
    clock.t += 19_000
    leaves[0]!()
    expect(held.wake?.aborted).toBe(true)
    // All joined at the same time: their jobs have run as long as the sibling's did.
    expect(b.pollAt(keys[5]!, clock.t - 5000)).toMatchObject({ final: true })
  })
  it('calls left at the end of a window go to the held once the first job has run a window', () => {
    const { clock, b, keys } = batch(20, 40)
    clock.t += 1000
    expect(b.pollAt(keys[5]!, clock.t).final).toBe(false)
    // Near the end of the first window: the first job has not run a window yet.
    clock.t += 57_500
    expect(b.pollAt(keys[5]!, clock.t).final).toBe(false)
    // Near the end of the second, with calls nobody else needs: the first job may be a slow one.
    clock.t += 2000
    request(b, limits(60, 40, clock.t + 60_000))
    clock.t += 58_500
    expect(b.pollAt(keys[5]!, clock.t).final).toBe(true)
  })
  it('one still running at the sibling time waits for the next sibling time, not for its planner', () => {
    const { clock, b, keys, leaves } = batch(20, 40)
    clock.t += 20_000
    leaves[0]!()
    expect(b.pollAt(keys[5]!, clock.t)).toMatchObject({ final: true })
    // It was still running; a second sibling took 25 s.
    clock.t += 5000
    leaves[1]!()
    const next = b.pollAt(keys[5]!, clock.t + 1000)
    expect(next.final).toBe(false)
    expect(next.at).toBeGreaterThanOrEqual(clock.t + 1000)
  })
})
