/** Request-body checks (spec §7: 400 for a wrong content type or wrong attribute names). */
import type { ApiRequest } from './context.js'
import { fail, isJsonContentType, type ApiResponse } from './http.js'
import { t, type Lang } from './i18n.js'

export type BodyResult = { ok: true; value: Record<string, unknown> } | { ok: false; response: ApiResponse }

/**
 * The request's JSON object body. Requires Content-Type: application/json; an empty body is `{}`.
 * Attributes outside `allowed` are refused with 400 and listed in `errors`.
 */
export function jsonBody(req: ApiRequest, lang: Lang, allowed: readonly string[]): BodyResult {
  const contentType = req.headers['content-type']
  if (!isJsonContentType(contentType)) {
    return {
      ok: false,
      response: fail(400, t(lang, 'invalid_content_type'), {
        content_type: [`expected application/json, got ${contentType ?? 'none'}`],
      }),
    }
  }
  let value: unknown = {}
  if (req.body.trim() !== '') {
    try {
      value = JSON.parse(req.body)
    } catch (e) {
      return { ok: false, response: fail(400, t(lang, 'invalid_json'), { body: [(e as Error).message] }) }
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, response: fail(400, t(lang, 'invalid_json'), { body: ['expected a JSON object'] }) }
  }
  const record = value as Record<string, unknown>
  const unknown = Object.keys(record).filter((k) => !allowed.includes(k))
  if (unknown.length > 0) {
    const errors = Object.fromEntries(unknown.map((k) => [k, ['unknown attribute']]))
    return {
      ok: false,
      response: fail(400, t(lang, 'unknown_attributes', { names: unknown.join(', ') }), errors),
    }
  }
  return { ok: true, value: record }
}
