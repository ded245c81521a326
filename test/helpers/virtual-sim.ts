/**
 * The product's core run (runAll: every site, every policy, the polling, the report) against the
 * simulator's own API core (simulator/core.ts: its routes, both profiles, jobs, rate limiter) in
 * virtual time: no process, no socket, no real wait. A 60 s job takes no time; nothing races the
 * machine. What needs the bundle (inputs from the environment, the runner's commands, the outputs
 * and summary files, exit codes, signals) stays in the whole-action tests (test/action/).
 *
 * The clock is the benchmark's (bench/virtual/clock.ts): time jumps to the next sleeper once
 * everything that can run has run.
 */
import { VirtualClock } from '../../bench/virtual/clock.js'
import { createApiCore, type ApiCore } from '../../simulator/core.js'
import { tokenOf } from '../../simulator/api.js'
import { SIM_TOKENS } from '../../simulator/seed.js'
import type { SimulatorOptions } from '../../simulator/types.js'
import type { Transport, TransportRequest, TransportResponse } from '../../src/api/transport.js'
import { assembleReport, type Report } from '../../src/report/assembly.js'
import { renderSummary } from '../../src/report/summary.js'
import { Redactor } from '../../src/secrets/redactor.js'
import { runAll } from '../../src/staging/batch.js'
import type { Config } from '../../src/inputs/index.js'
import type { Result } from '../../src/types.js'
import { config, MemoryLogger } from './fakes.js'

/** An API request as the virtual server saw it (the HTTP simulator's RequestRecord, in virtual time). */
export interface VirtualRequest {
  method: string
  path: string
  status: number
  /** Virtual ms epoch when it arrived. */
  at: number
  token: 'rw' | 'ro' | 'unknown' | 'none'
  contentType?: string
  localization?: string
}

/** Round trip of one exchange, in virtual time. */
const RTT_MS = 20

export class VirtualSim {
  readonly clock = new VirtualClock()
  readonly core: ApiCore
  readonly requests: VirtualRequest[] = []
  /** Headers added to every API answer whose path contains `path` (as the HTTP simulator's header faults). */
  readonly extraHeaders: { path: string; headers: Record<string, string> }[] = []

  /** `options` over the whole-action tests' FAST durations (test/helpers/sim.ts). */
  constructor(options: SimulatorOptions = {}) {
    this.core = createApiCore(
      {
        durationsMs: { create: 400, pull: 300, push: 300, delete: 200 },
        siteDelayMs: 200,
        ...options,
      },
      this.clock,
    )
  }

  get state() {
    return this.core.state
  }

  /** The API root as the action normalises `api-url` (…/v2). */
  get apiUrl(): string {
    return `${this.core.apiUrl()}/v2`
  }

  /** Requests whose method is `method` and whose path (query aside) ends with `pathEnd`. */
  sentTo(method: string, pathEnd: string): VirtualRequest[] {
    return this.requests.filter((r) => r.method === method && r.path.split('?')[0]!.endsWith(pathEnd))
  }

  /** A request made by the test itself (not recorded): e.g. to start a job before the run. */
  call(method: string, pathEnd: string, body?: unknown): { status: number; data: unknown } {
    const res = this.core.handle({
      method,
      path: `${new URL(this.apiUrl).pathname}${pathEnd}`,
      headers: { authorization: `Bearer ${SIM_TOKENS.readWrite}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    return { status: res.status, data: (JSON.parse(res.body) as { data?: unknown }).data }
  }

  /** New production sites (before any limit is set), their ids. */
  newSites(n: number): string[] {
    const ids: string[] = []
    for (let i = 0; i < n; i++) {
      const { status, data } = this.call('POST', '/sites', { site_name: `batch-${i}` })
      if (status !== 201) throw new Error(`could not create a site: ${status}`)
      ids.push(String((data as { id: number }).id))
    }
    return ids
  }

  /** A transport to this server: RTT_MS of virtual time per exchange, half each way. */
  transport(): Transport {
    return {
      connections: 1,
      request: async (req: TransportRequest): Promise<TransportResponse> => {
        await this.clock.sleep(RTT_MS / 2, req.signal)
        const url = new URL(req.url)
        const pathAndQuery = url.pathname + url.search
        const record: VirtualRequest = {
          method: req.method,
          path: pathAndQuery,
          status: 0,
          at: this.clock.now(),
          token: tokenOf(req.headers.authorization ?? req.headers.Authorization).kind,
        }
        const header = (name: string) =>
          Object.entries(req.headers).find(([k]) => k.toLowerCase() === name)?.[1]
        if (header('content-type') !== undefined) record.contentType = header('content-type')
        if (header('x-localization') !== undefined) record.localization = header('x-localization')
        this.requests.push(record)
        const res = this.core.handle({ method: req.method, path: pathAndQuery, headers: req.headers })
        record.status = res.status
        const headers: Record<string, string> = {}
        for (const [k, v] of Object.entries(res.headers)) headers[k.toLowerCase()] = v
        for (const extra of this.extraHeaders)
          if (url.pathname.includes(extra.path))
            for (const [k, v] of Object.entries(extra.headers)) headers[k.toLowerCase()] = v
        await this.clock.sleep(RTT_MS / 2, req.signal)
        return { status: res.status, headers, body: res.body, truncated: false }
      },
      close() {},
    } as Transport
  }
}

export interface VirtualRun {
  results: Result[]
  report: Report
  /** The step's outputs, as the action sets them. */
  outputs: Report['outputs']
  /** The job summary, as the action writes it. */
  summary: string
  /** The log: `info: …`, `warn: …`, `debug: …` lines. */
  log: string
  /** Virtual time the run took. */
  elapsedMs: number
}

/**
 * One run of the core (every site of `overrides.siteIds`, default 1001) against `sim`, with the
 * read-write token, and its report as the action assembles it.
 */
export async function runVirtual(sim: VirtualSim, overrides: Partial<Config> = {}): Promise<VirtualRun> {
  const cfg = config({ apiUrl: sim.apiUrl, apiToken: SIM_TOKENS.readWrite, timeoutMs: 60_000, ...overrides })
  const logger = new MemoryLogger()
  const redactor = new Redactor()
  redactor.add(cfg.apiToken)
  const started = sim.clock.now()
  const results = await sim.clock.run(
    runAll(cfg, { logger, redactor, clock: sim.clock, transport: sim.transport(), random: () => 0.5 }),
  )
  const elapsedMs = sim.clock.now() - started
  const report = assembleReport(results, elapsedMs)
  return {
    results,
    report,
    outputs: report.outputs,
    summary: redactor.scrub(renderSummary(results)),
    log: logger.text,
    elapsedMs,
  }
}
