import { describe, expect, it } from '@jest/globals'
import { getEventListeners } from 'node:events'
import { CancelledError, realClock, whenAborted } from '../../src/clock.js'

describe('whenAborted: one listener on a signal however many wait on it', () => {
  it('calls every waiter once when the signal aborts, and not one that stopped listening', () => {
    const controller = new AbortController()
    const called: number[] = []
    const stops = [0, 1, 2].map((i) => whenAborted(controller.signal, () => called.push(i)))
    stops[1]!()
    controller.abort()
    controller.abort()
    expect(called).toEqual([0, 2])
  })

  it('leaves the run signal one listener for a thousand sleepers', async () => {
    const controller = new AbortController()
    const sleeps = Array.from({ length: 1000 }, () => realClock.sleep(0, controller.signal))
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1)
    await Promise.all(sleeps)
  })

  it('wakes a sleeper at a cancellation, before its time', async () => {
    const controller = new AbortController()
    const sleeping = realClock.sleep(60_000, controller.signal)
    controller.abort()
    await expect(sleeping).rejects.toBeInstanceOf(CancelledError)
  })
})
