/**
 * The reference v2 API simulator: a stateful HTTP server on 127.0.0.1. `start()` for tests and
 * scripts; main.ts for the command line. The API itself is the core (core.ts) on the real clock
 * (or on a test's); around it this file does HTTP: admin paths (/__sim) aside, staging sites' own
 * URLs aside (/staging-sites/...), every API request is recorded, a fault applies if one fires
 * (latency, hang, drop, redirect, scripted answers, patches, headers), connections are counted, and
 * a timer settles jobs when they are due so the state moves without any request.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { ADMIN_PREFIX, handleAdmin, type AdminTarget } from './admin.js'
import { JobTicker } from './ticker.js'
import { ConnectionCounter } from './connections.js'
import { realClock, type Clock } from './clock.js'
import { createApiCore, type ApiCore } from './core.js'
import { exchange } from './fault-response.js'
import { Faults } from './faults.js'
import { readBody, send } from './http.js'
import type { OptionsPatch } from './options.js'
import { isSitePath } from './site-host.js'
import type {
  ConnectionStats,
  EffectiveOptions,
  FaultRule,
  RequestRecord,
  SimState,
  SimulatorOptions,
  SiteRequestRecord,
} from './types.js'

export type {
  ConnectionStats,
  EffectiveOptions,
  FaultRule,
  Profile,
  RequestRecord,
  SimState,
  SimulatorOptions,
  SiteRequestRecord,
} from './types.js'
export { SIM_TOKENS, SIM_SITES, SIM_ACCOUNT_EMAIL, productionPageUrl } from './seed.js'
export { createApiCore, type ApiCore, type CoreRequest, type CoreResponse } from './core.js'
export { ManualClock, realClock, type Clock } from './clock.js'

export interface Simulator {
  /** 'http://127.0.0.1:PORT': the bare origin (no /api, no /v2). */
  url: string
  /** What a user passes as `api-url`: `url` for the spec profile, `${url}/api` for the service profile. */
  readonly apiUrl: string
  /** Closes the server, destroys open and hung sockets, clears timers. Safe to call twice. */
  stop(): Promise<void>
  addFault(rule: FaultRule): void
  clearFaults(): void
  /** Every API request that reached the server (not admin, not site URLs), in order of arrival. */
  requests: RequestRecord[]
  /** Every request to a staging site's own URL or a production page, in order of arrival. */
  siteRequests: SiteRequestRecord[]
  /** Connections and requests per connection since start or the last reset(). */
  stats(): ConnectionStats
  /** The live state (read it; the same object across reset()). */
  state: SimState
  /** The options in force (read it; change it with setOptions). */
  options: EffectiveOptions
  /** Changes options at run time, as POST /__sim/options does. Throws on a bad value. */
  setOptions(patch: OptionsPatch): void
  /**
   * Back to the seeded state: sites, staging, tasks, outbox, purges, requests, site requests,
   * connection counts, faults, rate windows. Options are kept.
   */
  reset(): void
  /** The API core this server runs (on the clock `start` was given). */
  core: ApiCore
}

/**
 * Starts the simulator on 127.0.0.1. `clock`: where its API reads the time (the real one unless a
 * test passes a ManualClock, to hold a job running or end it, and roll windows, at times it chooses).
 */
export async function start(options: SimulatorOptions = {}, clock: Clock = realClock): Promise<Simulator> {
  const counter = new ConnectionCounter()
  const sockets = new Set<Socket>()
  // Listen first: staging site URLs carry the port. Requests are handled from the 'request'
  // listener added below, in the same tick as the core is made.
  // Idle connections are kept a minute, as the service's web servers do (nginx keeps 75 s by
  // default); Node's own default of 5 s would make every poll more than 4 s apart reconnect.
  const server = createServer({ requestTimeout: 0, keepAliveTimeout: 65_000 })
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    counter.accepted(socket)
    socket.on('close', () => sockets.delete(socket))
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  const url = `http://127.0.0.1:${port}`
  let core: ApiCore
  try {
    core = createApiCore(options, clock, { origin: url })
  } catch (error) {
    server.close()
    throw error
  }
  const faults = new Faults()
  const requests: RequestRecord[] = []
  const siteRequests: SiteRequestRecord[] = []
  /** Wakers of requests sleeping on a latency fault: stop() wakes them so nothing is left pending. */
  const sleepers = new Set<() => void>()
  let stopped = false
  const ticker = new JobTicker(core)
  const schedule = (): void => ticker.schedule()

  function reset(): void {
    core.reset()
    requests.length = 0
    siteRequests.length = 0
    faults.clear()
    counter.reset()
    schedule()
  }

  function setOptions(patch: OptionsPatch): void {
    core.setOptions(patch)
  }

  function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer)
        sleepers.delete(wake)
        resolve()
      }
      const timer = setTimeout(wake, ms)
      sleepers.add(wake)
    })
  }

  /** What /__sim/* reads and changes: the same live objects for every admin request. */
  const admin: AdminTarget = {
    state: core.state,
    options: core.options,
    faults,
    requests,
    siteRequests,
    stats: () => counter.snapshot(),
    settle: () => core.settle(),
    percentageOf: (task) => core.percentageOf(task),
    reset,
    setOptions,
  }

  async function onAdmin(req: IncomingMessage, res: ServerResponse, method: string, pathname: string) {
    const body = await readBody(req)
    send(res, handleAdmin(admin, method, pathname, body))
    schedule()
  }

  async function onSite(req: IncomingMessage, res: ServerResponse, method: string, rawPath: string) {
    await readBody(req).catch(() => '')
    // Recorded and answered in the same tick: `at` is the time the answer was decided at.
    const record: SiteRequestRecord = {
      method,
      path: rawPath,
      status: 0,
      at: clock.now(),
      headerNames: req.rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase()),
    }
    if (req.headers.authorization !== undefined) record.authorization = req.headers.authorization
    siteRequests.push(record)
    const { response } = core.respond({ method, path: rawPath, headers: req.headers })
    record.status = response.status
    send(res, response)
  }

  async function onApi(req: IncomingMessage, res: ServerResponse, method: string, rawPath: string) {
    const done = await exchange(
      core,
      faults,
      requests,
      { method, path: rawPath, headers: req.headers },
      { sleep, body: () => readBody(req), stopped: () => stopped, processed: schedule },
    )
    if (done === null || 'hung' in done) return
    if ('dropped' in done) return void req.socket.destroy()
    send(res, done.response)
  }

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase()
    const rawPath = req.url ?? '/'
    const { pathname } = new URL(rawPath, 'http://127.0.0.1')
    if (pathname === ADMIN_PREFIX || pathname.startsWith(`${ADMIN_PREFIX}/`)) {
      return onAdmin(req, res, method, pathname)
    }
    counter.request(req.socket)
    if (isSitePath(pathname)) return onSite(req, res, method, rawPath)
    return onApi(req, res, method, rawPath)
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    onRequest(req, res).catch((error: unknown) => {
      if (stopped || res.headersSent || res.destroyed) return
      send(res, {
        status: 500,
        headers: {},
        body: { message: `Simulator error: ${(error as Error).message}` },
      })
    })
  })
  let stopping: Promise<void> | null = null
  function stop(): Promise<void> {
    stopping ??= new Promise<void>((resolve) => {
      stopped = true
      ticker.stop()
      for (const wake of [...sleepers]) wake()
      server.close(() => resolve())
      for (const socket of sockets) socket.destroy()
      sockets.clear()
    })
    return stopping
  }

  return {
    url,
    get apiUrl() {
      return core.apiUrl()
    },
    stop,
    addFault: (rule) => faults.add(rule),
    clearFaults: () => faults.clear(),
    requests,
    siteRequests,
    stats: () => counter.snapshot(),
    state: core.state,
    options: core.options,
    setOptions,
    reset,
    core,
  }
}
