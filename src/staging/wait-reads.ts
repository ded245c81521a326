import {
  MISSING_STATUS,
  PROBE_EVIDENCE_WINDOW_MS,
  probeUnsupported,
  TASK_INVISIBLE_GRACE_MS,
  probePath,
  probeState,
  taskState,
  versionIdOf,
  versionListPath,
} from '../contract.js'
import { ApiError } from '../api/errors.js'
import { DeadlineError } from '../api/client.js'
import type { Followed as Operation } from '../types.js'
import { PollPlanner } from './poll-planner.js'
import { listItems } from './site-list.js'
import {
  Progress,
  sharingPolls,
  sleepWithin,
  TRANSIENT,
  type WaitDeps,
  type WaitOutcome,
} from './poll-loop.js'
import { jobOf } from '../words.js'

/*
 * The followers that read something other than a task's status (wait.ts follows a task): the staging
 * probe (contract §3) and a site version's place in its site's list (§13), one polling loop for both.
 */

/**
 * Follows a job with no task id through the staging probe `GET /v2/sites/{site}/staging`
 * (contract §3). Never reports success it did not see.
 */
export async function waitForProbe(
  deps: WaitDeps,
  operation: Operation,
  siteId: string,
): Promise<WaitOutcome> {
  return sharingPolls(deps, operation, siteId, () =>
    followProbe(deps, operation, siteId, { seenBusy: false }),
  )
}

export async function followProbe(
  deps: WaitDeps,
  operation: Operation,
  siteId: string,
  evidence: { seenBusy: boolean },
): Promise<WaitOutcome> {
  const { client, logger } = deps
  let seenBusy = evidence.seenBusy
  return pollReads(deps, operation, siteId, 'the staging environment', async (at, startedAt) => {
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
      if (operation === 'create' && at - startedAt < TASK_INVISIBLE_GRACE_MS) return 'waiting'
      return {
        kind: 'untrackable',
        reason: 'the staging environment is not visible (404), so completion cannot be tracked',
      }
    }
    const data = answer.reply.data
    const state = probeState(data)
    if (state === 'busy') {
      seenBusy = true
      return 'busy'
    }
    if (state === 'ready' && operation !== 'delete') {
      // Before a create there was no staging: "ready" is the new one. A pull or push that has not
      // started, or that failed, looks exactly like one that finished: only a job seen busy counts.
      if (operation === 'create' || seenBusy) return { kind: 'completed', data, from: 'probe' }
      if (at - startedAt >= PROBE_EVIDENCE_WINDOW_MS)
        return {
          kind: 'unconfirmed',
          reason: `the staging environment looks ready, but this run never saw the ${jobOf(operation)} running, so it cannot tell whether the job ran, failed or has not started`,
        }
      return 'waiting'
    }
    if (state === 'unknown')
      logger.debug("the staging environment's status gave no state this client knows; still waiting")
    return 'waiting'
  })
}

/**
 * Follows a site version that was started with no task id (contract §13 names `data.task_id`; a
 * service may leave it out) through the site's version list, `GET /v2/site-versions?site_id=`: its
 * `status` `completed` ends the wait, `progress` keeps it, a failed status fails it. The same
 * waiting as a task (the planner, the batch's poll scheduler, one deadline).
 */
export async function waitForVersion(
  deps: WaitDeps,
  siteId: string,
  versionId: string,
): Promise<WaitOutcome> {
  deps.logger.info(`Waiting for version ${versionId} to complete (read from the site's version list)…`)
  const { client, redactor } = deps
  return sharingPolls(deps, 'checkpoint', siteId, () =>
    pollReads(deps, 'checkpoint', siteId, `site ${siteId}'s versions`, async (at, startedAt) => {
      const answer = await client.call('GET', versionListPath(siteId, 1, 100), 'read')
      const record = listItems(answer.reply.data).find((r) => versionIdOf(r) === versionId)
      if (!record)
        return at - startedAt < TASK_INVISIBLE_GRACE_MS
          ? 'waiting'
          : { kind: 'untrackable', reason: `version ${versionId} is not in site ${siteId}'s version list` }
      const status = record.status
      const state = taskState(status)
      if (state === 'completed') return { kind: 'completed', data: record, from: 'probe' }
      if (state === 'failed')
        return {
          kind: 'failed',
          reason: `version ${versionId} has the status "${redactor.server(String(status), 60)}"`,
        }
      return state === 'running' ? 'busy' : 'waiting'
    }),
  )
}

/** What one read of a follower says: its end, or keep polling (`busy`: the job was seen running). */
type Look = WaitOutcome | 'busy' | 'waiting'

/**
 * The polling loop of the followers that are not a task's: sleep as the planner and the batch's
 * poll scheduler say, `look` once, until it says how the job ended. Transient trouble keeps waiting;
 * a server that refuses every request until after the timeout ends it (DeadlineError).
 */
async function pollReads(
  deps: WaitDeps,
  operation: Operation,
  siteId: string,
  what: string,
  look: (at: number, startedAt: number) => Promise<Look>,
): Promise<WaitOutcome> {
  const { clock, logger } = deps
  const startedAt = clock.now()
  const planner = new PollPlanner({ startedAt })
  const progress = new Progress(deps, operation, siteId, startedAt)
  let delay = planner.firstDelay()
  for (;;) {
    await sleepWithin(deps, delay, planner)
    const at = clock.now()
    planner.observe(at, undefined)
    delay = planner.nextDelay(at)
    let now: Look
    try {
      now = await look(at, startedAt)
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
      // The server refuses every request until after the timeout: waiting on is pointless.
      if (e.acceptsAgainAt) throw new DeadlineError(e)
      if (!TRANSIENT.has(e.kind))
        return { kind: 'untrackable', reason: `reading ${what} failed: ${e.message}` }
      logger.warn(`Could not read ${what} (${e.message}); still waiting.`)
      delay = Math.max(delay, 5000)
      continue
    }
    if (now === 'busy') progress.update(undefined)
    else if (now !== 'waiting') {
      if (now.kind === 'completed') progress.done()
      return now
    }
  }
}
