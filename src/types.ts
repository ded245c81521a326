/** Plain types shared by the core, the action and the CLI. Nothing here knows GitHub. */

export const OPERATIONS = ['create', 'pull', 'push', 'delete'] as const
export type Operation = (typeof OPERATIONS)[number]

/** The `result` output. `dry-run` only with the dry-run input. */
export const OUTCOMES = [
  'succeeded',
  'failed',
  'skipped',
  'timed-out',
  'accepted',
  'cancelled',
  'dry-run',
] as const
export type Outcome = (typeof OUTCOMES)[number]

export type Language = 'en' | 'es'
export type IfExists = 'fail' | 'skip' | 'recreate'
export type IfMissing = 'fail' | 'skip'
export type IfBusy = 'wait' | 'fail'

/** Typed settings, made from raw inputs by `parseConfig` (src/inputs.ts). */
export interface Config {
  operation: Operation
  siteIds: string[]
  apiToken: string
  /** Normalised API root ending in `/v2`, no trailing slash. */
  apiUrl: string
  wait: boolean
  timeoutMs: number
  language: Language
  maxRetries: number
  ifExists: IfExists
  ifMissing: IfMissing
  ifBusy: IfBusy
  dryRun: boolean
  concurrency: number
  failFast: boolean
}

/** One run of one operation on one production site: every report is a rendering of this. */
export interface Result {
  operation: Operation
  siteId: string
  result: Outcome
  /** Status of the last response to the operation's own request (not of status polls); null if none came. */
  httpStatus: number | null
  /** The server's message (in the chosen language), or ours when the server said nothing. Scrubbed. */
  message: string
  taskId: string | null
  stagingSiteId: string | null
  stagingUrl: string | null
  durationSeconds: number
  /** API calls made for this site, status polls included. */
  requests: number
  retries: number
  /** Things a person must know even on success (push: no backup, etc.). */
  warnings: string[]
  /** Each request that changes something, as sent: `POST /v2/sites/1/staging/push -> 202`. */
  sent: string[]
  /** For failures: the kind of error and what to do about it. */
  error: { kind: string; hint: string } | null
  startedAt: string
}

/** How the core talks to whoever runs it (the action's log, the CLI's stderr, a test). */
export interface Logger {
  info(message: string): void
  warn(message: string): void
  debug(message: string): void
}

/** Time, injectable so waiting can be tested without real time passing. */
export interface Clock {
  now(): number
  /** Resolves after `ms`, or rejects with CancelledError as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
}

/** A Result before anything has happened: failed until the run says otherwise. */
export function newResult(operation: Operation, siteId: string, startedAt: number): Result {
  return {
    operation,
    siteId,
    result: 'failed',
    httpStatus: null,
    message: '',
    taskId: null,
    stagingSiteId: null,
    stagingUrl: null,
    durationSeconds: 0,
    requests: 0,
    retries: 0,
    warnings: [],
    sent: [],
    error: null,
    startedAt: new Date(startedAt).toISOString(),
  }
}
