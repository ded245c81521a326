import { describe, expect, it } from '@jest/globals'
import { Backoff, BUSY_WAIT, REQUEST_RETRY, URL_WAIT, exponential } from '../../src/backoff.js'
import { CancelledError } from '../../src/clock.js'
import { FakeClock } from '../helpers/fakes.js'

describe('schedules', () => {
  it('requests: 1 s · 2ⁿ up to 30 s, scaled by a full-jitter draw', () => {
    expect(REQUEST_RETRY(0, 0, () => 0.999999)).toBe(999)
    expect(REQUEST_RETRY(3, 0, () => 0.5)).toBe(4000)
    expect(REQUEST_RETRY(20, 0, () => 0.999999)).toBe(29_999)
    expect(REQUEST_RETRY(4, 0, () => 0)).toBe(0)
  })
  it('if-busy: 2 s · 1.5ⁿ up to 15 s, within ±20%', () => {
    expect(BUSY_WAIT(0, 0, () => 0.5)).toBe(2000)
    expect(BUSY_WAIT(2, 0, () => 0.5)).toBe(4500)
    expect(BUSY_WAIT(0, 0, () => 0)).toBe(1600)
    expect(BUSY_WAIT(0, 0, () => 1)).toBe(2400)
    expect(BUSY_WAIT(30, 0, () => 0.5)).toBe(15_000)
  })
  it('wait-for-url: a quarter of the time waited, from 1 s to 15 s, whatever the retry number', () => {
    expect(URL_WAIT(7, 0, () => 0.5)).toBe(1000)
    expect(URL_WAIT(0, 20_000, () => 0.5)).toBe(5000)
    expect(URL_WAIT(0, 600_000, () => 0.5)).toBe(15_000)
  })
  it('a negative retry number counts as the first', () => {
    expect(exponential({ firstMs: 100, factor: 2, capMs: 1000, jitter: 0 })(-3, 0, Math.random)).toBe(100)
  })
})

describe('Backoff', () => {
  it('sleeps and counts each sleep it takes', async () => {
    const clock = new FakeClock()
    const backoff = new Backoff(BUSY_WAIT, { clock, deadlineMs: clock.now() + 60_000, random: () => 0.5 })
    expect(await backoff.sleep(backoff.delayMs(0))).toBe(true)
    expect(await backoff.sleep(backoff.delayMs(1))).toBe(true)
    expect(clock.slept).toEqual([2000, 3000])
    expect(backoff.retries).toBe(2)
  })
  it('checks the deadline before every sleep: a sleep that would reach it is not taken nor counted', async () => {
    const clock = new FakeClock()
    const backoff = new Backoff(REQUEST_RETRY, { clock, deadlineMs: clock.now() + 5000 })
    expect(backoff.passesDeadline(5000)).toBe(true)
    expect(backoff.passesDeadline(4999)).toBe(false)
    expect(await backoff.sleep(5000)).toBe(false)
    expect(clock.slept).toEqual([])
    expect(backoff.retries).toBe(0)
    expect(await backoff.sleep(4000)).toBe(true)
    expect(await backoff.sleep(1000)).toBe(false)
    expect(backoff.retries).toBe(1)
  })
  it('stops at once when the run is cancelled', async () => {
    const clock = new FakeClock()
    const controller = new AbortController()
    controller.abort()
    const backoff = new Backoff(REQUEST_RETRY, {
      clock,
      deadlineMs: clock.now() + 60_000,
      signal: controller.signal,
    })
    await expect(backoff.sleep(10)).rejects.toBeInstanceOf(CancelledError)
    expect(backoff.retries).toBe(0)
  })
})
