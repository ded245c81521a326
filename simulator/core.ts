/**
 * The API core: routing, state, jobs and the rate limiter, with no HTTP and no timers. Time comes
 * from a clock, so a benchmark can run the whole API in virtual time (issue 13): jobs end and rate
 * windows roll when the clock says so, settled on every request. The HTTP server (server.ts) runs
 * this same core on the real clock, with faults, records and the admin paths around it.
 */
import { Api, type ApiResult } from './api.js'
import { realClock, type Clock } from './clock.js'
import { serialize } from './http.js'
import { Jobs } from './jobs.js'
import { applyOptions, resolveOptions, type OptionsPatch } from './options.js'
import { shapesOf } from './profiles/index.js'
import { RateLimiter } from './ratelimit.js'
import { emptyState, seedState } from './seed.js'
import { isSitePath, serveSite } from './site-host.js'
import type { EffectiveOptions, SimState, SimulatorOptions, Task } from './types.js'

export interface CoreRequest {
  method: string
  /** Path and query string, e.g. /v2/sites?type=staging. */
  path: string
  /** Header names in any case. */
  headers?: Record<string, string | string[] | undefined>
  body?: string
}

export interface CoreResponse {
  status: number
  /** Content-Type and Content-Length included. */
  headers: Record<string, string>
  body: string
  /** False when nothing of the API ran (the rate limit stopped it). */
  processed: boolean
}

export interface CoreSettings {
  /** Origin staging site URLs are built on, e.g. http://127.0.0.1:8080. Default http://127.0.0.1. */
  origin?: string
}

export interface ApiCore {
  /** The live state (the same object across reset()). */
  readonly state: SimState
  /** The options in force (change them with setOptions). */
  readonly options: EffectiveOptions
  readonly clock: Clock
  readonly origin: string
  /** What a user passes as `api-url` for the profile in force: the origin, plus /api for 'service'. */
  apiUrl(): string
  /** Answers one request: the v2 API, or a staging site's own URL. */
  handle(req: CoreRequest, options?: { taskError?: string | null }): CoreResponse
  /** The v2 API's answer as a value (the HTTP server patches it before sending). */
  respond(req: CoreRequest, taskError?: string | null): ApiResult
  /** Ends the jobs that are due by the clock. Every request does this first. */
  settle(): void
  /** When the next running job ends (ms epoch on the clock), or null. */
  nextDueAt(): number | null
  /** A task's percentage now, or null when progress is 'none'. */
  percentageOf(task: Task): number | null
  /** Validates and applies a change of options (throws on a bad value). */
  setOptions(patch: OptionsPatch): void
  /** Back to the seeded state; empties tasks, outbox, purges and rate windows. Options are kept. */
  reset(): void
}

export function createApiCore(
  options: SimulatorOptions = {},
  clock: Clock = realClock,
  settings: CoreSettings = {},
): ApiCore {
  const origin = (settings.origin ?? 'http://127.0.0.1').replace(/\/+$/, '')
  const state = emptyState()
  seedState(state, origin)
  const effective = resolveOptions(options)
  const jobs = new Jobs(state, effective, clock)
  const limiter = new RateLimiter(() => effective.rateLimit)
  const api = new Api(state, effective, jobs, limiter, clock, origin)

  function respond(req: CoreRequest, taskError: string | null = null): ApiResult {
    const url = new URL(req.path, 'http://sim.invalid')
    const headers: Record<string, string | string[] | undefined> = {}
    for (const [name, value] of Object.entries(req.headers ?? {})) headers[name.toLowerCase()] = value
    const method = req.method.toUpperCase()
    if (isSitePath(url.pathname)) {
      jobs.settle()
      return {
        response: serveSite(state, effective.siteDelayMs, clock.now(), method, url.pathname),
        processed: true,
      }
    }
    return api.handle(
      { method, path: url.pathname, query: url.searchParams, headers, body: req.body ?? '' },
      taskError,
    )
  }

  return {
    state,
    options: effective,
    clock,
    origin,
    apiUrl: () => `${origin}${shapesOf(effective.profile).prefix}`,
    respond,
    handle(req, extra = {}) {
      const { response, processed } = respond(req, extra.taskError ?? null)
      return { ...serialize(response), processed }
    },
    settle: () => jobs.settle(),
    nextDueAt: () => jobs.nextDueAt(),
    percentageOf: (task) => jobs.percentageOf(task),
    setOptions(patch) {
      applyOptions(effective, patch)
      if (patch.rateLimit !== undefined) limiter.reset()
    },
    reset() {
      seedState(state, origin)
      limiter.reset()
    },
  }
}
