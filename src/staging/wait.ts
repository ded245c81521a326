import { durationText } from '../duration.js'
import { MISSING_STATUS, TASK_INVISIBLE_GRACE_MS } from '../contract.js'
import { ApiError } from '../api/errors.js'
import { CancelledError } from '../clock.js'
import { DeadlineError, type StagingApiClient } from '../api/client.js'
import { TaskStatusSchema } from '../api/schemas.js'
import type { Redactor } from '../secrets/redactor.js'
import type { Clock, Followed as Operation, Logger } from '../types.js'
import { taskStatusPath } from './endpoints.js'
import { PollPlanner } from './poll-planner.js'
import type { PollGate } from './poll-scheduler.js'
import { jobOf } from '../words.js'
import { followProbe } from './wait-reads.js'

export { waitForProbe, waitForVersion } from './wait-reads.js'

export interface WaitDeps {
  client: StagingApiClient
  /** The batch's poll scheduler: when a status call may go (shared by every job of a run). */
  polls: PollGate
  /** The calls this run makes once the job has ended (its final status call, a read after it). */
  callsAfterJob?: number
  clock: Clock
  logger: Logger
  redactor: Redactor
  signal?: AbortSignal
  /** Minimum time between two plain progress lines in the log (when the logger shows no live line). */
  progressEveryMs?: number
}

/** How following a job ended; timeouts and cancellation are thrown (DeadlineError, CancelledError). */
export type WaitOutcome =
  /** The server said so (task completed, probe ready after the job was seen busy, gone after a delete). */
  | { kind: 'completed'; data: unknown; from: 'task' | 'probe' }
  | { kind: 'failed'; reason: string }
  /** Nothing can tell how the job went (no probe, no task). */
  | { kind: 'untrackable'; reason: string }
  /** The probe says "ready", but this run never saw the job running: no evidence it ran (contract §3). */
  | { kind: 'unconfirmed'; reason: string }

/** Transient trouble while polling: keep waiting rather than fail a job that may be fine. */
export const TRANSIENT = new Set(['server', 'network', 'timeout', 'bad-response', 'rate-limited'])

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
    await sleepWithin(deps, delay)
    const at = clock.now()
    let answer
    try {
      answer = await client.call('GET', taskStatusPath(taskId), 'read')
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
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

/**
 * Counts this follower in the batch's poll scheduler for as long as it polls, and ends its live
 * progress however following ends (done, failed, timed out, cancelled).
 */
export async function sharingPolls<T>(
  deps: WaitDeps,
  operation: Operation,
  siteId: string,
  follow: () => Promise<T>,
): Promise<T> {
  // Keyed by these deps, as sleepWithin asks pollAt with them.
  const leave = deps.polls.join(deps, deps.callsAfterJob)
  const started = deps.clock.now()
  try {
    return await follow()
  } finally {
    leave()
    const elapsedMs = deps.clock.now() - started
    deps.logger.progress?.({ operation, siteId, percent: null, elapsedMs, etaMs: null, ended: true })
  }
}

/**
 * Sleeps before the next poll: `wanted` (what the planner asks), later if the batch's poll scheduler
 * says so (PollScheduler.pollAt: calls are scarce, and this job is not likely to have ended yet). A
 * follower held back looks again every second (a sibling may end, a window begin); no wait runs
 * past the deadline: then DeadlineError at once, with no pointless sleep.
 */
export async function sleepWithin(deps: WaitDeps, wanted: number): Promise<void> {
  const { clock, client, signal, polls } = deps
  const wantedAt = clock.now() + Math.max(0, wanted)
  for (;;) {
    const now = clock.now()
    const left = client.deadline - now
    if (left <= 0) throw new DeadlineError()
    const { at, final, wake } = polls.pollAt(deps, wantedAt)
    if (at <= now) return
    const ms = at - now
    if (ms >= left) {
      await clock.sleep(left, signal)
      throw new DeadlineError()
    }
    if (final || !wake) {
      await clock.sleep(ms, signal)
      if (final) return
      continue
    }
    // Held: until `at`, or until the scheduler wakes the held followers (a sibling has ended).
    try {
      await clock.sleep(ms, signal ? AbortSignal.any([signal, wake]) : wake)
    } catch (e) {
      if (!(e instanceof CancelledError) || signal?.aborted) throw e
    }
  }
}

/**
 * Progress of one job: a live update at every answer for a front end that shows one (the CLI on a
 * terminal), else a plain line now and then, never at every poll.
 */
export class Progress {
  private lastLineAt: number
  constructor(
    private readonly deps: WaitDeps,
    private readonly operation: Operation,
    private readonly siteId: string,
    private readonly startedAt: number,
  ) {
    this.lastLineAt = startedAt
  }
  update(percent: number | undefined): void {
    const now = this.deps.clock.now()
    const elapsedMs = now - this.startedAt
    const { logger } = this.deps
    if (logger.progress) {
      // A naive end estimate for people (the planner has its own): the average rate so far.
      const etaMs = percent && percent > 0 && percent < 100 ? (elapsedMs * (100 - percent)) / percent : null
      logger.progress({
        operation: this.operation,
        siteId: this.siteId,
        percent: percent ?? null,
        elapsedMs,
        etaMs,
      })
      return
    }
    if (now - this.lastLineAt < (this.deps.progressEveryMs ?? 15_000)) return
    this.lastLineAt = now
    const pct = percent === undefined ? '' : ` ${Math.round(percent)}%,`
    logger.info(
      `… ${this.operation} on site ${this.siteId}:${pct} still running after ${durationText(elapsedMs)}`,
    )
  }
  done(): void {
    const { logger, clock } = this.deps
    const elapsedMs = clock.now() - this.startedAt
    logger.progress?.({
      operation: this.operation,
      siteId: this.siteId,
      percent: 100,
      elapsedMs,
      etaMs: 0,
      ended: true,
    })
    logger.info(
      `The ${jobOf(this.operation)} on site ${this.siteId} finished after ${durationText(clock.now() - this.startedAt)}.`,
    )
  }
}
