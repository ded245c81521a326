/**
 * `operation: release`, on a closed pull request: for each site whose staging shows this pull
 * request, its deployment becomes inactive and its comment says so, so the next pull request takes
 * staging without waiting. Nothing is sent to the staging service (staging keeps its content).
 * Each site's ending is a Result (operation `release`), rendered like any other.
 */
import { noticeTime } from '../report/comment.js'
import type { Outcome, Result } from '../types.js'
import { addNotice } from './comment.js'
import { pullRequestTarget, type PullRequestTarget } from './context.js'
import { finishDeployment } from './deployments.js'
import type { Octokit } from './octokit.js'
import { describeOwner, findOwner } from './ownership.js'
import { stepResults } from './results.js'
import { afterPhase, newRun, type GitHubRun, type GitHubSideEffectOptions } from './run.js'

export type ReleaseOptions = Omit<GitHubSideEffectOptions, 'operation' | 'dryRun' | 'setOutput'>

export async function releaseStaging(o: ReleaseOptions): Promise<Result[]> {
  const run = await newRun({ ...o, operation: 'release', dryRun: false, setOutput: () => {} })
  const end = (siteId: string, outcome: Outcome, message: string, kind = 'release') =>
    stepResults('release', [siteId], outcome, message, {
      clock: o.clock,
      kind,
      hint: outcome === 'failed' ? message : undefined,
    })[0]!
  const where = pullRequestTarget(run.ctx.eventName, run.ctx.payload, run.ctx.repository)
  if ('reason' in where) {
    const message = `release is for a closed pull request. ${where.reason.replace(/^pr-comment: /, '')}`
    return o.siteIds.map((siteId) => end(siteId, 'failed', message, 'not-a-pull-request'))
  }
  return afterPhase(run, async (signal) => {
    const kit = run.octokit(signal)
    const out: Result[] = []
    for (const siteId of o.siteIds) {
      const ended = await releaseOne(run, kit, where.target, siteId)
      out.push(end(siteId, ended.result, ended.message, 'github'))
    }
    return out
  })
}

async function releaseOne(
  run: GitHubRun,
  kit: Octokit,
  target: PullRequestTarget,
  siteId: string,
): Promise<{ result: Extract<Outcome, 'succeeded' | 'skipped' | 'failed'>; message: string }> {
  const repo = { owner: target.owner, repo: target.repo }
  const found = await findOwner(kit, repo, siteId, run.o.settings.author, run.scrub)
  if ('warning' in found) return { result: 'failed', message: found.warning }
  const current = found.current
  if (!current)
    return {
      result: 'skipped',
      message: `No run is recorded as showing on staging of site ${siteId}: nothing to release.`,
    }
  if (current.owner.pr !== target.number)
    return {
      result: 'skipped',
      message: `${describeOwner(current)}, not #${target.number}: nothing to release.`,
    }
  const warning = await finishDeployment(
    { octokit: kit, repo, environment: current.environment, scrub: run.scrub, logUrl: run.ctx.runUrl },
    current.deploymentId,
    { state: 'inactive', description: `Pull request #${target.number} closed: staging released.` },
  )
  if (warning) return { result: 'failed', message: warning }
  const notice =
    `This pull request was closed at ${noticeTime(new Date(run.o.clock.wallNow()).toISOString())}: staging is free for other pull requests ` +
    "(it keeps this pull request's last refresh until another run takes it)."
  const commented = await addNotice(kit, target, siteId, run.o.settings.author, notice, run.scrub)
  return {
    result: 'succeeded',
    message:
      `Released staging of site ${siteId}: #${target.number} was closed, its deployment ${current.deploymentId} is inactive` +
      (commented.action === 'updated' ? ' and its comment says so.' : '.') +
      (commented.action === 'failed' ? ` ${commented.warning}` : '') +
      ' The next pull request to refresh staging takes it without waiting.',
  }
}
