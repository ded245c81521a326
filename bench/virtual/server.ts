/**
 * The simulator's own API core (src/simulator: routes, jobs, progress curves, rate limiter) in
 * process, on virtual time, behind a Transport: the client sends through it exactly as through
 * NodeTransport, with no socket. Every request is logged with the (virtual) time it reached the
 * server, which is what the benchmark measures.
 */
import type { Transport, TransportRequest, TransportResponse } from '../../src/api/transport.js'
import { Api } from '../../src/simulator/api.js'
import { Jobs } from '../../src/simulator/jobs.js'
import { applyOptions, resolveOptions, type OptionsPatch } from '../../src/simulator/options.js'
import { RateLimiter } from '../../src/simulator/ratelimit.js'
import { SIM_TOKENS, emptyState, seedState } from '../../src/simulator/seed.js'
import type { EffectiveOptions, SimState } from '../../src/simulator/types.js'
import type { VirtualClock } from './clock.js'

export interface Logged {
  method: string
  path: string
  at: number
  status: number
}

export const API_URL = 'http://virtual.sim/v2'

export class VirtualSimulator {
  readonly state: SimState = emptyState()
  readonly options: EffectiveOptions
  readonly log: Logged[] = []
  private readonly jobs: Jobs
  private readonly limiter: RateLimiter
  private readonly api: Api

  /** The simulator's code reads the time with Date.now(): it is pointed at the virtual clock. */
  constructor(clock: VirtualClock, patch: OptionsPatch = {}) {
    Date.now = () => clock.now()
    seedState(this.state)
    this.options = resolveOptions({})
    applyOptions(this.options, patch)
    this.jobs = new Jobs(this.state, this.options)
    this.limiter = new RateLimiter(() => this.options.rateLimit)
    this.api = new Api(this.state, this.options, this.jobs, this.limiter)
  }

  setOptions(patch: OptionsPatch): void {
    applyOptions(this.options, patch)
    if (patch.rateLimit !== undefined) this.limiter.reset()
  }

  /** Production sites made for the run, before it (not logged, not rate limited). */
  newSites(n: number): string[] {
    const saved = this.options.rateLimit
    this.options.rateLimit = null
    const ids: string[] = []
    for (let i = 0; i < n; i++) {
      const res = this.handle('POST', '/v2/sites', JSON.stringify({ site_name: `bench-${i}` }), false)
      const data = (res.body as { data?: { id?: number } } | undefined)?.data
      if (res.status !== 201 || data?.id === undefined)
        throw new Error(`could not create a site: ${res.status}`)
      ids.push(String(data.id))
    }
    this.options.rateLimit = saved
    return ids
  }

  handle(method: string, pathAndQuery: string, body = '', logged = true, at = Date.now()) {
    const url = new URL(pathAndQuery, 'http://virtual.sim')
    const result = this.api.handle({
      method,
      path: url.pathname,
      query: url.searchParams,
      headers: {
        authorization: `Bearer ${SIM_TOKENS.readWrite}`,
        'content-type': 'application/json',
      },
      body,
    })
    // Jobs end by virtual time (every request settles the due ones first); no real timer may end one.
    this.jobs.clearTimers()
    if (logged) this.log.push({ method, path: url.pathname + url.search, at, status: result.response.status })
    return result.response
  }
}

/** A Transport to the in-process simulator: `rttMs` of virtual time per exchange, half each way. */
export class VirtualTransport implements Transport {
  connections = 1
  constructor(
    private readonly clock: VirtualClock,
    private readonly sim: VirtualSimulator,
    private readonly rttMs: number,
  ) {}

  async request(req: TransportRequest): Promise<TransportResponse> {
    await this.clock.sleep(this.rttMs / 2, req.signal)
    const url = new URL(req.url)
    const auth = req.headers.Authorization ?? req.headers.authorization
    if (auth !== `Bearer ${SIM_TOKENS.readWrite}`)
      throw new Error('the benchmark runs with the simulator token')
    const res = this.sim.handle(req.method, url.pathname + url.search, '', true, this.clock.now())
    await this.clock.sleep(this.rttMs / 2, req.signal)
    const headers: Record<string, string> = {}
    for (const [k, v] of Object.entries(res.headers)) headers[k.toLowerCase()] = v
    const body =
      res.body === undefined ? '' : typeof res.body === 'string' ? res.body : JSON.stringify(res.body)
    return { status: res.status, headers, body, truncated: false }
  }

  close(): void {}
}
