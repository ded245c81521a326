/**
 * The GitHub side of a run, behind one small interface the action calls around the operation:
 *
 *   const gh = await githubSideEffects({ ... })
 *   await gh.before()          // deployment-environment: a deployment, in_progress
 *   const results = await runAll(...)
 *   await gh.after(results)    // its final status, or inactive after a delete; the PR comment
 *
 * Nothing here loads Octokit unless an input asks for GitHub (pr-comment, deployment-environment).
 * Nothing here throws or fails a run: every GitHub failure is a warning that says what to do.
 * Every request is bounded in time: 10 s before the operation, 30 s after it, and 3 s after it
 * once the run is cancelled (the runner kills 10 s after its first signal; a cancel before the
 * operation stops the deployment's creation at once).
 */
import type { Result } from '../types.js'
import { DEFAULT_COMMENT_AUTHOR, ignoredNotice, parseCommentAuthor, postOrUpdateComments } from './comment.js'
import { deploymentSha, pullRequestTarget, repoOf, runContext, type Env, type RunContext } from './context.js'
import {
  deactivateEnvironment,
  DEPLOYING_OPERATIONS,
  finalStatus,
  finishDeployment,
  parseEnvironment,
  startDeployment,
  type DeploymentContext,
} from './deployments.js'
import type { Octokit } from './octokit.js'

/** The action's inputs for GitHub, with their action.yml defaults. */
export const GITHUB_INPUT_DEFAULTS = {
  'github-token': '${{ github.token }}',
  'pr-comment': 'false',
  'comment-author': DEFAULT_COMMENT_AUTHOR,
  'deployment-environment': '',
} as const
export type GitHubInputName = keyof typeof GITHUB_INPUT_DEFAULTS

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
  limits?: Partial<typeof LIMITS_MS>
}

export interface GitHubSideEffects {
  /** Before the operation: the deployment (create, pull, push). Never throws. */
  before(): Promise<void>
  /** After it: the deployment's final status or the environment's retirement, and the comment. Never throws. */
  after(results: Result[]): Promise<void>
}

const LIMITS_MS = { before: 10_000, after: 30_000, cancelled: 3_000 }

const COMMENT_TITLE = 'Pull-request comment'
const DEPLOYMENT_TITLE = 'GitHub deployment'
const GITHUB_TITLE = 'GitHub'

const noop: GitHubSideEffects = { before: async () => {}, after: async () => {} }

/** Reads the GitHub inputs and returns what to do before and after the operation. */
export async function githubSideEffects(o: GitHubSideEffectOptions): Promise<GitHubSideEffects> {
  const scrub = (t: string) => o.redactor.scrub(t)
  const limits = { ...LIMITS_MS, ...o.limits }
  const warnComment = (m: string) => o.log.warn(scrub(m), COMMENT_TITLE)
  const warnDeployment = (m: string) => o.log.warn(scrub(m), DEPLOYMENT_TITLE)

  let comment = parsePrComment(o.input('pr-comment'), warnComment)
  const author = parseCommentAuthor(o.input('comment-author'))
  if (comment && !author) {
    warnComment(
      'Input "comment-author" must be a GitHub login (letters, digits and -, or an app\'s name[bot]): no comment was posted.',
    )
    comment = false
  }

  let environment: string | null = null
  const env = parseEnvironment(o.input('deployment-environment'))
  if ('error' in env) warnDeployment(`Input "deployment-environment" ${env.error}: no deployment was made.`)
  else environment = env.environment

  const token = o.input('github-token').trim()
  if ((comment || environment) && token === '') {
    const what = [comment && 'pr-comment is true', environment && 'deployment-environment is set'].filter(
      Boolean,
    )
    o.log.warn(`${what.join(' and ')} but github-token is empty: nothing was sent to GitHub.`, GITHUB_TITLE)
    comment = false
    environment = null
  }
  if (!comment && !environment) {
    o.setOutput('deployment-id', '')
    return noop
  }

  const ctx = runContext(o.env ?? process.env)
  // Loaded only now: Octokit would add to the start-up time of every run.
  const { octokitFor } = await import('./octokit.js')
  const octokit = (signal: AbortSignal) => octokitFor(token, ctx.apiUrl, signal)
  let deploymentId: number | null = null

  const deploymentCtx = (kit: Octokit): DeploymentContext | null => {
    const repo = repoOf(ctx.repository, ctx.payload)
    if (!repo || !environment) return null
    return { octokit: kit, repo, environment, scrub, logUrl: ctx.runUrl }
  }

  return {
    async before() {
      try {
        if (!environment || o.signal?.aborted) return
        if (o.dryRun) {
          o.log.info('deployment-environment: a dry run makes no deployment.')
          return
        }
        if (!DEPLOYING_OPERATIONS.includes(o.operation)) return
        const sha = deploymentSha(ctx.eventName, ctx.payload, ctx.env)
        if ('reason' in sha) {
          warnDeployment(`Could not create a deployment: ${sha.reason}. The staging result is not affected.`)
          return
        }
        // A cancel before the operation starts ends this at once: there is nothing to deploy.
        const phase = phaseSignal(o.signal, limits.before, 0)
        try {
          const dctx = deploymentCtx(octokit(phase.signal))
          if (!dctx) {
            warnDeployment('Could not create a deployment: the repository is unknown (no GITHUB_REPOSITORY).')
            return
          }
          const started = await startDeployment(dctx, sha.sha, o.operation, o.siteCount)
          for (const w of started.warnings) warnDeployment(w)
          if (started.id !== null) {
            deploymentId = started.id
            o.log.info(
              `Deployment ${started.id} for environment "${environment}" on ${sha.sha.slice(0, 12)}: in progress.`,
            )
          }
        } finally {
          phase.dispose()
        }
      } catch (e) {
        warnDeployment(`Could not create a deployment: ${(e as Error)?.message ?? String(e)}`)
      } finally {
        o.setOutput('deployment-id', deploymentId === null ? '' : String(deploymentId))
      }
    },

    async after(results: Result[]) {
      // Nothing to send (a dry run with only deployment-environment, no comment): no client, no timers.
      if (results.length === 0 || !((environment && !o.dryRun) || (comment && author))) return
      const phase = phaseSignal(o.signal, limits.after, limits.cancelled)
      const kit = octokit(phase.signal)
      const tasks: Promise<void>[] = []
      if (environment && !o.dryRun) tasks.push(deploymentAfter(kit, results))
      if (comment && author) tasks.push(commentAfter(kit, author, results))
      try {
        await Promise.all(tasks)
      } finally {
        phase.dispose()
      }
    },
  }

  async function deploymentAfter(kit: Octokit, results: Result[]): Promise<void> {
    try {
      const dctx = deploymentCtx(kit)
      if (!dctx) return
      if (o.operation === 'delete') {
        if (!results.every((r) => r.result === 'succeeded' || r.result === 'skipped')) {
          o.log.info(
            `deployment-environment: the delete did not finish, so the deployments of "${dctx.environment}" were left as they are.`,
          )
          return
        }
        const done = await deactivateEnvironment(dctx)
        if (done.warning) warnDeployment(done.warning)
        if (done.deactivated > 0 || !done.warning)
          o.log.info(
            `Marked ${done.deactivated} deployment(s) of environment "${dctx.environment}" inactive` +
              (done.left > 0 && !done.warning ? `; ${done.left} older one(s) left as they are.` : '.'),
          )
        return
      }
      if (deploymentId === null) return
      const status = finalStatus(o.operation, results)
      if (!status) return
      const warning = await finishDeployment(dctx, deploymentId, status)
      if (warning) warnDeployment(warning)
      else o.log.info(`Deployment ${deploymentId} for environment "${dctx.environment}": ${status.state}.`)
    } catch (e) {
      warnDeployment(`Could not update the deployment: ${(e as Error)?.message ?? String(e)}`)
    }
  }

  async function commentAfter(kit: Octokit, author: string, results: Result[]): Promise<void> {
    try {
      await commentOnPullRequest(kit, ctx, author, results)
    } catch (e) {
      warnComment(`Could not post the pull-request comment: ${(e as Error)?.message ?? String(e)}`)
    }
  }

  async function commentOnPullRequest(kit: Octokit, run: RunContext, who: string, results: Result[]) {
    const where = pullRequestTarget(run.eventName, run.payload, run.repository)
    if ('reason' in where) {
      o.log.notice(scrub(where.reason))
      return
    }
    const outcome = await postOrUpdateComments(results, {
      octokit: kit,
      target: where.target,
      author: who,
      scrub,
      runUrl: run.runUrl,
    })
    if (outcome.ignored.length > 0)
      o.log.notice(scrub(ignoredNotice(outcome.ignored, who, where.target.number)))
    const warned = new Set<string>()
    for (const r of outcome.reports) {
      if (r.action === 'failed') {
        if (!warned.has(r.warning)) warnComment(r.warning)
        warned.add(r.warning)
      } else {
        o.log.info(
          scrub(
            `${r.action === 'created' ? 'Posted' : 'Updated'} the comment for site ${r.siteId} on pull request #${where.target.number}` +
              (r.url && /^https?:\/\/[^\s]+$/.test(r.url) ? `: ${r.url.slice(0, 300)}` : '') +
              '.',
          ),
        )
      }
    }
  }
}

/** `pr-comment`: true or false; anything else is a warning and no comment. */
function parsePrComment(raw: string, warn: (m: string) => void): boolean {
  const wanted = raw.trim().toLowerCase()
  if (wanted === '' || wanted === 'false') return false
  if (wanted === 'true') return true
  warn(
    `Input "pr-comment" must be true or false, got "${wanted.slice(0, 20).replace(/[^\x20-\x7e]/g, '?')}": no comment was posted.`,
  )
  return false
}

/**
 * A signal for one phase of GitHub requests: aborts after `normalMs`, or `cancelledMs` after the
 * run is cancelled (at once counted from now if it already is).
 */
export function phaseSignal(
  run: AbortSignal | undefined,
  normalMs: number,
  cancelledMs: number,
): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController()
  const timers: NodeJS.Timeout[] = []
  const abortIn = (ms: number) => {
    const t = setTimeout(
      () => controller.abort(new DOMException('GitHub did not answer in time', 'TimeoutError')),
      ms,
    )
    t.unref?.()
    timers.push(t)
  }
  const onCancel = () => abortIn(cancelledMs)
  if (run?.aborted) abortIn(cancelledMs)
  else {
    abortIn(normalMs)
    run?.addEventListener('abort', onCancel, { once: true })
  }
  return {
    signal: controller.signal,
    dispose: () => {
      timers.forEach(clearTimeout)
      run?.removeEventListener('abort', onCancel)
    },
  }
}
