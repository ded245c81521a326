import { ApiError } from '../api/errors.js'
import { probeUnsupported } from '../contract.js'

/**
 * Whether the service offers the staging read at all, learned once per run: a 405 or 501 is the route's
 * answer, not one site's (contract §3), so the other sites do not each spend a request to hear it again.
 */
export class StagingReadRoute {
  /** The route's refusal, once one site heard it; null while the route may answer. */
  refused: ApiError | null = null
  /** Reads after a job that succeeded: how many answered 404, and whether any named the staging. */
  private missingAfterJob = 0
  private named = false
  private afterJobRead: Promise<void> | null = null
  /** Settles once the run's first read is answered, whatever the answer: later reads wait for it. */
  private learned: Promise<void> | null = null

  /** It answered 404 to MISSING_AFTER_JOB reads right after jobs that succeeded, and named no staging
   * environment (docs/assumptions.md, 70). */
  get namesNothing(): boolean {
    return !this.named && this.missingAfterJob >= MISSING_AFTER_JOB
  }

  /** A read right after a job that succeeded (`named`: whether it named the staging, null when it failed): until
   * one has, they go one at a time, so a route that answers 404 is heard MISSING_AFTER_JOB times, not per site. */
  async afterJob<T>(read: () => Promise<T>, named: (result: T) => boolean | null): Promise<T | null> {
    while (this.afterJobRead && !this.named) await this.afterJobRead
    if (this.namesNothing) return null
    const sent = read()
    if (this.named) return sent
    const done = sent.then(
      (result) => {
        const said = named(result)
        if (said === true) this.named = true
        if (said === false) this.missingAfterJob++
      },
      () => undefined,
    )
    const current: Promise<void> = done.finally(() => {
      if (this.afterJobRead === current) this.afterJobRead = null
    })
    this.afterJobRead = current
    return sent
  }

  /** Sends `read` unless the route has refused (then throws `notSent(refusal)`); while the run's first read is
   * unanswered, the others wait for it (it may be the refusal). */
  async read<T>(read: () => Promise<T>, notSent: (refusal: ApiError) => Error): Promise<T> {
    if (this.learned) await this.learned
    if (this.refused) throw notSent(this.refused)
    const sent = read()
    this.learned ??= sent.then(
      () => undefined,
      (e: unknown) => {
        if (e instanceof ApiError && probeUnsupported(e.httpStatus)) this.refused = e
      },
    )
    return sent
  }
}

/** 404s after jobs that succeeded, with no staging named, after which the run reads no more. */
const MISSING_AFTER_JOB = 2
