/** What the v2 API shows of the state: records as `data` objects, dates in the spec's format. */
import { formatDate } from './dates.js'
import type { ProductionSite, StagingSite, Task } from './types.js'

/** A production site as GET/POST /v2/sites return it (no password, no simulated content). */
export function siteView(site: ProductionSite, staging: StagingSite | undefined): Record<string, unknown> {
  return {
    id: site.id,
    site_name: site.site_name,
    url: site.url,
    type: site.type,
    reserved: site.reserved,
    plan: site.plan.name,
    waas: site.waas,
    client_portal_id: site.client_portal?.id ?? null,
    domains: site.domains.map((d) => ({ ...d })),
    cdn_zone: site.cdn_zone ? { ...site.cdn_zone } : null,
    ssl: { ...site.ssl },
    tags: [...site.tags],
    ssh_keys: site.ssh_keys.map((k) => ({ ...k })),
    settings: { ...site.settings },
    password_protected: site.password_protected,
    ssh_username: site.ssh_username,
    staging_site_id: staging?.id ?? null,
    created_at: formatDate(site.created_at),
    updated_at: formatDate(site.updated_at),
  }
}

/** A staging site as an item of GET /v2/sites. */
export function stagingListView(staging: StagingSite): Record<string, unknown> {
  return {
    id: staging.id,
    site_name: staging.site_name,
    url: staging.url,
    type: 'staging',
    reserved: true,
    production_site_id: staging.site_id,
    status: staging.status,
    created_at: formatDate(staging.created_at),
    updated_at: formatDate(staging.updated_at),
  }
}

/** `data` of the probe, GET /v2/sites/{site}/staging. Carries credentials, as the real one may. */
export function probeView(staging: StagingSite): Record<string, unknown> {
  return {
    id: staging.id,
    site_id: staging.site_id,
    staging_site_id: staging.id,
    staging_url: staging.url,
    status: staging.status,
    is_syncing: staging.status === 'syncing' || staging.status === 'pushing',
    task_id: staging.task_id,
    ssh_username: staging.ssh_username,
    ssh_password: staging.ssh_password,
    wp_password: staging.wp_password,
    created_at: formatDate(staging.created_at),
    updated_at: formatDate(staging.updated_at),
  }
}

/**
 * `data` of GET /v2/tasks/{id}/status. `percentage`: null omits percentage_complete. A running
 * task was last updated `now` (its progress moves); a finished one when it ended.
 */
export function taskView(task: Task, percentage: number | null, now: number): Record<string, unknown> {
  const view: Record<string, unknown> = { task_id: task.id, status: task.status }
  if (percentage !== null) view.percentage_complete = String(percentage)
  view.type = task.kind
  view.site_id = task.site_id
  view.created_at = formatDate(task.started_at)
  view.updated_at = formatDate(task.status === 'progress' ? now : task.updated_at)
  view.timeout_at = formatDate(task.timeout_at)
  if (task.comment !== null) view.comment = task.comment
  return view
}
