/**
 * What the runner tells about the run: event, pull request, repository, commit, run URL. Read from
 * the environment (GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, ...) as @actions/github's context does,
 * without loading @actions/github: a run that asks nothing of GitHub pays nothing for it.
 */
import { readFileSync } from 'node:fs'

export type Env = Record<string, string | undefined>

export interface RunContext {
  eventName: string | undefined
  payload: unknown
  /** `owner/repo` from GITHUB_REPOSITORY. */
  repository: string | undefined
  /** GitHub's REST root (GITHUB_API_URL; GitHub Enterprise Server included). */
  apiUrl: string
  /** The workflow run's page, for links and `log_url`; null when the environment does not say. */
  runUrl: string | null
  env: Env
}

/** The run's context from the runner's environment. An unreadable event file is an empty payload. */
export function runContext(env: Env): RunContext {
  let payload: unknown = {}
  try {
    if (env.GITHUB_EVENT_PATH) payload = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8'))
  } catch {
    // payload stays empty
  }
  return {
    eventName: env.GITHUB_EVENT_NAME,
    payload,
    repository: env.GITHUB_REPOSITORY,
    apiUrl: (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, ''),
    runUrl: runUrlFrom(env),
    env,
  }
}

export interface Repo {
  owner: string
  repo: string
}

export interface PullRequestTarget extends Repo {
  number: number
}

/** Events whose payload names the pull request the comment belongs to. */
const isPullRequestEvent = (eventName: string | undefined) =>
  eventName === 'pull_request' || eventName === 'pull_request_target'

/** The repository of the run: GITHUB_REPOSITORY, else the payload's. */
export function repoOf(repository: string | undefined, payload: unknown): Repo | null {
  const [owner, repo, extra] = (repository ?? '').split('/')
  if (owner && repo && extra === undefined) return { owner, repo }
  const p = (payload ?? {}) as { repository?: { name?: unknown; owner?: { login?: unknown } } }
  const name = p.repository?.name
  const login = p.repository?.owner?.login
  if (typeof name === 'string' && typeof login === 'string' && name && login)
    return { owner: login, repo: name }
  return null
}

/** The pull request of the triggering event, or why there is none. */
export function pullRequestTarget(
  eventName: string | undefined,
  payload: unknown,
  repository: string | undefined,
): { target: PullRequestTarget } | { reason: string } {
  if (!isPullRequestEvent(eventName))
    return {
      reason: `pr-comment: the triggering event is ${eventName ? `"${eventName.slice(0, 60)}"` : 'unknown'}, not pull_request or pull_request_target: no comment was posted.`,
    }
  const p = (payload ?? {}) as { pull_request?: { number?: unknown }; number?: unknown }
  const number = Number(p.pull_request?.number ?? p.number)
  if (!Number.isInteger(number) || number <= 0)
    return { reason: 'pr-comment: the event payload names no pull request number: no comment was posted.' }
  const repo = repoOf(repository, payload)
  if (repo) return { target: { ...repo, number } }
  return { reason: 'pr-comment: the repository is unknown (no GITHUB_REPOSITORY): no comment was posted.' }
}

/** A commit id: SHA-1, or SHA-256. */
export const SHA = /^([0-9a-f]{40}|[0-9a-f]{64})$/i

/** The commit a deployment is made for: the pull request's head on pull_request and pull_request_target
 * (GITHUB_SHA is then a merge or base commit), else GITHUB_SHA. */
export function deploymentSha(
  eventName: string | undefined,
  payload: unknown,
  env: Env,
): { sha: string } | { reason: string } {
  if (isPullRequestEvent(eventName)) {
    const head = (payload as { pull_request?: { head?: { sha?: unknown } } } | null)?.pull_request?.head?.sha
    if (typeof head === 'string' && SHA.test(head)) return { sha: head.toLowerCase() }
    return { reason: 'the event payload names no pull request head commit (pull_request.head.sha)' }
  }
  const sha = env.GITHUB_SHA ?? ''
  if (SHA.test(sha)) return { sha: sha.toLowerCase() }
  return { reason: 'GITHUB_SHA is not set to a commit' }
}

/** `https://github.com/o/r/actions/runs/123/attempts/2`, when the environment says. */
export function runUrlFrom(env: Env): string | null {
  const server = env.GITHUB_SERVER_URL || 'https://github.com'
  if (!env.GITHUB_REPOSITORY || !env.GITHUB_RUN_ID) return null
  if (!/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(env.GITHUB_REPOSITORY) || !/^\d+$/.test(env.GITHUB_RUN_ID))
    return null
  const attempt =
    env.GITHUB_RUN_ATTEMPT && /^\d+$/.test(env.GITHUB_RUN_ATTEMPT) && env.GITHUB_RUN_ATTEMPT !== '1'
      ? `/attempts/${env.GITHUB_RUN_ATTEMPT}`
      : ''
  return `${server.replace(/\/+$/, '')}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}${attempt}`
}

/** The fork a `pull_request` run comes from (`alice/site-repo`), or null: GitHub gives such a run no secrets
 * and a read-only token. */
export function forkOf(eventName: string | undefined, payload: unknown): string | null {
  if (eventName !== 'pull_request') return null
  const pr = (payload as { pull_request?: { head?: { repo?: unknown }; base?: { repo?: unknown } } } | null)
    ?.pull_request
  const name = (repo: unknown) => {
    const full = (repo as { full_name?: unknown } | null)?.full_name
    return typeof full === 'string' && /^[\w.-]+\/[\w.-]+$/.test(full) ? full : null
  }
  const head = name(pr?.head?.repo)
  const base = name(pr?.base?.repo)
  return head && base && head.toLowerCase() !== base.toLowerCase() ? head : null
}
