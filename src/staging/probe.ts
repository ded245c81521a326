import { MISSING_STATUS, probePath, probeUnsupported, probeState, type ProbeState } from '../contract.js'
import { ApiError } from '../api/errors.js'
import type { Operation } from '../types.js'
import type { RunContext } from './context.js'
import { fillStagingFields, forgetStaging } from './staging-fields.js'

/** One read of the staging environment (`GET /v2/sites/{site}/staging`, contract §3). */
export type StagingRead =
  | { kind: 'found'; state: ProbeState; data: unknown; status: number; message: string }
  /** A 404 that is not the routing layer's: no staging, or no such site, IF the root is right. */
  | { kind: 'missing'; error: ApiError }

/**
 * Whether the service offers the staging read at all, learned once and shared by every site of a
 * run: a 405 or 501 on `GET /v2/sites/{site}/staging` is the route's answer, not one site's (contract
 * §3; the hosted service answers 405), so the other sites of a batch do not each spend a request of
 * the rate limit to hear it again.
 */
export class StagingReadRoute {
  private refusal: ApiError | null = null
  /** Reads after a job that succeeded: how many answered 404, and whether any named the staging. */
  private missingAfterJob = 0
  private named = false
  private afterJobRead: Promise<void> | null = null
  /** Settles once the run's first read is answered, whatever the answer: later reads wait for it. */
  private learned: Promise<void> | null = null

  /** The route's refusal, once one site heard it; null while the route may answer. */
  get refused(): ApiError | null {
    return this.refusal
  }

  /**
   * Whether this route names nothing in this run: it answered 404 to MISSING_AFTER_JOB reads right
   * after jobs that succeeded, and named no staging environment (docs/assumptions.md, 70).
   */
  get namesNothing(): boolean {
    return !this.named && this.missingAfterJob >= MISSING_AFTER_JOB
  }

  /**
   * A read right after a job that succeeded (`read` says whether it named the staging environment,
   * or null when it failed): until one has named one, they go one at a time, so a route that
   * answers 404 is heard MISSING_AFTER_JOB times, not once per site. Null when not sent.
   */
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
 * once the URL is known, once the run heard that the service offers no such read, or once the read
 * has answered 404 after jobs that succeeded and named nothing (StagingReadRoute.namesNothing).
 */
export function readsAfterJob(operation: Operation, readRoute?: StagingReadRoute, urlKnown = false): number {
  return operation === 'delete' || urlKnown || readRoute?.refused || readRoute?.namesNothing ? 0 : 1
}

/** 404s after jobs that succeeded, with no staging named, after which the run reads no more. */
const MISSING_AFTER_JOB = 2

/**
 * Reads the staging probe once through the retry layer (`maxRetries` 0: one try). Throws other
 * errors; once the run has heard that the service offers no staging read (`ctx.readRoute`), throws
 * that refusal again without sending anything.
 */
export async function readStaging(
  ctx: RunContext,
  options: { maxRetries?: number } = {},
): Promise<StagingRead> {
  const send = () => ctx.client.call('GET', probePath(ctx.siteId), 'read', options)
  try {
    const probe = await (ctx.readRoute ? ctx.readRoute.read(send, (first) => notSent(ctx, first)) : send())
    return {
      kind: 'found',
      state: probeState(probe.reply.data),
      data: probe.reply.data,
      status: probe.status,
      message: probe.reply.message,
    }
  } catch (e) {
    if (e instanceof ApiError && e.httpStatus === MISSING_STATUS && e.kind === 'not-found')
      return { kind: 'missing', error: e }
    throw e
  }
}

/** The refusal this site would have heard, said as what it is: a read not sent, and why. */
function notSent(ctx: RunContext, first: ApiError): ApiError {
  const status = first.httpStatus
  ctx.logger.debug(
    `not reading the staging environment: the service answered ${status} to that read earlier in this run`,
  )
  return new ApiError({
    kind: first.kind,
    httpStatus: status,
    processing: first.processing,
    serverMessage: first.serverMessage,
    message: `GET ${ctx.client.shown(probePath(ctx.siteId))} was not sent: the service answered HTTP ${status} to reading a staging environment earlier in this run, so it offers no such read.`,
    hint: first.hint,
  })
}

/**
 * Before a 404 is read as "no staging environment" (status `none`, if-missing: skip, a staging
 * gone before recreate's delete): the API root must have answered as the API in this run (contract
 * §4 r3). Throws ApiError (`api-url`) when it did not.
 */
export async function confirmNoStaging(ctx: RunContext, because: string): Promise<void> {
  await ctx.root.confirm(ctx.client, because)
}

/**
 * Best effort, one try: the staging id and URL from the probe, where the answers did not give
 * them. Returns the state read (null when the read failed; a failure changes nothing else).
 */
export async function fillFromStaging(ctx: RunContext): Promise<ProbeState | 'none' | null> {
  let read: StagingRead
  try {
    read = await readStaging(ctx, { maxRetries: 0 })
  } catch (e) {
    if (!(e instanceof ApiError)) throw e
    ctx.logger.debug(`could not read the staging environment: ${e.message}`)
    return null
  }
  if (read.kind === 'missing') {
    forgetStaging(ctx)
    return 'none'
  }
  ctx.known.message ||= read.message
  return fillStagingFields(ctx, read.data, 'the staging environment') ? read.state : 'unknown'
}
