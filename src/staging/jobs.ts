import { durationText } from '../duration.js'
import { ApiError } from '../api/errors.js'
import { DeadlineError } from '../api/client.js'
import type { ApiResponse } from '../api/reply.js'
import { taskIdOf } from '../contract.js'
import type { JobOperation } from '../types.js'
import { afterJob } from './after-job.js'
import type { RunContext } from './context.js'
import { at, answered, jobIs, jobState, note, type Job } from './record.js'
import { ENDPOINTS, PUSH_WARNINGS, checkLaterHint } from './endpoints.js'
import { settle, type Ending } from './ending.js'
import { fillFromOtherSources } from './other-sources.js'
import { confirmNoStaging, learnFromStaging } from './probe.js'
import { CREATE_ANSWER, fillStagingFields } from './staging-fields.js'
import { waitForProbe, waitForTask } from './wait/follow.js'
import { setting } from '../words.js'

/** create, pull, push, delete: the request under the if-exists / if-missing / if-busy policies, the job followed,
 * then what follows a success (after-job.ts). */
export async function runJob(ctx: RunContext, op: JobOperation): Promise<Ending> {
  // The response to follow, or the ending when the policies carried the operation to its end.
  let started: ApiResponse | Ending
  try {
    started = await send(ctx, op)
  } catch (e) {
    if (!(e instanceof ApiError)) throw e
    started = await applyPolicy(ctx, op, e)
  }
  let ending: Ending
  if ('outcome' in started) ending = started
  else {
    answered(ctx, { message: started.reply.message })
    ending = await follow(ctx, op, started, ctx.config.wait)
  }
  return ending.outcome === 'succeeded' ? afterJob(ctx, op) : ending
}

/** A create answered "exists" or busy, or a pull answered busy, after a try of unknown outcome: that try went through. */
const firstTryWent = (op: JobOperation, e: ApiError) =>
  e.afterUnknown &&
  (e.kind === 'busy' ? op === 'create' || op === 'pull' : op === 'create' && e.kind === 'exists')

/** The if-exists / if-missing policies, and a create or pull whose first try went through after all. */
async function applyPolicy(ctx: RunContext, op: JobOperation, e: ApiError): Promise<ApiResponse | Ending> {
  const { config, siteId, logger } = ctx
  if (firstTryWent(op, e)) {
    logger.info(
      `The ${op} was answered ${e.httpStatus} after a try whose outcome was unknown: that first try went through. Following it.`,
    )
    answered(ctx, { message: e.serverMessage })
    jobIs(ctx, op, 'accepted')
    if (!config.wait)
      return {
        outcome: 'accepted',
        summary: `The ${op} was accepted; not waited for. ${checkLaterHint(siteId, null)}`,
      }
    return track(ctx, op, null)
  }
  if (op === 'create' && e.kind === 'exists') {
    if (config.ifExists === 'skip') {
      logger.info(
        `Site ${siteId} already has a staging environment: skipped (${setting('if-exists', 'skip')}).`,
      )
      answered(ctx, { message: e.serverMessage })
      ctx.facts.learn(
        { kind: 'answer', words: `the create answer (HTTP ${e.httpStatus}: staging exists)` },
        { exists: true },
      )
      // The existing staging's id and URL, best effort (the state is not reported).
      await learnFromStaging(ctx)
      if (!ctx.facts.complete) await fillFromOtherSources(ctx)
      return {
        outcome: 'skipped',
        summary: `Skipped: site ${siteId} already has a staging environment (${setting('if-exists', 'skip')}).`,
      }
    }
    if (config.ifExists === 'recreate') return recreate(ctx)
  }
  if (op !== 'create' && e.kind === 'not-found' && config.ifMissing === 'skip') {
    await confirmNoStaging(
      ctx,
      `${ENDPOINTS[op].method} ${ctx.client.shown(ENDPOINTS[op].path(siteId))} answered 404`,
    )
    // A 404 does not tell a missing staging environment from a missing site (a mistyped id): say both.
    logger.info(
      `Site ${siteId}: no staging environment (HTTP 404): skipped (${setting('if-missing', 'skip')}).`,
    )
    answered(ctx, { message: e.serverMessage })
    return {
      outcome: 'skipped',
      summary: `Skipped: site ${siteId} has no staging environment, or there is no such site (HTTP 404; ${setting('if-missing', 'skip')}).`,
    }
  }
  // A 404 not skipped blames the site id only once the API root answered as the API (issue 24 §3).
  if (op !== 'create' && e.kind === 'not-found') throw await ctx.root.blame(ctx.client, e)
  throw e
}

/** if-exists: recreate: delete the old staging environment, wait until it is gone, create. */
async function recreate(ctx: RunContext): Promise<ApiResponse | Ending> {
  const { siteId, logger } = ctx
  logger.info(
    `Site ${siteId} already has a staging environment: deleting it first (${setting('if-exists', 'recreate')}).`,
  )
  let deleted: ApiResponse
  try {
    deleted = await send(ctx, 'delete')
  } catch (d) {
    // Gone in the meantime (404): nothing left to delete, once the API root is known to be right.
    if (!(d instanceof ApiError) || d.kind !== 'not-found') throw d
    await confirmNoStaging(ctx, `DELETE ${ctx.client.shown(ENDPOINTS.delete.path(siteId))} answered 404`)
    return create(ctx)
  }
  const gone = await follow(ctx, 'delete', deleted, true)
  if (gone.outcome === 'accepted')
    throw new ApiError({
      kind: 'unknown-outcome',
      processing: 'processed',
      httpStatus: deleted.status,
      message: `The old staging environment's deletion was accepted, but its end could not be confirmed, so no new one was created (${setting('if-exists', 'recreate')}). Run again once it is gone.`,
    })
  if (gone.outcome !== 'succeeded') return gone
  logger.info('The old staging environment is gone; creating the new one.')
  return create(ctx)
}

/** recreate's create: one whose try got no answer, then "exists" or busy, went through (applyPolicy follows it). */
const create = (ctx: RunContext) =>
  send(ctx, 'create').catch((e) => (e?.afterUnknown ? applyPolicy(ctx, 'create', e) : Promise.reject(e)))

/** After an accepted request: its task id and (create) staging fields, then the wait, unless wait: false. */
async function follow(ctx: RunContext, op: JobOperation, sent: ApiResponse, wait: boolean): Promise<Ending> {
  const data = sent.reply.data
  const task = taskIdOf(data)
  const taskId = task && 'id' in task ? task.id : null
  if (task && 'unusable' in task)
    ctx.logger.warn(
      `The server gave a task id that cannot be used in a URL ("${ctx.redactor.server(task.unusable, 60)}"): following the staging environment instead.`,
    )
  if (taskId) answered(ctx, { taskId })
  if (op === 'create') fillStagingFields(ctx, data, CREATE_ANSWER)
  if (!wait) {
    ctx.logger.info(
      `The ${op} was accepted (HTTP ${sent.status}); not waiting for it (${setting('wait', 'false')}).`,
    )
    return {
      outcome: 'accepted',
      summary: `The ${op} was accepted (HTTP ${sent.status}); not waited for. ${checkLaterHint(ctx.siteId, taskId)}`,
    }
  }
  return track(ctx, op, taskId)
}

/** Waits for the job and says how it ended. */
async function track(ctx: RunContext, op: JobOperation, taskId: string | null): Promise<Ending> {
  at(ctx, `waiting for the ${op} job${taskId ? ` (task ${taskId})` : ''} to finish`)
  if (op !== 'delete' && op !== 'push' && !ctx.facts.complete)
    ctx.siteList.early(ctx.client, ctx.config.siteIds.length, ctx.clock.now())
  const outcome = taskId
    ? await waitForTask(ctx, op, ctx.siteId, taskId, ctx.clock.now())
    : await waitForProbe(ctx, op, ctx.siteId)
  const ending = settle(ctx, op, outcome)
  if (outcome.kind === 'failed') jobIs(ctx, op, 'failed')
  // A create that failed made no staging site to point at (its id is still said, for a clean-up).
  if (outcome.kind === 'failed' && op === 'create' && (ctx.facts.id || ctx.facts.url))
    ctx.facts.disown('was named by a create job that failed')
  if (ending.outcome === 'succeeded') {
    jobIs(ctx, op, 'completed')
    // A delete that succeeded is the one word that makes staging "none"; any other job leaves it in place.
    ctx.facts.learn(
      { kind: 'job', words: `the ${op} job` },
      op === 'delete' ? { state: 'none' } : { exists: true },
    )
  }
  return ending
}

/** Sends the operation's request (sendJob); an attempt of unknown outcome becomes an unknown-outcome failure. */
async function send(ctx: RunContext, op: JobOperation): Promise<ApiResponse> {
  const { method, path } = ENDPOINTS[op]
  at(ctx, `sending the ${op} request`)
  const request = () => ctx.client.call(method, path(ctx.siteId), op)
  try {
    return await sendJob(ctx, op, request, (e) => !firstTryWent(op, e))
  } catch (e) {
    // Still 'sent': a try got no answer, whatever was answered after it (sendJob); the policies read the rest.
    const policy =
      ['not-found', 'exists', op === 'create' && 'busy'].includes((e as ApiError).kind) ||
      firstTryWent(op, e as ApiError)
    throw e instanceof ApiError && !policy && jobState(ctx, op) === 'sent' ? unknownOutcome(ctx, op, e) : e
  } finally {
    if (op === 'push' && ['sent', 'accepted'].includes(jobState(ctx, op) ?? '')) note(ctx, ...PUSH_WARNINGS) // taken, or lost
  }
}

/** The request that starts a job (an operation, a checkpoint, a restore), recorded by what the server last said
 * of it: sent, then accepted; never sent or refused: none; a 429/503 being waited out at the stop, or busy:
 * not-taken; no answer to any try: still sent. Busy is sent again after a pause under if-busy: wait (`mayWait`). */
export async function sendJob(
  ctx: RunContext,
  op: Job,
  request: () => Promise<ApiResponse>,
  mayWait: (e: ApiError) => boolean = () => true,
): Promise<ApiResponse> {
  const { client } = ctx
  const step = ctx.record.step
  let unknown = false // a try that got no answer keeps it sent (unknown), whatever came after
  for (let busyTries = 0; ; busyTries++) {
    const sentBefore = client.sent.length
    jobIs(ctx, op, 'sent')
    try {
      const response = await request()
      answered(ctx, { httpStatus: response.status })
      jobIs(ctx, op, 'accepted')
      return response
    } catch (e) {
      const said = e instanceof ApiError ? e : ((e as DeadlineError).lastError ?? client.waitingAfter)
      if (said) answered(ctx, { httpStatus: said.httpStatus })
      unknown ||= !!said?.afterUnknown
      const busy = e instanceof ApiError && e.kind === 'busy' && ctx.config.ifBusy === 'wait' && mayWait(e)
      const notTaken = busy || (!(e instanceof ApiError) && said?.processing === 'not-processed')
      if (!unknown && client.sent.length === sentBefore) jobIs(ctx, op, null)
      else if (!unknown && notTaken) jobIs(ctx, op, 'not-taken', said!.httpStatus)
      else if (!unknown && e instanceof ApiError && e.processing !== 'unknown') jobIs(ctx, op, null)
      if (!busy) throw e
      // if-busy: wait: one pause before the refused request is sent again.
      const delayMs = ctx.busy.delayMs(busyTries)
      if (ctx.busy.passesDeadline(delayMs)) throw new DeadlineError()
      at(ctx, `waiting for another job on site ${ctx.siteId} to finish`)
      ctx.logger.info(
        `Site ${ctx.siteId} is busy with another job (a creation, pull or push): sending the ${op} again in ${durationText(delayMs, 'log')} (${setting('if-busy', 'wait')}).`,
      )
      if (!(await ctx.busy.sleep(delayMs))) throw new DeadlineError()
      at(ctx, step)
    }
  }
}

function unknownOutcome(ctx: RunContext, op: JobOperation, e: ApiError): ApiError {
  const what = {
    create: 'A staging environment may or may not be being created.',
    pull: 'Staging may or may not be being overwritten with production.',
    push: 'Production may or may not be being overwritten with staging.',
    delete: 'The staging environment may or may not be being deleted.',
  }[op]
  let again = op === 'push' || op === 'delete' ? 'It was not sent again, by design.' : 'Retries were used up.'
  if (e.processing !== 'unknown') again = 'An earlier try got no answer.'
  return e.retold({
    kind: 'unknown-outcome',
    processing: 'unknown',
    message: `The outcome of the ${op} request is unknown (${e.message}) ${what} ${again}`,
  })
}
