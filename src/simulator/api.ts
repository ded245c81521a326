/**
 * The v2 API: authentication (401), the rate limit (429), routing (404 / 405), the read-only token
 * (403 on anything but GET), then the route's handler. Every answer is an envelope.
 */
import type { ApiContext, ApiRequest } from './context.js'
import { fail, type ApiResponse } from './http.js'
import { langOf, t } from './i18n.js'
import type { Jobs } from './jobs.js'
import type { RateLimiter } from './ratelimit.js'
import { createSite, getSite, listSites } from './routes/sites.js'
import { createStaging, deleteStaging, probe, sync } from './routes/staging.js'
import { taskStatus } from './routes/tasks.js'
import { SIM_TOKENS } from './seed.js'
import type { EffectiveOptions, RequestRecord, SimState } from './types.js'

type Handler = (ctx: ApiContext, req: ApiRequest, param: string) => ApiResponse

interface Route {
  pattern: RegExp
  methods: Record<string, Handler>
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
]

export type TokenKind = RequestRecord['token']

/** Which seeded token an Authorization header carries. */
export function tokenOf(header: string | undefined): { kind: TokenKind; token: string | null } {
  if (header === undefined || header.trim() === '') return { kind: 'none', token: null }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header.trim())
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

export class Api {
  constructor(
    private readonly state: SimState,
    private readonly options: EffectiveOptions,
    private readonly jobs: Jobs,
    private readonly limiter: RateLimiter,
  ) {}

  handle(req: ApiRequest, taskError: string | null = null): ApiResult {
    const now = Date.now()
    this.jobs.settle(now)
    const lang = langOf(req.headers['x-localization'])
    const ctx: ApiContext = {
      state: this.state,
      options: this.options,
      jobs: this.jobs,
      lang,
      now,
      taskError,
    }
    const path = req.path.length > 1 ? req.path.replace(/\/+$/, '') : req.path
    if (path !== '/v2' && !path.startsWith('/v2/')) {
      return { response: fail(404, t(lang, 'path_not_found', { path: req.path })), processed: true }
    }
    const { kind, token } = tokenOf(req.headers.authorization)
    if (token === null || kind === 'unknown') {
      return {
        response: fail(401, t(lang, 'unauthenticated'), undefined, { 'WWW-Authenticate': 'Bearer' }),
        processed: true,
      }
    }
    const limit = this.limiter.check(token, now)
    if (limit && !limit.allowed)
      return { response: fail(429, t(lang, 'rate_limited'), undefined, limit.headers), processed: false }
    const response = this.route(ctx, { ...req, path }, kind)
    if (limit) Object.assign(response.headers, limit.headers)
    return { response, processed: true }
  }

  private route(ctx: ApiContext, req: ApiRequest, kind: TokenKind): ApiResponse {
    for (const route of ROUTES) {
      const match = route.pattern.exec(req.path)
      if (!match) continue
      const handler = route.methods[req.method]
      if (!handler) {
        return fail(
          405,
          t(ctx.lang, 'method_not_allowed', { method: req.method, path: req.path }),
          undefined,
          {
            Allow: Object.keys(route.methods).join(', '),
          },
        )
      }
      if (req.method !== 'GET' && kind !== 'rw') return fail(403, t(ctx.lang, 'read_only'))
      let param = match[1] ?? ''
      try {
        param = decodeURIComponent(param)
      } catch {
        return fail(404, t(ctx.lang, 'path_not_found', { path: req.path }))
      }
      return handler(ctx, req, param)
    }
    return fail(404, t(ctx.lang, 'path_not_found', { path: req.path }))
  }
}
