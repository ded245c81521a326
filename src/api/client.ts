import { durationText } from '../duration.js'
import { LOCALIZATION_HEADER } from '../contract.js'
import { Backoff, REQUEST_RETRY } from '../backoff.js'
import { CancelledError, throwIfAborted } from '../clock.js'
import type { Redactor } from '../secrets/redactor.js'
import type { Clock, Language, Logger } from '../types.js'
import { ApiError, notStartedAfter401, processingOf, type TokenVerdict } from './errors.js'
import type { RateWindow } from './rate-window.js'
import { mayResend, pauseAfterMs, refusedUntil, type RequestKind } from './retry.js'
import { answerOf, type ApiResponse } from './reply.js'
import { TransportError, type Transport, type TransportResponse } from './transport.js'

export const USER_AGENT = 'site-staging-action/1.0'

export interface ClientSettings {
  /** API root ending in /v2. */
  apiUrl: string
  token: string
  language: Language
  maxRetries: number
  /** Absolute time (clock ms) after which no request is started and no wait begins. */
  deadline: number
  /** Longest one request may take, answer included. */
  requestTimeoutMs: number
}

export interface ClientDeps {
  clock: Clock
  logger: Logger
  redactor: Redactor
  /** The run's rate window: when a call may go, and what the answers said of the limit. */
  ledger: RateWindow
  /** Shared by every request of the run: one set of kept-alive connections. */
  transport: Transport
  signal?: AbortSignal
  random?: () => number
  /** Shared by every site of a run: whether the API refused the token (contract §15 r4). */
  token?: TokenVerdict
}

/** Raised when the run's `timeout` leaves no time for the next request or wait. */
export class DeadlineError extends Error {
  callsBackAt: number | null = null // when the rate window lets a request go (wall clock), past the deadline
  constructor(readonly lastError: ApiError | null = null) {
    super('timeout reached')
    this.name = 'DeadlineError'
  }
}

/**
 * The v2 client: base URL, headers, per-request time limits, and the project's one retry layer
 * (`@actions/http-client`'s retries and redirects are off); what an answer means is `answerOf` (reply.ts).
 */
export class StagingApiClient {
  requests = 0
  /** Every request that changes something, as sent, with what came of it. */
  readonly sent: string[] = []
  /** The answer a request is waiting out before its next try (a 429, 503, 502): a cancel meanwhile says it. */
  waitingAfter: ApiError | null = null
  /** The sleeps between tries of a request: its counter is this client's retries. */
  private readonly backoff: Backoff

  constructor(
    private readonly settings: ClientSettings,
    private readonly deps: ClientDeps,
  ) {
    const { clock, signal, random } = deps
    this.backoff = new Backoff(REQUEST_RETRY, { clock, deadlineMs: settings.deadline, signal, random })
  }

  /** Requests sent again by this layer (each after a backoff or a Retry-After). */
  get retries(): number {
    return this.backoff.retries
  }

  get deadline(): number {
    return this.settings.deadline
  }

  /** A client for a request that must go even after the deadline or a cancel (issue 27 §6), deaf to the cancel, for
   * `limitMs`; once stopped, within the open window of the one before (a cancelled run exits 5 s after the signal). */
  private cleanupUntil = -Infinity
  cleanup(limitMs: number): StagingApiClient {
    const { signal: cancel, ...deps } = this.deps
    const now = deps.clock.now()
    const stopped = cancel?.aborted || now >= this.settings.deadline
    if (!stopped || this.cleanupUntil <= now) this.cleanupUntil = now + Math.max(1, limitMs)
    return new StagingApiClient(
      {
        ...this.settings,
        maxRetries: Math.min(this.settings.maxRetries, 1),
        deadline: this.cleanupUntil,
        requestTimeoutMs: Math.min(this.settings.requestTimeoutMs, this.cleanupUntil - now),
      },
      deps,
    )
  }

  /** Counts a cleanup client's requests and what it sent as this client's own. */
  absorb(other: StagingApiClient): void {
    this.requests += other.requests
    this.sent.push(...other.sent)
  }

  url(path: string): string {
    return `${this.settings.apiUrl}${path}`
  }

  /** The path as the server sees it (`/v2/sites/...`), for messages. */
  shown(path: string): string {
    return new URL(this.url(path)).pathname
  }

  /**
   * Sends `method path`, retrying what `mayResend` allows for `kind` (after Retry-After, else a jittered
   * backoff) within `maxRetries` and the deadline. Resolves with an accepted answer; throws ApiError
   * otherwise, or DeadlineError / CancelledError.
   */
  async call(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    kind: RequestKind,
    options: { maxRetries?: number; body?: unknown } = {},
  ): Promise<ApiResponse> {
    const { clock, logger, signal } = this.deps
    const maxRetries = options.maxRetries ?? this.settings.maxRetries
    let afterUnknown = false
    for (let attempt = 0; ; attempt++) {
      throwIfAborted(signal)
      if (clock.now() >= this.settings.deadline) throw new DeadlineError()
      this.refuseAfter401()
      await this.callSlot(method, path)
      this.refuseAfter401()
      let error: ApiError
      try {
        return await this.send(method, path, kind, options.body)
      } catch (e) {
        if (!(e instanceof ApiError)) throw e
        error = e
      }
      if (afterUnknown) error.afterUnknown = true
      // Busy refusals belong to the if-busy policy, not to this layer.
      if (error.kind === 'busy') throw error
      const retryable = error.processing !== 'processed' && mayResend(kind, error.processing)
      if (!retryable || attempt >= maxRetries) throw error
      // The 429/503 retry is decided here: the server's Retry-After, else the request schedule.
      const delayMs =
        error.retryAfterMs === null
          ? this.backoff.delayMs(attempt)
          : pauseAfterMs(error.retryAfterMs, attempt, this.deps.random)
      if (this.backoff.passesDeadline(delayMs)) {
        // The server's own word that it refuses until after the timeout: say when, at once.
        if (error.retryAfterMs !== null && error.retryAfterMs === delayMs)
          throw refusedUntil(error, delayMs, this.settings.deadline - clock.now(), clock.wallNow())
        throw new DeadlineError(error)
      }
      this.waitingAfter = error
      logger.info(
        `${error.httpStatus ? `${method} ${this.shown(path)}: HTTP ${error.httpStatus}.` : error.message} Sending it again in ${durationText(delayMs, 'log')} (retry ${attempt + 1} of ${maxRetries}).`,
      )
      if (!(await this.backoff.sleep(delayMs))) throw new DeadlineError(error)
      if (error.processing === 'unknown') afterUnknown = true
    }
  }

  /** A site that has sent nothing starts nothing once the run's token was refused (TokenVerdict). */
  private refuseAfter401(): void {
    const refusedAt = this.deps.token?.refusedAt
    if (refusedAt && this.requests === 0) throw notStartedAfter401(refusedAt)
  }

  /** Waits until the run's rate window lets a call go (and counts it); an answer that gives calls back wakes it. */
  private async callSlot(method: string, path: string): Promise<void> {
    const { clock, logger, signal, ledger } = this.deps
    const { deadline } = this.settings
    const read = method === 'GET'
    let wait = ledger.reserve(deadline, read)
    if (wait <= 0) return
    ledger.waiting(1)
    try {
      for (; wait > 0; wait = ledger.reserve(deadline, read)) {
        if (clock.now() + wait >= deadline)
          throw Object.assign(new DeadlineError(), { callsBackAt: clock.wallNow() + wait })
        if (wait >= 1000)
          logger.debug(
            `rate limit: waiting up to ${durationText(wait, 'log')} before ${method} ${this.shown(path)}`,
          )
        const changed = ledger.changed
        try {
          // A ledger that the run's cancellation wakes needs no signal composed per wait.
          const both =
            signal && ledger.options.signal !== signal ? AbortSignal.any([signal, changed]) : changed
          await clock.sleep(wait, both)
        } catch (e) {
          if (!(e instanceof CancelledError) || signal?.aborted) throw e
        }
      }
    } finally {
      ledger.waiting(-1)
    }
  }

  /** One HTTP exchange, bounded by the request time limit and cancellation. */
  private async send(method: string, path: string, kind: RequestKind, body?: unknown): Promise<ApiResponse> {
    const { clock, signal, redactor, transport } = this.deps
    const remaining = this.settings.deadline - clock.now()
    const limitMs = Math.max(1, Math.min(this.settings.requestTimeoutMs, remaining))
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.settings.token}`,
      Accept: 'application/json',
      'Accept-Encoding': 'identity',
      [LOCALIZATION_HEADER]: this.settings.language,
    }
    const json = body === undefined ? undefined : JSON.stringify(body)
    if (method !== 'GET' && (method === 'POST' || json !== undefined)) {
      headers['Content-Type'] = 'application/json'
      headers['Content-Length'] = String(json === undefined ? 0 : Buffer.byteLength(json))
    }
    const shown = this.shown(path)
    this.requests++
    this.waitingAfter = null
    this.deps.logger.debug(`${method} ${shown}`)
    let raw: TransportResponse
    try {
      raw = await transport.request({
        method,
        url: this.url(path),
        headers,
        timeoutMs: limitMs,
        ...(signal ? { signal } : {}),
        fresh: kind === 'push' || kind === 'delete' || kind === 'restore',
        ...(json === undefined ? {} : { body: json }),
      })
    } catch (e) {
      // No answer: the ledger stops counting this call as in flight.
      this.deps.ledger.unanswered()
      if (e instanceof CancelledError) {
        if (method !== 'GET') this.sent.push(`${method} ${shown} -> cancelled before an answer`)
        throw e
      }
      if (!(e instanceof TransportError)) throw e
      const processing = processingOf({ phase: e.phase })
      const [outcome, what] =
        processing === 'not-processed'
          ? [`not delivered (${e.code})`, 'could not reach the server, so nothing was sent']
          : [`no answer (${e.code})`, 'reached the server but got no answer']
      if (method !== 'GET') this.sent.push(`${method} ${shown} -> ${outcome}`)
      throw new ApiError({
        kind: e.code === 'ETIMEDOUT' ? 'timeout' : 'network',
        message: `${method} ${shown} ${what}: ${redactor.server(e.message, 300)} (${redactor.server(e.code, 40)}).`,
        processing,
      })
    }
    if (method !== 'GET') this.sent.push(`${method} ${shown} -> ${raw.status}`)
    this.deps.ledger.observe(raw.status, raw.headers)
    return answerOf({ method, shown, url: this.url(path), kind }, raw, this.deps)
  }
}
