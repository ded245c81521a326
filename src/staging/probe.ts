import {
  MISSING_STATUS,
  ROOT_EVIDENCE_PATH,
  isProductionId,
  probePath,
  probeState,
  type ProbeState,
} from '../contract.js'
import { ApiError } from '../api/errors.js'
import { setting } from '../words.js'
import type { RunContext } from './context.js'
import { at, answered } from './record.js'
import { stagingOf } from './site-list.js'
import { fillStagingFields, STAGING_READ } from './staging-fields.js'

/** One read of the staging environment (`GET /v2/sites/{site}/staging`, contract §3). */
export type StagingRead =
  | { kind: 'found'; state: ProbeState; data: unknown; status: number; message: string }
  /** A 404 that is not the routing layer's: no staging, or no such site, IF the root is right. */
  | { kind: 'missing'; error: ApiError }

/** Reads the staging environment through the retry layer; other errors are thrown, and once the run heard that
 * the service offers no staging read (`ctx.readRoute`), that refusal, without sending anything. */
export async function readStaging(
  ctx: RunContext,
  options: { maxRetries?: number } = {},
): Promise<StagingRead> {
  const send = () => ctx.client.call('GET', probePath(ctx.siteId), 'read', options)
  try {
    const probe = await ctx.readRoute.read(send, (first) => notSent(ctx, first))
    // A record that says it is another site's staging says nothing of this one's (contract §5): not used.
    const other = stagingOf(probe.reply.data).find((id) => !isProductionId(id, ctx.siteId))
    if (other !== undefined)
      throw new ApiError({
        kind: 'bad-response',
        httpStatus: probe.status,
        processing: 'processed',
        message: `GET ${ctx.client.shown(probePath(ctx.siteId))} answered with the staging environment of site ${other}, not of site ${ctx.siteId}: it was not used.`,
        hint: `Check ${setting('site-id')} (the PRODUCTION site's id), and the service's staging records in the dashboard.`,
      })
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
  return first.retold({
    message: `GET ${ctx.client.shown(probePath(ctx.siteId))} was not sent: the service answered HTTP ${status} to reading a staging environment earlier in this run, so it offers no such read.`,
    hint: first.hint,
  })
}

/** Before a 404 is read as "no staging environment": the API root must have answered as the API in this run
 * (contract §4 r3). Throws ApiError (`api-url`) when it did not. */
export async function confirmNoStaging(ctx: RunContext, because: string): Promise<void> {
  const step = ctx.record.step
  // The step a timeout or a cancellation meanwhile names (issue 24 §3): the 404 is held back, not "sending".
  at(
    ctx,
    `checking whether ${setting('api-url')} is the API root (GET ${ctx.client.shown(ROOT_EVIDENCE_PATH)}): ${because}, and that 404 was held back, not read as "no staging environment", until the root answers`,
  )
  await ctx.root.confirm(ctx.client, because)
  at(ctx, step)
}

/**
 * Best effort, one try: what a read of the staging environment says, learnt (facts.ts). A 404 says "no
 * staging" only when no source of this run named the staging site, and once the API root has answered as the
 * API (§4 r3); else the state stays unknown, with a warning. A read that fails changes nothing.
 */
export async function learnFromStaging(ctx: RunContext): Promise<ProbeState | 'none' | null> {
  let read: StagingRead
  try {
    read = await readStaging(ctx, { maxRetries: 0 })
  } catch (e) {
    if (!(e instanceof ApiError)) throw e
    ctx.logger.debug(`could not read the staging environment: ${e.message}`)
    return null
  }
  if (read.kind === 'missing') {
    const because = `GET ${ctx.client.shown(probePath(ctx.siteId))} answered 404`
    if (!ctx.facts.named && !(await rootConfirmed(ctx, because))) return null
    ctx.facts.learn({ kind: 'read', words: `the staging read (${because})` }, { state: 'none' })
    return 'none'
  }
  answered(ctx, { message: ctx.record.message || read.message })
  const taken = fillStagingFields(ctx, read.data, STAGING_READ)
  const state = taken ? read.state : 'unknown'
  ctx.facts.learn(STAGING_READ, { state })
  return state
}

/** Whether the API root answered as the API; a check that could not be made is warned, not thrown. */
async function rootConfirmed(ctx: RunContext, because: string): Promise<boolean> {
  try {
    await confirmNoStaging(ctx, because)
    return true
  } catch (e) {
    if (!(e instanceof ApiError)) throw e
    ctx.logger.warn(e.message)
    return false
  }
}
