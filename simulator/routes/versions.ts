/**
 * Site versions (contract §13, r4): point-in-time copies of a production site's content, made and
 * restored by background jobs like any other (jobs.ts). The rules are the same in every profile; only
 * the shapes differ (../profiles):
 * - create: 422 for a missing or unknown `site_id` (a field of the body, validated as the framework
 *   does: a 404 here would read as "no versions route", contract §13); 422 "already in progress" (busy) while one is in progress, the quota's 422 when the site keeps more than
 *   `versionQuota` completed versions (the family's backups: 3 kept, plus 1 in progress: with 3
 *   completed a fourth may be made, after which the oldest must go); otherwise a `version` job. The version holds the content the site had when
 *   it was asked for.
 * - name: 422 for a missing name or one longer than 25 characters.
 * - list: the site's versions, newest first, paged like the site list; 422 for a missing or unknown
 *   `site_id`.
 * - restore: 404 for an unknown site or version; a version of another site refused; a version not
 *   completed refused (422); a restore or push of the site already running refused as busy;
 *   otherwise a `restore` job, which puts the version's content back on production when it completes.
 * - delete: each id deleted, or listed in `failed_ids` (unknown, in progress, being restored).
 * The knob `versions` (options) gates them all: `plan-403` answers 403 here; `quota`, `task-fails`,
 * `slow` and `no-task-id` change create; `absent-404` / `absent-405` are routing (api.ts).
 */
import { jsonBody } from '../body.js'
import type { ApiContext, ApiRequest } from '../context.js'
import { ok, type ApiResponse } from '../http.js'
import { t } from '../i18n.js'
import { PAGED_VERSION_ROWS, RESTORE_HALF_ERROR, SLOW_VERSION_MS, VERSION_TASK_ERROR } from '../options.js'
import type { ProductionSite, SiteVersion } from '../types.js'
import { versionView } from '../views.js'
import { MAX_PER_PAGE, positiveInt } from './sites.js'

/** Longest version name the service takes (contract §13). */
export const MAX_VERSION_NAME = 25

export function createVersion(ctx: ApiContext, req: ApiRequest): ApiResponse {
  const body = jsonBody(ctx, req, ['site_id'])
  if (!body.ok) return body.response
  const gate = planGate(ctx)
  if (gate) return gate
  const raw = body.value.site_id
  if (raw === undefined || raw === null || raw === '') return required(ctx, 'site_id')
  if (!(typeof raw === 'number' || typeof raw === 'string')) return invalid(ctx, 'site_id')
  const site = ctx.state.sites.get(String(raw))
  if (!site) return invalid(ctx, 'site_id')
  const mine = versionsOf(ctx, site)
  const completed = mine.filter((v) => v.status === 'completed').length
  const running = mine.filter((v) => v.status === 'progress').length
  // `busy-once`: the first create of the run is refused as busy, as while a version is in progress.
  if (running >= 1 || (ctx.options.versions === 'busy-once' && !ctx.state.versionBusySaid)) {
    ctx.state.versionBusySaid = true
    return ctx.shapes.refused(422, ctx.lang, t(ctx.lang, 'version_busy'))
  }
  if (ctx.options.versions === 'quota' || completed > ctx.options.versionQuota) {
    return ctx.shapes.refused(
      422,
      ctx.lang,
      t(ctx.lang, 'version_quota', { quota: ctx.options.versionQuota }),
    )
  }
  const version = addVersion(ctx, site, 'progress', null)
  const failWith = ctx.options.versions === 'task-fails' ? VERSION_TASK_ERROR : ctx.taskError
  const slow = ctx.options.versions === 'slow' ? SLOW_VERSION_MS : undefined
  const task = ctx.jobs.startOnSite('version', site.id, version.id, failWith, ctx.now, slow)
  version.task_id = task.id
  const id = ctx.shapes.style.versionId(version)
  // `no-task-id`: a service that leaves the task out (contract §13 names it; docs/assumptions.md 120).
  const data = ctx.options.versions === 'no-task-id' ? { id } : { id, task_id: task.id }
  return ctx.shapes.siteJobStarted(ctx.lang, t(ctx.lang, 'version_started'), data)
}

export function nameVersion(ctx: ApiContext, req: ApiRequest, versionId: string): ApiResponse {
  const body = jsonBody(ctx, req, ['name'])
  if (!body.ok) return body.response
  const gate = planGate(ctx)
  if (gate) return gate
  const version = findVersion(ctx, versionId)
  if (!version) return ctx.shapes.versionNotFound(ctx.lang, versionId)
  const name = body.value.name
  if (typeof name !== 'string' || name.trim() === '') return required(ctx, 'name')
  if ([...name].length > MAX_VERSION_NAME) {
    const message = t(ctx.lang, 'field_too_long', { field: 'name', max: MAX_VERSION_NAME })
    return ctx.shapes.validation(ctx.lang, 'name', message)
  }
  version.name = name
  version.updated_at = ctx.now
  return ok(200, t(ctx.lang, 'version_updated'), versionView(version, ctx.shapes.style))
}

export function listVersions(ctx: ApiContext, req: ApiRequest): ApiResponse {
  const gate = planGate(ctx)
  if (gate) return gate
  const siteId = req.query.get('site_id')
  if (siteId === null || siteId === '') return required(ctx, 'site_id')
  const site = ctx.state.sites.get(siteId)
  if (!site) return invalid(ctx, 'site_id')
  const page = positiveInt(req.query.get('page'), 1)
  const asked = positiveInt(req.query.get('per_page'), 15)
  if (page === null) return invalid(ctx, 'page')
  if (asked === null || asked > MAX_PER_PAGE) return invalid(ctx, 'per_page')
  const mode = ctx.options.versions
  const perPage = mode === 'paged' || mode === 'oldest-first' ? Math.min(asked, PAGED_VERSION_ROWS) : asked
  // `unfiltered`: a service that ignores site_id and lists every site's versions (contract §13 r5).
  const listed = mode === 'unfiltered' ? [...ctx.state.siteVersions.values()] : versionsOf(ctx, site)
  const all = listed.sort((a, b) => b.created_at - a.created_at || b.id - a.id)
  // `oldest-first`: a service that does not list newest first, as contract §13 says it does.
  if (mode === 'oldest-first') all.reverse()
  const from = (page - 1) * perPage
  const items = all.slice(from, from + perPage)
  const meta = {
    current_page: page,
    per_page: perPage,
    total: all.length,
    last_page: Math.max(1, Math.ceil(all.length / perPage)),
  }
  const style = ctx.shapes.style
  return ok(
    200,
    t(ctx.lang, 'versions_listed'),
    items.map((v) => versionView(v, style)),
    meta,
  )
}

export function restoreVersion(ctx: ApiContext, siteId: string, versionId: string): ApiResponse {
  const gate = planGate(ctx)
  if (gate) return gate
  const site = ctx.state.sites.get(siteId)
  if (!site) return ctx.shapes.siteNotFound(ctx.lang, siteId)
  const version = findVersion(ctx, versionId)
  if (!version) return ctx.shapes.versionNotFound(ctx.lang, versionId)
  if (version.site_id !== site.id) return ctx.shapes.versionOfOtherSite(ctx.lang, versionId, siteId)
  if (version.status !== 'completed') {
    return ctx.shapes.refused(422, ctx.lang, t(ctx.lang, 'version_not_completed', { version: versionId }))
  }
  if (restoring(ctx, site.id) || ctx.state.staging.get(siteId)?.status === 'pushing') {
    return ctx.shapes.restoreBusy(ctx.lang)
  }
  const half = ctx.options.versions === 'restore-half' ? RESTORE_HALF_ERROR : null
  const task = ctx.jobs.startOnSite('restore', site.id, version.id, half ?? ctx.taskError, ctx.now)
  return ctx.shapes.siteJobStarted(ctx.lang, t(ctx.lang, 'restore_started'), { task_id: task.id })
}

export function deleteVersions(ctx: ApiContext, req: ApiRequest): ApiResponse {
  const body = jsonBody(ctx, req, ['ids'])
  if (!body.ok) return body.response
  const gate = planGate(ctx)
  if (gate) return gate
  const ids = body.value.ids
  if (!Array.isArray(ids) || ids.length === 0) return required(ctx, 'ids')
  const success: unknown[] = []
  const failed: unknown[] = []
  for (const id of ids) {
    const version =
      typeof id === 'string' || typeof id === 'number' ? findVersion(ctx, String(id)) : undefined
    const busy = version && (version.status === 'progress' || restoring(ctx, version.site_id, version.id))
    if (!version || busy) {
      failed.push(id)
      continue
    }
    ctx.state.siteVersions.delete(version.id)
    success.push(id)
  }
  return ok(200, t(ctx.lang, 'versions_deleted'), { success_ids: success, failed_ids: failed })
}

/**
 * A version in `status` of `site` with `content` (the site's now when omitted). Shared with the
 * admin paths, which seed versions a person made.
 */
export function addVersion(
  ctx: Pick<ApiContext, 'state' | 'now'>,
  site: ProductionSite,
  status: SiteVersion['status'],
  name: string | null,
  content = site.content,
): SiteVersion {
  const id = ctx.state.nextVersionId++
  const version: SiteVersion = {
    id,
    site_id: site.id,
    name,
    status,
    content: { ...content },
    size_mb: Math.round((48 + (site.id % 97) * 1.5 + (id % 7) * 0.3) * 10) / 10,
    task_id: null,
    created_at: ctx.now,
    updated_at: ctx.now,
  }
  ctx.state.siteVersions.set(id, version)
  return version
}

function versionsOf(ctx: ApiContext, site: ProductionSite): SiteVersion[] {
  return [...ctx.state.siteVersions.values()].filter((v) => v.site_id === site.id)
}

/** The version the profile's id names (spec `v-7001`, service `7001`), if any. */
function findVersion(ctx: ApiContext, id: string): SiteVersion | undefined {
  const style = ctx.shapes.style
  return [...ctx.state.siteVersions.values()].find((v) => String(style.versionId(v)) === id)
}

/** True while a restore of `siteId` (of version `versionId`, when given) runs. */
export function restoring(ctx: ApiContext, siteId: number, versionId?: number): boolean {
  return [...ctx.state.tasks.values()].some(
    (task) =>
      task.kind === 'restore' &&
      task.status === 'progress' &&
      task.site_id === siteId &&
      (versionId === undefined || task.version_id === versionId),
  )
}

function planGate(ctx: ApiContext): ApiResponse | null {
  if (ctx.options.versions !== 'plan-403') return null
  return ctx.shapes.refused(403, ctx.lang, t(ctx.lang, 'versions_plan'))
}

function required(ctx: ApiContext, field: string): ApiResponse {
  return ctx.shapes.validation(ctx.lang, field, t(ctx.lang, 'field_required', { field }))
}

function invalid(ctx: ApiContext, field: string): ApiResponse {
  return ctx.shapes.validation(ctx.lang, field, t(ctx.lang, 'field_invalid', { field }))
}
