/**
 * The service profile: how the service family (a Laravel backend) really answers, per contract
 * revision 2 (§1-§10). The API lives under /api/v2; the framework answers unknown routes (404, JSON
 * or HTML), wrong methods (405, the staging probe included), missing tokens, missing models and the
 * rate limit with its own `{ "message": ... }` bodies in English; the application's messages follow
 * X-localization. Accepted jobs answer 200; pull and push bodies carry no `status` field; tasks show
 * their row, `resource_id`, string percentages, word or numeric statuses and ISO dates; a busy site
 * and a plan without staging answer 422.
 */
import { STATUS_CODES } from 'node:http'
import { ok, type ApiResponse } from '../http.js'
import { t, type Lang, type MessageKey } from '../i18n.js'
import type { RateDecision } from '../ratelimit.js'
import { STAGING_NUMERIC_ID_OFFSET } from '../seed.js'
import type { Task } from '../types.js'
import { SERVICE_STYLE, serviceListItem, serviceTaskView } from '../views.js'
import {
  errorPage,
  FRAMEWORK_TEXT,
  frameworkError,
  methodNotSupported,
  noQueryResults,
  routeNotFound,
  wantsJson,
} from './framework.js'
import type { BusyReason, Shapes } from './shapes.js'

const BUSY_MESSAGE: Record<BusyReason, MessageKey> = {
  creating: 'svc_busy_creating',
  deleting: 'svc_busy_deleting',
  sync: 'svc_busy_sync',
}

const FAULT_MESSAGE: Record<number, string> = {
  429: FRAMEWORK_TEXT.tooManyAttempts,
  500: FRAMEWORK_TEXT.serverError,
}

/** The site a task works on: the staging site of a staging job, the production site of a version or restore. */
const resourceOf = (task: Task): number =>
  task.kind === 'version' || task.kind === 'restore' ? task.site_id : STAGING_NUMERIC_ID_OFFSET + task.site_id

const route = (path: string): string => path.replace(/^\/+/, '')

function limitHeaders(decision: RateDecision): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
  }
}

function appError(
  status: number,
  lang: Lang,
  key: MessageKey,
  extra: Record<string, unknown> = {},
): ApiResponse {
  return frameworkError(status, t(lang, key), extra)
}

export const serviceShapes: Shapes = {
  prefix: '/api',
  routeFirst: true,
  probeRoute: false,
  headAsGet: true,
  style: SERVICE_STYLE,
  listItem: serviceListItem,

  unknownRoute: (path, accept) => {
    if (wantsJson(accept)) return frameworkError(404, routeNotFound(route(path)))
    return {
      status: 404,
      headers: { 'Content-Type': 'text/html; charset=UTF-8' },
      body: errorPage(404, FRAMEWORK_TEXT.notFound),
    }
  },
  methodNotAllowed: (method, path, allowed) =>
    frameworkError(405, methodNotSupported(method, route(path), allowed), {}, { Allow: allowed.join(', ') }),
  unauthenticated: () => frameworkError(401, FRAMEWORK_TEXT.unauthenticated),
  rateLimited: (_lang, decision) => {
    const headers = limitHeaders(decision)
    if (decision.retryAfter !== undefined) headers['Retry-After'] = decision.retryAfter
    headers['X-RateLimit-Reset'] = String(Math.ceil(decision.resetAt / 1000))
    return frameworkError(429, FRAMEWORK_TEXT.tooManyAttempts, {}, headers)
  },
  rateHeaders: limitHeaders,
  readOnly: (lang) => appError(403, lang, 'read_only'),
  badRequest: (_lang, message, errors) => frameworkError(400, message, { errors }),
  siteNotFound: (_lang, site) => frameworkError(404, noQueryResults('Site', site)),
  stagingNotFound: (lang) => appError(404, lang, 'svc_staging_not_found'),
  taskNotFound: (_lang, task) => frameworkError(404, noQueryResults('Task', task)),
  ineligible: (lang, reason) => {
    if (reason === 'plan') return appError(422, lang, 'svc_plan_without_staging')
    return appError(403, lang, reason === 'waas' ? 'ineligible_waas' : 'ineligible_portal')
  },
  exists: (lang) => {
    const message = t(lang, 'svc_already_exists')
    return frameworkError(422, message, { errors: { site_id: [message] } })
  },
  busy: (lang, _op, reason) => appError(422, lang, BUSY_MESSAGE[reason]),
  createStarted: (lang, task, _site, staging, options) => {
    const data: Record<string, unknown> = {}
    if (options.taskIds) data.task_id = task.id
    if (options.urlInAnswers) data.wp_url = staging.url
    return ok(200, t(lang, 'create_started'), data)
  },
  jobStarted: (lang, kind, task, options) => {
    const message = t(lang, `${kind}_started`)
    if (kind === 'delete') return ok(200, message, options.taskIds ? { task_id: task.id } : {})
    const body: Record<string, unknown> = { message }
    if (options.taskIds) body.data = { task_id: task.id }
    return { status: 200, headers: {}, body }
  },
  task: (lang, task, percentage, now) =>
    ok(200, t(lang, 'task_retrieved'), serviceTaskView(task, resourceOf(task), percentage, now)),

  siteJobStarted: (_lang, message, data) => ok(200, message, data),
  validation: (_lang, field, message) => frameworkError(422, message, { errors: { [field]: [message] } }),
  refused: (status, _lang, message) => frameworkError(status, message),
  versionNotFound: (_lang, version) => frameworkError(404, noQueryResults('SiteVersion', version)),
  // The framework's scoped binding: a version of another site is not found under this site.
  versionOfOtherSite: (_lang, version) => frameworkError(404, noQueryResults('SiteVersion', version)),
  restoreBusy: (lang) => appError(422, lang, 'restore_busy'),

  faultJson: (status) =>
    frameworkError(status, FAULT_MESSAGE[status] ?? STATUS_CODES[status] ?? FRAMEWORK_TEXT.serverError),
  echoToken: (status, lang, authorization) =>
    frameworkError(status, t(lang, 'echo_token', { authorization }), {
      errors: { authorization: [authorization] },
    }),
  redirect: (_lang, location) =>
    frameworkError(307, `Redirecting to ${location}`, {}, { Location: location }),
}
