import { describe, expect, it } from '@jest/globals'
import { RateBudget } from '../../src/api/rate-budget.js'
import { FakeClock } from '../helpers/fakes.js'

const epoch = (ms: number) => String(Math.floor(ms / 1000))

describe('RateBudget', () => {
  it('lets requests go at once while nothing is known', () => {
    const b = new RateBudget(new FakeClock())
    expect([b.reserve(), b.reserve(), b.reserve()]).toEqual([0, 0, 0])
    expect(b.fairIntervalMs()).toBe(0)
  })
  it('a 429 with Retry-After pauses every request of the batch until then', () => {
    const clock = new FakeClock()
    const b = new RateBudget(clock)
    b.observe(429, { 'retry-after': '12' })
    expect(b.reserve()).toBe(12_000)
    clock.t += 5000
    expect(b.reserve()).toBe(7000)
  })
  it('a 429 without Retry-After pauses for a growing while, reset by a success', () => {
    const clock = new FakeClock()
    const b = new RateBudget(clock)
    b.observe(429, {})
    const first = b.reserve()
    clock.t += first
    b.observe(429, {})
    expect(b.reserve()).toBeGreaterThan(first)
    clock.t += 60_000
    b.observe(200, {})
    b.observe(429, {})
    expect(b.reserve()).toBe(first)
  })
  it('no calls left: waits for the window to reset', () => {
    const clock = new FakeClock()
    const b = new RateBudget(clock)
    b.observe(200, {
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': epoch(clock.t + 20_000),
    })
    const wait = b.reserve()
    expect(wait).toBeGreaterThan(19_000)
    expect(wait).toBeLessThanOrEqual(20_000)
  })
  it('few calls left: spreads them evenly until the reset', () => {
    const clock = new FakeClock()
    const b = new RateBudget(clock)
    b.observe(200, {
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '3',
      'x-ratelimit-reset': epoch(clock.t + 40_000),
    })
    expect(b.reserve()).toBe(0)
    const second = b.reserve()
    expect(second).toBeGreaterThan(8000)
    expect(second).toBeLessThanOrEqual(10_000)
  })
  it('many calls left: no pacing', () => {
    const clock = new FakeClock()
    const b = new RateBudget(clock)
    b.observe(200, {
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '50',
      'x-ratelimit-reset': epoch(clock.t + 40_000),
    })
    expect([b.reserve(), b.reserve()]).toEqual([0, 0])
  })
  it('gives each follower an equal share of the calls left', () => {
    const clock = new FakeClock()
    const b = new RateBudget(clock)
    b.observe(200, {
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '30',
      'x-ratelimit-reset': epoch(clock.t + 30_000),
    })
    const leaves = [b.join(), b.join(), b.join(), b.join()]
    const four = b.fairIntervalMs()
    expect(four).toBeGreaterThan(3500)
    expect(four).toBeLessThanOrEqual(4000)
    leaves[0]!()
    leaves[0]!()
    expect(b.fairIntervalMs()).toBeCloseTo((four * 3) / 4, -1)
    leaves.forEach((l) => l())
    expect(b.fairIntervalMs()).toBe(0)
  })
  it('keeps the lowest remaining count of a window when answers arrive out of order', () => {
    const clock = new FakeClock()
    const b = new RateBudget(clock)
    const reset = epoch(clock.t + 30_000)
    b.observe(200, { 'x-ratelimit-remaining': '10', 'x-ratelimit-reset': reset })
    b.observe(200, { 'x-ratelimit-remaining': '12', 'x-ratelimit-reset': reset })
    b.join()
    expect(b.fairIntervalMs()).toBeGreaterThan(2500)
  })
})

describe('RateBudget fair share', () => {
  it('costs nothing while more than half of the window is left', () => {
    const clock = new FakeClock()
    const b = new RateBudget(clock)
    b.observe(200, {
      'x-ratelimit-limit': '1000',
      'x-ratelimit-remaining': '990',
      'x-ratelimit-reset': String(Math.floor((clock.t + 3_600_000) / 1000)),
    })
    b.join()
    expect(b.fairIntervalMs()).toBe(0)
  })
})
