/**
 * The action in virtual time: src/action.ts's runAction (its inputs read by @actions/core, its one
 * writer, its outputs and job summary files, its exit code) in this process, against the simulator's
 * API core on a virtual clock, through a transport that serves each request with the simulator's own
 * `exchange()` (simulator/fault-response.ts, which its HTTP server uses too): every request
 * recorded, a fault rule applied as the server applies it (latency, hang, drop before or after
 * processing, redirect, scripted answers, patches, headers). A 20 s hung request or a 60 s job takes no real time, and nothing races the
 * machine. The staging site's own GET (wait-for-url, production-url, staging-url) goes through the
 * same server (`siteGet`, the core's seam for it): the site served as the HTTP server serves it.
 *
 * What only the bundle shows stays a whole-process run (test/helpers/run-action.ts): the runner's
 * signals, an environment of its own (GitHub's, NODE_OPTIONS), a real socket (nothing listening, a
 * TLS handshake, another server), the headers the real site GET sends, and the token masked in the
 * real stdout of dist/index.js.
 */
import * as core from '@actions/core'
import { afterAll, beforeEach } from '@jest/globals'
import { randomUUID } from 'node:crypto'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { VirtualClock } from '../../bench/virtual/clock.js'
import { createApiCore, type ApiCore } from '../../simulator/core.js'
import { exchange } from '../../simulator/fault-response.js'
import { Faults } from '../../simulator/faults.js'
import { serialize, type ApiResponse } from '../../simulator/http.js'
import type { OptionsPatch } from '../../simulator/options.js'
import { isSitePath } from '../../simulator/site-host.js'
import type { FaultRule, RequestRecord, SimulatorOptions, SiteRequestRecord } from '../../simulator/types.js'
import { runAction } from '../../src/action.js'
import { USER_AGENT } from '../../src/api/client.js'
import type { GitHubFetch } from '../../src/github/octokit.js'
import {
  MAX_RESPONSE_BYTES,
  TransportError,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from '../../src/api/transport.js'
import { durationText } from '../../src/duration.js'
import type { SiteGet } from '../../src/staging/url-check.js'
import { Redactor } from '../../src/secrets/redactor.js'
import { actionDefaults, parseOutputFile, type RunOptions, type RunResult } from './run-action.js'
import { FAST, RW } from './sim.js'

/** Round trip of one exchange, in virtual time (as test/helpers/virtual-sim.ts). */
const RTT_MS = 20
/** The origin staging URLs are built on: an address, never a socket (every request is virtual). */
const ORIGIN = 'http://127.0.0.1:40404'

/**
 * A clock that drives the step in virtual time, and lets the step's few real file writes (the job
 * summary) finish: when nothing sleeps, it waits for them instead of calling the run stuck.
 */
class StepClock extends VirtualClock {
  override async run<T>(work: Promise<T>): Promise<T> {
    let settled = false
    work.then(
      () => (settled = true),
      () => (settled = true),
    )
    for (;;) {
      try {
        return await super.run(work)
      } catch (e) {
        if (settled || !String((e as Error).message).startsWith('virtual clock: nothing is scheduled'))
          throw e
        await new Promise((resolve) => setTimeout(resolve, 1))
      }
    }
  }
}

/**
 * The simulator as a test sees it (the fields of simulator/server.ts's Simulator that fault-matrix
 * rows read and set, and reset()), on a virtual clock of its own: seeded, with `options` (FAST's
 * durations and the spec profile by default). Make one per test.
 */
export class VirtualFaultSim {
  readonly clock: VirtualClock = new StepClock(Date.now())
  readonly core: ApiCore
  readonly url = ORIGIN
  readonly requests: RequestRecord[] = []
  readonly siteRequests: SiteRequestRecord[] = []
  private readonly faults = new Faults()

  constructor(options: SimulatorOptions = FAST) {
    this.core = createApiCore(options, this.clock, { origin: ORIGIN })
  }

  get apiUrl(): string {
    return this.core.apiUrl()
  }
  get state() {
    return this.core.state
  }
  get options() {
    return this.core.options
  }
  addFault(rule: FaultRule): void {
    this.faults.add(rule)
  }
  setOptions(patch: OptionsPatch): void {
    this.core.setOptions(patch)
  }
  /** Back to the seeded state, no request or fault on record; options kept (as the HTTP one's reset). */
  reset(): void {
    this.core.reset()
    this.requests.length = 0
    this.siteRequests.length = 0
    this.faults.clear()
  }

  /**
   * One GET of a site's own URL (src/staging/url-check.ts's SiteGet), through this server: a site
   * path is served by the core and recorded in `siteRequests`, as the HTTP server does. It carries
   * only our User-Agent; what the real GET sends (and that no token goes with it) is for a
   * whole-process run to show (test/action/wait-for-url.test.ts).
   */
  readonly siteGet: SiteGet = async (url, timeoutMs, signal, bodyBytes = 0) => {
    const get = { method: 'GET', url, headers: { 'User-Agent': USER_AGENT }, timeoutMs }
    const { status, body } = await this.exchange(signal ? { ...get, signal } : get)
    return bodyBytes > 0 ? { status, body: Buffer.from(body).subarray(0, bodyBytes).toString() } : { status }
  }

  /** A transport to this server: each request served by exchange(), as the HTTP server serves it. */
  transport(): Transport {
    return { connections: 1, request: (req) => this.exchange(req), close() {} }
  }

  private async exchange(req: TransportRequest): Promise<TransportResponse> {
    const { clock } = this
    const limit = clock.now() + req.timeoutMs
    const noAnswer = () =>
      new TransportError(`no answer within ${durationText(req.timeoutMs, 'log')}`, 'ETIMEDOUT', 'connected')
    /** Waits `ms` of the exchange; past its time limit the exchange ends as the transport ends it. */
    const wait = async (ms: number) => {
      const left = limit - clock.now()
      if (ms < left) return clock.sleep(ms, req.signal)
      await clock.sleep(Math.max(0, left), req.signal)
      throw noAnswer()
    }
    /** No answer ever: the exchange's time limit ends it. */
    const hang = async (): Promise<never> => {
      await wait(Number.POSITIVE_INFINITY)
      throw noAnswer()
    }
    const url = new URL(req.url)
    if (url.origin !== ORIGIN) {
      // Nothing listens anywhere else: not one byte was sent.
      throw new TransportError(`connect ECONNREFUSED ${url.host}`, 'ECONNREFUSED', 'connecting')
    }
    await wait(RTT_MS / 2)
    const method = req.method.toUpperCase()
    const rawPath = url.pathname + url.search
    const headers: Record<string, string> = {}
    for (const [k, v] of Object.entries(req.headers)) headers[k.toLowerCase()] = v
    const answer = async (response: ApiResponse): Promise<TransportResponse> => {
      await wait(RTT_MS / 2)
      return toTransport(response, clock.wallNow())
    }
    if (isSitePath(url.pathname)) {
      const visit: SiteRequestRecord = {
        method,
        path: rawPath,
        status: 0,
        at: clock.now(),
        headerNames: Object.keys(headers),
      }
      if (headers.authorization !== undefined) visit.authorization = headers.authorization
      this.siteRequests.push(visit)
      const { response } = this.core.respond({ method, path: rawPath, headers })
      visit.status = response.status
      return answer(response)
    }
    const done = await exchange(
      this.core,
      this.faults,
      this.requests,
      { method, path: rawPath, headers },
      { sleep: wait, body: async () => req.body },
    )
    if (done === null || 'hung' in done) return hang()
    if ('dropped' in done) throw new TransportError('socket hang up', 'ECONNRESET', 'connected')
    return answer(done.response)
  }
}

/** An answer as the transport hands it on: header names in lower case, Node's Date header, at most MAX_RESPONSE_BYTES. */
function toTransport(response: ApiResponse, wallNow: number): TransportResponse {
  const { status, headers, body } = serialize(response)
  const lower: Record<string, string> = { date: new Date(wallNow).toUTCString() }
  for (const [k, v] of Object.entries(headers)) lower[k.toLowerCase()] = v
  const bytes = Buffer.from(body)
  const truncated = bytes.length > MAX_RESPONSE_BYTES
  return {
    status,
    headers: lower,
    body: truncated ? bytes.subarray(0, MAX_RESPONSE_BYTES).toString('utf8') : body,
    truncated,
  }
}

/**
 * The runner's files for in-process runs: one pair per test file, at one path (@actions/core keeps
 * the summary file's path once it has written it). Made by a file's first run, emptied before each
 * run, and removed after the file's tests (the hook below: any test file that loads this module).
 */
const files = (() => {
  const dir = path.join(tmpdir(), `action-virtual-${process.pid}-${randomUUID()}`)
  return { dir, output: path.join(dir, 'output'), summary: path.join(dir, 'summary') }
})()
afterAll(() => rmSync(files.dir, { recursive: true, force: true }))

/**
 * GitHub for an in-process run: the event's context (GITHUB_* variables: the API URL, the event
 * file, the repository, the run) and the fetch its requests go through (test/github/fake-github.ts's
 * virtualFakeGitHub on the simulator's clock).
 */
export interface VirtualGitHub {
  env: Record<string, string>
  fetch: GitHubFetch
}

/**
 * Runs the action once in this process, as the runner would run dist/index.js: INPUT_* variables
 * (action.yml's defaults filled in, the read-write token and the simulator's api-url unless given),
 * GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, stdout as the log, `process.exitCode` as the exit code.
 * `options.onOutput` works as for a whole-action run, and `options.env` may set RUNNER_DEBUG (debug
 * logging); signals and any other environment of its own do not (those need the bundle). `github`:
 * the event and an in-process GitHub, for the GitHub side.
 */
export async function runActionVirtually(
  sim: VirtualFaultSim,
  inputs: Record<string, string>,
  options: RunOptions = {},
  github?: VirtualGitHub,
): Promise<RunResult> {
  // RUNNER_DEBUG (the runner's debug logging) is the one variable of the runner's an in-process run takes.
  const { RUNNER_DEBUG, ...ownEnv } = options.env ?? {}
  if (options.signal || Object.keys(ownEnv).length > 0 || options.killAfterMs)
    throw new Error('signals, an environment and a kill timer need the bundle: run this one whole')
  for (const name of Object.keys(github?.env ?? {}))
    if (!/^GITHUB_/.test(name) || name === 'GITHUB_OUTPUT' || name === 'GITHUB_STEP_SUMMARY')
      throw new Error(`${name} is not the event's context: run this one whole`)
  mkdirSync(files.dir, { recursive: true })
  writeFileSync(files.output, '')
  writeFileSync(files.summary, '')
  const savedEnv = { ...process.env }
  for (const name of Object.keys(process.env))
    if (/^(INPUT_|GITHUB_|RUNNER_)/.test(name)) delete process.env[name]
  Object.assign(process.env, {
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_ACTIONS: 'true',
    RUNNER_TEMP: files.dir,
    ...(RUNNER_DEBUG === undefined ? {} : { RUNNER_DEBUG }),
    ...github?.env,
  })
  const all = { ...actionDefaults(), 'api-url': sim.apiUrl, 'api-token': RW, timeout: '60s', ...inputs }
  for (const [name, value] of Object.entries(all))
    process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value

  let stdout = ''
  let stderr = ''
  let onOutputDone = false
  const write = { out: process.stdout.write, err: process.stderr.write }
  process.stdout.write = ((chunk: string | Uint8Array) => {
    stdout += chunk.toString()
    if (options.onOutput && !onOutputDone && options.onOutput.when.test(stdout)) {
      onOutputDone = true
      options.onOutput.then()
    }
    return true
  }) as typeof process.stdout.write
  process.stderr.write = ((chunk: string | Uint8Array) => {
    stderr += chunk.toString()
    return true
  }) as typeof process.stderr.write
  const savedExitCode = process.exitCode
  process.exitCode = undefined
  const started = sim.clock.now()
  let code: number
  try {
    // As src/main.ts's run(): the token masked before anything else; an unexpected error fails the step.
    const redactor = new Redactor((value) => core.setSecret(value))
    redactor.add(core.getInput('api-token'))
    const step = runAction(redactor, new AbortController().signal, {
      clock: sim.clock,
      core: { transport: sim.transport(), siteGet: sim.siteGet },
      ...(github ? { fetch: github.fetch } : {}),
    }).catch((e: unknown) =>
      core.setFailed(redactor.inert(`Unexpected error: ${(e as Error)?.message ?? String(e)}`)),
    )
    await sim.clock.run(step)
    code = Number(process.exitCode ?? 0)
  } finally {
    process.stdout.write = write.out
    process.stderr.write = write.err
    process.exitCode = savedExitCode
    for (const name of Object.keys(process.env)) if (!(name in savedEnv)) delete process.env[name]
    Object.assign(process.env, savedEnv)
  }
  // A summary the file refused would read as an empty one: say so instead.
  if (/Job summary not written/.test(stdout)) throw new Error(`the job summary was not written:\n${stdout}`)
  const outputsText = readFileSync(files.output, 'utf8')
  const summary = readFileSync(files.summary, 'utf8')
  return {
    code,
    stdout,
    stderr,
    outputs: parseOutputFile(outputsText),
    summary,
    everything: [stdout, stderr, outputsText, summary].join('\n'),
    elapsedMs: sim.clock.now() - started,
    exitAfterSignalMs: null,
  }
}

/**
 * For a test file of in-process runs: a fresh simulator core (seeded, `options` over FAST's) on its
 * own virtual clock before each test, as useSimulator (test/helpers/sim.ts) gives the HTTP one.
 */
export function useVirtualSimulator(options: SimulatorOptions = FAST): { sim: () => VirtualFaultSim } {
  let sim: VirtualFaultSim
  beforeEach(() => {
    sim = new VirtualFaultSim({ ...FAST, ...options })
  })
  return { sim: () => sim }
}
