import {
  MISSING_STATUS,
  PROBE_UNSUPPORTED,
  TASK_INVISIBLE_GRACE_MS,
  probeState,
  taskComment,
  taskState,
} from '../contract.js'
import { ApiError } from '../api/errors.js'
import { CancelledError, seconds } from '../clock.js'
import { DeadlineError, type StagingApiClient } from '../api/client.js'
import { TaskStatusSchema } from '../api/schemas.js'
import type { Clock, Logger, Operation } from '../types.js'
import { PollPlanner } from './poll-planner.js'

export interface WaitDeps {
  client: StagingApiClient
  clock: Clock
  logger: Logger
  signal?: AbortSignal
  /** Minimum time between two progress lines in the log. */
  progressEveryMs?: number
}

/** How following a job ended; timeouts and cancellation are thrown (DeadlineError, CancelledError). */
export type WaitOutcome =
  | { kind: 'completed'; data: unknown }
  | { kind: 'failed'; reason: string }
  | { kind: 'untrackable'; reason: string }

/** Transient trouble while polling: keep waiting rather than fail a job that may be fine. */
const TRANSIENT = new Set(['server', 'network', 'timeout', 'bad-response', 'rate-limited'])

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
  deps.logger.info(`Waiting for the ${operation} job (task ${taskId}) to finish…`)
  return sharingBudget(deps, () => followTask(deps, operation, siteId, taskId, startedAt))
}

async function followTask(
  deps: WaitDeps,
  operation: Operation,
  siteId: string,
  taskId: string,
  startedAt: number,
): Promise<WaitOutcome> {
  const { client, clock, logger } = deps
  const planner = new PollPlanner({ startedAt })
  const progress = new ProgressLog(deps, `${operation} on site ${siteId}`, startedAt)
  let delay = planner.firstDelay()
  let seen = false
  for (;;) {
    await sleepWithin(deps, delay)
    const at = clock.now()
    let answer
    try {
      answer = await client.call('GET', `/tasks/${encodeURIComponent(taskId)}/status`, 'read')
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
      if (e.httpStatus === MISSING_STATUS) {
        if (at - startedAt < TASK_INVISIBLE_GRACE_MS) {
          logger.debug(`task ${taskId} is not visible yet (404)`)
          planner.observe(at, undefined)
          delay = planner.nextDelay(clock.now())
          continue
        }
        logger.warn(
          `Task ${taskId} was still not found ${seconds(at - startedAt)} after the job started; following the staging environment instead.`,
        )
        return followProbe(deps, operation, siteId, startedAt)
      }
      if (TRANSIENT.has(e.kind)) {
        logger.warn(`Could not read the status of task ${taskId} (${e.message}); still waiting.`)
        planner.observe(at, undefined)
        delay = Math.max(planner.nextDelay(clock.now()), 5000)
        continue
      }
      return { kind: 'untrackable', reason: `reading task ${taskId} failed: ${e.message}` }
    }
    const parsed = TaskStatusSchema.safeParse(answer.envelope.data)
    if (!parsed.success) {
      logger.warn(`The status of task ${taskId} did not have the expected form; still waiting.`)
      planner.observe(at, undefined)
      delay = planner.nextDelay(clock.now())
      continue
    }
    const task = parsed.data
    if (task.created_at && !seen)
      logger.debug(`task ${taskId} was created on the server at ${task.created_at.toISOString()}`)
    seen = true
    const state = taskState(task.status)
    if (state === 'completed') {
      progress.done()
      return { kind: 'completed', data: task }
    }
    if (state === 'failed') {
      const reason = taskComment(task.comment) ?? `the task ended with status "${task.status}"`
      return { kind: 'failed', reason }
    }
    if (state === 'unknown')
      logger.info(`Task ${taskId} reports an unknown status "${task.status}"; still waiting.`)
    planner.observe(at, task.percentage_complete)
    progress.maybe(task.percentage_complete)
    delay = planner.nextDelay(clock.now())
  }
}

/**
 * Follows a job with no task id through the staging probe `GET /v2/sites/{site}/staging`
 * (contract §3). Never reports success it did not see.
 */
export async function waitForProbe(
  deps: WaitDeps,
  operation: Operation,
  siteId: string,
  startedAt: number,
): Promise<WaitOutcome> {
  return sharingBudget(deps, () => followProbe(deps, operation, siteId, startedAt))
}

async function followProbe(
  deps: WaitDeps,
  operation: Operation,
  siteId: string,
  startedAt: number,
): Promise<WaitOutcome> {
  const { client, clock, logger } = deps
  const planner = new PollPlanner({ startedAt })
  const progress = new ProgressLog(deps, `${operation} on site ${siteId}`, startedAt)
  let seenBusy = false
  let delay = planner.firstDelay()
  for (;;) {
    await sleepWithin(deps, delay)
    const at = clock.now()
    planner.observe(at, undefined)
    delay = planner.nextDelay(at)
    let answer
    try {
      answer = await client.call('GET', probePath(siteId), 'read')
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
      if (e.httpStatus === MISSING_STATUS) {
        if (operation === 'delete') return { kind: 'completed', data: null }
        return {
          kind: 'untrackable',
          reason: 'the staging environment is not visible (404), so completion cannot be tracked',
        }
      }
      if (e.httpStatus !== null && PROBE_UNSUPPORTED.includes(e.httpStatus)) {
        return {
          kind: 'untrackable',
          reason: `the service does not offer the staging probe (${e.httpStatus})`,
        }
      }
      if (TRANSIENT.has(e.kind)) {
        logger.warn(`Could not read the staging environment (${e.message}); still waiting.`)
        delay = Math.max(delay, 5000)
        continue
      }
      return { kind: 'untrackable', reason: `reading the staging environment failed: ${e.message}` }
    }
    const state = probeState(answer.envelope.data)
    if (state === 'busy') {
      seenBusy = true
      progress.maybe(undefined)
      continue
    }
    if (state === 'ready' && operation !== 'delete') {
      // A pull or push that has not started yet also looks "ready": believe it once the job was
      // seen running, or when it has had time to start (see docs/assumptions.md).
      if (operation === 'create' || seenBusy || at - startedAt >= PROBE_SETTLE_MS) {
        progress.done()
        return { kind: 'completed', data: answer.envelope.data }
      }
      continue
    }
    if (state === 'unknown') logger.debug('the staging probe gave no status this client knows; still waiting')
  }
}

/** How long a pull or push must have had to start before a "ready" probe counts as "done". */
export const PROBE_SETTLE_MS = 10_000

/** Counts this follower in the batch's rate budget for as long as it polls. */
async function sharingBudget<T>(deps: WaitDeps, follow: () => Promise<T>): Promise<T> {
  const leave = deps.client.budget.join()
  try {
    return await follow()
  } finally {
    leave()
  }
}

export function probePath(siteId: string): string {
  return `/sites/${encodeURIComponent(siteId)}/staging`
}

/**
 * Sleeps before the next poll: `wanted` (what the planner asks), later if the batch's rate budget
 * says so (RateBudget.pollAt: calls are scarce, and this job is not likely to have ended yet). A
 * follower held back looks again every second (a sibling may end, a window begin); no wait runs
 * past the deadline: then DeadlineError at once, with no pointless sleep.
 */
async function sleepWithin(deps: WaitDeps, wanted: number): Promise<void> {
  const { clock, client, signal } = deps
  const wantedAt = clock.now() + Math.max(0, wanted)
  for (;;) {
    const now = clock.now()
    const left = client.deadline - now
    if (left <= 0) throw new DeadlineError()
    const { at, final, wake } = client.budget.pollAt(deps, wantedAt)
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
    // Held: until `at`, or until the budget wakes the held followers (a sibling has ended).
    try {
      await clock.sleep(ms, signal ? AbortSignal.any([signal, wake]) : wake)
    } catch (e) {
      if (!(e instanceof CancelledError) || signal?.aborted) throw e
    }
  }
}

/** A progress line now and then, not at every poll. */
class ProgressLog {
  private lastAt: number
  constructor(
    private readonly deps: WaitDeps,
    private readonly what: string,
    private readonly startedAt: number,
  ) {
    this.lastAt = startedAt
  }
  maybe(percent: number | undefined): void {
    const now = this.deps.clock.now()
    if (now - this.lastAt < (this.deps.progressEveryMs ?? 15_000)) return
    this.lastAt = now
    const pct = percent === undefined ? '' : ` ${Math.round(percent)}%,`
    this.deps.logger.info(`… ${this.what}:${pct} still running after ${elapsed(now - this.startedAt)}`)
  }
  done(): void {
    this.deps.logger.info(`${this.what} finished after ${elapsed(this.deps.clock.now() - this.startedAt)}.`)
  }
}

export function elapsed(ms: number): string {
  const s = Math.round(ms / 1000)
  return s >= 60 ? `${Math.floor(s / 60)}m ${s % 60}s` : `${s}s`
}
