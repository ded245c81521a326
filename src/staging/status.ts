import { isRecord, probePath, probeState, probeUnsupported } from '../contract.js'
import { ApiError } from '../api/errors.js'
import { TaskStatusSchema } from '../api/schemas.js'
import type { RunContext } from './context.js'
import { at, answered } from './record.js'
import { checkLaterHint, taskStatusPath } from './endpoints.js'
import { fromSiteList } from './other-sources.js'
import { settle, taskFailed, type Ending } from './ending.js'
import { confirmNoStaging, learnFromStaging, readStaging } from './probe.js'
import { fillStagingFields, SITE_LIST, STAGING_READ, TASK } from './staging-fields.js'
import { waitForTask } from './wait/follow.js'
import { outputNamed, setting } from '../words.js'

/** `status`: reads the staging environment, or follows an earlier job (task-id). Sends only GETs. */
export async function status(ctx: RunContext): Promise<Ending> {
  const taskId = ctx.config.taskId
  if (!taskId) {
    at(ctx, 'reading the staging environment')
    return readState(ctx)
  }
  answered(ctx, { taskId })
  if (!ctx.config.wait) {
    at(ctx, `reading task ${taskId}`)
    return readTaskOnce(ctx, taskId)
  }
  at(ctx, `waiting for the job (task ${taskId}) to finish`)
  const outcome = await waitForTask(ctx, 'status', ctx.siteId, taskId, ctx.clock.now())
  const ending = settle(ctx, 'status', outcome)
  if (ending.outcome !== 'succeeded') return ending
  await learnFromStaging(ctx)
  ctx.facts.learn(STAGING_READ, { state: 'unknown' })
  return { outcome: 'succeeded', summary: `The job (task ${taskId}) has completed.` }
}

/** The staging environment's state: the point of the run, so a read that fails fails it. */
async function readState(ctx: RunContext): Promise<Ending> {
  const { siteId, facts } = ctx
  let read
  try {
    read = await readStaging(ctx)
  } catch (e) {
    if (!(e instanceof ApiError)) throw e
    answered(ctx, { httpStatus: e.httpStatus })
    facts.learn(STAGING_READ, { state: 'unknown' })
    if (probeUnsupported(e.httpStatus)) {
      // No staging read on this service: the site list may still name the staging site (issue 20 §1).
      const listed = await fromSiteList(ctx)
      if ('record' in listed) {
        const state = listed.record ? probeState(listed.record) : 'unknown'
        facts.learn(SITE_LIST, { state })
        return {
          outcome: 'succeeded',
          summary:
            `Site ${siteId} has a staging environment (the site list names it; the service offers no way to read the staging environment itself)` +
            (state === 'unknown'
              ? ', in a state the list does not say.'
              : `; it is ${state === 'busy' ? 'busy with a job' : 'ready'}.`),
        }
      }
      facts.note(listed.note)
      throw e.retold({
        kind: 'validation',
        processing: 'processed',
        message: `The service does not offer a way to read the staging environment (GET ${ctx.client.shown(probePath(siteId))} answered ${e.httpStatus}).`,
        hint: `Follow a job instead: give ${setting('task-id')} (${outputNamed('task-id')} of the run that started it).`,
      })
    }
    throw e
  }
  if (read.kind === 'missing') {
    answered(ctx, { httpStatus: read.error.httpStatus })
    const because = `GET ${ctx.client.shown(probePath(siteId))} answered 404`
    facts.learn(STAGING_READ, { state: 'unknown' })
    await confirmNoStaging(ctx, because)
    facts.learn({ kind: 'read', words: `the staging read (${because})` }, { state: 'none' })
    return {
      outcome: 'succeeded',
      summary: `Site ${siteId} has no staging environment.`,
      message: read.error.serverMessage,
    }
  }
  answered(ctx, { httpStatus: read.status, message: ctx.record.message || read.message })
  // No record (`data: null`, `[]`, `{}`), or one that is not a staging (production's own): no evidence either way.
  const { data } = read
  const record = isRecord(data) && Object.keys(data).length > 0
  if (!record || !fillStagingFields(ctx, data, STAGING_READ)) {
    facts.learn(STAGING_READ, { state: 'unknown' })
    return {
      outcome: 'failed',
      summary: `Whether site ${siteId} has a staging environment is not known: GET ${ctx.client.shown(probePath(siteId))} answered ${read.status} with no record of one.`,
      error: { kind: 'bad-response', hint: `Look at site ${siteId} in the dashboard, or run again.` },
    }
  }
  const state = read.state
  facts.learn(STAGING_READ, { state })
  return {
    outcome: 'succeeded',
    summary:
      state === 'unknown'
        ? `Site ${siteId} has a staging environment, in a state that is not known here.`
        : `Site ${siteId} has a staging environment; it is ${state === 'busy' ? 'busy with a job' : 'ready'}.`,
  }
}

/** One look at a task (status with task-id and wait: false). */
async function readTaskOnce(ctx: RunContext, taskId: string): Promise<Ending> {
  const answer = await ctx.client.call('GET', taskStatusPath(taskId), 'read')
  answered(ctx, { httpStatus: answer.status })
  const task = TaskStatusSchema.safeParse(answer.reply.data)
  const state = task.success ? task.data.state : 'unknown'
  if (state === 'failed') {
    const reason =
      task.success && task.data.reason ? ctx.redactor.server(task.data.reason) : 'no reason given'
    throw taskFailed(`The job (task ${taskId})`, reason)
  }
  ctx.facts.learn(TASK, { state: state === 'running' ? 'busy' : state === 'completed' ? 'ready' : 'unknown' })
  const pct = task.success && task.data.percent !== undefined ? ` (${Math.round(task.data.percent)}%)` : ''
  return {
    outcome: 'succeeded',
    summary:
      state === 'completed'
        ? `The job (task ${taskId}) has completed.`
        : state === 'running'
          ? `The job (task ${taskId}) is still running${pct}. ${checkLaterHint(ctx.siteId, taskId)}`
          : `The job (task ${taskId}) reports a status that is not known here.`,
  }
}
