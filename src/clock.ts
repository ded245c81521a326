import { setMaxListeners } from 'node:events'
import type { Clock } from './types.js'

/** Raised wherever waiting stops because the run was cancelled (SIGINT/SIGTERM). */
export class CancelledError extends Error {
  constructor() {
    super('cancelled')
    this.name = 'CancelledError'
  }
}

/**
 * An AbortController whose signal every site of a batch may wait on at once (a cancellation, a
 * wake-up): one listener per sleeper is its purpose, not a leak, so Node's warning past ten
 * listeners (which would reach the user's log) is off for it. `clock.sleep` removes its listener.
 */
export function sharedController(): AbortController {
  const controller = new AbortController()
  setMaxListeners(0, controller.signal)
  return controller
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
      const onAbort = () => {
        clearTimeout(timer)
        reject(new CancelledError())
      }
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort)
          resolve()
        },
        Math.max(0, ms),
      )
      signal?.addEventListener('abort', onAbort, { once: true })
    }),
}
