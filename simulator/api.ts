/**
 * The v2 API's request pipeline: the path prefix, authentication (401), the rate limit (429),
 * routing (404 / 405), the read-only token (403 on anything but GET), then the route's handler. The
 * profile decides the answers' shapes and whether routing comes before authentication (the
 * framework's order) or after it (the spec profile's).
 */
import type { Clock } from './clock.js'
import type { ApiContext, ApiRequest } from './context.js'
import { ok, type ApiResponse } from './http.js'
import { langOf, t } from './i18n.js'
import type { Jobs } from './jobs.js'
import { shapesOf, type Shapes } from './profiles/index.js'
import type { RateDecision, RateLimiter } from './ratelimit.js'
import { createSite, getSite, listSites } from './routes/sites.js'
import { createStaging, deleteStaging, probe, sync } from './routes/staging.js'
import { taskStatus } from './routes/tasks.js'
import { setTool } from './routes/tools.js'
import {
  createVersion,
  deleteVersions,
  listVersions,
  nameVersion,
  restoreVersion,
} from './routes/versions.js'
import { SIM_TOKENS } from './seed.js'
import type { EffectiveOptions, RequestRecord, SimState } from './types.js'

/** `param`: the path's first parameter; `params`: all of them, decoded. */
type Handler = (ctx: ApiContext, req: ApiRequest, param: string, params: string[]) => ApiResponse

interface Route {
  /** Matched against the path after the profile's prefix, from /v2 on. */
  pattern: RegExp
  methods: Record<string, Handler>
  /** Its GET is the probe, which only the spec profile has. */
  probe?: true
  /** The option that can take the route away (`absent-404`, `absent-405`): contract §13, §14. */
  feature?: 'versions' | 'tools'
}

/**
 * What a versions route keeps with `versions: 'absent-405'`: only a GET, answering an empty list,
 * so every other method is the framework's 405 (a service that shows no versions and makes none).
 */
const ABSENT_405: Record<string, Handler> = {
  GET: (c) =>
    ok(200, t(c.lang, 'versions_listed'), [], { current_page: 1, per_page: 15, total: 0, last_page: 1 }),
}

const ROUTES: Route[] = [
  { pattern: /^\/v2\/sites$/, methods: { GET: (c, r) => listSites(c, r), POST: (c, r) => createSite(c, r) } },
  { pattern: /^\/v2\/sites\/([^/]+)$/, methods: { GET: (c, _r, id) => getSite(c, id) } },
  {
    pattern: /^\/v2\/sites\/([^/]+)\/staging$/,
    methods: {
      GET: (c, r, id) => probe(c, id, r.path),
      POST: (c, r, id) => createStaging(c, id, r),
      DELETE: (c, _r, id) => deleteStaging(c, id),
    },
    probe: true,
  },
  {
    pattern: /^\/v2\/sites\/([^/]+)\/staging\/reset$/,
    methods: { POST: (c, r, id) => sync(c, id, r, 'pull') },
  },
  {
    pattern: /^\/v2\/sites\/([^/]+)\/staging\/push$/,
    methods: { POST: (c, r, id) => sync(c, id, r, 'push') },
  },
  { pattern: /^\/v2\/tasks\/([^/]+)\/status$/, methods: { GET: (c, _r, id) => taskStatus(c, id) } },
  {
    pattern: /^\/v2\/site-versions$/,
    methods: {
      GET: (c, r) => listVersions(c, r),
      POST: (c, r) => createVersion(c, r),
      DELETE: (c, r) => deleteVersions(c, r),
    },
    feature: 'versions',
  },
  {
    pattern: /^\/v2\/site-versions\/([^/]+)$/,
    methods: { PUT: (c, r, id) => nameVersion(c, r, id) },
    feature: 'versions',
  },
  {
    pattern: /^\/v2\/sites\/([^/]+)\/restore-versions\/([^/]+)$/,
    methods: { PUT: (c, _r, site, [, version]) => restoreVersion(c, site, version ?? '') },
    feature: 'versions',
  },
  {
    pattern: /^\/v2\/sites\/([^/]+)\/tools$/,
    methods: { POST: (c, r, id) => setTool(c, id, r) },
    feature: 'tools',
  },
]

export type TokenKind = RequestRecord['token']

/** Which seeded token an Authorization header carries. */
export function tokenOf(header: string | string[] | undefined): { kind: TokenKind; token: string | null } {
  const value = Array.isArray(header) ? header[0] : header
  if (value === undefined || value.trim() === '') return { kind: 'none', token: null }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(value.trim())
  const token = match?.[1] ?? null
  if (token === SIM_TOKENS.readWrite) return { kind: 'rw', token }
  if (token === SIM_TOKENS.readOnly) return { kind: 'ro', token }
  return { kind: 'unknown', token }
}

export interface ApiResult {
  response: ApiResponse
  /** False when the rate limit stopped the request before the API logic ran. */
  processed: boolean
}

/** A route matched for a path: its methods in this profile, and the captured parameter. */
interface Match {
  methods: Record<string, Handler>
  params: string[]
}

function matchRoute(path: string, shapes: Shapes, options: EffectiveOptions): Match | null {
  for (const route of ROUTES) {
    const found = route.pattern.exec(path)
    if (!found) continue
    const mode = route.feature ? options[route.feature] : 'ok'
    if (mode === 'absent-404') return null
    const methods = mode === 'absent-405' ? { ...ABSENT_405 } : { ...route.methods }
    if (route.probe && !shapes.probeRoute) delete methods.GET
    return { methods, params: found.slice(1) }
  }
  return null
}

function handlerOf(match: Match, method: string, shapes: Shapes): Handler | undefined {
  if (method === 'HEAD' && shapes.headAsGet) return match.methods.GET
  return match.methods[method]
}

function allowedMethods(match: Match, shapes: Shapes): string[] {
  const names = Object.keys(match.methods)
  return shapes.headAsGet ? names.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m])) : names
}

export class Api {
  constructor(
    private readonly state: SimState,
    private readonly options: EffectiveOptions,
    private readonly jobs: Jobs,
    private readonly limiter: RateLimiter,
    private readonly clock: Clock,
    private readonly origin: string,
  ) {}

  handle(req: ApiRequest, taskError: string | null = null): ApiResult {
    const now = this.clock.now()
    this.jobs.settle(now)
    const shapes = shapesOf(this.options.profile)
    const lang = langOf(req.headers['x-localization'])
    const ctx: ApiContext = {
      state: this.state,
      options: this.options,
      jobs: this.jobs,
      shapes,
      origin: this.origin,
      lang,
      now,
      taskError,
    }
    const answer = (response: ApiResponse, processed = true): ApiResult => ({ response, processed })
    const path = req.path.length > 1 ? req.path.replace(/\/+$/, '') : req.path
    const unknown = (): ApiResult => answer(shapes.unknownRoute(req.path, req.headers.accept, lang))
    const v2 = path.startsWith(`${shapes.prefix}/v2`) ? path.slice(shapes.prefix.length) : null
    if (v2 === null || (v2 !== '/v2' && !v2.startsWith('/v2/'))) return unknown()
    const match = matchRoute(v2, shapes, this.options)
    const handler = match ? handlerOf(match, req.method, shapes) : undefined
    const notAllowed = (m: Match): ApiResponse =>
      shapes.methodNotAllowed(req.method, path, allowedMethods(m, shapes), lang)
    if (shapes.routeFirst) {
      if (!match) return unknown()
      if (!handler) return answer(notAllowed(match))
    }

    const { kind, token } = tokenOf(req.headers.authorization)
    if (token === null || kind === 'unknown') return answer(shapes.unauthenticated(lang))
    const limit = this.limiter.check(token, now)
    if (limit && !limit.allowed) return answer(shapes.rateLimited(lang, limit), false)
    const response = this.route(ctx, { ...req, path }, kind, match, handler, notAllowed)
    if (limit) Object.assign(response.headers, this.rateHeaders(shapes, limit))
    return answer(response)
  }

  /** The rate-limit headers of an answer that went through: the profile's, or as `resetHeader` says. */
  private rateHeaders(shapes: Shapes, decision: RateDecision): Record<string, string> {
    const headers = shapes.rateHeaders(decision)
    const mode = this.options.rateLimit?.resetHeader
    if (mode === 'always') headers['X-RateLimit-Reset'] = String(Math.ceil(decision.resetAt / 1000))
    if (mode === 'on-429') delete headers['X-RateLimit-Reset']
    return headers
  }

  private route(
    ctx: ApiContext,
    req: ApiRequest,
    kind: TokenKind,
    match: Match | null,
    handler: Handler | undefined,
    notAllowed: (m: Match) => ApiResponse,
  ): ApiResponse {
    if (!match) return ctx.shapes.unknownRoute(req.path, req.headers.accept, ctx.lang)
    if (!handler) return notAllowed(match)
    if (req.method !== 'GET' && req.method !== 'HEAD' && kind !== 'rw') return ctx.shapes.readOnly(ctx.lang)
    let params: string[]
    try {
      params = match.params.map((p) => decodeURIComponent(p))
    } catch {
      return ctx.shapes.unknownRoute(req.path, req.headers.accept, ctx.lang)
    }
    return handler(ctx, req, params[0] ?? '', params)
  }
}
