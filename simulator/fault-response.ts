/**
 * What a fault rule answers instead of (or, with `process`, after) the real answer, and the extra
 * headers it puts on whatever goes out. The shapes of the `status` / `body` answers follow the
 * profile in force; `json`, `text` and `debug` are the same in every profile.
 */
import { STATUS_CODES } from 'node:http'
import type { ApiResponse } from './http.js'
import type { Lang } from './i18n.js'
import { debugErrorBody } from './profiles/framework.js'
import type { Shapes } from './profiles/index.js'
import type { FaultRule } from './types.js'

/** null when the rule scripts no answer of its own (latency, drop, hang, taskError, headers, patch only). */
export function faultResponse(
  rule: FaultRule,
  shapes: Shapes,
  lang: Lang,
  authorization: string | undefined,
): ApiResponse | null {
  if (rule.json !== undefined) {
    return {
      status: rule.status ?? 200,
      headers: { 'Content-Type': rule.contentType ?? 'application/json' },
      body: JSON.stringify(rule.json),
    }
  }
  if (rule.text !== undefined) {
    return {
      status: rule.status ?? 200,
      headers: { 'Content-Type': rule.contentType ?? 'text/plain; charset=utf-8' },
      body: rule.text,
    }
  }
  if (rule.patch !== undefined) return null
  if (rule.debug) {
    const status = rule.status ?? 500
    return { status, headers: {}, body: debugErrorBody(status) }
  }
  if (rule.status === undefined && rule.body === undefined) return null
  const status = rule.status ?? 500
  switch (rule.body ?? 'json') {
    case 'empty':
      return { status, headers: {} }
    case 'html': {
      const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`
      const body = `<!DOCTYPE html>\n<html><head><title>${title}</title></head><body><center><h1>${title}</h1></center><hr><center>sim-proxy</center></body></html>\n`
      return { status, headers: { 'Content-Type': 'text/html; charset=utf-8' }, body }
    }
    case 'echo-token':
      return shapes.echoToken(status, lang, authorization ?? '')
    case 'json':
      return shapes.faultJson(status, lang)
  }
}

/** `retryAfter` and `headers` of a rule, for whatever answer goes out. */
export function faultHeaders(rule: FaultRule): Record<string, string> {
  const headers: Record<string, string> = {}
  if (rule.retryAfter !== undefined) headers['Retry-After'] = String(rule.retryAfter)
  return { ...headers, ...rule.headers }
}

/** `response` with `extra` headers set (replacing same-named ones, whatever their case). */
export function withHeaders(response: ApiResponse, extra: Record<string, string>): ApiResponse {
  const names = Object.keys(extra).map((n) => n.toLowerCase())
  if (names.length === 0) return response
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(response.headers)) {
    if (!names.includes(name.toLowerCase())) headers[name] = value
  }
  return { ...response, headers: { ...headers, ...extra } }
}
