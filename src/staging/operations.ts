import { BUSY_STATUSES, stagingSiteIdOf, stagingUrlOf, taskIdOf } from '../contract.js'
import { CancelledError, realClock, seconds } from '../clock.js'
import { ApiError, hintFor } from '../api/errors.js'
import { DeadlineError, StagingApiClient, USER_AGENT, type ApiResponse } from '../api/client.js'
import { RateBudget } from '../api/rate-budget.js'
import type { RequestKind } from '../api/retry.js'
import { NodeTransport, type Transport } from '../api/transport.js'
import type { Redactor } from '../secrets.js'
import { newResult, type Clock, type Config, type Logger, type Operation, type Result } from '../types.js'
import { elapsed, probePath, waitForProbe, waitForTask, type WaitOutcome } from './wait.js'

/** The four staging endpoints (spec §4). `{site}` is always the PRODUCTION site's id. */
export const ENDPOINTS: Record<Operation, { method: 'POST' | 'DELETE'; path: (site: string) => string }> = {
  create: { method: 'POST', path: (site) => `/sites/${encodeURIComponent(site)}/staging` },
  pull: { method: 'POST', path: (site) => `/sites/${encodeURIComponent(site)}/staging/reset` },
  push: { method: 'POST', path: (site) => `/sites/${encodeURIComponent(site)}/staging/push` },
  delete: { method: 'DELETE', path: (site) => `/sites/${encodeURIComponent(site)}/staging` },
}

/** What a person must know after a push (spec §4, push rules 1, 2 and 4). */
export const PUSH_WARNINGS = [
  'No backup of production was taken before the push, and the API cannot restore the previous live site.',
  'Password protection on production is now off and is not re-applied: turn it back on if the site needs it.',
  "The production site's CDN cache was purged: expect slower first requests while it refills.",
]

export interface RunDeps {
  logger: Logger
  redactor: Redactor
  clock?: Clock
  signal?: AbortSignal
  /** Shared by every site of a run. */
  budget?: RateBudget
  /** Shared by every site of a run: the kept-alive connections to the API. Default: a new one, closed at the end. */
  transport?: Transport
  /** Absolute deadline (clock ms) shared by every site of a run; default: now + timeout. */
  deadline?: number
  /** Per-request time limit; default from the timeout (see requestTimeoutFor). */
  requestTimeoutMs?: number
  random?: () => number
}

/** One request may take a quarter of the run's timeout, between 5 and 30 seconds. */
export function requestTimeoutFor(timeoutMs: number): number {
  return Math.min(30_000, Math.max(5000, Math.floor(timeoutMs / 4)))
}

/** Stops the operation with a final outcome that is not an error (skip, accepted). */
class Finish {
  constructor(readonly outcome: 'skipped' | 'accepted') {}
}

/**
 * Runs one operation on one production site with the policies of `config` and returns its Result.
 * Never throws: every path ends in a Result.
 */
export async function runOperation(config: Config, siteId: string, deps: RunDeps): Promise<Result> {
  const clock = deps.clock ?? realClock
  const started = clock.now()
  const deadline = deps.deadline ?? started + config.timeoutMs
  const ownTransport = deps.transport ? null : new NodeTransport(USER_AGENT)
  const client = new StagingApiClient(
    {
      apiUrl: config.apiUrl,
      token: config.apiToken,
      language: config.language,
      maxRetries: config.maxRetries,
      deadline,
      requestTimeoutMs: deps.requestTimeoutMs ?? requestTimeoutFor(config.timeoutMs),
    },
    {
      clock,
      logger: deps.logger,
      redactor: deps.redactor,
      budget: deps.budget ?? new RateBudget(clock),
      transport: deps.transport ?? ownTransport!,
      ...(deps.signal ? { signal: deps.signal } : {}),
      ...(deps.random ? { random: deps.random } : {}),
    },
  )
  const result: Result = { ...newResult(config.operation, siteId, started), sent: client.sent }
  const run = new OperationRun(config, siteId, deps, clock, client, result)
  let phase = 'sending the request'
  run.onPhase = (p) => (phase = p)
  try {
    if (config.dryRun) await run.dryRun()
    else await run.execute()
  } catch (e) {
    if (e instanceof Finish) result.result = e.outcome
    else if (e instanceof DeadlineError) {
      result.result = 'timed-out'
      const last = e.lastError ? ` The last answer was: ${e.lastError.message}` : ''
      result.message =
        `The timeout (${elapsed(config.timeoutMs)}) was reached while ${phase}.` +
        (client.sent.some((s) => /-> 2\d\d$/.test(s))
          ? ' The job may still be running on the server: check the staging page before running again.'
          : '') +
        last
      result.error = {
        kind: 'timeout',
        hint: 'Raise timeout, or set wait: false and check on the job later.',
      }
    } else if (e instanceof CancelledError) {
      result.result = 'cancelled'
      result.message =
        client.sent.length > 0
          ? `Cancelled while ${phase}. Sent: ${client.sent.join('; ')}. A job the server accepted keeps running there.`
          : `Cancelled while ${phase}; nothing had been sent.`
    } else if (e instanceof ApiError) {
      result.result = 'failed'
      result.message = e.message
      result.error = { kind: e.kind, hint: e.hint }
    } else {
      result.result = 'failed'
      result.message = deps.redactor.scrub(`Unexpected error: ${(e as Error)?.message ?? String(e)}`)
      result.error = { kind: 'internal', hint: 'This is a bug in site-staging-action: please report it.' }
    }
  } finally {
    ownTransport?.close()
    result.requests = client.requests
    result.retries = client.retries
    result.durationSeconds = Math.round((clock.now() - started) / 100) / 10
    result.message = deps.redactor.scrub(result.message)
    if (result.stagingUrl) result.stagingUrl = deps.redactor.scrub(result.stagingUrl)
  }
  return result
}

class OperationRun {
  onPhase: (phase: string) => void = () => {}

  constructor(
    private readonly config: Config,
    private readonly siteId: string,
    private readonly deps: RunDeps,
    private readonly clock: Clock,
    private readonly client: StagingApiClient,
    private readonly result: Result,
  ) {}

  private get log(): Logger {
    return this.deps.logger
  }

  async dryRun(): Promise<void> {
    const op = this.config.operation
    const { method, path } = ENDPOINTS[op]
    const lines = [`${method} ${this.client.url(path(this.siteId))}`]
    if (op === 'create' && this.config.ifExists === 'recreate')
      lines.unshift(
        `${ENDPOINTS.delete.method} ${this.client.url(ENDPOINTS.delete.path(this.siteId))} (only if staging exists)`,
      )
    if (this.config.wait)
      lines.push(`GET ${this.client.url('/tasks/{task_id}/status')} (repeated until the job ends)`)
    this.log.info(`Dry run: would send, on site ${this.siteId}:\n  ${lines.join('\n  ')}`)
    this.onPhase('reading the staging environment (dry run)')
    try {
      const probe = await this.client.call('GET', probePath(this.siteId), 'read')
      this.takeStagingFields(probe.envelope.data)
      this.log.info(
        `Dry run: site ${this.siteId} has a staging environment${this.result.stagingUrl ? ` at ${this.result.stagingUrl}` : ''}.`,
      )
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
      if (e.kind === 'auth') throw e
      this.log.info(`Dry run: reading the staging environment answered: ${e.message}`)
    }
    if (op === 'push') this.result.warnings.push(...PUSH_WARNINGS.map((w) => `If run: ${w}`))
    this.result.result = 'dry-run'
    this.result.message = `Dry run: nothing was changed. Would send ${lines[0]}.`
  }

  async execute(): Promise<void> {
    const op = this.config.operation
    let response: ApiResponse | null
    try {
      response = await this.send(op)
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
      response = await this.applyPolicy(op, e)
    }
    if (response) await this.accepted(op, response)
  }

  /**
   * The if-exists / if-missing policies, and a create whose first try went through after all.
   * Returns the response to follow, or null when the operation has been carried to its end here.
   */
  private async applyPolicy(op: Operation, e: ApiError): Promise<ApiResponse | null> {
    if (op === 'create' && (e.kind === 'exists' || e.kind === 'busy') && e.afterUnknown) {
      this.log.info(
        `The create was answered ${e.httpStatus} after a try whose outcome was unknown: that first try went through. Following it.`,
      )
      this.result.message = e.message
      if (!this.config.wait) throw new Finish('accepted')
      await this.track('create', null)
      return null
    }
    if (op === 'create' && e.kind === 'exists') {
      if (this.config.ifExists === 'skip') {
        this.log.info(`Site ${this.siteId} already has a staging environment: skipped (if-exists: skip).`)
        this.result.message = e.message
        await this.readStaging()
        throw new Finish('skipped')
      }
      if (this.config.ifExists === 'recreate') {
        this.log.info(
          `Site ${this.siteId} already has a staging environment: deleting it first (if-exists: recreate).`,
        )
        let deleted: ApiResponse
        try {
          deleted = await this.send('delete')
        } catch (d) {
          // Gone in the meantime (404): nothing left to delete.
          if (!(d instanceof ApiError) || d.kind !== 'not-found') throw d
          return this.send('create')
        }
        try {
          await this.follow('delete', deleted, true)
        } catch (f) {
          if (!(f instanceof Finish)) throw f
          throw new ApiError({
            kind: 'unknown-outcome',
            processing: 'processed',
            httpStatus: deleted.status,
            message: `The old staging environment's deletion was accepted, but its end could not be confirmed, so no new one was created (if-exists: recreate). Run again once it is gone.`,
          })
        }
        this.log.info('The old staging environment is gone; creating the new one.')
        return this.send('create')
      }
    }
    if (op !== 'create' && e.kind === 'not-found' && this.config.ifMissing === 'skip') {
      this.log.info(`Site ${this.siteId} has no staging environment: skipped (if-missing: skip).`)
      this.result.message = e.message
      throw new Finish('skipped')
    }
    throw e
  }

  /** After a 2xx: follow the job unless told not to. */
  private async accepted(op: Operation, response: ApiResponse): Promise<void> {
    this.result.message = response.envelope.message
    await this.follow(op, response, this.config.wait)
  }

  private async follow(op: Operation, response: ApiResponse, wait: boolean): Promise<void> {
    const data = response.envelope.data
    const taskId = taskIdOf(data)
    if (taskId) this.result.taskId = taskId
    if (op === 'create') this.takeStagingFields(data)
    if (!wait) {
      this.log.info(`The ${op} was accepted (HTTP ${response.status}); not waiting for it (wait: false).`)
      this.result.result = 'accepted'
      return
    }
    await this.track(op, taskId)
  }

  /** Waits for the job and sets the result from how it ended. */
  private async track(op: Operation, taskId: string | null): Promise<void> {
    const started = this.clock.now()
    this.onPhase(`waiting for the ${op} job${taskId ? ` (task ${taskId})` : ''} to finish`)
    const waitDeps = {
      client: this.client,
      clock: this.clock,
      logger: this.log,
      ...(this.deps.signal ? { signal: this.deps.signal } : {}),
    }
    const outcome: WaitOutcome = taskId
      ? await waitForTask(waitDeps, op, this.siteId, taskId, started)
      : await waitForProbe(waitDeps, op, this.siteId, started)
    if (outcome.kind === 'failed') {
      throw new ApiError({
        kind: 'task-failed',
        processing: 'processed',
        httpStatus: this.result.httpStatus,
        message: `The ${op} job failed on the server: ${outcome.reason}`,
      })
    }
    if (outcome.kind === 'untrackable') {
      const warning = `The ${op} was accepted, but its completion cannot be tracked: ${outcome.reason}. Check the staging page before relying on it.`
      this.log.warn(warning)
      this.result.warnings.push(warning)
      throw new Finish('accepted')
    }
    if (op === 'create' || op === 'pull') {
      // A pull keeps the staging site's URL: report it, for environment.url and PR comments.
      if (op === 'create') this.takeStagingFields(outcome.data)
      if (!this.result.stagingUrl) await this.readStaging()
    }
    if (op === 'delete') {
      this.result.stagingSiteId = null
      this.result.stagingUrl = null
    }
    this.result.result = 'succeeded'
  }

  /**
   * Sends the operation's request. Busy refusals (409/423, "not processed") are sent again with
   * backoff under if-busy: wait; an attempt of unknown outcome becomes an unknown-outcome failure.
   */
  private async send(op: Operation): Promise<ApiResponse> {
    const { method, path } = ENDPOINTS[op]
    this.onPhase(`sending the ${op} request`)
    for (let busyTries = 0; ; busyTries++) {
      try {
        const response = await this.client.call(method, path(this.siteId), op as RequestKind)
        this.result.httpStatus = response.status
        if (op === 'push') this.addPushWarnings()
        return response
      } catch (e) {
        if (!(e instanceof ApiError)) {
          if (e instanceof DeadlineError && e.lastError) this.result.httpStatus = e.lastError.httpStatus
          throw e
        }
        this.result.httpStatus = e.httpStatus
        const busy = e.httpStatus !== null && BUSY_STATUSES.includes(e.httpStatus)
        if (busy && this.config.ifBusy === 'wait' && !(op === 'create' && e.afterUnknown)) {
          await this.waitWhileBusy(op, busyTries)
          continue
        }
        if (e.processing === 'unknown') throw this.unknownOutcome(op, e)
        throw e
      }
    }
  }

  private async waitWhileBusy(op: Operation, busyTries: number): Promise<void> {
    // 2 s, 3 s, 4.5 s ... up to 15 s, each within ±20%: the other job usually ends within minutes.
    const jitter = 0.8 + 0.4 * (this.deps.random ?? Math.random)()
    const delay = Math.round(Math.min(15_000, 2000 * 1.5 ** busyTries) * jitter)
    if (this.clock.now() + delay >= this.client.deadline) throw new DeadlineError()
    this.onPhase(`waiting for another job on site ${this.siteId} to finish`)
    this.log.info(
      `Site ${this.siteId} is busy with another job (a creation, pull or push): sending the ${op} again in ${seconds(delay)} (if-busy: wait).`,
    )
    await this.clock.sleep(delay, this.deps.signal)
    this.client.retries++
  }

  private unknownOutcome(op: Operation, e: ApiError): ApiError {
    if (op === 'push') this.addPushWarnings()
    const what = {
      create: 'A staging environment may or may not be being created.',
      pull: 'Staging may or may not be being overwritten with production.',
      push: 'Production may or may not be being overwritten with staging.',
      delete: 'The staging environment may or may not be being deleted.',
    }[op]
    const again =
      op === 'push' || op === 'delete' ? 'It was not sent again, by design.' : 'Retries were used up.'
    return new ApiError({
      kind: 'unknown-outcome',
      processing: 'unknown',
      httpStatus: e.httpStatus,
      message: `The outcome of the ${op} request is unknown (${e.message}). ${what} ${again}`,
      hint: hintFor('unknown-outcome').replace('{site}', this.siteId),
    })
  }

  private addPushWarnings(): void {
    for (const w of PUSH_WARNINGS) if (!this.result.warnings.includes(w)) this.result.warnings.push(w)
  }

  /** Best effort: fill the staging id and URL from the probe; a failure here changes nothing. */
  private async readStaging(): Promise<void> {
    try {
      const probe = await this.client.call('GET', probePath(this.siteId), 'read')
      this.takeStagingFields(probe.envelope.data)
    } catch (e) {
      if (e instanceof CancelledError || e instanceof DeadlineError) throw e
      this.log.debug(`could not read the staging environment: ${(e as Error).message}`)
    }
  }

  private takeStagingFields(data: unknown): void {
    const id = stagingSiteIdOf(data)
    const url = stagingUrlOf(data)
    // `id` alone in a task's data is the task's, not the site's: only trust it from site-shaped data.
    if (id && id !== this.result.taskId) this.result.stagingSiteId = id
    if (url) this.result.stagingUrl = stripUserinfo(url)
  }
}

function stripUserinfo(url: string): string {
  try {
    const u = new URL(url)
    if (!u.username && !u.password) return url
    u.username = ''
    u.password = ''
    return u.toString()
  } catch {
    return url
  }
}
