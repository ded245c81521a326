/**
 * The spec profile: the literal specification (every answer is the envelope `{ status, message,
 * data }`, dates `yyyy-MM-dd HH:mm:ss.SSS`, 202 for accepted jobs) and revision 1 of the contract
 * where the spec is silent (409 for a busy create, a configurable busy status, a probe).
 */
import { fail, ok } from '../http.js'
import { t, type MessageKey } from '../i18n.js'
import type { RateDecision } from '../ratelimit.js'
import { SPEC_STYLE, taskView } from '../views.js'
import type { BusyOp, BusyReason, Ineligibility, Shapes } from './shapes.js'

const INELIGIBLE_MESSAGE: Record<Ineligibility, MessageKey> = {
  plan: 'ineligible_plan',
  waas: 'ineligible_waas',
  client_portal: 'ineligible_portal',
}

const BUSY_MESSAGE: Record<BusyOp, Record<BusyReason, MessageKey>> = {
  create: { creating: 'already_creating', deleting: 'being_deleted', sync: 'already_creating' },
  sync: { creating: 'busy_creating', deleting: 'busy_deleting', sync: 'busy_sync' },
  delete: { creating: 'busy_creating', deleting: 'busy_deleting', sync: 'busy_delete_sync' },
}

const FAULT_MESSAGE: Record<number, MessageKey> = {
  429: 'rate_limited',
  500: 'server_error',
  502: 'bad_gateway',
  503: 'unavailable',
  504: 'gateway_timeout',
}

function allRateHeaders(decision: RateDecision): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(Math.ceil(decision.resetAt / 1000)),
  }
}

export const specShapes: Shapes = {
  prefix: '',
  routeFirst: false,
  probeRoute: true,
  headAsGet: false,
  style: SPEC_STYLE,

  unknownRoute: (path, _accept, lang) => fail(404, t(lang, 'path_not_found', { path })),
  methodNotAllowed: (method, path, allowed, lang) =>
    fail(405, t(lang, 'method_not_allowed', { method, path }), undefined, { Allow: allowed.join(', ') }),
  unauthenticated: (lang) =>
    fail(401, t(lang, 'unauthenticated'), undefined, { 'WWW-Authenticate': 'Bearer' }),
  rateLimited: (lang, decision) => {
    const headers = allRateHeaders(decision)
    if (decision.retryAfter !== undefined) headers['Retry-After'] = decision.retryAfter
    return fail(429, t(lang, 'rate_limited'), undefined, headers)
  },
  rateHeaders: allRateHeaders,
  readOnly: (lang) => fail(403, t(lang, 'read_only')),
  badRequest: (_lang, message, errors) => fail(400, message, errors),
  siteNotFound: (lang, site) => fail(404, t(lang, 'site_not_found', { site })),
  stagingNotFound: (lang, site) => fail(404, t(lang, 'staging_not_found', { site })),
  taskNotFound: (lang, task) => fail(404, t(lang, 'task_not_found', { task })),
  ineligible: (lang, reason) => fail(403, t(lang, INELIGIBLE_MESSAGE[reason]), { reason }),
  exists: (lang, staging) => fail(422, t(lang, 'already_exists'), { staging_site_id: staging.id }),
  busy: (lang, op, reason, running, options) =>
    fail(op === 'create' ? 409 : options.busyStatus, t(lang, BUSY_MESSAGE[op][reason]), { running }),
  createStarted: (lang, task, site, staging, options) => {
    const data: Record<string, unknown> = {}
    if (options.taskIds) data.task_id = task.id
    data.site_id = site.id
    data.staging_site_id = staging.id
    if (options.urlInAnswers) data.staging_url = staging.url
    return ok(202, t(lang, 'create_started'), data)
  },
  jobStarted: (lang, kind, task, options) =>
    ok(202, t(lang, `${kind}_started`), options.taskIds ? { task_id: task.id } : {}),
  task: (lang, task, percentage, now) => ok(200, t(lang, 'task_retrieved'), taskView(task, percentage, now)),

  siteJobStarted: (_lang, message, data) => ok(202, message, data),
  validation: (_lang, field, message) => fail(422, message, { [field]: [message] }),
  refused: (status, _lang, message) => fail(status, message),
  versionNotFound: (lang, version) => fail(404, t(lang, 'version_not_found', { version })),
  versionOfOtherSite: (lang, version, site) => fail(422, t(lang, 'version_other_site', { version, site })),
  restoreBusy: (lang) => fail(409, t(lang, 'restore_busy')),

  faultJson: (status, lang) => {
    const key = FAULT_MESSAGE[status]
    const response = fail(status, key ? t(lang, key) : t(lang, 'fault', { status }))
    ;(response.body as Record<string, unknown>).exception = `SimulatedFault: HTTP ${status}`
    return response
  },
  echoToken: (status, lang, authorization) => ({
    status,
    headers: {},
    body: { status: false, message: t(lang, 'echo_token', { authorization }), data: { authorization } },
  }),
  redirect: (lang, location) =>
    fail(307, t(lang, 'redirect', { location }), undefined, { Location: location }),
}
