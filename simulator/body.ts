/** Request-body checks (spec §7: 400 for a wrong content type or wrong attribute names). */
import type { ApiContext, ApiRequest } from './context.js'
import { isJsonContentType, type ApiResponse } from './http.js'
import { t } from './i18n.js'

export type BodyResult = { ok: true; value: Record<string, unknown> } | { ok: false; response: ApiResponse }

/**
 * The request's JSON object body. Requires Content-Type: application/json; an empty body is `{}`.
 * Attributes outside `allowed` are refused with 400 and listed in `errors`.
 */
export function jsonBody(ctx: ApiContext, req: ApiRequest, allowed: readonly string[]): BodyResult {
  const { lang, shapes } = ctx
  const refuse = (message: string, errors: Record<string, string[]>): BodyResult => ({
    ok: false,
    response: shapes.badRequest(lang, message, errors),
  })
  const header = req.headers['content-type']
  const contentType = Array.isArray(header) ? header[0] : header
  if (!isJsonContentType(contentType)) {
    return refuse(t(lang, 'invalid_content_type'), {
      content_type: [`expected application/json, got ${contentType ?? 'none'}`],
    })
  }
  let value: unknown = {}
  if (req.body.trim() !== '') {
    try {
      value = JSON.parse(req.body)
    } catch (e) {
      return refuse(t(lang, 'invalid_json'), { body: [(e as Error).message] })
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return refuse(t(lang, 'invalid_json'), { body: ['expected a JSON object'] })
  }
  const record = value as Record<string, unknown>
  const unknown = Object.keys(record).filter((k) => !allowed.includes(k))
  if (unknown.length > 0) {
    const errors = Object.fromEntries(unknown.map((k) => [k, ['unknown attribute']]))
    return refuse(t(lang, 'unknown_attributes', { names: unknown.join(', ') }), errors)
  }
  return { ok: true, value: record }
}
