/**
 * What the simulator does around its API core for one request (`exchange`), and what a fault rule
 * answers instead of (or, with `process`, after) the real answer, and the extra
 * headers it puts on whatever goes out. The shapes of the `status` / `body` answers follow the
 * profile in force; `json`, `text` and `debug` are the same in every profile.
 */
import { STATUS_CODES } from 'node:http'
import { tokenOf } from './api.js'
import type { ApiCore } from './core.js'
import type { Faults } from './faults.js'
import { BodyTooLarge, type ApiResponse } from './http.js'
import { langOf, t, type Lang } from './i18n.js'
import { patchResponse, withHeaders } from './patch.js'
import { debugErrorBody } from './profiles/framework.js'
import { shapesOf, type Shapes } from './profiles/index.js'
import type { FaultRule, RequestRecord } from './types.js'

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

/** What becomes of one API request: an answer, or none (the connection dropped, or left hanging). */
export type Exchange = { response: ApiResponse } | { dropped: true } | { hung: true }

/** What the one serving the request does for the exchange (the HTTP server, or a test's transport). */
export interface ExchangeIo {
  /** A fault's latency. */
  sleep(ms: number): Promise<void>
  /** The request's body as text; throws BodyTooLarge for one too large, anything else when it broke off. */
  body(): Promise<string | undefined>
  /** The server stopped meanwhile: nothing more is done. */
  stopped?(): boolean
  /** The core processed the request (the server times its jobs' ends). */
  processed?(): void
}

/**
 * One API request around the core, as the simulator serves it: recorded in `requests`, the first
 * fault rule that matches applied (latency, hang, drop before or after processing, redirect,
 * scripted answers, patches, extra headers). The HTTP server (server.ts) and in-process transports
 * of the tests go through this one function, so a fault does the same wherever it is served.
 */
export async function exchange(
  core: ApiCore,
  faults: Faults,
  requests: RequestRecord[],
  req: { method: string; path: string; headers: Record<string, string | string[] | undefined> },
  io: ExchangeIo,
): Promise<Exchange | null> {
  const header = (name: string) => {
    const v = req.headers[name]
    return typeof v === 'string' ? v : undefined
  }
  const record: RequestRecord = {
    method: req.method,
    path: req.path,
    status: 'pending',
    at: core.clock.now(),
    faulted: false,
    processed: false,
    token: tokenOf(header('authorization')).kind,
  }
  if (header('content-type') !== undefined) record.contentType = header('content-type')
  if (header('x-localization') !== undefined) record.localization = header('x-localization')
  requests.push(record)
  const hung = (): Exchange => ((record.status = 'hung'), { hung: true })
  const dropped = (): Exchange => ((record.status = 'dropped'), { dropped: true })

  const rule = faults.take(req.method, req.path)
  if (rule) record.faulted = true
  if (rule?.latencyMs) await io.sleep(rule.latencyMs)
  if (io.stopped?.()) return null
  if (rule?.hang && !rule.process) return hung()
  if (rule?.drop === 'before') return dropped()
  const shapes = shapesOf(core.options.profile)
  const lang = langOf(header('x-localization'))
  const out = (response: ApiResponse): Exchange => {
    const final = rule ? withHeaders(response, faultHeaders(rule)) : response
    record.status = final.status
    return { response: final }
  }
  let body: string | undefined
  try {
    body = await io.body()
  } catch (e) {
    if (!(e instanceof BodyTooLarge)) return dropped()
    record.status = 400
    return { response: shapes.badRequest(lang, t(lang, 'invalid_json'), { body: ['too large'] }) }
  }
  if (rule?.redirect !== undefined) return out(shapes.redirect(lang, rule.redirect))
  const injected = rule ? faultResponse(rule, shapes, lang, header('authorization')) : null
  if (injected && !rule?.process && rule?.drop !== 'after') return out(injected)
  const result = core.respond(
    { method: req.method, path: req.path, headers: req.headers, ...(body === undefined ? {} : { body }) },
    rule?.taskError ?? null,
  )
  record.processed = result.processed
  io.processed?.()
  if (rule?.hang) return hung()
  if (rule?.drop === 'after') return dropped()
  let response = injected ?? result.response
  if (rule?.patch !== undefined) {
    response = patchResponse(response, rule.patch)
    if (rule.status !== undefined) response.status = rule.status
  }
  return out(response)
}
