/**
 * The four staging endpoints and the probe. The rules (spec §3, §7; contract §3, §4):
 * - create: 403 for an ineligible site (plan, WaaS, client portal), 409 while one is being created
 *   (or deleted), 422 when one exists; otherwise 202 and a background job.
 * - pull / push / delete: 404 without staging; refused with the busy status while another job runs
 *   on the staging site (a delete while a pull or push runs included); otherwise 202 and a job.
 * - probe: the staging site and its status; 404 without staging; 405 when the probe is turned off.
 */
import { jsonBody } from '../body.js'
import type { ApiContext, ApiRequest } from '../context.js'
import { fail, ok, type ApiResponse } from '../http.js'
import { t, type MessageKey } from '../i18n.js'
import { newSecret } from '../ids.js'
import { stagingSite } from '../seed.js'
import type { JobKind, ProductionSite, StagingSite } from '../types.js'
import { probeView } from '../views.js'

export function probe(ctx: ApiContext, siteId: string, path: string): ApiResponse {
  if (!ctx.options.probe) {
    return fail(405, t(ctx.lang, 'probe_not_supported', { path }), undefined, { Allow: 'POST, DELETE' })
  }
  const found = findSite(ctx, siteId)
  if ('response' in found) return found.response
  const staging = ctx.state.staging.get(siteId)
  if (!staging) return fail(404, t(ctx.lang, 'staging_not_found', { site: siteId }))
  return ok(200, t(ctx.lang, 'staging_retrieved'), probeView(staging))
}

export function createStaging(ctx: ApiContext, siteId: string, req: ApiRequest): ApiResponse {
  const body = jsonBody(req, ctx.lang, [])
  if (!body.ok) return body.response
  const found = findSite(ctx, siteId)
  if ('response' in found) return found.response
  const { site } = found
  const refusal = ineligibility(site)
  if (refusal) return fail(403, t(ctx.lang, refusal.message), { reason: refusal.reason })
  const existing = ctx.state.staging.get(siteId)
  if (existing?.status === 'creating') return busy(ctx, 409, 'already_creating', existing)
  if (existing?.status === 'deleting') return busy(ctx, 409, 'being_deleted', existing)
  if (existing) return fail(422, t(ctx.lang, 'already_exists'), { staging_site_id: existing.id })
  const staging = stagingSite(site, ctx.now, newSecret())
  ctx.state.staging.set(siteId, staging)
  const task = ctx.jobs.start('create', staging, ctx.taskError, ctx.now)
  const data: Record<string, unknown> = {}
  if (ctx.options.taskIds) data.task_id = task.id
  data.site_id = site.id
  data.staging_site_id = staging.id
  data.staging_url = staging.url
  return ok(202, t(ctx.lang, 'create_started'), data)
}

/** Pull (POST .../staging/reset) and push (POST .../staging/push). */
export function sync(ctx: ApiContext, siteId: string, req: ApiRequest, kind: 'pull' | 'push'): ApiResponse {
  const body = jsonBody(req, ctx.lang, [])
  if (!body.ok) return body.response
  const found = findStaging(ctx, siteId)
  if ('response' in found) return found.response
  const { staging } = found
  const status = ctx.options.busyStatus
  if (staging.status === 'creating') return busy(ctx, status, 'busy_creating', staging)
  if (staging.status === 'deleting') return busy(ctx, status, 'busy_deleting', staging)
  if (staging.status !== 'ready') return busy(ctx, status, 'busy_sync', staging)
  return started(ctx, kind, staging, kind === 'pull' ? 'pull_started' : 'push_started')
}

export function deleteStaging(ctx: ApiContext, siteId: string): ApiResponse {
  const found = findStaging(ctx, siteId)
  if ('response' in found) return found.response
  const { staging } = found
  const status = ctx.options.busyStatus
  if (staging.status === 'creating') return busy(ctx, status, 'busy_creating', staging)
  if (staging.status === 'deleting') return busy(ctx, status, 'busy_deleting', staging)
  if (staging.status !== 'ready') return busy(ctx, status, 'busy_delete_sync', staging)
  return started(ctx, 'delete', staging, 'delete_started')
}

/** Why a site cannot have staging (spec §7: 403), or null when it can. */
export function ineligibility(
  site: ProductionSite,
): { reason: 'plan' | 'waas' | 'client_portal'; message: MessageKey } | null {
  if (!site.plan.staging) return { reason: 'plan', message: 'ineligible_plan' }
  if (site.waas) return { reason: 'waas', message: 'ineligible_waas' }
  if (site.client_portal !== null) return { reason: 'client_portal', message: 'ineligible_portal' }
  return null
}

function started(ctx: ApiContext, kind: JobKind, staging: StagingSite, message: MessageKey): ApiResponse {
  const task = ctx.jobs.start(kind, staging, ctx.taskError, ctx.now)
  return ok(202, t(ctx.lang, message), ctx.options.taskIds ? { task_id: task.id } : {})
}

function busy(ctx: ApiContext, status: number, message: MessageKey, staging: StagingSite): ApiResponse {
  const running = ctx.state.tasks.get(staging.task_id ?? '')
  return fail(status, t(ctx.lang, message), { running: running?.kind ?? staging.status })
}

function findSite(ctx: ApiContext, siteId: string): { site: ProductionSite } | { response: ApiResponse } {
  const site = ctx.state.sites.get(siteId)
  return site ? { site } : { response: fail(404, t(ctx.lang, 'site_not_found', { site: siteId })) }
}

function findStaging(ctx: ApiContext, siteId: string): { staging: StagingSite } | { response: ApiResponse } {
  const found = findSite(ctx, siteId)
  if ('response' in found) return found
  const staging = ctx.state.staging.get(siteId)
  return staging ? { staging } : { response: fail(404, t(ctx.lang, 'staging_not_found', { site: siteId })) }
}
