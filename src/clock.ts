import { setMaxListeners } from 'node:events'
import type { Clock } from './types.js'

/** Raised wherever waiting stops because the run was cancelled (SIGINT/SIGTERM). */
export class CancelledError extends Error {
  constructor() {
    super('cancelled')
    this.name = 'CancelledError'
  }
}

/** An AbortController whose signal every site of a batch may wait on at once (a cancellation, a wake-up): one
 * listener per sleeper is its purpose, not a leak, so Node's warning past ten listeners (which would reach
 * the user's log) is off for it. `clock.sleep` removes its listener. */
export function sharedController(): AbortController {
  const controller = new AbortController()
  setMaxListeners(0, controller.signal)
  return controller
}

const fanOut = new WeakMap<AbortSignal, Set<() => void>>()

/** Calls `fn` once when `signal` aborts, and returns the way to stop listening. The signal holds one listener
 * however many wait on it (a thousand sites asleep on the run's signal): Node's EventTarget looks through
 * every listener it holds at each add and remove, so a listener per waiter costs a batch its size squared. */
export function whenAborted(signal: AbortSignal, fn: () => void): () => void {
  const waiting = fanOut.get(signal) ?? listen(signal)
  waiting.add(fn)
  return () => void waiting.delete(fn)
}

/** The one listener of `signal`: it calls everyone waiting when the signal aborts. */
function listen(signal: AbortSignal): Set<() => void> {
  const waiting = new Set<() => void>()
  fanOut.set(signal, waiting)
  signal.addEventListener(
    'abort',
    () => {
      fanOut.delete(signal)
      for (const f of waiting) f()
    },
    { once: true },
  )
  return waiting
}

export function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new CancelledError()
}

/**
 * Contract §11: `now()` is `performance.now()`, which a wall-clock step (an NTP correction on a
 * runner) does not move; `setTimeout` is monotonic too. `wallNow()` is only for dates.
 */
export const realClock: Clock = {
  now: () => performance.now(),
  wallNow: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(new CancelledError())
      const timer = setTimeout(
        () => {
          stop?.()
          resolve()
        },
        Math.max(0, ms),
      )
      const stop =
        signal &&
        whenAborted(signal, () => {
          clearTimeout(timer)
          reject(new CancelledError())
        })
    }),
}
