import { CancelledError } from '../../clock.js'
import {
  isProductionId,
  MISSING_STATUS,
  PROBE_EVIDENCE_WINDOW_MS,
  probeBusyWith,
  probePath,
  probeState,
  probeUnsupported,
  TASK_INVISIBLE_GRACE_MS,
} from '../../contract.js'
import { DeadlineError, type StagingApiClient } from '../../api/client.js'
import { ApiError } from '../../api/errors.js'
import { TaskStatusSchema } from '../../api/schemas.js'
import { durationText } from '../../duration.js'
import type { Redactor } from '../../secrets/redactor.js'
import type { Clock, Followed as Operation, Logger } from '../../types.js'
import { jobOf, outputNamed, setting } from '../../words.js'
import { taskStatusPath } from '../endpoints.js'
import { stagingOf } from '../site-list.js'
import type { PollScheduler } from './batch.js'
import { PollPlanner } from './planner.js'

/** What following a job needs (the run's context serves). The one loop (`follow`) and its words:
 * docs/development.md, "The waiting wing". */
export interface WaitDeps {
  client: StagingApiClient
  polls: PollScheduler
  clock: Clock
  logger: Logger
  redactor: Redactor
  signal?: AbortSignal
}

/** How following a job ended (a timeout or a cancellation is thrown): `completed` as the server said (a task,
 * the probe ready after the job was seen busy, gone after a delete), `untrackable` when nothing can tell,
 * `unconfirmed` when the probe is ready but the job was never seen running (§3). */
export type WaitOutcome =
  | { kind: 'completed'; data: unknown; from: 'task' | 'probe' }
  | { kind: 'failed'; reason: string }
  | { kind: 'untrackable'; reason: string }
  | { kind: 'unconfirmed'; reason: string }

/** What one look says: how the job ended, or it runs (its progress, if any), or nothing yet. */
type Look = WaitOutcome | { percent: number | undefined } | 'waiting'

/** Transient trouble while polling: keep waiting rather than fail a job that may be fine. */
const TRANSIENT = new Set(['server', 'network', 'timeout', 'bad-response', 'rate-limited'])

/** The ids a run follows (tasks, versions), by the site and job each was first given for (keyed by the run's scheduler). */
const OWNERS = new WeakMap<object, Map<string, [string, string, boolean?]>>()
/** The other job of the run that `key` was first given for (`site 1002`, `this site's checkpoint`); null when it is
 * this one's. A second claim marks the key contested: the first job's follow then tells nothing either. */
export function claimFor(polls: object, key: string, siteId: string, job = ''): string | null {
  const owners = OWNERS.get(polls) ?? OWNERS.set(polls, new Map()).get(polls)!
  const owner = owners.get(key) ?? owners.set(key, [siteId, job]).get(key)!
  const other =
    owner[0] !== siteId ? `site ${owner[0]}` : owner[1] !== job ? `this site's ${jobOf(owner[1])}` : null
  if (other) owner[2] = true
  return other
}

/** Follows a task through `GET /v2/tasks/{id}/status` (contract §2); the staging probe if it stays invisible. */
export function waitForTask(
  deps: WaitDeps,
  operation: Operation,
  siteId: string,
  taskId: string,
  startedAt: number,
): Promise<WaitOutcome> {
  const { client, logger, redactor } = deps
  // One task given for two jobs of the run (two sites, or a site's checkpoint and its push) tells neither
  // (contract §3): the second is not followed on it.
  const other = claimFor(deps.polls, `task ${taskId}`, siteId, operation)
  if (other)
    return Promise.resolve({ kind: 'untrackable', reason: `task ${taskId} was also given for ${other}` })
  logger.info(`Waiting for the ${jobOf(operation)} (task ${taskId}) to finish…`)
  const unknownSeen = new Set<string>()
  return follow(deps, operation, siteId, `the status of task ${taskId}`, startedAt, async (elapsed) => {
    if (OWNERS.get(deps.polls)?.get(`task ${taskId}`)?.[2])
      return { kind: 'untrackable', reason: `task ${taskId} was also given for another job of this run` }
    let answer
    try {
      answer = await client.call('GET', taskStatusPath(taskId), 'read')
    } catch (e) {
      if (!(e instanceof ApiError) || e.httpStatus !== MISSING_STATUS || e.kind === 'api-url') throw e
      if (elapsed < TASK_INVISIBLE_GRACE_MS) {
        logger.debug(`task ${taskId} is not visible yet (404)`)
        return 'waiting'
      }
      // `status` started no job: a task never seen is none to follow, and the staging environment is not it.
      if (operation === 'status')
        throw e.retold({
          message: `Task ${taskId} was not found (HTTP 404): there is no such task, or it is gone since it ended.`,
          hint: `Check ${setting('task-id')}: the ${outputNamed('task-id')} of the run that started the job.`,
        })
      // A version's or a restore's task has no staging environment to follow instead (contract §13).
      if (operation === 'checkpoint' || operation === 'rollback')
        return { kind: 'untrackable', reason: `task ${taskId} was not found (404)` }
      logger.warn(
        `Task ${taskId} was not found ${durationText(elapsed, 'log')} after the job started; following the staging environment instead.`,
      )
      // Seen running is no evidence of its end (it may have failed, contract §3 r2): the probe must see it busy.
      return waitForProbe(deps, operation, siteId)
    }
    const parsed = TaskStatusSchema.safeParse(answer.reply.data)
    if (!parsed.success) {
      logger.warn(`The status of task ${taskId} did not have the expected form; still waiting.`)
      return 'waiting'
    }
    const task = parsed.data
    if (task.state === 'completed') return { kind: 'completed', data: answer.reply.data, from: 'task' }
    const shown = redactor.server(
      typeof task.status === 'object' ? JSON.stringify(task.status) : task.status,
      60,
    )
    if (task.state === 'failed')
      return {
        kind: 'failed',
        reason: task.reason ? redactor.server(task.reason) : `the task ended with status "${shown}"`,
      }
    if (task.state !== 'running' && !unknownSeen.has(shown)) {
      unknownSeen.add(shown)
      logger.info(`Task ${taskId} reports a status that is not known here ("${shown}"); still waiting.`)
    }
    return { percent: task.percent }
  })
}

/** Follows a job with no task id through the staging probe (contract §3); never reports success it did not
 * see (`seenBusy`: its task was seen running before it went invisible). */
export function waitForProbe(
  deps: WaitDeps,
  operation: Operation,
  siteId: string,
  seenBusy = false,
): Promise<WaitOutcome> {
  const { client, logger, clock } = deps
  return follow(deps, operation, siteId, 'the staging environment', clock.now(), async (elapsed) => {
    let answer
    try {
      answer = await client.call('GET', probePath(siteId), 'read')
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
      if (e.httpStatus !== null && (probeUnsupported(e.httpStatus) || e.kind === 'api-url'))
        return {
          kind: 'untrackable',
          reason: `the service offers no way to read the staging environment's status (HTTP ${e.httpStatus})`,
        }
      if (e.httpStatus !== MISSING_STATUS) throw e
      if (operation === 'delete') return { kind: 'completed', data: null, from: 'probe' }
      if (operation === 'create' && elapsed < TASK_INVISIBLE_GRACE_MS) return 'waiting'
      return {
        kind: 'untrackable',
        reason: 'the staging environment is not visible (404), so completion cannot be tracked',
      }
    }
    const data = answer.reply.data
    const others = stagingOf(data).filter((id) => !isProductionId(id, siteId))
    if (others.length)
      return {
        kind: 'untrackable',
        reason: `the staging read names the staging of site ${others[0]}, not of site ${siteId}`,
      }
    const state = probeState(data)
    if (state === 'busy') {
      // Evidence only of that job (§3 r2): staging busy pushing is no sign of a pull.
      const job = probeBusyWith(data)
      if (job === 'any' || job === operation) seenBusy = true
      return { percent: undefined }
    }
    if (state === 'ready' && operation !== 'delete') {
      // Before a create there was no staging: "ready" is the new one. A pull or push that has not
      // started, or that failed, looks exactly like one that finished: only a job seen busy counts.
      if (operation === 'create' || seenBusy) return { kind: 'completed', data, from: 'probe' }
      if (elapsed >= PROBE_EVIDENCE_WINDOW_MS)
        return {
          kind: 'unconfirmed',
          reason: `the staging environment looks ready, but this run never saw it busy with the ${jobOf(operation)}, so it cannot tell whether the job ran, failed or has not started`,
        }
    }
    if (state === 'unknown')
      logger.debug("the staging environment's status gave no state this client knows; still waiting")
    return 'waiting'
  })
}

/** The one loop: sleep, `look`, until it says how the job ended; transient trouble keeps waiting. */
export async function follow(
  deps: WaitDeps,
  operation: Operation,
  siteId: string,
  what: string,
  startedAt: number,
  look: (elapsedMs: number) => Promise<Look>,
): Promise<WaitOutcome> {
  const { clock, logger, polls } = deps
  const leave = polls.join(deps, deps.signal) // keyed by these deps, as sleepWithin asks with them
  const planner = new PollPlanner(startedAt)
  const progress = progressOf(deps, operation, siteId, startedAt)
  const followedFrom = clock.now()
  try {
    let delay = planner.nextDelay(clock.now())
    for (;;) {
      await sleepWithin(deps, delay, planner)
      let now: Look
      try {
        now = await look(clock.now() - startedAt)
      } catch (e) {
        if (!(e instanceof ApiError)) throw e
        if (e.acceptsAgainAt) throw new DeadlineError(e)
        // A token refused while following, a task `status` asked for that is not there: the run fails.
        if (e.kind === 'auth' || (operation === 'status' && e.httpStatus === MISSING_STATUS)) throw e
        if (!TRANSIENT.has(e.kind))
          return { kind: 'untrackable', reason: `reading ${what} failed: ${e.message}` }
        logger.warn(`Could not read ${what} (${e.message}); still waiting.`)
        planner.observe(clock.now(), undefined)
        delay = Math.max(planner.nextDelay(clock.now()), TROUBLE_POLL_MS)
        continue
      }
      if (typeof now === 'object' && 'kind' in now) {
        if (now.kind === 'completed') progress(100, true)
        return now
      }
      const percent = now === 'waiting' ? undefined : now.percent
      planner.observe(clock.now(), percent)
      if (now !== 'waiting') progress(percent)
      delay = planner.nextDelay(clock.now())
    }
  } finally {
    if (leave) leave()
    const elapsedMs = clock.now() - followedFrom
    if (leave) logger.progress?.({ operation, siteId, percent: null, elapsedMs, etaMs: null, ended: true })
  }
}

/** Sleeps until the scheduler lets the next poll go (asked again whenever the time it gave comes; a held job
 * sleeps on its own wake-up). Past the deadline: DeadlineError, with no pointless sleep. */
async function sleepWithin(deps: WaitDeps, wanted: number, planner: PollPlanner): Promise<void> {
  const { clock, signal, polls } = deps
  const wantedAt = clock.now() + Math.max(0, wanted)
  for (;;) {
    const now = clock.now()
    const left = polls.deadline - now
    if (left <= 0) throw new DeadlineError()
    const ask = { wantedAt, end: planner.end(now), answers: planner.answers }
    const { at, final, wake } = polls.pollAt(deps, ask)
    if (at <= now) return
    const ms = at - now
    if (ms >= left) {
      // The next poll past the deadline: one last look before it (the job may end sooner than its progress said),
      // if the scheduler lets it go then.
      if (left > LAST_LOOK_MS) {
        await clock.sleep(left - LAST_LOOK_MS, signal)
        const then = clock.now()
        if (polls.pollAt(deps, { ...ask, wantedAt: then, end: planner.end(then) }).at <= then) return
      }
      await clock.sleep(Math.max(0, polls.deadline - clock.now()), signal)
      throw new DeadlineError()
    }
    if (!wake) {
      await clock.sleep(ms, signal)
      if (final) return
      continue
    }
    try {
      await clock.sleep(ms, wake)
    } catch (e) {
      if (!(e instanceof CancelledError)) throw e
    }
    if (signal?.aborted) throw new CancelledError()
  }
}

/** One job's progress: a live update at every answer where the front end shows one, else a plain line now and then. */
function progressOf(deps: WaitDeps, operation: Operation, siteId: string, startedAt: number) {
  const { logger, clock } = deps
  let lineAt = startedAt
  return (percent: number | undefined, done = false) => {
    const now = clock.now()
    const elapsedMs = now - startedAt
    // A naive end estimate for people (the planner has its own): the average rate so far.
    const eta = percent && percent > 0 && percent < 100 ? (elapsedMs * (100 - percent)) / percent : null
    const update = { operation, siteId, percent: percent ?? null, elapsedMs, etaMs: eta }
    logger.progress?.(done ? { ...update, percent: 100, etaMs: 0, ended: true } : update)
    if (done)
      logger.info(`The ${jobOf(operation)} on site ${siteId} finished after ${durationText(elapsedMs)}.`)
    if (done || logger.progress || now - lineAt < PLAIN_LINE_EVERY_MS) return
    lineAt = now
    const pct = percent === undefined ? '' : ` ${Math.round(percent)}%,`
    logger.info(`… ${operation} on site ${siteId}:${pct} still running after ${durationText(elapsedMs)}`)
  }
}

/** Without a live line, a plain progress line at most this often. */
const PLAIN_LINE_EVERY_MS = 15_000
/** After transient trouble, the next look waits at least this long. */
const TROUBLE_POLL_MS = 5000
const LAST_LOOK_MS = 3000
