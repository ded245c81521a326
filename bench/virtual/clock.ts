/**
 * Virtual time for the benchmark: a Clock whose sleep() resolves when the scheduler says so, not
 * when real time has passed. `run()` drives a promise to its end: whenever everything that can run
 * has run (the microtask queue is empty: nothing here waits on real I/O), time jumps to the earliest
 * sleeper and wakes it. The planner, the ledger, the poll scheduler, the client and the waiting loop run unchanged.
 */
import { CancelledError } from '../../src/clock.js'
import type { Clock } from '../../src/types.js'

interface Sleeper {
  at: number
  seq: number
  wake: () => void
  cancelled: boolean
}

export class VirtualClock implements Clock {
  private t: number
  private seq = 0
  private readonly heap: Sleeper[] = []
  /** Sleeps resolved so far (the work the scheduler did). */
  events = 0

  constructor(start = Date.UTC(2026, 10, 22, 9, 0, 0)) {
    this.t = start
  }

  now(): number {
    return this.t
  }

  wallNow(): number {
    return this.t
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(new CancelledError())
      const sleeper: Sleeper = {
        at: this.t + Math.max(0, ms),
        seq: this.seq++,
        wake: resolve,
        cancelled: false,
      }
      if (signal) {
        const onAbort = () => {
          sleeper.cancelled = true
          reject(new CancelledError())
        }
        signal.addEventListener('abort', onAbort, { once: true })
        sleeper.wake = () => {
          signal.removeEventListener('abort', onAbort)
          resolve()
        }
      }
      this.push(sleeper)
    })
  }

  /** Runs `work` to its end in virtual time. */
  async run<T>(work: Promise<T>): Promise<T> {
    let settled = false
    work.then(
      () => (settled = true),
      () => (settled = true),
    )
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve))
      if (settled) return work
      const next = this.pop()
      if (!next) throw new Error('virtual clock: nothing is scheduled, yet the work has not ended')
      this.t = Math.max(this.t, next.at)
      next.wake()
      this.events++
      // Everybody due at the same moment wakes in the same turn.
      while (this.heap.length > 0 && this.heap[0]!.at <= this.t) {
        const also = this.pop()
        if (also) {
          also.wake()
          this.events++
        }
      }
    }
  }

  private less(a: Sleeper, b: Sleeper): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq)
  }

  private push(s: Sleeper): void {
    const h = this.heap
    h.push(s)
    let i = h.length - 1
    while (i > 0) {
      const p = (i - 1) >> 1
      if (!this.less(h[i]!, h[p]!)) break
      ;[h[i], h[p]] = [h[p]!, h[i]!]
      i = p
    }
  }

  private pop(): Sleeper | undefined {
    const h = this.heap
    for (;;) {
      if (h.length === 0) return undefined
      const top = h[0]!
      const last = h.pop()!
      if (h.length > 0) {
        h[0] = last
        let i = 0
        for (;;) {
          const l = 2 * i + 1
          const r = l + 1
          let m = i
          if (l < h.length && this.less(h[l]!, h[m]!)) m = l
          if (r < h.length && this.less(h[r]!, h[m]!)) m = r
          if (m === i) break
          ;[h[i], h[m]] = [h[m]!, h[i]!]
          i = m
        }
      }
      if (!top.cancelled) return top
    }
  }
}
