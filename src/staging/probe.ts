import { MISSING_STATUS, probePath, probeState, type ProbeState } from '../contract.js'
import { ApiError } from '../api/errors.js'
import type { RunContext } from './context.js'
import { fillStagingFields, forgetStaging } from './staging-fields.js'

/** One read of the staging environment (`GET /v2/sites/{site}/staging`, contract §3). */
export type StagingRead =
  | { kind: 'found'; state: ProbeState; data: unknown; status: number; message: string }
  /** A 404 that is not the routing layer's: no staging, or no such site, IF the root is right. */
  | { kind: 'missing'; error: ApiError }

/** Reads the staging probe once through the retry layer (`maxRetries` 0: one try). Throws other errors. */
export async function readStaging(
  ctx: RunContext,
  options: { maxRetries?: number } = {},
): Promise<StagingRead> {
  try {
    const probe = await ctx.client.call('GET', probePath(ctx.siteId), 'read', options)
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
