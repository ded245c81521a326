/**
 * One timer for the next job that ends, so the HTTP server's state (and its outbox, purges, staging
 * statuses) moves without any request. Correctness does not rest on it: every request settles due
 * jobs first (see core.ts); this only lets a test read `sim.state` without asking the API.
 */
import type { ApiCore } from './core.js'

export class JobTicker {
  private timer: NodeJS.Timeout | null = null
  private at: number | null = null
  private stopped = false

  constructor(private readonly core: ApiCore) {}

  /** Sets the timer for the next due job (call after anything that may start or end one). */
  schedule(): void {
    const due = this.stopped ? null : this.core.nextDueAt()
    if (due === this.at) return
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    this.at = due
    if (due === null) return
    this.timer = setTimeout(
      () => {
        this.timer = null
        this.at = null
        this.core.settle()
        this.schedule()
      },
      Math.max(0, due - this.core.clock.now()),
    )
    this.timer.unref()
  }

  stop(): void {
    this.stopped = true
    this.schedule()
  }
}
