/**
 * One shared staging, many pull requests. Every refresh (create, pull) of a site's one staging
 * environment records the pull request it was for (number, head commit, run) in its GitHub
 * deployment: `task` names the site (`site-staging:<site>`), `payload` holds the owner. The newest
 * live one (success, or still in progress) says what staging shows now; a newer `inactive` one means
 * staging was released. Read tolerantly: a record we did not write (no creator, another creator,
 * another shape) is skipped, never trusted. Everything here returns values or warnings; nothing throws.
 */
import { safeHttpUrl } from '../report/markdown.js'
import { SHA, type Repo } from './context.js'
import { githubFailure } from './errors.js'
import type { Octokit } from './octokit.js'

/** The key of our record in a deployment's payload. */
export const PAYLOAD_KEY = 'site-staging-action'

/** How many of a site's newest deployments are read to find its owner; of an environment's, to find its URL. */
const MAX_READ = 20
const MAX_READ_URL = 10

/** What staging shows: the run that last refreshed it. */
export interface Owner {
  /** The pull request; null for a run that was not for one (a nightly refresh, say). */
  pr: number | null
  /** The commit (a pull request's head). */
  sha: string
  runUrl: string | null
  runId: number | null
  /** When it took staging (ISO 8601). */
  at: string
}

/** The owner and where the record is. */
export interface CurrentOwner {
  owner: Owner
  deploymentId: number
  environment: string
}

/** The deployment task that names the site, so its deployments are found whatever the environment. */
export function taskFor(siteId: string): string {
  return `site-staging:${siteId}`
}

/** The deployment payload that records `owner` for `siteId`. */
export function ownerPayload(siteId: string, owner: Owner): Record<string, unknown> {
  return {
    [PAYLOAD_KEY]: {
      site: siteId,
      owner: { pr: owner.pr, sha: owner.sha, run_url: owner.runUrl, run_id: owner.runId, at: owner.at },
    },
  }
}

/** Our record in a deployment payload (an object, or JSON text as the API may return it), or null. */
export function payloadRecord(payload: unknown): Record<string, unknown> | null {
  let p = payload
  if (typeof p === 'string') {
    try {
      p = JSON.parse(p)
    } catch {
      return null
    }
  }
  const r = (p as Record<string, unknown> | null)?.[PAYLOAD_KEY]
  return r && typeof r === 'object' && !Array.isArray(r) ? (r as Record<string, unknown>) : null
}

/** The owner a payload records for `siteId`, or null when it is not one of ours (read tolerantly). */
export function readOwner(payload: unknown, siteId: string): Owner | null {
  const record = payloadRecord(payload)
  if (!record || record.site !== siteId) return null
  const o = record.owner as Record<string, unknown> | undefined
  if (!o || typeof o !== 'object') return null
  const pr = o.pr === null ? null : positiveInt(o.pr)
  if (pr === undefined) return null
  if (typeof o.sha !== 'string' || !SHA.test(o.sha)) return null
  if (typeof o.at !== 'string' || Number.isNaN(Date.parse(o.at))) return null
  const runUrl = typeof o.run_url === 'string' ? safeHttpUrl(o.run_url) : null
  return { pr, sha: o.sha.toLowerCase(), runUrl, runId: positiveInt(o.run_id) ?? null, at: o.at }
}

function positiveInt(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : undefined
}

/** A deployment as GitHub lists it; every field checked before it is used. */
interface Deployment {
  id: number
  environment: string
  payload?: unknown
  creator?: { login?: unknown } | null
}

/** The deployments GitHub lists for `query` that `creator` made (issue 24 §5): a record with no creator, or
 * by any other account, is not ours and is never trusted, whatever its payload says. */
export async function ourDeployments(
  octokit: Octokit,
  repo: Repo,
  query: { task?: string; environment?: string; per_page: number },
  creator: string,
): Promise<Deployment[]> {
  const { data } = await octokit.rest.repos.listDeployments({ ...repo, ...query })
  return (data as Deployment[]).filter(
    (d) =>
      typeof d.id === 'number' &&
      typeof d.environment === 'string' &&
      typeof d.creator?.login === 'string' &&
      d.creator.login.toLowerCase() === creator.toLowerCase(),
  )
}

/** A deployment's newest `per_page` statuses, newest first; every field checked before it is used. */
async function statusesOf(octokit: Octokit, repo: Repo, id: number, per_page: number) {
  const { data } = await octokit.rest.repos.listDeploymentStatuses({ ...repo, deployment_id: id, per_page })
  return data as { state?: unknown; environment_url?: unknown }[]
}

const LIVE = new Set(['success', 'in_progress', 'queued', 'pending'])

/** Who staging shows now: the newest of the site's deployments recorded by `creator` whose latest status is
 * live. A newer inactive one means it was released (or deleted): nobody. Failed and errored refreshes are
 * passed over (the one before them still holds). */
export async function findOwner(
  octokit: Octokit,
  repo: Repo,
  siteId: string,
  creator: string,
  scrub: (t: string) => string,
): Promise<{ current: CurrentOwner | null } | { warning: string }> {
  try {
    const listed = await ourDeployments(octokit, repo, { task: taskFor(siteId), per_page: MAX_READ }, creator)
    for (const d of listed) {
      const owner = readOwner(d.payload, siteId)
      if (!owner) continue
      const state = (await statusesOf(octokit, repo, d.id, 1))[0]?.state
      if (state === 'inactive') return { current: null }
      if (typeof state === 'string' && LIVE.has(state))
        return { current: { owner, deploymentId: d.id, environment: d.environment } }
    }
    return { current: null }
  } catch (e) {
    const doing = `read which pull request staging of site ${siteId} shows`
    return { warning: githubFailure(e, doing, '"deployments: read"', scrub) }
  }
}

/** Source 3 of the staging URL (issue 20 §1): the staging site keeps its URL across pulls (spec, staging rule
 * 6), so the `environment_url` of the newest success among the environment's last MAX_READ_URL deployments
 * for `siteId` names it, only as `safeHttpUrl` makes it; null when there is none, or GitHub would not say.
 * Read tolerantly, as above. The core checks it answers before use. */
export async function lastDeployedStaging(
  octokit: Octokit,
  repo: Repo,
  environment: string,
  siteId: string,
  creator: string,
): Promise<string | null> {
  try {
    for (const d of await ourDeployments(octokit, repo, { environment, per_page: MAX_READ_URL }, creator)) {
      if (d.environment !== environment) continue
      const record = payloadRecord(d.payload)
      if (record && record.site !== undefined && record.site !== siteId) continue
      for (const s of await statusesOf(octokit, repo, d.id, 20)) {
        if (s.state !== 'success') continue
        const url = typeof s.environment_url === 'string' ? safeHttpUrl(s.environment_url) : null
        if (url) return url
      }
    }
    return null
  } catch {
    return null
  }
}

/** Whether pull request `pr` is open; null when GitHub would not say. */
export async function isOpen(octokit: Octokit, repo: Repo, pr: number): Promise<boolean | null> {
  try {
    const { data } = await octokit.rest.pulls.get({ ...repo, pull_number: pr })
    return data.state === 'open'
  } catch {
    return null
  }
}

/** `#12`, or "a run not for a pull request". */
export function ownerName(owner: Owner): string {
  return owner.pr === null ? 'a workflow run that was not for a pull request' : `#${owner.pr}`
}

/** Who owns staging, in one sentence for a log line or an error. */
export function describeOwner(current: CurrentOwner): string {
  const o = current.owner
  const at = new Date(o.at).toISOString() // a date readOwner checked: `14:02 UTC on 2026-11-24`
  return (
    `Staging shows ${ownerName(o)} (commit ${o.sha.slice(0, 12)}, since ${at.slice(11, 16)} UTC on ${at.slice(0, 10)}` +
    (o.runUrl ? `, run ${o.runUrl}` : '') +
    ')'
  )
}
