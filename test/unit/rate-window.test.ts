/**
 * The rate window (issue 17 §1, contract §6 r3) with an injected clock: what it lets go, when,
 * and what it learns from the server's headers. The last part drives it against the simulator's
 * own limiter in each of its ways (fixed, framework, sliding; reset header present or absent).
 */
import { describe, expect, it } from '@jest/globals'
import { RateWindow } from '../../src/api/rate-window.js'
import { RATE_WINDOW_MS } from '../../src/contract.js'
import { RateLimiter } from '../../simulator/ratelimit.js'
import type { RateLimitKind } from '../../simulator/types.js'
import { FakeClock } from '../helpers/fakes.js'

const epoch = (ms: number) => String(Math.floor(ms / 1000))
const limits = (limit: number, remaining: number, resetAt?: number) => ({
  'x-ratelimit-limit': String(limit),
  'x-ratelimit-remaining': String(remaining),
  ...(resetAt === undefined ? {} : { 'x-ratelimit-reset': epoch(resetAt) }),
})

/** Sends one request through the ledger: its wait, and if it may go, its answer. */
function request(b: RateWindow, answer?: Record<string, string>, status = 200): number {
  const wait = b.reserve()
  if (wait === 0 && answer) b.observe(status, answer)
  return wait
}

/** Reserves until the ledger says wait: how many went. */
function burst(b: RateWindow): number {
  let n = 0
  while (b.reserve() === 0) n++
  return n
}

/** Requests that each go and are answered with `remaining` calls left, `stepMs` apart (a limit of 10). */
function answered(b: RateWindow, clock: FakeClock, remaining: number[], stepMs = 200): void {
  remaining.forEach((left, i) => {
    if (i > 0) clock.t += stepMs
    expect(request(b, limits(10, left))).toBe(0)
  })
}

describe('RateWindow: calls', () => {
  it('sends one request alone until an answer tells the count; none told: nothing to respect', () => {
    const b = new RateWindow(new FakeClock())
    expect(b.reserve()).toBe(0)
    expect(b.reserve()).toBeGreaterThan(0)
    b.observe(200, {})
    expect([b.reserve(), b.reserve(), b.reserve()]).toEqual([0, 0, 0])
  })
  it('sends what the window has left, counting requests still in flight', () => {
    const clock = new FakeClock()
    const b = new RateWindow(clock)
    request(b, limits(60, 3))
    expect(burst(b)).toBe(3)
  })
  it('with no reset header, a call comes back a window after its answer: no guess, no probe', () => {
    const clock = new FakeClock()
    const b = new RateWindow(clock)
    request(b, limits(3, 2))
    clock.t += 10_000
    expect(burst(b)).toBe(2)
    b.observe(200, limits(3, 1))
    b.observe(200, limits(3, 0))
    // The first call comes back 60 s after its answer: 50 s from now, not before.
    const wait = b.reserve()
    expect(wait).toBeGreaterThanOrEqual(50_000)
    expect(wait).toBeLessThanOrEqual(50_100)
    clock.t += 49_000
    expect(b.reserve()).toBeGreaterThan(0)
    clock.t += 1100
    expect(burst(b)).toBe(1)
  })
  it("learns a fixed window's turn from the first answer after it: every call is back at once", () => {
    const clock = new FakeClock()
    const b = new RateWindow(clock)
    request(b, limits(4, 3))
    // Three more spread over the window, all answered.
    for (let r = 2; r >= 0; r--) {
      clock.t += 15_000
      request(b, limits(4, r))
    }
    // 60 s after the first answer, its call is back: one request goes, and the server's count (1)
    // says the window has turned for the others too.
    clock.t = clock.t - 45_000 + 60_100
    expect(request(b, limits(4, 3))).toBe(0)
    expect(burst(b)).toBe(3)
  })
  it('a count higher than its own calls is another client on the token: it waits for those too', () => {
    const clock = new FakeClock()
    const b = new RateWindow(clock)
    // Ten calls used by someone else before the first answer.
    request(b, limits(12, 1))
    expect(burst(b)).toBe(1)
  })
  it('answers out of order: a late, higher count is not read as calls given back', () => {
    const clock = new FakeClock()
    const b = new RateWindow(clock)
    request(b, limits(60, 12))
    expect(burst(b)).toBe(12)
    clock.t += 50
    for (let r = 11; r >= 1; r--) b.observe(200, limits(60, r - 1))
    // The answer of a request counted long before comes last, with a count far above the last one.
    b.observe(200, limits(60, 7))
    expect(b.reserve()).toBeGreaterThan(0)
  })
  it('a request that never got an answer is let go after a while', () => {
    const clock = new FakeClock()
    const b = new RateWindow(clock)
    request(b, limits(60, 1))
    expect(b.reserve()).toBe(0)
    expect(b.reserve()).toBeGreaterThan(0)
    clock.t += 35_000 + RATE_WINDOW_MS + 1
    expect(b.reserve()).toBe(0)
  })
})

describe('RateWindow: waking those who wait', () => {
  it('an answer that gives calls back wakes the waiting at once', () => {
    const clock = new FakeClock()
    const b = new RateWindow(clock)
    request(b, limits(3, 2))
    clock.t += 20_000
    expect(burst(b)).toBe(2)
    b.observe(200, limits(3, 1))
    b.observe(200, limits(3, 0))
    // The first call is back a window after its answer: it goes, and its answer says the window
    // has turned for the other two as well.
    clock.t += 40_100
    expect(b.reserve()).toBe(0)
    expect(b.reserve()).toBeGreaterThan(0)
    const changed = b.changed
    b.observe(200, limits(3, 2))
    expect(changed.aborted).toBe(true)
    expect(burst(b)).toBe(2)
  })
  it('an answer that changes nothing wakes nobody (no wake storm in a batch of hundreds)', () => {
    const clock = new FakeClock()
    const b = new RateWindow(clock)
    request(b, limits(60, 59))
    burst(b)
    clock.t += 50
    b.observe(200, limits(60, 1)) // calls come back sooner (answered): wakes once
    const changed = b.changed
    b.observe(200, limits(60, 0))
    expect(changed.aborted).toBe(false)
  })
  it('while requests are in flight, a waiter that would wait on them is woken by their answer', () => {
    const clock = new FakeClock()
    const b = new RateWindow(clock)
    request(b, limits(2, 1))
    clock.t += RATE_WINDOW_MS + 1000
    expect(burst(b)).toBe(2)
    // Waiting on calls in flight: when they come back is known only once they are answered.
    const wait = b.reserve()
    expect(wait).toBeGreaterThan(RATE_WINDOW_MS)
    const changed = b.changed
    clock.t += 100
    b.observe(200, limits(2, 1))
    expect(changed.aborted).toBe(true)
    expect(b.reserve()).toBeLessThanOrEqual(RATE_WINDOW_MS + 100)
  })
})

describe('RateWindow: a stated end, once the turn is learnt', () => {
  it('an end stated for the last window lets no extra request go in the next one', () => {
    const clock = new FakeClock()
    const t0 = clock.t
    const b = new RateWindow(clock)
    // The window of 3 began at t0 and ends at t0 + 60 s; the server rounds its reset up to t0 + 61 s.
    request(b, limits(3, 2, t0 + 61_000))
    clock.t += 250
    expect(burst(b)).toBe(2)
    b.observe(200, limits(3, 1, t0 + 61_000))
    b.observe(200, limits(3, 0, t0 + 61_000))
    // The first call is back a window after its answer; its answer shows the turn.
    clock.t = t0 + 60_100
    expect(b.reserve()).toBe(0)
    clock.t += 50
    b.observe(200, limits(3, 2, t0 + 121_000))
    expect(burst(b)).toBe(2)
    // Three in this window: when the old stated end (t0 + 60.25 s) passes, nothing more goes.
    clock.t = t0 + 60_400
    expect(b.reserve()).toBeGreaterThan(0)
  })
})

describe('RateWindow: a window shorter than assumed', () => {
  it('with no reset stated, a probe goes only when waiting would reach the deadline', () => {
    const clock = new FakeClock()
    const b = new RateWindow(clock)
    request(b, limits(2, 1))
    request(b, limits(2, 0))
    // A long deadline: wait for the call to come back (no probe, no 429).
    expect(b.reserve(clock.t + 3_600_000)).toBeGreaterThan(50_000)
    // A deadline sooner than that: after a second with nothing sent, one request finds out.
    const deadline = clock.t + 30_000
    expect(b.reserve(deadline)).toBeLessThanOrEqual(1100)
    clock.t += 1000
    expect(b.reserve(deadline)).toBe(0)
    expect(b.reserve(deadline)).toBeGreaterThan(0)
    // The server's window (3 s here) has turned: the calls are back, and windows are now taken to
    // last no longer than what the probe saw.
    clock.t += 2000
    b.observe(200, limits(2, 1))
    expect(b.reserve(deadline)).toBe(0)
    clock.t += 50
    b.observe(200, limits(2, 0))
    expect(b.reserve(deadline)).toBeLessThanOrEqual(3200)
  })
  it('a probe refused ends probing for the run: the window is as long as assumed', () => {
    const clock = new FakeClock()
    const b = new RateWindow(clock)
    request(b, limits(2, 1))
    request(b, limits(2, 0))
    const deadline = clock.t + 30_000
    clock.t += 1000
    expect(b.reserve(deadline)).toBe(0)
    b.observe(429, { ...limits(2, 0), 'retry-after': '59' })
    clock.t += 59_000
    // The Retry-After: one request learns the count; it is full again after that one.
    expect(request(b, limits(2, 1))).toBe(0)
    expect(request(b, limits(2, 0))).toBe(0)
    // No probe any more, even with the deadline near: the wait is for the call to come back.
    expect(b.reserve(clock.t + 10_000)).toBeGreaterThan(50_000)
  })
})

describe('RateWindow: a start that joined late (contract §6 r5)', () => {
  it('waiting on the calls its first answer showed (up to a window old, their time a guess), one request finds out', () => {
    const clock = new FakeClock()
    const b = new RateWindow(clock)
    // 59 calls of others at its first answer: far more than runs that start with it make at once.
    request(b, limits(60, 0))
    const far = clock.t + 3_600_000
    // Far from the deadline, yet the window may turn any time: after a second with nothing sent, one read.
    expect(b.reserve(far)).toBeLessThanOrEqual(1100)
    clock.t += 1000
    // A request that is not a read (a create, a push) never goes to find out: it waits for the calls.
    expect(b.reserve(far, false)).toBeGreaterThan(50_000)
    expect(b.reserve(far)).toBe(0)
    expect(b.reserve(far)).toBeGreaterThan(0)
    // Refused: its Retry-After says when the window turns, and no request goes before.
    clock.t += 50
    b.observe(429, { ...limits(60, 0), 'retry-after': '20' })
    const wait = b.reserve(far)
    expect(wait).toBeGreaterThanOrEqual(19_000)
    expect(wait).toBeLessThanOrEqual(20_100)
    clock.t += wait
    expect(request(b, limits(60, 58))).toBe(0)
  })
  it('with the few calls of runs that started with it, it waits for them: no request to find out', () => {
    const clock = new FakeClock()
    const b = new RateWindow(clock)
    request(b, limits(60, 51))
    clock.t += 200
    // (In its first window it leaves the last call to the others: below, the one other run.)
    for (let left = 50; left >= 1; left--) {
      clock.t += 150
      expect(request(b, limits(60, left))).toBe(0)
    }
    clock.t += 1000
    expect(b.reserve(clock.t + 3_600_000)).toBeGreaterThan(50_000)
  })
})

describe('RateWindow: 429', () => {
  it('Retry-After pauses every request until then; then one request learns the count', () => {
    const clock = new FakeClock()
    const b = new RateWindow(clock)
    request(b, limits(60, 5))
    request(b, { 'retry-after': '12' }, 429)
    expect(b.reserve()).toBe(12_000)
    clock.t += 5000
    expect(b.reserve()).toBe(7000)
    clock.t += 7000
    expect(b.reserve()).toBe(0)
    expect(b.reserve()).toBeGreaterThan(0)
    b.observe(200, limits(60, 59))
    expect(burst(b)).toBeGreaterThan(50)
  })
  it('without Retry-After pauses for a growing while, and at least a second for Retry-After: 0', () => {
    const clock = new FakeClock()
    const b = new RateWindow(clock)
    request(b, {}, 429)
    const first = b.reserve()
    clock.t += first
    request(b, {}, 429)
    expect(b.reserve()).toBeGreaterThan(first)
    const zero = new RateWindow(new FakeClock())
    request(zero, { 'retry-after': '0' }, 429)
    const soon = zero.reserve()
    expect(soon).toBeGreaterThanOrEqual(1000)
    expect(soon).toBeLessThanOrEqual(2000)
  })
  it('a 429 with no Retry-After but the reset of its window: every request waits for that reset, not a guess', () => {
    const clock = new FakeClock()
    const b = new RateWindow(clock)
    request(b, limits(8, 1))
    request(b, limits(8, 0, clock.wallNow() + 45_000), 429)
    // One request at the stated reset, not 1, 2, 4... s of its own (each a 429 more under a fixed window).
    expect(b.reserve()).toBeGreaterThanOrEqual(44_000)
    expect(b.reserve()).toBeLessThanOrEqual(46_000)
  })
  it('a Retry-After date in the past (a slow server clock) pauses 1-2 s, growing with each 429', () => {
    const clock = new FakeClock()
    const b = new RateWindow(clock)
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
  it('a stated reset lets one request look when it comes, not before', () => {
    const clock = new FakeClock()
    const b = new RateWindow(clock)
    request(b, limits(5, 0, clock.t + 10_000))
    expect(b.reserve()).toBeGreaterThanOrEqual(10_000)
    clock.t += 10_100
    expect(b.reserve()).toBe(0)
    expect(b.reserve()).toBeGreaterThan(0)
    b.observe(200, limits(5, 4, clock.t + 60_000))
    expect(burst(b)).toBe(4)
  })
})

describe('RateWindow: two clocks (contract §11)', () => {
  it('reads an epoch reset against the wall clock, and keeps its window when the wall clock steps back', () => {
    const clock = new FakeClock()
    const b = new RateWindow(clock)
    // The server's reset is 30 s ahead by the wall clock; the wall clock is then stepped back an hour.
    request(b, limits(60, 0, clock.wallNow() + 30_000))
    clock.wallShift = -3_600_000
    const wait = b.reserve()
    expect(wait).toBeGreaterThan(25_000)
    expect(wait).toBeLessThanOrEqual(32_000)
  })
  it('an epoch reset from a server whose clock is an hour fast is read against its Date header', () => {
    const clock = new FakeClock()
    const b = new RateWindow(clock)
    const serverNow = clock.wallNow() + 3_600_000
    request(b, { ...limits(60, 0, serverNow + 30_000), date: new Date(serverNow).toUTCString() })
    const wait = b.reserve()
    expect(wait).toBeGreaterThan(25_000)
    expect(wait).toBeLessThanOrEqual(32_000)
  })
  it('an epoch reset read while the wall clock is an hour behind still means 30 s', () => {
    const clock = new FakeClock()
    clock.wallShift = -3_600_000
    const b = new RateWindow(clock)
    request(b, limits(60, 0, clock.wallNow() + 30_000))
    const wait = b.reserve()
    expect(wait).toBeGreaterThan(25_000)
    expect(wait).toBeLessThanOrEqual(32_000)
  })
})

describe('RateWindow against hostile rate-limit headers (contract §6)', () => {
  /** After `headers` on a 429 and on a 200, no request waits longer than one window. */
  const neverLongerThanAWindow = (headers: Record<string, string>) => {
    for (const status of [200, 429]) {
      const clock = new FakeClock()
      const b = new RateWindow(clock)
      request(b, headers, status)
      for (let i = 0; i < 5; i++) {
        const w = b.reserve()
        expect(w).toBeLessThanOrEqual(RATE_WINDOW_MS + 1000)
        clock.t += w
      }
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
    const b = new RateWindow(clock)
    request(b, { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset })
    expect([b.reserve(), b.reserve(), b.reserve()]).toEqual([0, 0, 0])
  })
  it('a reset further ahead than a window is waited for one window at most', () => {
    const clock = new FakeClock()
    const b = new RateWindow(clock)
    request(b, limits(60, 0, clock.t + 10 * 60_000))
    const wait = b.reserve()
    expect(wait).toBeLessThanOrEqual(RATE_WINDOW_MS + 1000)
    clock.t += wait
    expect(b.reserve()).toBe(0)
  })
  it('honours a sane Retry-After longer than a window (the server says so)', () => {
    const clock = new FakeClock()
    const b = new RateWindow(clock)
    request(b, { 'retry-after': '300' }, 429)
    expect(b.reserve()).toBe(300_000)
  })
})

/**
 * The ledger against the simulator's limiter, as a batch uses it: `total` requests that each go as
 * soon as the ledger lets them, 50 ms round trip (counted halfway), answered in the order they
 * arrive. Returns when the last one went and how many were refused.
 */
function drive(kind: RateLimitKind, reset: boolean, total: number, limit = 60, windowMs = 60_000) {
  const clock = new FakeClock()
  const start = clock.t
  const ledger = new RateWindow(clock)
  const limiter = new RateLimiter(() => ({ limit, windowMs, kind }))
  const answers: { at: number; status: number; headers: Record<string, string> }[] = []
  let sent = 0
  let refused = 0
  let lastSent = 0
  for (let guard = 0; guard < 100_000 && (sent < total || answers.length > 0); guard++) {
    let wait = Infinity
    while (sent < total) {
      wait = ledger.reserve()
      if (wait > 0) break
      const d = limiter.check('token', clock.t + 25)!
      const headers: Record<string, string> = {
        'x-ratelimit-limit': String(d.limit),
        'x-ratelimit-remaining': String(d.remaining),
      }
      if (reset || !d.allowed) headers['x-ratelimit-reset'] = String(Math.ceil(d.resetAt / 1000))
      if (d.retryAfter) headers['retry-after'] = d.retryAfter
      if (!d.allowed) refused++
      answers.push({ at: clock.t + 50, status: d.allowed ? 200 : 429, headers })
      sent++
      lastSent = clock.t
    }
    answers.sort((a, b) => a.at - b.at)
    const next = Math.min(answers[0]?.at ?? Infinity, sent < total ? clock.t + wait : Infinity)
    clock.t = Math.max(clock.t, next)
    while (answers.length > 0 && answers[0]!.at <= clock.t) {
      const a = answers.shift()!
      ledger.observe(a.status, a.headers)
    }
  }
  return { refused, lastSentMs: lastSent - start, sent }
}

describe('RateWindow against each way of limiting (issue 17 §1)', () => {
  const kinds: RateLimitKind[] = ['fixed', 'framework', 'sliding']
  it.each(kinds.flatMap((kind) => [true, false].map((reset) => [kind, reset] as const)))(
    '%s window, reset header %s: 150 calls in three windows, none refused',
    (kind, reset) => {
      const run = drive(kind, reset, 150)
      expect(run.sent).toBe(150)
      expect(run.refused).toBe(0)
      // Calls 120-149 go in the third window: 120 s after the first, give or take round trips.
      expect(run.lastSentMs).toBeGreaterThanOrEqual(119_000)
      expect(run.lastSentMs).toBeLessThanOrEqual(121_000)
    },
  )
  it.each(kinds)('%s window of 6 s with a reset header: its length is the server’s, not a minute', (kind) => {
    const run = drive(kind, true, 150, 60, 6000)
    expect(run.refused).toBe(0)
    // Three windows of 6 s, each up to a second longer (the reset is in whole seconds); a sliding
    // one gives calls back one by one (a round trip each).
    expect(run.lastSentMs).toBeLessThanOrEqual(kind === 'sliding' ? 20_000 : 15_000)
  })
})

describe('RateWindow: other runs on the account (contract §6 r5)', () => {
  it('learns that others share the window from a count its own calls do not explain, says so once, and counts its share', () => {
    const clock = new FakeClock()
    const told: number[] = []
    const b = new RateWindow(clock, { onShared: (n) => told.push(n) })
    // Alone: the count follows its own calls.
    request(b, limits(60, 59))
    request(b, limits(60, 58))
    expect([b.sharers, b.othersPerMinute, told]).toEqual([1, 0, []])
    // Three more calls counted than its own third: three runs' calls beside its three.
    clock.t += 200
    request(b, limits(60, 54))
    expect(b.othersPerMinute).toBe(3)
    expect(b.sharers).toBe(2)
    clock.t += 200
    request(b, limits(60, 50))
    expect(b.othersPerMinute).toBe(6)
    expect(b.sharers).toBe(2.5)
    expect(told).toEqual([3])
    expect(b.available()).toBe(50)
  })
  it('counts the waiting for calls while others hold part of the window, and none while alone', () => {
    const clock = new FakeClock()
    const alone = new RateWindow(clock)
    request(alone, limits(2, 1))
    alone.waiting(1)
    clock.t += 5000
    alone.waiting(-1)
    expect(alone.sharedWaitMs).toBe(0)
    const b = new RateWindow(clock)
    request(b, limits(10, 9))
    request(b, limits(10, 0))
    expect(b.sharers).toBeGreaterThan(1)
    b.waiting(1)
    b.waiting(1)
    clock.t += 3000
    b.waiting(-1)
    clock.t += 1000
    b.waiting(-1)
    clock.t += 1000
    // Two requests waited together: the run waited 4 s, not 7.
    expect(b.sharedWaitMs).toBe(4000)
  })
  it('calls the first answer shows may predate the run: they hold the window, but tell no other run is there now', () => {
    const clock = new FakeClock()
    const b = new RateWindow(clock)
    request(b, limits(60, 20))
    expect(b.available()).toBe(20)
    expect(b.sharers).toBe(1)
    expect(burst(b)).toBe(20)
  })
  it('sharing, a run sends one call at a time, so that the answers show each run the others before the window is spent', () => {
    const clock = new FakeClock()
    const b = new RateWindow(clock)
    request(b, limits(10, 9))
    request(b, limits(10, 5))
    // Two of its own, three of others' since: about 2.5 runs share the calls left.
    expect(b.sharers).toBe(2.5)
    expect(b.reserve()).toBeGreaterThan(0)
    clock.t += 150
    expect(b.reserve()).toBe(0)
    // Runs that start at the same moment: the first answer shows their first requests, and the
    // run plans its share from then on (one of three runs, not alone).
    const together = new RateWindow(clock)
    request(together, limits(60, 57))
    expect(together.sharers).toBe(3)
    expect(together.reserve()).toBeGreaterThan(0)
    clock.t += 150
    expect(burst(together)).toBe(1)
  })
  it('leaves the window’s last calls to the other runs while they call (one each), and while it has heard nothing since', () => {
    const clock = new FakeClock()
    const b = new RateWindow(clock)
    request(b, limits(10, 9))
    request(b, limits(10, 5))
    expect(b.sharers).toBe(2.5)
    clock.t += 200
    // Two calls left, and others called just now: two runs beside this one may each take one.
    request(b, limits(10, 2))
    clock.t += 200
    // It asks again once the others' calls are no longer recent (2 s, not a window later)...
    const first = b.reserve()
    expect(first).toBeGreaterThan(1000)
    expect(first).toBeLessThanOrEqual(2100)
    // ...but it has heard nothing since, and the others, waiting on answers as old, may take theirs:
    // at their pace, the two calls are theirs, so it waits until a call comes back.
    clock.t += first
    let wait = b.reserve()
    for (; wait > 0 && wait <= 2100; wait = b.reserve()) clock.t += wait
    expect(wait).toBeGreaterThan(50_000)
    clock.t += wait
    expect(b.reserve()).toBe(0)
  })
  it('having heard nothing for 2 s while sharing, sends one request and the rest after its answer', () => {
    const clock = new FakeClock()
    const b = new RateWindow(clock)
    request(b, limits(60, 59))
    request(b, limits(60, 50))
    clock.t += 5000
    expect(b.reserve()).toBe(0)
    clock.t += 200
    expect(b.reserve()).toBeGreaterThan(0)
    b.observe(200, limits(60, 47))
    expect(b.reserve()).toBe(0)
    // An answer slow to come holds the others no longer than 2 s.
    clock.t += 5000
    expect(b.reserve()).toBe(0)
    clock.t += 200
    expect(b.reserve()).toBeGreaterThan(0)
    clock.t += 2000
    expect(b.reserve()).toBe(0)
  })
  it('in its first window, leaves one call for each other run, however slow they seem', () => {
    const clock = new FakeClock()
    const b = new RateWindow(clock)
    const first = clock.t
    answered(b, clock, [9, 4])
    clock.t += 10_000
    expect(request(b, limits(10, 2))).toBe(0)
    expect(b.sharers).toBeCloseTo(2.67, 2)
    // Two calls left, about 2.7 runs: one each for the two others, though they called once in 10 s.
    clock.t += 3000
    expect(b.reserve()).toBeGreaterThan(0)
    // A window after its first answer, that answer's call is back: one call more than the others need.
    clock.t = first + 60_100
    expect(b.reserve()).toBe(0)
  })
  it('in its first window, takes one of the last calls when what every run still needs fits twice in them', () => {
    // As above (two calls left, about 2.7 runs), but its scheduler says the run needs one call more: were each run to
    // need as much, 2.7 calls in all, within twice the two left, so leaving them would cost a window for little. Two
    // each (5.3 calls): it waits, as it does when the scheduler says nothing.
    const after10s = (needs: number) => {
      const clock = new FakeClock()
      const b = new RateWindow(clock)
      b.needs = () => needs
      answered(b, clock, [9, 4])
      clock.t += 10_000
      expect(request(b, limits(10, 2))).toBe(0)
      clock.t += 3000
      return b.reserve()
    }
    expect(after10s(1)).toBe(0)
    expect(after10s(2)).toBeGreaterThan(0)
    expect(after10s(Infinity)).toBeGreaterThan(0)
  })
  it('after its first window, having heard nothing for a while, takes a last call the others were too slow to take', () => {
    const clock = new FakeClock()
    /** A run whose first window has passed (its first call came back). */
    const later = () => {
      const b = new RateWindow(clock)
      request(b, limits(10, 9))
      clock.t += 61_000
      return b
    }
    // Two calls left among about 2.7 runs, but one others' call in the 10 s before its last answer:
    // at that pace, one of the two is its to take.
    const slow = later()
    answered(slow, clock, [9, 4])
    clock.t += 10_000
    expect(request(slow, limits(10, 2))).toBe(0)
    clock.t += 3000
    expect(slow.reserve()).toBe(0)
    // One call left, three runs, and three others' calls in the 200 ms before its last answer: that
    // fast, the others may have taken it.
    const fast = later()
    answered(fast, clock, [9, 5, 1])
    clock.t += 3000
    expect(fast.reserve()).toBeGreaterThan(0)
  })
  it('once a call counted at its last answer has come back, the window it knew has moved on: what came back is there to take', () => {
    const clock = new FakeClock()
    const b = new RateWindow(clock)
    const first = clock.t
    answered(b, clock, [9, 4, 1])
    // Others called fast just before its last answer, and it has heard nothing since: it leaves them
    // the last call; a window after its first answer, that call and the first come back to it.
    clock.t += 3000
    expect(b.reserve()).toBeGreaterThan(0)
    clock.t = first + 60_100
    expect(b.available()).toBe(2)
    expect(b.reserve()).toBe(0)
  })
  it('waiting for the window’s last calls, asks again as soon as one call comes back, not when all it waits for have', () => {
    const clock = new FakeClock()
    const b = new RateWindow(clock)
    const first = clock.t
    request(b, limits(10, 9))
    clock.t += 30_000
    // None left, eight others' calls just now: it would leave four of the calls that come back to them.
    request(b, limits(10, 0))
    const heard = clock.t
    expect(b.sharers).toBe(5)
    clock.t += 200
    // Its first call comes back a window after its answer; it asks again then (not at the fifth's return,
    // 30 s later). The others' calls are no longer recent nor (the window it knew having moved on)
    // expected, but it has heard nothing for 30 s and neither have they: it leaves that one call, the
    // window's last, to them, and takes the next that comes back.
    const wait = b.reserve()
    expect(wait).toBeLessThanOrEqual(first + 60_100 - clock.t)
    clock.t += wait
    expect(b.available()).toBe(1)
    expect(b.reserve()).toBeGreaterThan(0)
    clock.t = heard + 60_100
    expect(b.reserve()).toBe(0)
  })
})
