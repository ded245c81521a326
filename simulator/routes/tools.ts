/**
 * POST /v2/sites/{site}/tools (contract §14, r4, weaker evidence): `{"tool": ..., "value": "on" |
 * "off"}` switches a site tool at once (no job). Rules: 404 for an unknown site; 422 for an unknown
 * tool or a value other than on / off; 403 with the knob `tools: 'plan-403'` (a plan gate). The
 * knob `tools: 'absent-404'` removes the route (api.ts). The state shows on the site's record
 * (`maintenance`, `password_protected`), read through /__sim/sites/{site}.
 */
import { jsonBody } from '../body.js'
import type { ApiContext, ApiRequest } from '../context.js'
import { ok, type ApiResponse } from '../http.js'
import { t } from '../i18n.js'
import type { ProductionSite } from '../types.js'

/** The toggles the simulator models, and the site field each one sets. */
export const TOOLS = {
  maintenance_mode: 'maintenance',
  password_protection: 'password_protected',
} as const satisfies Record<string, keyof ProductionSite>

export type ToolName = keyof typeof TOOLS

export function setTool(ctx: ApiContext, siteId: string, req: ApiRequest): ApiResponse {
  const body = jsonBody(ctx, req, ['tool', 'value'])
  if (!body.ok) return body.response
  const site = ctx.state.sites.get(siteId)
  if (!site) return ctx.shapes.siteNotFound(ctx.lang, siteId)
  const { tool, value } = body.value
  for (const [field, given] of [
    ['tool', tool],
    ['value', value],
  ] as const) {
    if (given === undefined || given === null || given === '') {
      return ctx.shapes.validation(ctx.lang, field, t(ctx.lang, 'field_required', { field }))
    }
  }
  if (typeof tool !== 'string' || !Object.hasOwn(TOOLS, tool)) return invalid(ctx, 'tool')
  if (value !== 'on' && value !== 'off') return invalid(ctx, 'value')
  if (ctx.options.tools === 'plan-403') return ctx.shapes.refused(403, ctx.lang, t(ctx.lang, 'tools_plan'))
  site[TOOLS[tool as ToolName]] = value === 'on'
  site.updated_at = ctx.now
  ctx.state.toolChanges.push({ site_id: site.id, tool: tool as ToolName, value, source: 'api', at: ctx.now })
  return ok(200, t(ctx.lang, 'tool_set', { tool, value }), { site_id: site.id, tool, value })
}

function invalid(ctx: ApiContext, field: string): ApiResponse {
  return ctx.shapes.validation(ctx.lang, field, t(ctx.lang, 'field_invalid', { field }))
}
