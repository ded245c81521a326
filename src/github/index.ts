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
import type { Outcome, Result } from '../types.js'
import {
  addNotice,
  DEFAULT_COMMENT_AUTHOR,
  ignoredNotice,
  parseCommentAuthor,
  postOrUpdateComments,
  type PostOutcome,
} from './comment.js'
import { deploymentSha, pullRequestTarget, repoOf, runContext, type Env, type RunContext } from './context.js'
import {
  deactivateEnvironment,
  DEPLOYING_OPERATIONS,
  finalStatus,
  finishDeployment,
  retireDeployment,
  startDeployment,
  type DeploymentContext,
  type FinalStatus,
} from './deployments.js'
import {
  COMMENT_TITLE,
  DEPLOYMENT_TITLE,
  parseIfTaken,
  readGitHubInputs,
  type GitHubInputName,
  type GitHubPlan,
} from './inputs.js'
import {
  describeOwner,
  findOwner,
  isOpen,
  ownerName,
  ownerPayload,
  taskFor,
  waitForRun,
  type CurrentOwner,
  type IfTaken,
  type Owner,
} from './ownership.js'
import { lastDeployedStaging, type DeployedStaging } from './known-staging.js'
import type { Octokit } from './octokit.js'
import { noticeTime } from '../report/comment.js'
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
  /** The production site ids of the run. */
  siteIds: string[]
  /** The run's timeout (ms): the longest `if-staging-taken: wait` waits. */
  timeoutMs?: number
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

/** Why the operation must not start (if-staging-taken): nothing was sent to the staging service. */
export interface Stop {
  result: Extract<Outcome, 'failed' | 'timed-out' | 'cancelled'>
  message: string
}

export interface GitHubSideEffects {
  /**
   * Before the operation: who staging shows (if-staging-taken), then the deployment (create, pull,
   * push). A Stop when the operation must not start. Never throws.
   */
  before(): Promise<Stop | null>
  /**
   * After it: the deployment's final status (`error`, saying `problem`, when the step itself went
   * wrong after the operation, e.g. its outputs could not be written) or the environment's
   * retirement, and the comment. Never throws.
   */
  after(results: Result[], problem?: string | null): Promise<void>
  /** Instead of `after`, when the run broke without results: a started deployment gets `error`. */
  abandon(reason: string): Promise<void>
  /**
   * The staging URL an earlier run recorded (the last successful deployment of the environment),
   * for a one-site create, pull or status; null when there is none or nothing may be read. Never throws.
   */
  knownStaging(): Promise<DeployedStaging | null>
}

const noop: GitHubSideEffects = {
  before: async () => null,
  after: async () => {},
  abandon: async () => {},
  knownStaging: async () => null,
}

/** The operations that change what staging shows (and so take it for their pull request). */
const CLAIMING_OPERATIONS: readonly string[] = ['create', 'pull']

/** Reads the GitHub inputs and returns what to do before and after the operation. */
export async function githubSideEffects(o: GitHubSideEffectOptions): Promise<GitHubSideEffects> {
  const ifTaken = parseIfTaken(o.input('if-staging-taken'))
  const plan = readGitHubInputs(o.input, (m, title) => o.log.warn(o.redactor.scrub(m), title))
  const claims = CLAIMING_OPERATIONS.includes(o.operation) && !o.dryRun
  if (typeof ifTaken !== 'string' && claims) return stopping({ result: 'failed', message: ifTaken.error })
  if (ifTaken !== 'take' && claims && (!plan?.environment || o.siteIds.length !== 1))
    return stopping({
      result: 'failed',
      message:
        `if-staging-taken is ${String(ifTaken)}, which needs to know who staging shows: set deployment-environment ` +
        '(and a github-token that may write deployments) and give one site-id. Nothing was sent to the staging service.',
    })
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
    ifTaken: typeof ifTaken === 'string' ? ifTaken : 'take',
    claim: null,
    previous: null,
  }
  return {
    before: () => before(run),
    after: (results, problem) => after(run, results, problem ?? null),
    abandon: (reason) => abandon(run, reason),
    knownStaging: () => knownStaging(run),
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
  ifTaken: IfTaken
  /** This run takes staging of `siteId` for `owner` (one site, create or pull, a deployment). */
  claim: { siteId: string; owner: Owner } | null
  /** Who staging showed before this run, when that was another pull request (or run). */
  previous: CurrentOwner | null
  /** Why who staging showed could not be read (if-staging-taken: take goes on without it). */
  ownerUnknown?: string
}

/** A side whose `before` stops the run (bad input, or a guarantee it cannot give); nothing is sent. */
function stopping(stop: Stop): GitHubSideEffects {
  return { ...noop, before: async () => stop }
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

async function before(run: GitHubRun): Promise<Stop | null> {
  try {
    if (!run.plan.environment || run.o.signal?.aborted) return null
    if (run.o.dryRun) {
      run.o.log.info('deployment-environment: a dry run makes no deployment.')
      return null
    }
    if (!makesDeployment(run)) return null
    const sha = deploymentSha(run.ctx.eventName, run.ctx.payload, run.ctx.env)
    if ('reason' in sha) {
      run.warnDeployment(`Could not create a deployment: ${sha.reason}. The staging result is not affected.`)
      return null
    }
    run.claim = claimOf(run, sha.sha)
    if (run.claim) {
      const stop = await checkWhoStagingShows(run, run.claim)
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
      at: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    },
  }
}

/**
 * Who staging shows now. Another open pull request's: `take` goes on (and tells it afterwards),
 * `wait` waits for its workflow run to end (within the timeout), `fail` stops, naming it.
 */
async function checkWhoStagingShows(
  run: GitHubRun,
  claim: NonNullable<GitHubRun['claim']>,
): Promise<Stop | null> {
  const repo = repoOf(run.ctx.repository, run.ctx.payload)
  if (!repo) return null
  const guarded = run.ifTaken !== 'take'
  const found = await withinPhase(phaseSignal(run.o.signal, run.limits.before, 0), (signal) =>
    findOwner(run.octokit(signal), repo, claim.siteId, run.plan.author, run.scrub),
  )
  if ('warning' in found) {
    if (!guarded) {
      // Said only if the deployment is then made: a refused one says the same with the permission.
      run.ownerUnknown = found.warning
      return null
    }
    return {
      result: 'failed',
      message: `${found.warning.replace(/ The staging result is not affected\.$/, '')} if-staging-taken is ${run.ifTaken}, so nothing was sent to the staging service.`,
    }
  }
  const current = found.current
  if (!current || current.owner.pr === claim.owner.pr) return null
  run.previous = current
  run.o.log.info(`${describeOwner(current)}; this run refreshes it for ${ownerName(claim.owner)}.`)
  if (!guarded || current.owner.pr === null) return null
  const open = await withinPhase(phaseSignal(run.o.signal, run.limits.before, 0), (signal) =>
    isOpen(run.octokit(signal), repo, current.owner.pr!),
  )
  if (open === false) {
    run.o.log.info(`Pull request #${current.owner.pr} is closed: staging is free to take.`)
    return null
  }
  if (run.ifTaken === 'fail')
    return {
      result: 'failed',
      message:
        `${describeOwner(current)}, and that pull request is open. if-staging-taken is fail, so nothing was sent to ` +
        `the staging service. Run this again once #${current.owner.pr} is closed, or use if-staging-taken: take ` +
        `(refresh staging and tell #${current.owner.pr}) or wait (until its workflow run is done).`,
    }
  return waitForOwnerRun(run, repo, current)
}

/** if-staging-taken: wait: until the owner's workflow run is completed, within the timeout. */
async function waitForOwnerRun(
  run: GitHubRun,
  repo: { owner: string; repo: string },
  current: CurrentOwner,
): Promise<Stop | null> {
  const runId = current.owner.runId
  if (runId === null) return null
  run.o.log.info(
    `if-staging-taken: wait: waiting for the workflow run of #${current.owner.pr}${current.owner.runUrl ? ` (${current.owner.runUrl})` : ''} to finish.`,
  )
  const ended = await waitForRun(run.octokit, repo, runId, {
    deadline: performance.now() + (run.o.timeoutMs ?? 30 * 60_000),
    pollMs: run.limits.poll,
    now: () => performance.now(),
    signal: run.o.signal,
    requestMs: run.limits.before,
  })
  if (ended === 'done') {
    run.o.log.info(`The workflow run of #${current.owner.pr} is done: this run takes staging.`)
    return null
  }
  if (ended === 'cancelled')
    return {
      result: 'cancelled',
      message: `Cancelled while waiting for the workflow run of #${current.owner.pr}: nothing was sent to the staging service.`,
    }
  return {
    result: 'timed-out',
    message:
      `${describeOwner(current)}, and its workflow run was still running when the timeout ran out. ` +
      'if-staging-taken is wait, so nothing was sent to the staging service. Run this again later, or raise timeout.',
  }
}

/** The run's deployment on its commit, in_progress. A cancel before the operation ends this at once. */
async function startRunDeployment(run: GitHubRun, sha: string): Promise<void> {
  await withinPhase(phaseSignal(run.o.signal, run.limits.before, 0), async (signal) => {
    const dctx = deploymentContext(run, run.octokit(signal))
    if (!dctx) {
      run.warnDeployment('Could not create a deployment: the repository is unknown (no GITHUB_REPOSITORY).')
      return
    }
    const record = run.claim
      ? { task: taskFor(run.claim.siteId), payload: ownerPayload(run.claim.siteId, run.claim.owner) }
      : null
    const started = await startDeployment(dctx, sha, run.o.operation, run.o.siteIds.length, record)
    for (const w of started.warnings) run.warnDeployment(w)
    if (started.id === null) return
    if (run.ownerUnknown) run.warnDeployment(run.ownerUnknown)
    run.deploymentId = started.id
    run.o.log.info(
      `Deployment ${started.id} for environment "${dctx.environment}" on ${sha.slice(0, 12)}: in progress.`,
    )
  })
}

async function after(run: GitHubRun, results: Result[], problem: string | null): Promise<void> {
  const deploys = !!run.plan.environment && !run.o.dryRun
  // Nothing to send (a dry run with only deployment-environment, no comment): no client, no timers.
  if (results.length === 0 || !(deploys || run.plan.commentAuthor)) return
  await withinPhase(phaseSignal(run.o.signal, run.limits.after, run.limits.cancelled), async (signal) => {
    const kit = run.octokit(signal)
    const took = tookStaging(run, results) ? run.claim : null
    await Promise.all([
      deploys ? deploymentAfter(run, kit, results, problem) : null,
      run.plan.commentAuthor ? commentAfter(run, kit, run.plan.commentAuthor, results, took?.owner) : null,
      took && run.previous ? handOver(run, kit, took, run.previous) : null,
    ])
  })
}

/** Whether this run changed what staging shows (so its claim holds): a refresh that went through. */
function tookStaging(run: GitHubRun, results: Result[]): boolean {
  const r = results[0]
  if (!run.claim || run.deploymentId === null || !r) return false
  return (
    r.result === 'succeeded' ||
    r.result === 'accepted' ||
    (r.operation === 'create' && r.result === 'skipped')
  )
}

/**
 * Staging now shows this run: the run it showed before is told, its deployment made inactive (so it
 * claims no preview that is gone) and its pull request's comment updated in place.
 */
async function handOver(
  run: GitHubRun,
  kit: Octokit,
  took: NonNullable<GitHubRun['claim']>,
  previous: CurrentOwner,
): Promise<void> {
  const repo = repoOf(run.ctx.repository, run.ctx.payload)
  if (!repo) return
  const now =
    took.owner.pr === null
      ? 'Staging was refreshed by a workflow run that was not for a pull request'
      : `Staging now shows #${took.owner.pr}`
  const warning = await retireDeployment(
    { octokit: kit, repo, environment: previous.environment, scrub: run.scrub, logUrl: run.ctx.runUrl },
    previous.deploymentId,
    `${now}.`,
  )
  if (warning) run.warnDeployment(warning)
  const told = previous.owner.pr
  if (told === null || !run.plan.commentAuthor) return
  const rerun = previous.owner.runUrl
    ? `[re-run this workflow](${previous.owner.runUrl})`
    : 're-run this workflow'
  const notice = `${now} since ${noticeTime(took.owner.at)}; ${rerun} to show this pull request again.`
  const outcome = await addNotice(
    kit,
    { ...repo, number: told },
    took.siteId,
    run.plan.commentAuthor,
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

/** The operations that report a staging URL (and so may use one an earlier run recorded). */
const URL_OPERATIONS: readonly string[] = ['create', 'pull', 'status']

async function knownStaging(run: GitHubRun): Promise<DeployedStaging | null> {
  const environment = run.plan.environment
  const repo = repoOf(run.ctx.repository, run.ctx.payload)
  if (!environment || !repo || run.o.siteIds.length !== 1 || !URL_OPERATIONS.includes(run.o.operation))
    return null
  // GitHub already refused to say who staging shows: the same read would be refused again.
  if (run.o.signal?.aborted || run.ownerUnknown) return null
  return withinPhase(phaseSignal(run.o.signal, run.limits.before, 0), (signal) =>
    lastDeployedStaging(run.octokit(signal), repo, environment, run.o.siteIds[0]!, run.plan.author),
  )
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

function messageOf(e: unknown): string {
  return (e as Error)?.message ?? String(e)
}

/** One site's outcome of `operation: release`. */
export interface ReleaseOutcome {
  siteId: string
  result: Extract<Outcome, 'succeeded' | 'skipped' | 'failed'>
  message: string
}

export type ReleaseOptions = Pick<
  GitHubSideEffectOptions,
  'siteIds' | 'input' | 'redactor' | 'log' | 'signal' | 'env' | 'limits'
>

/**
 * `operation: release`, on a closed pull request: for each site whose staging shows this pull
 * request, its deployment becomes inactive and its comment says so, so the next pull request takes
 * staging without waiting. Nothing is sent to the staging service (staging keeps its content).
 */
export async function releaseStaging(o: ReleaseOptions): Promise<ReleaseOutcome[]> {
  const scrub = (t: string) => o.redactor.scrub(t)
  const fail = (message: string) =>
    o.siteIds.map((siteId) => ({ siteId, result: 'failed' as const, message }))
  const token = o.input('github-token').trim()
  if (token === '') return fail('release needs a github-token that may write deployments: it is empty.')
  const ctx = runContext(o.env ?? process.env)
  const where = pullRequestTarget(ctx.eventName, ctx.payload, ctx.repository)
  if ('reason' in where)
    return fail(`release is for a closed pull request. ${where.reason.replace(/^pr-comment: /, '')}`)
  const author = parseCommentAuthor(o.input('comment-author')) ?? DEFAULT_COMMENT_AUTHOR
  const limits = { ...LIMITS_MS, ...o.limits }
  const { octokitFor } = await import('./octokit.js')
  return withinPhase(phaseSignal(o.signal, limits.after, limits.cancelled), async (signal) => {
    const kit = octokitFor(token, ctx.apiUrl, signal)
    const out: ReleaseOutcome[] = []
    for (const siteId of o.siteIds) out.push(await releaseOne(kit, where.target, siteId, author, scrub, ctx))
    return out
  })
}

async function releaseOne(
  kit: Octokit,
  target: { owner: string; repo: string; number: number },
  siteId: string,
  author: string,
  scrub: (t: string) => string,
  ctx: RunContext,
): Promise<ReleaseOutcome> {
  const repo = { owner: target.owner, repo: target.repo }
  const found = await findOwner(kit, repo, siteId, author, scrub)
  if ('warning' in found) return { siteId, result: 'failed', message: found.warning }
  const current = found.current
  if (!current)
    return {
      siteId,
      result: 'skipped',
      message: `No run is recorded as showing on staging of site ${siteId}: nothing to release.`,
    }
  if (current.owner.pr !== target.number)
    return {
      siteId,
      result: 'skipped',
      message: `${describeOwner(current)}, not #${target.number}: nothing to release.`,
    }
  const warning = await retireDeployment(
    { octokit: kit, repo, environment: current.environment, scrub, logUrl: ctx.runUrl },
    current.deploymentId,
    `Pull request #${target.number} closed: staging released.`,
  )
  if (warning) return { siteId, result: 'failed', message: warning }
  const notice =
    `This pull request was closed at ${noticeTime(new Date().toISOString())}: staging is free for other pull requests ` +
    "(it keeps this pull request's last refresh until another run takes it)."
  const commented = await addNotice(kit, target, siteId, author, notice, scrub)
  return {
    siteId,
    result: 'succeeded',
    message:
      `Released staging of site ${siteId}: #${target.number} was closed, its deployment ${current.deploymentId} is inactive` +
      (commented.action === 'updated' ? ' and its comment says so.' : '.') +
      (commented.action === 'failed' ? ` ${commented.warning}` : '') +
      ' The next pull request to refresh staging takes it without waiting.',
  }
}
