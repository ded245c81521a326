/**
 * Source 3 of the staging URL (issue 20 §1): what an earlier run recorded. The staging site keeps
 * its URL across pulls (spec, staging rule 6), so the last successful GitHub deployment of the same
 * environment names it: its `environment_url`.
 *
 * Read tolerantly: a deployment with no creator, or written by another account, or recorded for another site, is
 * skipped; the URL is only what `safeHttpUrl` makes of it. The core checks that it answers before
 * reporting it as current. Nothing here throws.
 */
import { safeHttpUrl } from '../report/markdown.js'
import type { Repo } from './context.js'
import type { Octokit } from './octokit.js'
import { ourDeployments, payloadRecord } from './ownership.js'

/** How many of the environment's newest deployments are read. */
const MAX_READ = 10

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
): Promise<string | null> {
  try {
    for (const d of await ourDeployments(octokit, repo, { environment, per_page: MAX_READ }, creator)) {
      if (d.environment !== environment) continue
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
        if (url) return url
      }
    }
    return null
  } catch {
    return null
  }
}
