/**
 * The four staging endpoints and the probe. The rules (spec §3, §7; contract §3, §4) are the same in
 * every profile; only the shapes of the answers differ (see ../profiles):
 * - create: refused for an ineligible site (plan, WaaS, client portal), refused as busy while one is
 *   being created (or deleted), refused when one exists; otherwise accepted with a background job.
 * - pull / push / delete: 404 without staging; refused as busy while another job runs on the
 *   staging site (a delete while a pull or push runs included), a push also while a restore of
 *   production runs (versions.ts); otherwise accepted with a job.
 * - probe (spec profile only): the staging site and its status; 404 without staging; 405 when off.
 */
import { jsonBody } from '../body.js'
import type { ApiContext, ApiRequest } from '../context.js'
import { fail, ok, type ApiResponse } from '../http.js'
import { t } from '../i18n.js'
import { newSecret } from '../ids.js'
import type { BusyOp, BusyReason, Ineligibility } from '../profiles/index.js'
import { stagingSite } from '../seed.js'
import type { ProductionSite, StagingJobKind, StagingSite } from '../types.js'
import { probeView } from '../views.js'
import { restoring } from './versions.js'

export function probe(ctx: ApiContext, siteId: string, path: string): ApiResponse {
  if (!ctx.options.probe) {
    return fail(405, t(ctx.lang, 'probe_not_supported', { path }), undefined, { Allow: 'POST, DELETE' })
  }
  const found = findSite(ctx, siteId)
  if ('response' in found) return found.response
  const staging = ctx.state.staging.get(siteId)
  if (!staging) return ctx.shapes.stagingNotFound(ctx.lang, siteId)
  return ok(200, t(ctx.lang, 'staging_retrieved'), probeView(staging))
}

export function createStaging(ctx: ApiContext, siteId: string, req: ApiRequest): ApiResponse {
  const body = jsonBody(ctx, req, [])
  if (!body.ok) return body.response
  const found = findSite(ctx, siteId)
  if ('response' in found) return found.response
  const { site } = found
  const refusal = ineligibility(site)
  if (refusal) return ctx.shapes.ineligible(ctx.lang, refusal)
  const existing = ctx.state.staging.get(siteId)
  if (existing?.status === 'creating') return busy(ctx, 'create', 'creating', existing)
  if (existing?.status === 'deleting') return busy(ctx, 'create', 'deleting', existing)
  if (existing) return ctx.shapes.exists(ctx.lang, existing)
  const staging = stagingSite(site, ctx.now, newSecret(), ctx.origin)
  ctx.state.staging.set(siteId, staging)
  const task = ctx.jobs.start('create', staging, ctx.taskError, ctx.now)
  return ctx.shapes.createStarted(ctx.lang, task, site, staging, ctx.options)
}

/** Pull (POST .../staging/reset) and push (POST .../staging/push). */
export function sync(ctx: ApiContext, siteId: string, req: ApiRequest, kind: 'pull' | 'push'): ApiResponse {
  const body = jsonBody(ctx, req, [])
  if (!body.ok) return body.response
  const found = findStaging(ctx, siteId)
  if ('response' in found) return found.response
  const refusal = whileBusy(ctx, 'sync', found.staging)
  if (!refusal && kind === 'push' && restoring(ctx, found.staging.site_id))
    return ctx.shapes.restoreBusy(ctx.lang)
  return refusal ?? started(ctx, kind, found.staging)
}

export function deleteStaging(ctx: ApiContext, siteId: string): ApiResponse {
  const found = findStaging(ctx, siteId)
  if ('response' in found) return found.response
  const refusal = whileBusy(ctx, 'delete', found.staging)
  return refusal ?? started(ctx, 'delete', found.staging)
}

/** Why a site cannot have staging (spec §7), or null when it can. */
export function ineligibility(site: ProductionSite): Ineligibility | null {
  if (!site.plan.staging) return 'plan'
  if (site.waas) return 'waas'
  if (site.client_portal !== null) return 'client_portal'
  return null
}

function whileBusy(ctx: ApiContext, op: BusyOp, staging: StagingSite): ApiResponse | null {
  if (staging.status === 'ready') return null
  const reason: BusyReason =
    staging.status === 'creating' ? 'creating' : staging.status === 'deleting' ? 'deleting' : 'sync'
  return busy(ctx, op, reason, staging)
}

function started(
  ctx: ApiContext,
  kind: Exclude<StagingJobKind, 'create'>,
  staging: StagingSite,
): ApiResponse {
  const task = ctx.jobs.start(kind, staging, ctx.taskError, ctx.now)
  return ctx.shapes.jobStarted(ctx.lang, kind, task, ctx.options)
}

function busy(ctx: ApiContext, op: BusyOp, reason: BusyReason, staging: StagingSite): ApiResponse {
  const running = ctx.state.tasks.get(staging.task_id ?? '')
  return ctx.shapes.busy(ctx.lang, op, reason, running?.kind ?? staging.status, ctx.options)
}

function findSite(ctx: ApiContext, siteId: string): { site: ProductionSite } | { response: ApiResponse } {
  const site = ctx.state.sites.get(siteId)
  return site ? { site } : { response: ctx.shapes.siteNotFound(ctx.lang, siteId) }
}

function findStaging(ctx: ApiContext, siteId: string): { staging: StagingSite } | { response: ApiResponse } {
  const found = findSite(ctx, siteId)
  if ('response' in found) return found
  const staging = ctx.state.staging.get(siteId)
  return staging ? { staging } : { response: ctx.shapes.stagingNotFound(ctx.lang, siteId) }
}
