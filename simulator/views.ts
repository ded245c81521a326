/** What the v2 API shows of the state: records as `data` objects, in a profile's style. */
import { formatDate, isoDate } from './dates.js'
import type { JobKind, ProductionSite, SiteVersion, StagingSite, Task } from './types.js'

/** How a profile writes dates and names staging sites and site versions. */
export interface ViewStyle {
  date(ms: number): string
  stagingId(staging: StagingSite): string | number
  /** A site version's id: `v-7001` (spec) or 7001 (service). */
  versionId(version: SiteVersion): string | number
}

export const SPEC_STYLE: ViewStyle = {
  date: formatDate,
  stagingId: (s) => s.id,
  versionId: (v) => `v-${v.id}`,
}
export const SERVICE_STYLE: ViewStyle = {
  date: isoDate,
  stagingId: (s) => s.numeric_id,
  versionId: (v) => v.id,
}

/** A site version as GET /v2/site-versions lists it (contract §13). */
export function versionView(version: SiteVersion, style: ViewStyle): Record<string, unknown> {
  return {
    id: style.versionId(version),
    site_id: version.site_id,
    name: version.name,
    size_mb: version.status === 'completed' ? version.size_mb : null,
    status: version.status,
    created_at: style.date(version.created_at),
  }
}

/** A production site as GET/POST /v2/sites return it (no password, no simulated content). */
export function siteView(
  site: ProductionSite,
  staging: StagingSite | undefined,
  style: ViewStyle = SPEC_STYLE,
): Record<string, unknown> {
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
    staging_site_id: staging ? style.stagingId(staging) : null,
    created_at: style.date(site.created_at),
    updated_at: style.date(site.updated_at),
  }
}

/** A staging site as an item of GET /v2/sites. */
export function stagingListView(
  staging: StagingSite,
  style: ViewStyle = SPEC_STYLE,
): Record<string, unknown> {
  return {
    id: style.stagingId(staging),
    site_name: staging.site_name,
    url: staging.url,
    type: 'staging',
    reserved: true,
    production_site_id: staging.site_id,
    status: staging.status,
    created_at: style.date(staging.created_at),
    updated_at: style.date(staging.updated_at),
  }
}

/**
 * An item of GET /v2/sites as the service lists it (service profile, docs/assumptions.md): the
 * family's record with a numeric `status` (0 = active), ISO dates, and the link between a
 * production site and its staging site on both records: `is_staging` and `parent_id` on the
 * staging record, `staging_site_id` on the production one. No passwords.
 */
export function serviceListItem(
  record: { production: ProductionSite; staging: StagingSite | undefined } | { staging: StagingSite },
): Record<string, unknown> {
  if ('production' in record) {
    const site = record.production
    return {
      id: site.id,
      name: site.site_name,
      url: site.url,
      status: 0,
      is_staging: false,
      parent_id: null,
      staging_site_id: record.staging ? record.staging.numeric_id : null,
      reserved: site.reserved,
      created_at: isoDate(site.created_at),
      updated_at: isoDate(site.updated_at),
    }
  }
  const staging = record.staging
  return {
    id: staging.numeric_id,
    name: staging.site_name,
    url: staging.url,
    status: staging.status === 'ready' ? 0 : 1,
    is_staging: true,
    parent_id: staging.site_id,
    reserved: true,
    created_at: isoDate(staging.created_at),
    updated_at: isoDate(staging.updated_at),
  }
}

/** `data` of the probe, GET /v2/sites/{site}/staging (spec profile). Carries credentials, as the real one may. */
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
 * `data` of GET /v2/tasks/{id}/status in the spec profile. `percentage`: null omits
 * percentage_complete. A running task was last updated `now` (its progress moves); a finished one
 * when it ended.
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

/** The service family's task `type` of each job. */
export const SERVICE_TASK_TYPE: Readonly<Record<JobKind, string>> = {
  create: 'site_install',
  pull: 'staging_sync',
  push: 'staging_push',
  delete: 'site_delete',
  version: 'site_version',
  restore: 'site_version_restore',
}

/** A create task is `queued` for this share of its duration (at most 5 s), then `in_progress`. */
export function queuedForMs(task: Task): number {
  return Math.min(0.1 * task.duration_ms, 5000)
}

/**
 * A task's `status` in the service profile: create tasks use words (`queued`, `in_progress`,
 * `completed`, `failure`); pull, push and delete tasks use numbers (1 running, 0 completed, 2 failed).
 */
export function serviceTaskStatus(task: Task, now: number): string | number {
  if (task.kind !== 'create') return task.status === 'completed' ? 0 : task.status === 'error' ? 2 : 1
  if (task.status === 'completed') return 'completed'
  if (task.status === 'error') return 'failure'
  return now - task.started_at < queuedForMs(task) ? 'queued' : 'in_progress'
}

/**
 * `data` of GET /api/v2/tasks/{id}/status in the service profile (contract §2, r2): the task's row
 * (`id` is its database id, never a site id), the site it works on as `resource_id` (the staging
 * site of a staging job, the production site of a version or restore), a two-decimal
 * string percentage, ISO dates.
 */
export function serviceTaskView(
  task: Task,
  resourceId: number,
  percentage: number | null,
  now: number,
): Record<string, unknown> {
  const status = serviceTaskStatus(task, now)
  const view: Record<string, unknown> = {
    id: task.row_id,
    cloud_task_id: task.id,
    type: SERVICE_TASK_TYPE[task.kind],
    resource_type: 'App\\Models\\Site',
    resource_id: resourceId,
    status,
  }
  if (percentage !== null) view.percentage_complete = (status === 'queued' ? 0 : percentage).toFixed(2)
  view.comment = task.comment
  view.created_at = isoDate(task.started_at)
  view.updated_at = isoDate(task.status === 'progress' ? now : task.updated_at)
  return view
}
