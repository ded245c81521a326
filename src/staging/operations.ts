import {
  MISSING_STATUS,
  PROBE_UNSUPPORTED,
  probePath,
  probeState,
  stagingSiteIdOf,
  stagingUrlOf,
  taskIdOf,
} from '../contract.js'
import { Backoff, BUSY_WAIT } from '../backoff.js'
import { CancelledError, realClock, seconds } from '../clock.js'
import { ApiError, hintFor } from '../api/errors.js'
import { DeadlineError, StagingApiClient, USER_AGENT, type ApiResponse } from '../api/client.js'
import { RateBudget } from '../api/rate-budget.js'
import type { RequestKind } from '../api/retry.js'
import { TaskStatusSchema } from '../api/schemas.js'
import { NodeTransport, type Transport } from '../api/transport.js'
import type { Redactor } from '../secrets.js'
import { httpUrl } from '../text.js'
import {
  newResult,
  type Clock,
  type Config,
  type JobOperation,
  type Logger,
  type Operation,
  type Result,
} from '../types.js'
import { waitForUrl } from './url-check.js'
import { elapsed, waitForProbe, waitForTask, type WaitOutcome } from './wait.js'

/** The four staging endpoints (spec §4). `{site}` is always the PRODUCTION site's id. */
export const ENDPOINTS: Record<JobOperation, { method: 'POST' | 'DELETE'; path: (site: string) => string }> =
  {
    create: { method: 'POST', path: (site) => `/sites/${encodeURIComponent(site)}/staging` },
    pull: { method: 'POST', path: (site) => `/sites/${encodeURIComponent(site)}/staging/reset` },
    push: { method: 'POST', path: (site) => `/sites/${encodeURIComponent(site)}/staging/push` },
    delete: { method: 'DELETE', path: (site) => `/sites/${encodeURIComponent(site)}/staging` },
  }

/** What a person must know after a push (spec §4, push rules 1, 2 and 4): true of every site. */
export const PUSH_WARNINGS = [
  'No backup of production was taken before the push, and the API cannot restore the previous live site.',
  'If production was password-protected, that protection is now off and is not re-applied: turn it back on if the site needs it.',
  "The production site's CDN cache was purged: expect slower first requests while it refills.",
]

/** What a finished job did, for the last line and the summary. */
const DONE: Record<JobOperation, string> = {
  create: 'Staging created',
  pull: 'Staging refreshed from production',
  push: 'Staging pushed to production',
  delete: 'Staging deleted',
}

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

/** The step that follows a job the run left behind (timed out, not waited for, not confirmed). */
function checkLaterHint(siteId: string, taskId: string | null): string {
  const action = taskId
    ? `operation: status, site-id: ${siteId}, task-id: ${taskId}`
    : `operation: status, site-id: ${siteId}`
  const cli = taskId
    ? `site-staging status --site-id ${siteId} --task-id ${taskId}`
    : `site-staging status --site-id ${siteId}`
  return `To check on it later, run this action with ${action} (CLI: ${cli}).`
}

/** Stops the operation with a final outcome that is not an error (skip, accepted). */
class Finish {
  constructor(
    readonly outcome: 'skipped' | 'accepted' | 'succeeded',
    readonly summary: string,
  ) {}
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
  const result: Result = { ...newResult(config.operation, siteId, clock.wallNow()), sent: client.sent }
  const run = new OperationRun(config, siteId, deps, clock, client, result)
  try {
    if (config.dryRun) await run.dryRun()
    else if (config.operation === 'status') await run.status()
    else await run.execute(config.operation)
  } catch (e) {
    if (e instanceof Finish) {
      result.result = e.outcome
      result.summary = e.summary
    } else if (e instanceof DeadlineError) {
      result.result = 'timed-out'
      const last = e.lastError ? ` The last answer was: ${e.lastError.message}` : ''
      const mayRun = client.sent.some((s) => /-> (2\d\d|no answer)/.test(s))
      result.summary =
        `The timeout (${elapsed(config.timeoutMs)}) was reached while ${run.phase}.` +
        (mayRun ? ' The job may still be running on the server.' : '') +
        last
      if (e.lastError?.serverMessage) result.message = e.lastError.serverMessage
      result.error = {
        kind: 'timeout',
        hint: mayRun
          ? `Raise timeout, or set wait: false. ${checkLaterHint(siteId, result.taskId)}`
          : 'Raise timeout, or try again later.',
      }
    } else if (e instanceof CancelledError) {
      result.result = 'cancelled'
      result.summary =
        client.sent.length > 0
          ? `Cancelled while ${run.phase}. Sent: ${client.sent.join('; ')}. A job the server accepted keeps running there.`
          : `Cancelled while ${run.phase}; nothing had been sent.`
    } else if (e instanceof ApiError) {
      result.result = 'failed'
      result.summary = e.message
      if (e.serverMessage) result.message = e.serverMessage
      result.error = { kind: e.kind, hint: e.hint }
    } else {
      result.result = 'failed'
      result.summary = `Unexpected error: ${(e as Error)?.message ?? String(e)}`
      result.error = { kind: 'internal', hint: 'This is a bug in site-staging-action: please report it.' }
    }
  } finally {
    ownTransport?.close()
    result.requests = client.requests
    result.retries = client.retries + run.busy.retries
    result.durationSeconds = Math.round((clock.now() - started) / 100) / 10
    if (result.result === 'succeeded' && config.operation !== 'status' && !result.summary)
      result.summary = `${DONE[config.operation]} in ${elapsed(clock.now() - started)}.`
    result.summary = deps.redactor.inert(result.summary)
  }
  return result
}

class OperationRun {
  /** What the run was doing, for timeout and cancellation messages. */
  phase = 'sending the request'

  private readonly started: number
  /** if-busy: wait's pauses before sending the job's request again; it counts them. */
  readonly busy: Backoff

  constructor(
    private readonly config: Config,
    private readonly siteId: string,
    private readonly deps: RunDeps,
    private readonly clock: Clock,
    private readonly client: StagingApiClient,
    private readonly result: Result,
  ) {
    this.started = clock.now()
    this.busy = new Backoff(BUSY_WAIT, {
      clock,
      deadlineMs: client.deadline,
      ...(deps.signal ? { signal: deps.signal } : {}),
      ...(deps.random ? { random: deps.random } : {}),
    })
  }

  private get log(): Logger {
    return this.deps.logger
  }

  async dryRun(): Promise<void> {
    const op = this.config.operation
    const lines: string[] = []
    if (op === 'status') lines.push(`GET ${this.client.url(this.statusPath())}`)
    else {
      const { method, path } = ENDPOINTS[op]
      lines.push(`${method} ${this.client.url(path(this.siteId))}`)
      if (op === 'create' && this.config.ifExists === 'recreate')
        lines.unshift(
          `${ENDPOINTS.delete.method} ${this.client.url(ENDPOINTS.delete.path(this.siteId))} (only if staging exists)`,
        )
      if (this.config.wait)
        lines.push(`GET ${this.client.url('/tasks/{task_id}/status')} (repeated until the job ends)`)
    }
    this.log.info(`Dry run: would send, on site ${this.siteId}: ${lines.join('; ')}`)
    this.phase = 'reading the staging environment (dry run)'
    try {
      const probe = await this.client.call('GET', probePath(this.siteId), 'read')
      this.takeStagingFields(probe.reply.data)
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
    this.result.summary = `Dry run: nothing was changed. Would send ${lines.find((l) => !l.endsWith('exists)'))}.`
  }

  private statusPath(): string {
    return this.config.taskId
      ? `/tasks/${encodeURIComponent(this.config.taskId)}/status`
      : probePath(this.siteId)
  }

  // --- status: read-only ------------------------------------------------------------------------

  /** `status`: reads the staging environment, or follows an earlier job (task-id). Sends only GETs. */
  async status(): Promise<void> {
    const taskId = this.config.taskId
    if (taskId) {
      this.result.taskId = taskId
      if (this.config.wait) {
        this.phase = `waiting for the job (task ${taskId}) to finish`
        const outcome = await waitForTask(this.waitDeps(), 'status', this.siteId, taskId, this.clock.now())
        await this.settle('status', outcome)
        await this.readState()
        this.result.stagingState ??= 'unknown'
        this.result.summary = `The job (task ${taskId}) has completed.`
        return
      }
      this.phase = `reading task ${taskId}`
      await this.readTaskOnce(taskId)
      return
    }
    this.phase = 'reading the staging environment'
    await this.readState({ required: true })
  }

  /** One look at a task (status with task-id and wait: false). */
  private async readTaskOnce(taskId: string): Promise<void> {
    const answer = await this.client.call('GET', this.statusPath(), 'read')
    this.result.httpStatus = answer.status
    const task = TaskStatusSchema.safeParse(answer.reply.data)
    const state = task.success ? task.data.state : 'unknown'
    if (state === 'failed') {
      const reason =
        task.success && task.data.reason ? this.deps.redactor.server(task.data.reason) : 'no reason given'
      throw new ApiError({
        kind: 'task-failed',
        processing: 'processed',
        serverMessage: reason,
        message: `The job (task ${taskId}) failed on the server: ${reason}`,
      })
    }
    this.result.stagingState = state === 'running' ? 'busy' : state === 'completed' ? 'ready' : 'unknown'
    const pct = task.success && task.data.percent !== undefined ? ` (${Math.round(task.data.percent)}%)` : ''
    this.result.result = 'succeeded'
    this.result.summary =
      state === 'completed'
        ? `The job (task ${taskId}) has completed.`
        : state === 'running'
          ? `The job (task ${taskId}) is still running${pct}. ${checkLaterHint(this.siteId, taskId)}`
          : `The job (task ${taskId}) reports a status this action does not know.`
  }

  /**
   * Reads the staging environment once (`staging-state`, id, URL). `required`: the state is the
   * point of the run, so a probe the service does not offer fails it; otherwise a failure here is
   * only logged.
   */
  private async readState(options: { required?: boolean } = {}): Promise<void> {
    try {
      // Best effort: one try, no backoff.
      const probe = await this.client.call(
        'GET',
        probePath(this.siteId),
        'read',
        options.required ? {} : { maxRetries: 0 },
      )
      const state = probeState(probe.reply.data)
      if (options.required) this.result.httpStatus = probe.status
      this.result.stagingState = state
      this.takeStagingFields(probe.reply.data)
      this.result.message ||= probe.reply.message
      if (options.required) {
        this.result.result = 'succeeded'
        this.result.summary =
          state === 'unknown'
            ? `Site ${this.siteId} has a staging environment, in a state this action does not know.`
            : `Site ${this.siteId} has a staging environment; it is ${state === 'busy' ? 'busy with a job' : 'ready'}.`
      }
    } catch (e) {
      if (e instanceof CancelledError || e instanceof DeadlineError || !(e instanceof ApiError)) throw e
      if (options.required) this.result.httpStatus = e.httpStatus
      if (e.httpStatus === MISSING_STATUS && e.kind === 'not-found') {
        this.result.stagingState = 'none'
        this.result.stagingSiteId = null
        this.result.stagingUrl = null
        if (options.required) {
          this.result.result = 'succeeded'
          this.result.message = e.serverMessage
          this.result.summary = `Site ${this.siteId} has no staging environment.`
        }
        return
      }
      if (!options.required) {
        this.log.debug(`could not read the staging environment: ${e.message}`)
        return
      }
      this.result.stagingState = 'unknown'
      if (e.httpStatus !== null && PROBE_UNSUPPORTED.includes(e.httpStatus))
        throw new ApiError({
          kind: 'validation',
          processing: 'processed',
          httpStatus: e.httpStatus,
          serverMessage: e.serverMessage,
          message: `The service does not offer a way to read the staging environment (GET ${this.client.shown(probePath(this.siteId))} answered ${e.httpStatus}).`,
          hint: 'Follow a job instead: pass the task-id output of the run that started it.',
        })
      throw e
    }
  }

  // --- create, pull, push, delete ---------------------------------------------------------------

  async execute(op: JobOperation): Promise<void> {
    let response: ApiResponse | null
    try {
      response = await this.send(op)
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
      response = await this.applyPolicy(op, e)
    }
    if (response) {
      this.result.message = response.reply.message
      await this.follow(op, response, this.config.wait)
    }
    if (this.result.result === 'succeeded') await this.afterSuccess(op)
  }

  /**
   * The if-exists / if-missing policies, and a create whose first try went through after all.
   * Returns the response to follow, or null when the operation has been carried to its end here.
   */
  private async applyPolicy(op: JobOperation, e: ApiError): Promise<ApiResponse | null> {
    if (op === 'create' && (e.kind === 'exists' || e.kind === 'busy') && e.afterUnknown) {
      this.log.info(
        `The create was answered ${e.httpStatus} after a try whose outcome was unknown: that first try went through. Following it.`,
      )
      this.result.message = e.serverMessage
      if (!this.config.wait)
        throw new Finish(
          'accepted',
          `The create was accepted; not waited for. ${checkLaterHint(this.siteId, null)}`,
        )
      await this.track('create', null)
      return null
    }
    if (op === 'create' && e.kind === 'exists') {
      if (this.config.ifExists === 'skip') {
        this.log.info(`Site ${this.siteId} already has a staging environment: skipped (if-exists: skip).`)
        this.result.message = e.serverMessage
        await this.readStaging()
        throw new Finish(
          'skipped',
          `Skipped: site ${this.siteId} already has a staging environment (if-exists: skip).`,
        )
      }
      if (this.config.ifExists === 'recreate') return this.recreate()
    }
    if (op !== 'create' && e.kind === 'not-found' && this.config.ifMissing === 'skip') {
      // A 404 does not tell a missing staging environment from a missing site (a mistyped id): say both.
      this.log.info(`Site ${this.siteId}: no staging environment (HTTP 404): skipped (if-missing: skip).`)
      this.result.message = e.serverMessage
      throw new Finish(
        'skipped',
        `Skipped: site ${this.siteId} has no staging environment, or there is no such site (HTTP 404; if-missing: skip).`,
      )
    }
    throw e
  }

  /** if-exists: recreate: delete the old staging environment, wait until it is gone, create. */
  private async recreate(): Promise<ApiResponse> {
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

  private async follow(op: JobOperation, response: ApiResponse, wait: boolean): Promise<void> {
    const data = response.reply.data
    const task = taskIdOf(data)
    let taskId: string | null = null
    if (task && 'id' in task) taskId = task.id
    else if (task)
      this.log.warn(
        `The server gave a task id that cannot be used in a URL ("${this.deps.redactor.server(task.unusable, 60)}"): following the staging environment instead.`,
      )
    if (taskId) this.result.taskId = taskId
    if (op === 'create') this.takeStagingFields(data)
    if (!wait) {
      this.log.info(`The ${op} was accepted (HTTP ${response.status}); not waiting for it (wait: false).`)
      throw new Finish(
        'accepted',
        `The ${op} was accepted (HTTP ${response.status}); not waited for. ${checkLaterHint(this.siteId, taskId)}`,
      )
    }
    await this.track(op, taskId)
  }

  private waitDeps() {
    return {
      client: this.client,
      clock: this.clock,
      logger: this.log,
      redactor: this.deps.redactor,
      ...(this.deps.signal ? { signal: this.deps.signal } : {}),
    }
  }

  /** Waits for the job and sets the result from how it ended. */
  private async track(op: JobOperation, taskId: string | null): Promise<void> {
    this.phase = `waiting for the ${op} job${taskId ? ` (task ${taskId})` : ''} to finish`
    const outcome = taskId
      ? await waitForTask(this.waitDeps(), op, this.siteId, taskId, this.clock.now())
      : await waitForProbe(this.waitDeps(), op, this.siteId)
    await this.settle(op, outcome)
    if (op === 'delete') {
      this.result.stagingSiteId = null
      this.result.stagingUrl = null
    }
  }

  /** A job's end as a result: succeeded on evidence only; accepted when nothing can tell. */
  private async settle(op: Operation, outcome: WaitOutcome): Promise<void> {
    const what = op === 'status' ? 'job' : `${op} job`
    if (outcome.kind === 'failed')
      throw new ApiError({
        kind: 'task-failed',
        processing: 'processed',
        httpStatus: this.result.httpStatus,
        serverMessage: outcome.reason,
        message: `The ${what} failed on the server: ${outcome.reason}`,
      })
    if (outcome.kind === 'untrackable' || outcome.kind === 'unconfirmed') {
      const warning =
        outcome.kind === 'untrackable'
          ? `The ${what} was accepted, but its completion cannot be tracked: ${outcome.reason}.`
          : `The ${what} was accepted, but its completion could not be confirmed: ${outcome.reason}.`
      this.log.warn(warning)
      this.result.warnings.push(warning)
      throw new Finish('accepted', `${warning} ${checkLaterHint(this.siteId, this.result.taskId)}`)
    }
    if (op === 'create') {
      if (outcome.siteId) this.result.stagingSiteId = outcome.siteId
      else this.takeStagingFields(outcome.data)
    }
    this.result.result = 'succeeded'
  }

  /** After a create, pull or push that succeeded: the staging id and URL, and wait-for-url. */
  private async afterSuccess(op: JobOperation): Promise<void> {
    if (op === 'delete') return
    // Staging still exists after each of these: one GET fills what the answers did not say.
    if (!this.result.stagingUrl || !this.result.stagingSiteId) await this.readStaging()
    if (!this.config.waitForUrl || op === 'push') return
    const url = this.result.stagingUrl
    if (!url) {
      this.warn('wait-for-url: no staging URL is known, so the site was not checked.')
      return
    }
    this.phase = `waiting for ${url} to answer`
    const jobDone = this.clock.now()
    this.result.urlReady = await waitForUrl(url, {
      clock: this.clock,
      logger: this.log,
      deadline: this.client.deadline,
      ...(this.deps.signal ? { signal: this.deps.signal } : {}),
    })
    if (this.result.urlReady === null)
      this.warn(`wait-for-url: ${url} uses plain http on a host that is not loopback, so it was not checked.`)
    if (this.result.urlReady === true)
      this.result.summary = `${DONE[op]} in ${elapsed(jobDone - this.started)}; the staging site answered ${elapsed(this.clock.now() - jobDone)} later.`
    if (this.result.urlReady === false) {
      this.result.result = 'timed-out'
      this.result.summary = `The ${op} job completed, but the staging site did not answer at ${url} before the timeout (${elapsed(this.config.timeoutMs)}): DNS and TLS can take a few minutes after a job ends.`
      this.result.error = {
        kind: 'timeout',
        hint: 'Raise timeout, or run again later with wait-for-url: the staging environment itself is in place.',
      }
    }
  }

  private warn(text: string): void {
    this.log.warn(text)
    this.result.warnings.push(text)
  }

  /**
   * Sends the operation's request. Busy refusals (409/423, or a 422 that says a job runs) are sent
   * again with backoff under if-busy: wait; an attempt of unknown outcome becomes an unknown-outcome
   * failure.
   */
  private async send(op: JobOperation): Promise<ApiResponse> {
    const { method, path } = ENDPOINTS[op]
    this.phase = `sending the ${op} request`
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
        if (e.kind === 'busy' && this.config.ifBusy === 'wait' && !(op === 'create' && e.afterUnknown)) {
          await this.waitWhileBusy(op, busyTries)
          continue
        }
        if (e.processing === 'unknown') throw this.unknownOutcome(op, e)
        throw e
      }
    }
  }

  private async waitWhileBusy(op: JobOperation, busyTries: number): Promise<void> {
    const delayMs = this.busy.delayMs(busyTries)
    if (this.busy.passesDeadline(delayMs)) throw new DeadlineError()
    this.phase = `waiting for another job on site ${this.siteId} to finish`
    this.log.info(
      `Site ${this.siteId} is busy with another job (a creation, pull or push): sending the ${op} again in ${seconds(delayMs)} (if-busy: wait).`,
    )
    if (!(await this.busy.sleep(delayMs))) throw new DeadlineError()
  }

  private unknownOutcome(op: JobOperation, e: ApiError): ApiError {
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
      serverMessage: e.serverMessage,
      message: `The outcome of the ${op} request is unknown (${e.message}) ${what} ${again}`,
      hint: hintFor('unknown-outcome').replace('{site}', this.siteId),
    })
  }

  private addPushWarnings(): void {
    for (const w of PUSH_WARNINGS) if (!this.result.warnings.includes(w)) this.result.warnings.push(w)
  }

  /** Best effort: fill the staging id and URL from the probe; a failure here changes nothing. */
  private async readStaging(): Promise<void> {
    await this.readState()
    this.result.stagingState = null
  }

  /** The staging id and URL from data that describes the staging site, each checked (contract §5). */
  private takeStagingFields(data: unknown): void {
    const id = stagingSiteIdOf(data)
    if (id) this.result.stagingSiteId = id
    const text = stagingUrlOf(data)
    if (!text) return
    // Credentials and any value that holds a secret of this run leave the URL before it is used or shown.
    const clean = this.deps.redactor.stripUrl(text)
    if (clean === null)
      this.log.warn(
        'Ignored a staging URL that carries the API token in its host or path: it is neither used nor shown.',
      )
    else if (httpUrl(clean)) this.result.stagingUrl = clean
    else
      this.log.warn(
        `Ignored a staging URL that is not an http(s) URL: "${this.deps.redactor.server(text, 80)}".`,
      )
  }
}
