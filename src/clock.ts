import type { Clock } from './types.js'

/** Raised wherever waiting stops because the run was cancelled (SIGINT/SIGTERM). */
export class CancelledError extends Error {
  constructor() {
    super('cancelled')
    this.name = 'CancelledError'
  }
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
