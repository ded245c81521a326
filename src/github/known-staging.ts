/**
 * Source 3 of the staging URL (issue 20 §1): what an earlier run recorded. The staging site keeps
 * its URL across pulls (spec, staging rule 6), so the last successful GitHub deployment of the same
 * environment names it: its `environment_url`, and the staging site id our payload recorded.
 *
 * Read tolerantly: a deployment with no creator, or written by another account, or recorded for another site, is
 * skipped; the URL is only what `safeHttpUrl` makes of it. The core checks that it answers before
 * reporting it as current. Nothing here throws.
 */
import { safeHttpUrl } from '../report/markdown.js'
import type { Repo } from './context.js'
import type { Octokit } from './octokit.js'
import { createdBy, payloadRecord } from './ownership.js'

/** How many of the environment's newest deployments are read. */
const MAX_READ = 10

export interface DeployedStaging {
  url: string
  /** The staging site id an earlier run recorded, when it did. */
  stagingSiteId: string | null
  deploymentId: number
}

/**
 * The staging URL of the newest deployment of `environment` that succeeded with one, for
 * `siteId`; null when there is none, or GitHub would not say.
 */
export async function lastDeployedStaging(
  octokit: Octokit,
  repo: Repo,
  environment: string,
  siteId: string,
  creator: string,
): Promise<DeployedStaging | null> {
  try {
    const listed = await octokit.rest.repos.listDeployments({ ...repo, environment, per_page: MAX_READ })
    for (const d of listed.data as {
      id?: unknown
      environment?: unknown
      payload?: unknown
      creator?: { login?: unknown } | null
    }[]) {
      if (typeof d.id !== 'number' || d.environment !== environment) continue
      if (!createdBy(d, creator)) continue
      const record = payloadRecord(d.payload)
      if (record && record.site !== undefined && record.site !== siteId) continue
      const statuses = await octokit.rest.repos.listDeploymentStatuses({
        ...repo,
        deployment_id: d.id,
        per_page: 20,
      })
      for (const s of statuses.data as { state?: unknown; environment_url?: unknown }[]) {
        if (s.state !== 'success') continue
        const url = typeof s.environment_url === 'string' ? safeHttpUrl(s.environment_url) : null
        if (!url) continue
        return { url, stagingSiteId: idOf(record?.staging_site_id), deploymentId: d.id }
      }
    }
    return null
  } catch {
    return null
  }
}

function idOf(v: unknown): string | null {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) return String(v)
  if (typeof v === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(v)) return v
  return null
}
