/**
 * After the operation: the deployment's final status (or the environment's retirement after a
 * delete), the sticky comment, and the hand-over to the run staging showed before. Within the
 * short grace the step has to report; every failure is a warning that says what to do.
 */
import type { Result } from '../types.js'
import { noticeTime } from '../report/comment.js'
import { addNotice, ignoredNotice, postOrUpdateComments, type PostOutcome } from './comment.js'
import { pullRequestTarget } from './context.js'
import { deactivateEnvironment, finalStatus, finishDeployment, type FinalStatus } from './deployments.js'
import type { Octokit } from './octokit.js'
import { ownerName, type CurrentOwner, type Owner } from './ownership.js'
import { afterPhase, deploymentContext, messageOf, type GitHubRun } from './run.js'

export async function after(run: GitHubRun, results: Result[], problem: string | null): Promise<void> {
  const deploys = !!run.o.settings.environment && !run.o.dryRun
  // Nothing to send (a dry run with only deployment-environment, no comment): no client, no timers.
  if (results.length === 0 || !(deploys || run.o.settings.commentAuthor)) return
  await afterPhase(run, async (signal) => {
    const kit = run.octokit(signal)
    const took = tookStaging(run, results)
    await Promise.all([
      deploys ? deploymentAfter(run, kit, results, problem) : null,
      run.o.settings.commentAuthor
        ? commentAfter(run, kit, run.o.settings.commentAuthor, results, took?.owner)
        : null,
      took && run.previous ? handOver(run, kit, took, run.previous) : null,
    ])
  })
}

/** Instead of `after`, when the run broke without results: a started deployment gets `error`. */
export async function abandon(run: GitHubRun, reason: string): Promise<void> {
  if (run.deploymentId === null) return
  const status = { state: 'error' as const, description: reason }
  await afterPhase(run, (signal) => closeRunDeployment(run, run.octokit(signal), status))
}

/** The hand-over as part of the run's Results (so every report shows it): when this run took staging from
 * another pull request (or run), its Result says so, before `after` tells that one. */
export function withHandOver(run: GitHubRun, results: Result[]): Result[] {
  const took = tookStaging(run, results)
  const previous = run.previous
  if (!took || !previous || results.length !== 1) return results
  const told = previous.owner.pr !== null && run.o.settings.commentAuthor ? ', and its comment says so' : ''
  const note =
    `Staging showed ${ownerName(previous.owner)} (commit ${previous.owner.sha.slice(0, 12)}) before this run; ` +
    `it now shows ${ownerName(took.owner)}: that run's deployment is marked inactive${told}.`
  return [{ ...results[0]!, warnings: [...results[0]!.warnings, note] }]
}

/** This run's claim, when it changed what staging shows (so its claim holds): a refresh that went through. */
function tookStaging(run: GitHubRun, results: Result[]): GitHubRun['claim'] {
  const r = results[0]
  if (!run.claim || run.deploymentId === null || !r) return null
  const through =
    r.result === 'succeeded' ||
    r.result === 'accepted' ||
    (r.operation === 'create' && r.result === 'skipped')
  return through ? run.claim : null
}

/** Staging now shows this run: the run it showed before is told, its deployment made inactive (so it claims
 * no preview that is gone) and its pull request's comment updated in place. */
async function handOver(
  run: GitHubRun,
  kit: Octokit,
  took: NonNullable<GitHubRun['claim']>,
  previous: CurrentOwner,
): Promise<void> {
  const dctx = deploymentContext(run, kit)
  if (!dctx) return
  const now =
    took.owner.pr === null
      ? 'Staging was refreshed by a workflow run that was not for a pull request'
      : `Staging now shows #${took.owner.pr}`
  const inactive = { state: 'inactive' as const, description: `${now}.` }
  const warning = await finishDeployment(
    { ...dctx, environment: previous.environment },
    previous.deploymentId,
    inactive,
  )
  if (warning) run.warnDeployment(warning)
  const told = previous.owner.pr
  if (told === null || !run.o.settings.commentAuthor) return
  const rerun = previous.owner.runUrl
    ? `[re-run this workflow](${previous.owner.runUrl})`
    : 're-run this workflow'
  const notice = `${now} since ${noticeTime(took.owner.at)}; ${rerun} to show this pull request again.`
  const outcome = await addNotice(
    kit,
    { ...dctx.repo, number: told },
    took.siteId,
    run.o.settings.commentAuthor,
    notice,
    run.scrub,
  )
  if (outcome.action === 'failed') run.warnComment(outcome.warning)
  else
    run.o.log.info(
      `Told #${told} that ${now.charAt(0).toLowerCase()}${now.slice(1)}: ` +
        (outcome.action === 'updated' ? 'its comment was updated' : 'it has no comment of ours') +
        (warning ? '.' : `, its deployment ${previous.deploymentId} is inactive.`),
    )
}

async function deploymentAfter(
  run: GitHubRun,
  kit: Octokit,
  results: Result[],
  problem: string | null,
): Promise<void> {
  if (run.o.operation === 'delete') return retireAfterDelete(run, kit, results)
  const status = problem
    ? { state: 'error' as const, description: problem }
    : finalStatus(run.o.operation, results)
  if (status) await closeRunDeployment(run, kit, status)
}

/** Gives the run's deployment (if it made one) its final status; a refusal is a warning. */
async function closeRunDeployment(run: GitHubRun, kit: Octokit, status: FinalStatus): Promise<void> {
  const dctx = deploymentContext(run, kit)
  if (!dctx || run.deploymentId === null) return
  const warning = await finishDeployment(dctx, run.deploymentId, status)
  if (warning) run.warnDeployment(warning)
  else
    run.o.log.info(`Deployment ${run.deploymentId} for environment "${dctx.environment}": ${status.state}.`)
}

/** After a delete that finished: every deployment of the environment inactive. */
async function retireAfterDelete(run: GitHubRun, kit: Octokit, results: Result[]): Promise<void> {
  const dctx = deploymentContext(run, kit)
  if (!dctx) return
  if (!results.every((r) => r.result === 'succeeded' || r.result === 'skipped')) {
    run.o.log.info(
      `deployment-environment: the delete did not finish, so the deployments of "${dctx.environment}" were left as they are.`,
    )
    return
  }
  const done = await deactivateEnvironment(dctx)
  if (done.warning) run.warnDeployment(done.warning)
  if (done.deactivated > 0 || !done.warning)
    run.o.log.info(
      `Marked ${done.deactivated} deployment(s) of environment "${dctx.environment}" inactive` +
        (done.left > 0 && !done.warning ? `; ${done.left} older one(s) left as they are.` : '.'),
    )
}

/** The sticky comment on the triggering pull request, one per site. */
async function commentAfter(
  run: GitHubRun,
  kit: Octokit,
  author: string,
  results: Result[],
  owner?: Owner,
): Promise<void> {
  try {
    const where = pullRequestTarget(run.ctx.eventName, run.ctx.payload, run.ctx.repository)
    if ('reason' in where) {
      run.o.log.notice(run.scrub(where.reason))
      return
    }
    const outcome = await postOrUpdateComments(results, {
      octokit: kit,
      target: where.target,
      author,
      scrub: run.scrub,
      runUrl: run.ctx.runUrl,
      owner: owner && owner.pr !== null ? { sha: owner.sha, at: owner.at } : null,
    })
    reportComments(run, outcome, author, where.target.number)
  } catch (e) {
    run.warnComment(`Could not post the pull-request comment: ${messageOf(e)}`)
  }
}

/** One log line per comment posted or updated, each distinct warning once, the ignored ones in one notice. */
function reportComments(run: GitHubRun, outcome: PostOutcome, author: string, number: number): void {
  if (outcome.ignored.length > 0) run.o.log.notice(run.scrub(ignoredNotice(outcome.ignored, author, number)))
  const warned = new Set<string>()
  for (const r of outcome.reports) {
    if (r.action === 'failed') {
      if (!warned.has(r.warning)) run.warnComment(r.warning)
      warned.add(r.warning)
      continue
    }
    const link = r.url && /^https?:\/\/[^\s]+$/.test(r.url) ? `: ${r.url.slice(0, 300)}` : ''
    run.o.log.info(
      run.scrub(
        `${r.action === 'created' ? 'Posted' : 'Updated'} the comment for site ${r.siteId} on pull request #${number}${link}.`,
      ),
    )
  }
}
