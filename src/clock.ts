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

/** `1.5 s`, `12 s`: a duration for a log line. */
export function seconds(ms: number): string {
  return ms >= 10_000 ? `${Math.round(ms / 1000)} s` : `${(ms / 1000).toFixed(1)} s`
}
