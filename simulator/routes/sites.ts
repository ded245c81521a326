/** GET /v2/sites (with type and pagination), POST /v2/sites, GET /v2/sites/{site}. */
import { jsonBody } from '../body.js'
import type { ApiContext, ApiRequest } from '../context.js'
import { ok, type ApiResponse } from '../http.js'
import { t } from '../i18n.js'
import { productionSite } from '../seed.js'
import type { ProductionSite, StagingSite } from '../types.js'
import { siteView, stagingListView } from '../views.js'

/** Values of the `type` filter: production or staging sites, reserved (permanent) or temporary ones. */
export const SITE_TYPES = ['production', 'staging', 'reserved', 'temporary'] as const
export const DEFAULT_PER_PAGE = 10
export const MAX_PER_PAGE = 100

export function listSites(ctx: ApiContext, req: ApiRequest): ApiResponse {
  const type = req.query.get('type')
  if (type !== null && !(SITE_TYPES as readonly string[]).includes(type)) {
    return ctx.shapes.badRequest(ctx.lang, t(ctx.lang, 'invalid_query', { name: 'type' }), {
      type: [`must be one of ${SITE_TYPES.join(', ')}`],
    })
  }
  const page = positiveInt(req.query.get('page'), 1)
  const perPage = positiveInt(req.query.get('per_page'), DEFAULT_PER_PAGE)
  if (page === null)
    return ctx.shapes.badRequest(ctx.lang, t(ctx.lang, 'invalid_query', { name: 'page' }), {
      page: ['integer >= 1'],
    })
  if (perPage === null || perPage > MAX_PER_PAGE) {
    return ctx.shapes.badRequest(ctx.lang, t(ctx.lang, 'invalid_query', { name: 'per_page' }), {
      per_page: [`integer from 1 to ${MAX_PER_PAGE}`],
    })
  }
  const productions = [...ctx.state.sites.values()].sort((a, b) => a.id - b.id)
  const stagings = [...ctx.state.staging.values()].sort((a, b) => a.site_id - b.site_id)
  const { style } = ctx.shapes
  const items: Record<string, unknown>[] = []
  const stagingOf = (site: ProductionSite): StagingSite | undefined => ctx.state.staging.get(String(site.id))
  if (type === null || type === 'production' || type === 'reserved' || type === 'temporary') {
    for (const site of productions) {
      if (type === 'reserved' && !site.reserved) continue
      if (type === 'temporary' && site.reserved) continue
      const staging = stagingOf(site)
      items.push(ctx.shapes.listItem?.({ production: site, staging }) ?? siteView(site, staging, style))
    }
  }
  if (type === null || type === 'staging' || type === 'reserved') {
    for (const staging of stagings)
      items.push(ctx.shapes.listItem?.({ staging }) ?? stagingListView(staging, style))
  }
  const total = items.length
  const lastPage = Math.max(1, Math.ceil(total / perPage))
  const from = (page - 1) * perPage
  const pageItems = items.slice(from, from + perPage)
  const meta = {
    current_page: page,
    per_page: perPage,
    total,
    last_page: lastPage,
    from: pageItems.length > 0 ? from + 1 : null,
    to: pageItems.length > 0 ? from + pageItems.length : null,
  }
  return ok(200, t(ctx.lang, 'sites_listed'), pageItems, meta)
}

export function createSite(ctx: ApiContext, req: ApiRequest): ApiResponse {
  const body = jsonBody(ctx, req, ['site_name'])
  if (!body.ok) return body.response
  const name = body.value.site_name
  if (typeof name !== 'string' || name.trim() === '') {
    return ctx.shapes.badRequest(ctx.lang, t(ctx.lang, 'invalid_site_name'), {
      site_name: ['required, a non-empty string'],
    })
  }
  const id = ctx.state.nextSiteId++
  const slug =
    name
      .trim()
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || `site-${id}`
  const site = productionSite({ id, name: slug, tags: [] }, ctx.now)
  site.site_name = name.trim()
  site.url = `https://${slug}-${id}.example.test`
  site.domains = [{ name: `${slug}-${id}.example.test`, primary: true }]
  ctx.state.sites.set(String(id), site)
  return ok(201, t(ctx.lang, 'site_created'), siteView(site, undefined, ctx.shapes.style))
}

export function getSite(ctx: ApiContext, siteId: string): ApiResponse {
  const { style } = ctx.shapes
  const site = ctx.state.sites.get(siteId)
  const message = t(ctx.lang, 'site_retrieved')
  if (site) return ok(200, message, siteView(site, ctx.state.staging.get(siteId), style))
  const staging = [...ctx.state.staging.values()].find((s) => String(style.stagingId(s)) === siteId)
  if (staging) return ok(200, message, stagingListView(staging, style))
  return ctx.shapes.siteNotFound(ctx.lang, siteId)
}

/** `fallback` when absent, the integer when valid, null when invalid. */
export function positiveInt(value: string | null, fallback: number): number | null {
  if (value === null) return fallback
  if (!/^\d+$/.test(value)) return null
  const n = Number(value)
  return n >= 1 ? n : null
}
