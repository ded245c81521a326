/**
 * GitHub deployments (`deployment-environment`): one per create, pull or push, `in_progress` before
 * the operation and given its final status when the run ends (a pull request shows a "View
 * deployment" button while staging exists); after a delete, the environment's deployments become
 * `inactive`. Everything sent is our own words (never server text) or values we checked
 * (`environment_url` only as `safeHttpUrl` makes it), and every string goes through the redactor.
 * Failures come back as warnings, never as throws.
 */
import { safeHttpUrl } from '../report/markdown.js'
import { overallOutcome, type Result } from '../types.js'
import { bound } from '../text.js'
import type { Repo } from './context.js'
import { githubFailure } from './errors.js'
import type { Octokit } from './octokit.js'

/** The operations that make a deployment (delete marks the environment inactive instead). */
export const DEPLOYING_OPERATIONS: readonly string[] = ['create', 'pull', 'push']

/** GitHub's limit on a deployment (status) description. */
const MAX_DESCRIPTION_CHARS = 140
/** At most this many deployments are marked inactive after a delete (newest first). */
export const MAX_DEACTIVATED = 300

const PERMISSION = '"deployments: write" (permissions: deployments: write)'

export type DeploymentState = 'error' | 'failure' | 'inactive' | 'in_progress' | 'success'

export interface DeploymentContext {
  octokit: Octokit
  repo: Repo
  environment: string
  scrub: (text: string) => string
  /** The workflow run's page (`log_url`). */
  logUrl: string | null
}

/** Every string of a request body through the redactor (a secret is never sent, whatever field). */
function scrubbed<T extends Record<string, unknown>>(body: T, scrub: (t: string) => string): T {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(body)) out[k] = typeof v === 'string' ? scrub(v) : v
  return out as T
}

/** An http(s) URL we can send as `environment_url` / `log_url`; null for anything else or a URL holding a secret. */
function sendableUrl(url: string | null | undefined, scrub: (t: string) => string): string | null {
  const safe = safeHttpUrl(url)
  return safe && scrub(safe) === safe ? safe : null
}

export interface FinalStatus {
  state: DeploymentState
  description: string
  /** The staging URL, for success (and accepted): one site's http(s) URL only; none when absent. */
  environmentUrl?: string | null
}

/** The final status of a run's deployment, from its Results (several sites: the worst outcome), with the
 * staging URL as `environment_url` when the run had one site. A create skipped because staging exists is
 * `success` (it is there, unchanged); accepted stays `in_progress`, never `success` without evidence; a dry
 * run makes no deployment, so no status. */
export function finalStatus(operation: string, results: Result[]): FinalStatus | null {
  if (results.length === 0) return null
  const sites = results.length > 1 ? ` (${results.length} sites)` : ''
  const url = results.length === 1 ? results[0]!.stagingUrl : null
  const status = (state: DeploymentState, words: string, environmentUrl: string | null = null) => ({
    state,
    description: `${words}${sites}.`,
    environmentUrl,
  })
  switch (overallOutcome(results)) {
    case 'succeeded':
      return status('success', `Staging ${operation} succeeded`, url)
    case 'skipped':
      return operation === 'create'
        ? status('success', 'Staging already exists (create skipped)', url)
        : status('inactive', `No staging environment: ${operation} skipped`)
    case 'accepted':
      return status('in_progress', `Staging ${operation} accepted by the API; completion not confirmed`, url)
    case 'failed':
      return status('failure', `Staging ${operation} failed`)
    case 'timed-out':
      return status('error', `Staging ${operation} timed out`)
    case 'cancelled':
      return status('error', `Staging ${operation} was cancelled`)
    default:
      return null
  }
}

async function setStatus(
  ctx: DeploymentContext,
  id: number,
  state: DeploymentState,
  text: string,
  environmentUrl: string | null = null,
): Promise<void> {
  const logUrl = sendableUrl(ctx.logUrl, ctx.scrub)
  const envUrl = sendableUrl(environmentUrl, ctx.scrub)
  await ctx.octokit.rest.repos.createDeploymentStatus(
    scrubbed(
      {
        ...ctx.repo,
        deployment_id: id,
        state,
        description: bound(text, MAX_DESCRIPTION_CHARS),
        ...(logUrl ? { log_url: logUrl } : {}),
        ...(envUrl ? { environment_url: envUrl } : {}),
        ...(state === 'success' ? { auto_inactive: true } : {}),
      },
      ctx.scrub,
    ),
  )
}

/** Creates the deployment for `sha` in the environment, then marks it `in_progress`. The deployment is not
 * transient: the environment outlives one run (later runs replace its deployment, and GitHub's auto_inactive
 * retires the older ones); a delete retires it explicitly. */
export async function startDeployment(
  ctx: DeploymentContext,
  sha: string,
  operation: string,
  siteCount: number,
  /** One site's run: the task that names the site, and the payload that records who staging shows. */
  record?: { task: string; payload: Record<string, unknown> } | null,
): Promise<{ id: number | null; warning: string | null }> {
  const where = `create a deployment for environment "${ctx.environment}"`
  let id: number
  try {
    const response = await ctx.octokit.rest.repos.createDeployment(
      scrubbed(
        {
          ...ctx.repo,
          ref: sha,
          environment: ctx.environment,
          description: bound(
            `Staging ${operation}${siteCount > 1 ? ` (${siteCount} sites)` : ''} by site-staging-action`,
            MAX_DESCRIPTION_CHARS,
          ),
          auto_merge: false,
          required_contexts: [],
          production_environment: false,
          transient_environment: false,
          ...(record ? { task: record.task, payload: record.payload } : {}),
        },
        ctx.scrub,
      ),
    )
    const data = response.data as { id?: unknown }
    if (typeof data.id !== 'number' || !Number.isSafeInteger(data.id))
      return {
        id: null,
        warning: `Could not ${where}: GitHub answered HTTP ${response.status} without a deployment id.`,
      }
    id = data.id
  } catch (e) {
    return { id: null, warning: githubFailure(e, where, PERMISSION, ctx.scrub) }
  }
  try {
    await setStatus(ctx, id, 'in_progress', `Staging ${operation} started.`)
    return { id, warning: null }
  } catch (e) {
    return { id, warning: githubFailure(e, `mark deployment ${id} in progress`, PERMISSION, ctx.scrub) }
  }
}

/** Gives a deployment its final status (`inactive`: staging shows another run now, or was released); returns
 * a warning when GitHub refused it. */
export async function finishDeployment(
  ctx: DeploymentContext,
  id: number,
  status: FinalStatus,
): Promise<string | null> {
  // Sent once more after a 5xx: a deployment left in_progress reads as a live owner of staging for good.
  for (let attempt = 1; ; attempt++)
    try {
      await setStatus(ctx, id, status.state, status.description, status.environmentUrl)
      return null
    } catch (e) {
      const code = (e as { status?: unknown })?.status
      if (attempt === 1 && typeof code === 'number' && code >= 500) continue
      return githubFailure(e, `mark deployment ${id} ${status.state}`, PERMISSION, ctx.scrub)
    }
}

/** After a delete: every deployment of the environment (all pages, newest first, at most MAX_DEACTIVATED)
 * gets an `inactive` status, so GitHub shows no live environment any more. `left`: the deployments past
 * MAX_DEACTIVATED (or after a refusal), left as they are. */
export async function deactivateEnvironment(
  ctx: DeploymentContext,
): Promise<{ deactivated: number; left: number; warning: string | null }> {
  const ids: number[] = []
  let left = 0
  try {
    await ctx.octokit.paginate(
      ctx.octokit.rest.repos.listDeployments,
      { ...ctx.repo, environment: ctx.environment, per_page: 100 },
      (response) => {
        for (const d of response.data as { id?: unknown; environment?: unknown }[]) {
          const another = typeof d.environment === 'string' && d.environment !== ctx.environment
          if (typeof d.id !== 'number' || another) continue
          if (ids.length < MAX_DEACTIVATED) ids.push(d.id)
          else left++
        }
        return []
      },
    )
  } catch (e) {
    const doing = `list the deployments of environment "${ctx.environment}"`
    return { deactivated: 0, left: 0, warning: githubFailure(e, doing, PERMISSION, ctx.scrub) }
  }
  for (const [deactivated, id] of ids.entries()) {
    try {
      await setStatus(ctx, id, 'inactive', 'Staging environment deleted.')
    } catch (e) {
      // One refusal means the token cannot: do not send the same refused request for each.
      const rest = ids.length - deactivated
      const doing = `mark deployment ${id} inactive (${rest} of the environment's ${ids.length} deployment(s) left as they are)`
      return { deactivated, left: left + rest, warning: githubFailure(e, doing, PERMISSION, ctx.scrub) }
    }
  }
  return { deactivated: ids.length, left, warning: null }
}
