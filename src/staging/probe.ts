import { MISSING_STATUS, probePath, probeUnsupported, probeState, type ProbeState } from '../contract.js'
import { ApiError } from '../api/errors.js'
import { rootCheckPhase } from '../api/root.js'
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
  const phase = ctx.phase
  ctx.phase = rootCheckPhase(ctx.client, because)
  await ctx.root.confirm(ctx.client, because)
  ctx.phase = phase
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
