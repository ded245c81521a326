/** Plain types shared by the core, the action and the CLI, and how an outcome is judged. Nothing here knows GitHub. */

export const OPERATIONS = ['create', 'pull', 'push', 'delete', 'status', 'rollback'] as const
export type Operation = (typeof OPERATIONS)[number]
/** The operations that start a staging job on the server (`status` only reads; `rollback` restores a version). */
export type JobOperation = Exclude<Operation, 'status' | 'rollback'>
/** What a run follows to its end: an operation's job, or the checkpoint before a push (contract §13). */
export type Followed = Operation | 'checkpoint'

/** The `staging-state` output of `status`. */
export type StagingState = 'none' | 'ready' | 'busy' | 'unknown'

/** The `result` output. `dry-run` only with the dry-run input. */
export type Outcome = 'succeeded' | 'failed' | 'skipped' | 'timed-out' | 'accepted' | 'cancelled' | 'dry-run'

/** Whether an outcome fails the run (exit code 1, `core.setFailed`). */
export function isFailure(outcome: Outcome): boolean {
  return outcome === 'failed' || outcome === 'timed-out' || outcome === 'cancelled'
}

/** The outcome of a whole run: the worst of its sites. */
export function overallOutcome(results: Result[]): Outcome {
  const has = (o: Outcome) => results.some((r) => r.result === o)
  for (const o of ['cancelled', 'failed', 'timed-out', 'accepted'] as const) if (has(o)) return o
  if (results.every((r) => r.result === 'dry-run')) return 'dry-run'
  if (results.every((r) => r.result === 'skipped')) return 'skipped'
  return 'succeeded'
}

export type Language = 'en' | 'es'

/** A staging URL known from outside the service's answers, and where it came from (words for the summary). */
export interface StagingHint {
  url: string
  from: string
}

/** What a Result is of: an operation, or the action's `release` (GitHub's side only). */
export type ResultOperation = Operation | 'release'

/** One run of one operation on one production site: every report is a rendering of this. */
export interface Result {
  operation: ResultOperation
  siteId: string
  result: Outcome
  /** Status of the last response to the operation's own request (not of status polls); null if none came. */
  httpStatus: number | null
  /** The server's own words (in the chosen language), inert and bounded; '' when it said nothing. */
  message: string
  /** Ours: what happened, one or two sentences ("Staging created in 2m 31s."). */
  summary: string
  taskId: string | null
  stagingSiteId: string | null
  stagingUrl: string | null
  /** `status`: the state read; null for the other operations. */
  stagingState: StagingState | null
  /** wait-for-url: whether the staging URL answered; null when it was not checked. */
  urlReady: boolean | null
  durationSeconds: number
  /** How long the run waited for calls other runs on the account used (contract §6 r5); absent while alone. */
  sharedWaitSeconds?: number
  /** API calls made for this site, status polls included. */
  requests: number
  retries: number
  /** Things a person must know even on success (push: no backup, etc.). */
  warnings: string[]
  /** Each request that changes something, as sent: `POST /v2/sites/1/staging/push -> 202`. */
  sent: string[]
  /** For failures: the kind of error and what to do about it. */
  error: { kind: string; hint: string } | null
  /** Where `stagingSiteId` and `stagingUrl` came from (issue 20 §1), and sources that could not tell. */
  stagingFrom: { siteId: string | null; url: string | null; notes: string[] }
  /** The site version taken before a push, or restored by a rollback (contract §13); null if none. */
  checkpointId: string | null
  /** production-url after a push or a restore (contract §16): passed, failed, or null when not checked. */
  productionCheck: 'passed' | 'failed' | null
  startedAt: string
}

/** How the core talks to whoever runs it (the action's log, the CLI's stderr, a test). */
export interface Logger {
  info(message: string): void
  warn(message: string): void
  debug(message: string): void
  /** Optional: a live update at every answer about a running job; a front end with no live line leaves it
   * out, and gets a plain `info` line now and then instead. */
  progress?(update: ProgressUpdate): void
}

export interface ProgressUpdate {
  operation: Followed
  siteId: string
  /** percentage_complete, when the server gives one. */
  percent: number | null
  elapsedMs: number
  /** A rough estimate of the time left, when progress allows one. */
  etaMs: number | null
  /** The job ended (the live line drops it). */
  ended?: boolean
}

/** Time, injectable so waiting can be tested without real time passing. Contract §11 (r3): two clocks, never
 * mixed. The wall clock steps (NTP corrections on runners) and a server's may be off by hours. */
export interface Clock {
  /** Monotonic ms (never steps): every duration, deadline, poll schedule and budget window. */
  now(): number
  /** Wall-clock epoch ms (may step): only dates shown to people (`startedAt`) and HTTP dates (`Retry-After`
   * as a date, `X-RateLimit-Reset` in epoch seconds), each turned into a monotonic duration at once. */
  wallNow(): number
  /** Resolves after `ms`, or rejects with CancelledError as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
}

/** A Result before anything has happened: failed until the run says otherwise. `startedAt`: wall-clock epoch ms. */
export function newResult(operation: ResultOperation, siteId: string, startedAt: number): Result {
  return {
    operation,
    siteId,
    result: 'failed',
    httpStatus: null,
    message: '',
    summary: '',
    taskId: null,
    stagingSiteId: null,
    stagingUrl: null,
    stagingState: null,
    urlReady: null,
    durationSeconds: 0,
    requests: 0,
    retries: 0,
    warnings: [],
    sent: [],
    error: null,
    startedAt: new Date(startedAt).toISOString(),
    stagingFrom: { siteId: null, url: null, notes: [] },
    checkpointId: null,
    productionCheck: null,
  }
}
