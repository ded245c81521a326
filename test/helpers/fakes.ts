import { CancelledError } from '../../src/clock.js'
import { Redactor } from '../../src/secrets/redactor.js'
import { runOperation } from '../../src/staging/operations.js'
import { VERIFY_TIMEOUT_MS } from '../../src/contract.js'
import type { Config } from '../../src/inputs/index.js'
import { newResult, type Clock, type Logger, type Result } from '../../src/types.js'

/** Virtual time: sleep() advances the clock at once. `wallShift` steps the wall clock alone (NTP). */
export class FakeClock implements Clock {
  t = 1_700_000_000_000
  wallShift = 0
  slept: number[] = []
  now(): number {
    return this.t
  }
  wallNow(): number {
    return this.t + this.wallShift
  }
  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw new CancelledError()
    this.slept.push(ms)
    this.t += Math.max(0, ms)
    await Promise.resolve()
  }
}

export class MemoryLogger implements Logger {
  lines: string[] = []
  info(m: string) {
    this.lines.push(`info: ${m}`)
  }
  warn(m: string) {
    this.lines.push(`warn: ${m}`)
  }
  debug(m: string) {
    this.lines.push(`debug: ${m}`)
  }
  get text(): string {
    return this.lines.join('\n')
  }
}

export const TOKEN = 'tok_live_0123456789abcdefSECRET'
export const API = 'https://api.example.test'

export function config(overrides: Partial<Config> = {}): Config {
  return {
    operation: 'create',
    siteIds: ['1001'],
    apiToken: TOKEN,
    apiUrl: `${API}/v2`,
    wait: true,
    timeoutMs: 30 * 60_000,
    language: 'en',
    maxRetries: 5,
    ifExists: 'fail',
    ifMissing: 'fail',
    ifBusy: 'wait',
    dryRun: false,
    concurrency: 4,
    failFast: false,
    taskId: null,
    waitForUrl: false,
    // Issue 27's checkpoint is tested where it is the subject (test/unit/checkpoint.test.ts).
    checkpoint: 'none',
    stagingUrl: null,
    productionUrl: null,
    productionExpect: null,
    verifyTimeoutMs: VERIFY_TIMEOUT_MS,
    checkpointId: null,
    rollbackOnFailure: false,
    keepCheckpoints: 3,
    maintenance: false,
    protectProduction: false,
    ...overrides,
  }
}

/** A reply as the client hands it on (src/api/reply.ts): an envelope whose texts are already inert. */
export function reply(data: unknown, message = 'OK') {
  return { kind: 'envelope' as const, envelopeStatus: true, message, details: [], data }
}

export function redactor(): Redactor {
  const r = new Redactor()
  r.add(TOKEN)
  return r
}

/** An envelope body as the service sends it. */
export function envelope(data: unknown, message = 'OK', status = true) {
  return { status, message, data }
}

/** A create on site 1001 that succeeded: what tests of the reports and of the GitHub side start from. */
export function createdResult(over: Partial<Result> = {}): Result {
  return {
    ...newResult('create', '1001', 0),
    result: 'succeeded',
    httpStatus: 202,
    message: 'Staging site creation started.',
    taskId: 't1',
    stagingSiteId: 's-1001',
    stagingUrl: 'https://staging-1001.example.test/',
    durationSeconds: 3,
    requests: 3,
    startedAt: new Date().toISOString(),
    ...over,
  }
}

/**
 * One operation on site 1001 through the core, against whatever answers API (nock), on a fake clock
 * and logger, with jitter fixed at its middle.
 */
export async function runOnFakes(overrides: Partial<Config>, signal?: AbortSignal) {
  const clock = new FakeClock()
  const logger = new MemoryLogger()
  const result = await runOperation(config(overrides), '1001', {
    clock,
    logger,
    redactor: redactor(),
    random: () => 0.5,
    ...(signal ? { signal } : {}),
  })
  return { result, logger, clock }
}
