import { durationText } from '../duration.js'
import { jobOf } from '../words.js'
import { MISSING_STATUS, TASK_INVISIBLE_GRACE_MS } from '../contract.js'
import { ApiError } from '../api/errors.js'
import { DeadlineError } from '../api/client.js'
import { TaskStatusSchema } from '../api/schemas.js'
import { taskStatusPath } from './endpoints.js'
import { PollPlanner } from './poll-planner.js'
import {
  Progress,
  sharingPolls,
  sleepWithin,
  TRANSIENT,
  type WaitDeps,
  type WaitOutcome,
} from './poll-loop.js'
import type { Followed as Operation } from '../types.js'
import { followProbe } from './wait-reads.js'

export type { WaitDeps, WaitOutcome } from './poll-loop.js'
export { waitForProbe, waitForVersion } from './wait-reads.js'
/**
 * Follows a background job to its end through `GET /v2/tasks/{id}/status` (contract §2), with the
 * adaptive PollPlanner. Falls back to the staging probe if the task stays invisible past the grace.
 */
export async function waitForTask(
  deps: WaitDeps,
  operation: Operation,
  siteId: string,
  taskId: string,
  startedAt: number,
): Promise<WaitOutcome> {
  deps.logger.info(`Waiting for the ${jobOf(operation)} (task ${taskId}) to finish…`)
  return sharingPolls(deps, operation, siteId, () => followTask(deps, operation, siteId, taskId, startedAt))
}

async function followTask(
  deps: WaitDeps,
  operation: Operation,
  siteId: string,
  taskId: string,
  startedAt: number,
): Promise<WaitOutcome> {
  const { client, clock, logger, redactor } = deps
  const planner = new PollPlanner({ startedAt })
  const progress = new Progress(deps, operation, siteId, startedAt)
  const unknownSeen = new Set<string>()
  let delay = planner.firstDelay()
  let seenRunning = false
  for (;;) {
    await sleepWithin(deps, delay, planner)
    // Each answer is read as of when it came, not when the poll was due: the client may have
    // waited for a call (a rate window) in between, and the bar moved meanwhile.
    let answer
    try {
      answer = await client.call('GET', taskStatusPath(taskId), 'read')
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
      const at = clock.now()
      if (e.httpStatus === MISSING_STATUS && e.kind !== 'api-url') {
        if (at - startedAt < TASK_INVISIBLE_GRACE_MS) {
          logger.debug(`task ${taskId} is not visible yet (404)`)
          planner.observe(at, undefined)
          delay = planner.nextDelay(clock.now())
          continue
        }
        // A version's or a restore's task has no staging environment to follow instead (contract §13).
        if (operation === 'checkpoint' || operation === 'rollback')
          return { kind: 'untrackable', reason: `task ${taskId} was not found (404)` }
        logger.warn(
          `Task ${taskId} was not found ${durationText(at - startedAt, 'log')} after the job started; following the staging environment instead.`,
        )
        return followProbe(deps, operation, siteId, { seenBusy: seenRunning })
      }
      // The server refuses every request until after the timeout: waiting on is pointless.
      if (e.acceptsAgainAt) throw new DeadlineError(e)
      if (TRANSIENT.has(e.kind)) {
        logger.warn(`Could not read the status of task ${taskId} (${e.message}); still waiting.`)
        planner.observe(at, undefined)
        delay = Math.max(planner.nextDelay(clock.now()), 5000)
        continue
      }
      return { kind: 'untrackable', reason: `reading task ${taskId} failed: ${e.message}` }
    }
    const at = clock.now()
    const parsed = TaskStatusSchema.safeParse(answer.reply.data)
    if (!parsed.success) {
      logger.warn(`The status of task ${taskId} did not have the expected form; still waiting.`)
      planner.observe(at, undefined)
      delay = planner.nextDelay(clock.now())
      continue
    }
    const task = parsed.data
    if (task.state === 'completed') {
      progress.done()
      return { kind: 'completed', data: answer.reply.data, from: 'task' }
    }
    if (task.state === 'failed') {
      const reason = task.reason
        ? redactor.server(task.reason)
        : `the task ended with status "${redactor.server(task.status, 60)}"`
      return { kind: 'failed', reason }
    }
    if (task.state === 'running') seenRunning = true
    else {
      const shown = redactor.server(
        typeof task.status === 'object' ? JSON.stringify(task.status) : task.status,
        60,
      )
      if (!unknownSeen.has(shown)) {
        unknownSeen.add(shown)
        logger.info(`Task ${taskId} reports a status that is not known here ("${shown}"); still waiting.`)
      }
    }
    planner.observe(at, task.percent)
    progress.update(task.percent)
    delay = planner.nextDelay(clock.now())
  }
}
