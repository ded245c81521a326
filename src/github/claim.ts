/**
 * Before the operation: who staging shows (`if-staging-taken`), then this run's deployment, which
 * records this run as what staging will show. A Stop when the operation must not start; every
 * request within the step's one deadline, every wait through the one backoff helper.
 */
import { Backoff } from '../backoff.js'
import { CancelledError } from '../clock.js'
import { CLAIMING_OPERATIONS } from '../inputs/index.js'
import type { Outcome } from '../types.js'
import { deploymentSha, pullRequestTarget, type Repo } from './context.js'
import { DEPLOYING_OPERATIONS, startDeployment } from './deployments.js'
import {
  describeOwner,
  findOwner,
  isOpen,
  ownerName,
  ownerPayload,
  taskFor,
  type CurrentOwner,
} from './ownership.js'
import { rateLimited } from './errors.js'
import { beforePhase, deploymentContext, messageOf, type GitHubRun } from './run.js'

/** Why the operation must not start (if-staging-taken): nothing was sent to the staging service. */
export interface Stop {
  result: Extract<Outcome, 'failed' | 'timed-out' | 'cancelled'>
  message: string
}

const NOTHING_SENT = 'nothing was sent to the staging service'

export async function before(run: GitHubRun): Promise<Stop | null> {
  try {
    if (!run.o.settings.environment || run.o.signal?.aborted) return null
    if (run.o.dryRun) {
      run.o.log.info('deployment-environment: a dry run makes no deployment.')
      return null
    }
    // Delete marks the environment inactive after the operation; status makes no deployment.
    if (!DEPLOYING_OPERATIONS.includes(run.o.operation)) return null
    const sha = deploymentSha(run.ctx.eventName, run.ctx.payload, run.ctx.env)
    if ('reason' in sha) {
      run.warnDeployment(`Could not create a deployment: ${sha.reason}. The staging result is not affected.`)
      return null
    }
    run.claim = claimOf(run, sha.sha)
    if (run.claim && run.repo) {
      const stop = await checkWhoStagingShows(run, run.repo, run.claim)
      if (stop) return stop
    }
    await startRunDeployment(run, sha.sha)
    return null
  } catch (e) {
    run.warnDeployment(`Could not create a deployment: ${messageOf(e)}`)
    return null
  } finally {
    run.o.setOutput('deployment-id', run.deploymentId === null ? '' : String(run.deploymentId))
  }
}

/** This run's claim on staging: one site, an operation that refreshes it, the triggering pull request. */
function claimOf(run: GitHubRun, sha: string): GitHubRun['claim'] {
  if (run.o.siteIds.length !== 1 || !CLAIMING_OPERATIONS.includes(run.o.operation)) return null
  const where = pullRequestTarget(run.ctx.eventName, run.ctx.payload, run.ctx.repository)
  const runId = Number(run.ctx.env.GITHUB_RUN_ID)
  return {
    siteId: run.o.siteIds[0]!,
    owner: {
      pr: 'target' in where ? where.target.number : null,
      sha,
      runUrl: run.ctx.runUrl,
      runId: Number.isSafeInteger(runId) && runId > 0 ? runId : null,
      at: new Date(run.o.clock.wallNow()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    },
  }
}

/** Who staging shows now. Another open pull request's: `take` goes on (and tells it afterwards), `wait` waits
 * for its workflow run to end (within the step's deadline), `fail` stops, naming it. */
async function checkWhoStagingShows(
  run: GitHubRun,
  repo: Repo,
  claim: NonNullable<GitHubRun['claim']>,
): Promise<Stop | null> {
  const ifTaken = run.o.settings.ifTaken
  const guarded = ifTaken !== 'take'
  const found = await beforePhase(run, (signal) =>
    findOwner(run.octokit(signal), repo, claim.siteId, run.o.settings.author, run.scrub),
  )
  if ('warning' in found) {
    if (!guarded) {
      // Said only if the deployment is then made: a refused one says the same with the permission.
      run.ownerUnknown = found.warning
      return null
    }
    return {
      result: 'failed',
      message: `${found.warning.replace(/ The staging result is not affected\.$/, '')} if-staging-taken is ${ifTaken}, so ${NOTHING_SENT}.`,
    }
  }
  const current = found.current
  if (!current || current.owner.pr === claim.owner.pr) return null
  run.previous = current
  run.o.log.info(`${describeOwner(current)}; this run refreshes it for ${ownerName(claim.owner)}.`)
  if (!guarded || current.owner.pr === null) return null
  const open = await beforePhase(run, (signal) => isOpen(run.octokit(signal), repo, current.owner.pr!))
  if (open === false) {
    run.o.log.info(`Pull request #${current.owner.pr} is closed: staging is free to take.`)
    return null
  }
  if (ifTaken === 'fail')
    return {
      result: 'failed',
      message:
        `${describeOwner(current)}, and that pull request is open. if-staging-taken is fail, so ${NOTHING_SENT}. ` +
        `Run this again once #${current.owner.pr} is closed, or use if-staging-taken: take ` +
        `(refresh staging and tell #${current.owner.pr}) or wait (until its workflow run is done).`,
    }
  return waitForOwnerRun(run, repo, current)
}

/** if-staging-taken: wait: until the owner's workflow run is completed, within the step's deadline. */
async function waitForOwnerRun(run: GitHubRun, repo: Repo, current: CurrentOwner): Promise<Stop | null> {
  const pr = current.owner.pr
  const runId = current.owner.runId
  if (runId === null)
    return {
      result: 'failed',
      message:
        `${describeOwner(current)}, and that pull request is open, but its deployment records no workflow run to ` +
        `wait for. if-staging-taken is wait, so ${NOTHING_SENT}. Run this again once #${pr} is closed, or use ` +
        `if-staging-taken: take (refresh staging and tell #${pr}).`,
    }
  run.o.log.info(
    `if-staging-taken: wait: waiting for the workflow run of #${pr}${current.owner.runUrl ? ` (${current.owner.runUrl})` : ''} to finish.`,
  )
  const ended = await waitForRun(run, repo, runId)
  if (ended === 'done') {
    run.o.log.info(`The workflow run of #${pr} is done: this run takes staging.`)
    return null
  }
  if (ended === 'cancelled')
    return {
      result: 'cancelled',
      message: `Cancelled while waiting for the workflow run of #${pr}: ${NOTHING_SENT}.`,
    }
  if (ended === 'timeout' || ended === 'rate-limited')
    return {
      result: 'timed-out',
      message:
        `${describeOwner(current)}, and ${ended === 'timeout' ? 'its workflow run was still running' : "GitHub's API rate limit kept its workflow run from being read"} when the timeout ran out. ` +
        `if-staging-taken is wait, so ${NOTHING_SENT}. Run this again later, or raise timeout.`,
    }
  return {
    result: 'failed',
    message:
      `${describeOwner(current)}, and that pull request is open, but GitHub refused to show its workflow run ` +
      `(HTTP ${ended.refused}). The github-token needs the permission "actions: read" to wait for it: add ` +
      `"actions: read" under "permissions:" in the workflow or job (an HTTP 404 can also mean the run was ` +
      `deleted). if-staging-taken is wait, so ${NOTHING_SENT}.`,
  }
}

/** Waits until workflow run `runId` is completed, asking every `limits.poll` through the one backoff helper,
 * each request a phase before the operation, until the step's deadline. `refused` when GitHub answers 403 or
 * 404 (the token lacks `actions: read`, or the run is gone). */
async function waitForRun(
  run: GitHubRun,
  repo: Repo,
  runId: number,
): Promise<'done' | 'timeout' | 'rate-limited' | 'cancelled' | { refused: number }> {
  const { clock, deadline, signal } = run.o
  const backoff = new Backoff(() => run.limits.poll, { clock, deadlineMs: deadline, signal })
  let limited = false // the last read was refused by GitHub's rate limit: the timeout is said so
  for (;;) {
    if (signal?.aborted) return 'cancelled'
    if (deadline - clock.now() <= 0) return limited ? 'rate-limited' : 'timeout'
    const asked = await beforePhase(run, async (phase) => {
      try {
        const { data } = await run.octokit(phase).rest.actions.getWorkflowRun({ ...repo, run_id: runId })
        limited = false
        return data.status === 'completed' ? 'done' : 'running'
      } catch (e) {
        const status = (e as { status?: unknown })?.status
        limited = rateLimited(e)
        // Anything else (a time-out, a 5xx, GitHub's rate limit): ask again at the next turn.
        return (status === 403 || status === 404) && !limited ? { refused: status } : 'running'
      }
    })
    if (asked !== 'running') return asked
    if (signal?.aborted) return 'cancelled'
    try {
      if (!(await backoff.sleep(run.limits.poll))) return limited ? 'rate-limited' : 'timeout'
    } catch (e) {
      if (e instanceof CancelledError) return 'cancelled'
      throw e
    }
  }
}

/** The run's deployment on its commit, in_progress. A cancel before the operation ends this at once. */
async function startRunDeployment(run: GitHubRun, sha: string): Promise<void> {
  await beforePhase(run, async (signal) => {
    const dctx = deploymentContext(run, run.octokit(signal))
    if (!dctx) {
      run.warnDeployment('Could not create a deployment: the repository is unknown (no GITHUB_REPOSITORY).')
      return
    }
    const record = run.claim
      ? { task: taskFor(run.claim.siteId), payload: ownerPayload(run.claim.siteId, run.claim.owner) }
      : null
    const started = await startDeployment(dctx, sha, run.o.operation, run.o.siteIds.length, record)
    if (started.warning) run.warnDeployment(started.warning)
    if (started.id === null) return
    if (run.ownerUnknown) run.warnDeployment(run.ownerUnknown)
    run.deploymentId = started.id
    run.o.log.info(
      `Deployment ${started.id} for environment "${dctx.environment}" on ${sha.slice(0, 12)}: in progress.`,
    )
  })
}
