/** The answer a fault rule with a `status` or `body` gives instead of (or after) the real one. */
import { fail, type ApiResponse } from './http.js'
import { t, type Lang, type MessageKey } from './i18n.js'
import type { FaultRule } from './types.js'

const MESSAGE_OF: Record<number, MessageKey> = {
  429: 'rate_limited',
  500: 'server_error',
  502: 'bad_gateway',
  503: 'unavailable',
  504: 'gateway_timeout',
}

const REASON_OF: Record<number, string> = {
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
}

/** null when the rule changes no status or body (latency, drop, hang, taskError only). */
export function faultResponse(
  rule: FaultRule,
  lang: Lang,
  authorization: string | undefined,
): ApiResponse | null {
  if (rule.status === undefined && rule.body === undefined) return null
  const status = rule.status ?? 500
  const headers: Record<string, string> = {}
  if (rule.retryAfter !== undefined) headers['Retry-After'] = String(rule.retryAfter)
  switch (rule.body ?? 'json') {
    case 'empty':
      return { status, headers }
    case 'html': {
      const title = `${status} ${REASON_OF[status] ?? 'Error'}`
      headers['Content-Type'] = 'text/html; charset=utf-8'
      const body = `<!DOCTYPE html>\n<html><head><title>${title}</title></head><body><center><h1>${title}</h1></center><hr><center>sim-proxy</center></body></html>\n`
      return { status, headers, body }
    }
    case 'echo-token': {
      const value = authorization ?? ''
      return {
        status,
        headers,
        body: {
          status: false,
          message: t(lang, 'echo_token', { authorization: value }),
          data: { authorization: value },
        },
      }
    }
    case 'json': {
      const key = MESSAGE_OF[status]
      const message = key ? t(lang, key) : t(lang, 'fault', { status })
      const response = fail(status, message, undefined, headers)
      ;(response.body as Record<string, unknown>).exception = `SimulatedFault: HTTP ${status}`
      return response
    }
  }
}
