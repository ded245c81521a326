import { ApiError } from '../api/errors.js'
import { probeUnsupported } from '../contract.js'
import type { Operation } from '../types.js'

/**
 * Whether the service offers the staging read at all, learned once and shared by every site of a
 * run: a 405 or 501 on `GET /v2/sites/{site}/staging` is the route's answer, not one site's (contract
 * §3; the hosted service answers 405), so the other sites of a batch do not each spend a request of
 * the rate limit to hear it again.
 */
export class StagingReadRoute {
  private refusal: ApiError | null = null
  /** Settles once the run's first read is answered, whatever the answer: later reads wait for it. */
  private learned: Promise<void> | null = null

  /** The route's refusal, once one site heard it; null while the route may answer. */
  get refused(): ApiError | null {
    return this.refusal
  }

  /**
   * Sends `read` unless the route has refused: while the run's first read is unanswered, the others
   * wait for it (it may be the refusal), then go, or throw `notSent(refusal)` without sending anything.
   */
  async read<T>(read: () => Promise<T>, notSent: (refusal: ApiError) => Error): Promise<T> {
    if (this.learned) await this.learned
    if (this.refusal) throw notSent(this.refusal)
    const sent = read()
    this.learned ??= sent.then(
      () => undefined,
      (e: unknown) => {
        if (e instanceof ApiError && probeUnsupported(e.httpStatus)) this.refusal = e
      },
    )
    return sent
  }
}

/**
 * The staging reads a job that succeeded may still cost (0 or 1, after-job.ts): none after a delete,
 * once the URL is known, or once the run heard that the service offers no such read.
 */
export function readsAfterJob(operation: Operation, readRoute?: StagingReadRoute, urlKnown = false): number {
  return operation === 'delete' || urlKnown || readRoute?.refused ? 0 : 1
}
