/**
 * The GitHub side of a run, behind one small interface the action calls around the operation:
 *
 *   const gh = await githubSideEffects({ ... })
 *   await gh.before()          // deployment-environment: a deployment, in_progress
 *   const results = await runAll(...)
 *   await gh.after(results)    // its final status, or inactive after a delete; the PR comment
 *
 * (`gh.abandon(reason)` instead of `after` when the run broke before it had results.)
 * Nothing here loads Octokit unless an input asks for GitHub (pr-comment, deployment-environment).
 * Nothing here throws or fails a run: every GitHub failure is a warning that says what to do.
 * Every request is bounded in time (src/github/phase.ts); a cancel before the operation stops the
 * deployment's creation at once.
 */
import type { Result } from '../types.js'
import { ignoredNotice, postOrUpdateComments, type PostOutcome } from './comment.js'
import { deploymentSha, pullRequestTarget, repoOf, runContext, type Env, type RunContext } from './context.js'
import {
  deactivateEnvironment,
  DEPLOYING_OPERATIONS,
  finalStatus,
  finishDeployment,
  startDeployment,
  type DeploymentContext,
  type FinalStatus,
} from './deployments.js'
import {
  COMMENT_TITLE,
  DEPLOYMENT_TITLE,
  readGitHubInputs,
  type GitHubInputName,
  type GitHubPlan,
} from './inputs.js'
import type { Octokit } from './octokit.js'
import { LIMITS_MS, phaseSignal, withinPhase, type Limits } from './phase.js'

export { GITHUB_INPUT_DEFAULTS, type GitHubInputName } from './inputs.js'
export { phaseSignal } from './phase.js'

/** The action's outputs set here (after the ones of src/report/outputs.ts). */
export const GITHUB_OUTPUT_NAMES = ['deployment-id'] as const

export interface GitHubLog {
  info(message: string): void
  warn(message: string, title: string): void
  notice(message: string): void
}

export interface GitHubSideEffectOptions {
  /** The run's operation (`create`, `pull`, `push`, `delete`, or any later one). */
  operation: string
  dryRun: boolean
  siteCount: number
  /** Reads an action input (core.getInput). */
  input: (name: GitHubInputName) => string
  /** Every text sent to GitHub or logged goes through it. */
  redactor: { scrub(text: string): string }
  log: GitHubLog
  setOutput: (name: (typeof GITHUB_OUTPUT_NAMES)[number], value: string) => void
  /** The run's cancel signal. */
  signal?: AbortSignal
  /** The runner's environment (process.env). */
  env?: Env
  /** Time limits, in milliseconds (tests shorten them). */
  limits?: Partial<Limits>
}

export interface GitHubSideEffects {
  /** Before the operation: the deployment (create, pull, push). Never throws. */
  before(): Promise<void>
  /**
   * After it: the deployment's final status (`error`, saying `problem`, when the step itself went
   * wrong after the operation, e.g. its outputs could not be written) or the environment's
   * retirement, and the comment. Never throws.
   */
  after(results: Result[], problem?: string | null): Promise<void>
  /** Instead of `after`, when the run broke without results: a started deployment gets `error`. */
  abandon(reason: string): Promise<void>
}

const noop: GitHubSideEffects = { before: async () => {}, after: async () => {}, abandon: async () => {} }

/** Reads the GitHub inputs and returns what to do before and after the operation. */
export async function githubSideEffects(o: GitHubSideEffectOptions): Promise<GitHubSideEffects> {
  const plan = readGitHubInputs(o.input, (m, title) => o.log.warn(o.redactor.scrub(m), title))
  if (!plan) {
    o.setOutput('deployment-id', '')
    return noop
  }
  // Loaded only now: Octokit would add to the start-up time of every run.
  const { octokitFor } = await import('./octokit.js')
  const run: GitHubRun = {
    o,
    plan,
    ctx: runContext(o.env ?? process.env),
    limits: { ...LIMITS_MS, ...o.limits },
    octokit: (signal) => octokitFor(plan.token, run.ctx.apiUrl, signal),
    scrub: (t) => o.redactor.scrub(t),
    warnDeployment: (m) => o.log.warn(o.redactor.scrub(m), DEPLOYMENT_TITLE),
    warnComment: (m) => o.log.warn(o.redactor.scrub(m), COMMENT_TITLE),
    deploymentId: null,
  }
  return {
    before: () => before(run),
    after: (results, problem) => after(run, results, problem ?? null),
    abandon: (reason) => abandon(run, reason),
  }
}

/** One run's GitHub side: what the inputs asked, the runner's context, and the deployment made. */
interface GitHubRun {
  o: GitHubSideEffectOptions
  plan: GitHubPlan
  ctx: RunContext
  limits: Limits
  octokit(signal: AbortSignal): Octokit
  scrub(text: string): string
  warnDeployment(message: string): void
  warnComment(message: string): void
  /** The deployment `before` made, once it exists. */
  deploymentId: number | null
}

/** The deployment's context, or null without a repository or an environment. */
function deploymentContext(run: GitHubRun, kit: Octokit): DeploymentContext | null {
  const repo = repoOf(run.ctx.repository, run.ctx.payload)
  if (!repo || !run.plan.environment) return null
  return { octokit: kit, repo, environment: run.plan.environment, scrub: run.scrub, logUrl: run.ctx.runUrl }
}

/** Whether this run makes a deployment of its own (not a dry run; create, pull or push). */
function makesDeployment(run: GitHubRun): boolean {
  return !!run.plan.environment && !run.o.dryRun && DEPLOYING_OPERATIONS.includes(run.o.operation)
}

async function before(run: GitHubRun): Promise<void> {
  try {
    if (!run.plan.environment || run.o.signal?.aborted) return
    if (run.o.dryRun) {
      run.o.log.info('deployment-environment: a dry run makes no deployment.')
      return
    }
    if (makesDeployment(run)) await startRunDeployment(run)
  } catch (e) {
    run.warnDeployment(`Could not create a deployment: ${messageOf(e)}`)
  } finally {
    run.o.setOutput('deployment-id', run.deploymentId === null ? '' : String(run.deploymentId))
  }
}

/** The run's deployment on its commit, in_progress. A cancel before the operation ends this at once. */
async function startRunDeployment(run: GitHubRun): Promise<void> {
  const sha = deploymentSha(run.ctx.eventName, run.ctx.payload, run.ctx.env)
  if ('reason' in sha) {
    run.warnDeployment(`Could not create a deployment: ${sha.reason}. The staging result is not affected.`)
    return
  }
  await withinPhase(phaseSignal(run.o.signal, run.limits.before, 0), async (signal) => {
    const dctx = deploymentContext(run, run.octokit(signal))
    if (!dctx) {
      run.warnDeployment('Could not create a deployment: the repository is unknown (no GITHUB_REPOSITORY).')
      return
    }
    const started = await startDeployment(dctx, sha.sha, run.o.operation, run.o.siteCount)
    for (const w of started.warnings) run.warnDeployment(w)
    if (started.id === null) return
    run.deploymentId = started.id
    run.o.log.info(
      `Deployment ${started.id} for environment "${dctx.environment}" on ${sha.sha.slice(0, 12)}: in progress.`,
    )
  })
}

async function after(run: GitHubRun, results: Result[], problem: string | null): Promise<void> {
  const deploys = !!run.plan.environment && !run.o.dryRun
  // Nothing to send (a dry run with only deployment-environment, no comment): no client, no timers.
  if (results.length === 0 || !(deploys || run.plan.commentAuthor)) return
  await withinPhase(phaseSignal(run.o.signal, run.limits.after, run.limits.cancelled), async (signal) => {
    const kit = run.octokit(signal)
    await Promise.all([
      deploys ? deploymentAfter(run, kit, results, problem) : null,
      run.plan.commentAuthor ? commentAfter(run, kit, run.plan.commentAuthor, results) : null,
    ])
  })
}

async function abandon(run: GitHubRun, reason: string): Promise<void> {
  if (run.deploymentId === null) return
  await withinPhase(phaseSignal(run.o.signal, run.limits.after, run.limits.cancelled), (signal) =>
    closeRunDeployment(run, run.octokit(signal), {
      state: 'error',
      description: reason,
      environmentUrl: null,
    }),
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
    ? { state: 'error' as const, description: problem, environmentUrl: null }
    : finalStatus(run.o.operation, results)
  if (status) await closeRunDeployment(run, kit, status)
}

/** Gives the run's deployment (if it made one) its final status; a refusal is a warning. */
async function closeRunDeployment(run: GitHubRun, kit: Octokit, status: FinalStatus): Promise<void> {
  try {
    const dctx = deploymentContext(run, kit)
    if (!dctx || run.deploymentId === null) return
    const warning = await finishDeployment(dctx, run.deploymentId, status)
    if (warning) run.warnDeployment(warning)
    else
      run.o.log.info(`Deployment ${run.deploymentId} for environment "${dctx.environment}": ${status.state}.`)
  } catch (e) {
    run.warnDeployment(`Could not update the deployment: ${messageOf(e)}`)
  }
}

/** After a delete that finished: every deployment of the environment inactive. */
async function retireAfterDelete(run: GitHubRun, kit: Octokit, results: Result[]): Promise<void> {
  try {
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
  } catch (e) {
    run.warnDeployment(`Could not update the deployment: ${messageOf(e)}`)
  }
}

/** The sticky comment on the triggering pull request, one per site. */
async function commentAfter(run: GitHubRun, kit: Octokit, author: string, results: Result[]): Promise<void> {
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

function messageOf(e: unknown): string {
  return (e as Error)?.message ?? String(e)
}
