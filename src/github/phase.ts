/** Time limits of GitHub's requests, in ms (tests shorten them): 10 s before the operation, 30 s after it,
 * 3 s once the run is cancelled (the runner kills 10 s after its first signal). */
export const LIMITS_MS = { before: 10_000, after: 30_000, cancelled: 3_000, poll: 15_000 }
export type Limits = typeof LIMITS_MS

/** A signal for one phase of GitHub requests: aborts after `normalMs`, or `cancelledMs` after the run is
 * cancelled (counted from now if it already is). */
export function phaseSignal(run: AbortSignal | undefined, normalMs: number, cancelledMs: number) {
  const controller = new AbortController()
  const stop = () => controller.abort(new DOMException('GitHub did not answer in time', 'TimeoutError'))
  // AbortSignal.timeout: Node's own timer, which keeps no process alive; no timer of ours.
  const limits: AbortSignal[] = []
  const abortIn = (ms: number) => {
    // Whole milliseconds within a 32-bit timer: AbortSignal.timeout throws on 12.5 (a deadline
    // read from performance.now() is fractional) or on more than about 24 days.
    const limit = AbortSignal.timeout(Math.min(2 ** 31 - 1, Math.max(0, Math.ceil(ms))))
    limit.addEventListener('abort', stop, { once: true })
    limits.push(limit)
  }
  const onCancel = () => abortIn(cancelledMs)
  if (run?.aborted) abortIn(cancelledMs)
  else {
    abortIn(normalMs)
    run?.addEventListener('abort', onCancel, { once: true })
  }
  return {
    signal: controller.signal,
    dispose: () => {
      for (const limit of limits) limit.removeEventListener('abort', stop)
      run?.removeEventListener('abort', onCancel)
    },
  }
}

export async function withinPhase<T>(
  phase: ReturnType<typeof phaseSignal>,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  try {
    return await work(phase.signal)
  } finally {
    phase.dispose()
  }
}
