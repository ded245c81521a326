/**
 * The simulator's own API core (simulator/core.ts: routes, jobs, progress curves, rate
 * limiter, no HTTP, no timers) on the benchmark's virtual clock, behind a Transport: the client
 * sends through it exactly as through NodeTransport, with no socket. Every request is logged with
 * the (virtual) time it reached the server, which is what the benchmark measures.
 */
import type { Transport, TransportRequest, TransportResponse } from '../../src/api/transport.js'
import { createApiCore, type ApiCore } from '../../simulator/core.js'
import type { OptionsPatch } from '../../simulator/options.js'
import { SIM_TOKENS, stagingSite } from '../../simulator/seed.js'
import type { VirtualClock } from './clock.js'

export interface Logged {
  method: string
  path: string
  at: number
  status: number
}

export class VirtualSimulator {
  readonly core: ApiCore
  readonly log: Logged[] = []
  /** The staging read answers 404 whatever the staging (a read route that names nothing). */
  read404 = false

  constructor(
    private readonly clock: VirtualClock,
    patch: OptionsPatch = {},
  ) {
    this.core = createApiCore({}, clock)
    this.core.setOptions(patch)
  }

  /** The API root a user passes as `api-url`, normalised as the action does (…/v2). */
  get apiUrl(): string {
    return `${this.core.apiUrl()}/v2`
  }

  /** Production sites made for the run, before it (not logged, not rate limited). */
  newSites(n: number): string[] {
    const saved = this.core.options.rateLimit
    this.core.setOptions({ rateLimit: null })
    const ids: string[] = []
    const prefix = new URL(this.apiUrl).pathname
    for (let i = 0; i < n; i++) {
      const res = this.core.handle({
        method: 'POST',
        path: `${prefix}/sites`,
        headers: { authorization: `Bearer ${SIM_TOKENS.readWrite}`, 'content-type': 'application/json' },
        body: JSON.stringify({ site_name: `bench-${i}` }),
      })
      const id = (JSON.parse(res.body) as { data?: { id?: number } }).data?.id
      if (res.status !== 201 || id === undefined) throw new Error(`could not create a site: ${res.status}`)
      ids.push(String(id))
    }
    this.core.setOptions({ rateLimit: saved })
    return ids
  }

  /** Gives each of `ids` a ready staging site, as if created before the run. */
  addStaging(ids: string[]): void {
    const origin = new URL(this.apiUrl).origin
    for (const id of ids) {
      const site = this.core.state.sites.get(id)!
      this.core.state.staging.set(id, stagingSite(site, this.core.clock.now(), `bench-${id}`, origin))
    }
  }

  handle(method: string, pathAndQuery: string, headers: Record<string, string>, body?: string) {
    let res = this.core.handle({
      method,
      path: pathAndQuery,
      headers,
      ...(body !== undefined ? { body } : {}),
    })
    if (
      this.read404 &&
      method === 'GET' &&
      /\/sites\/[^/]+\/staging$/.test(pathAndQuery) &&
      res.status !== 429
    )
      res = { ...res, status: 404, body: '{"status":false,"message":"Not found.","data":null}' }
    this.log.push({ method, path: pathAndQuery, at: this.clock.now(), status: res.status })
    return res
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
    const res = this.sim.handle(req.method, url.pathname + url.search, req.headers, req.body)
    await this.clock.sleep(this.rttMs / 2, req.signal)
    const headers: Record<string, string> = {}
    for (const [k, v] of Object.entries(res.headers)) headers[k.toLowerCase()] = v
    return { status: res.status, headers, body: res.body, truncated: false }
  }

  close(): void {}
}
