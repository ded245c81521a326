import type { StagingApiClient } from '../api/client.js'
import type { ApiRoot } from '../api/root.js'
import type { Facts } from './facts.js'
import type { StagingReadRoute } from './read-route.js'
import type { SiteList } from './site-list.js'
import type { Backoff } from '../backoff.js'
import type { Redactor } from '../secrets/redactor.js'
import type { Clock, Config, JobOperation, Logger } from '../types.js'
import type { PollScheduler } from './wait/batch.js'
import type { WaitDeps } from './wait/follow.js'
import type { Door } from '../words.js'
import type { SiteGet } from './url-check.js'

/** What is known of one job the run started, for the cancel and timeout reports (issue 17 §5). */
export interface JobState {
  op: JobOperation
  /**
   * sent: the request went, no answer yet; accepted: the server took it; completed: it ended well;
   * not-taken: answered "not processed" (429, 503) and waiting to be sent again when the run stopped.
   */
  state: 'sent' | 'accepted' | 'completed' | 'not-taken'
  /** not-taken: the status that said so. */
  status?: number | null
}

/**
 * What one run has learned so far of its requests and jobs (what it learnt of the staging site is
 * `RunContext.facts`, facts.ts). It outlives a timeout or a cancellation (they end a run from the
 * middle of a wait), so the Result still says what was known; every other ending is a value
 * (ending.ts).
 */
export interface Known {
  httpStatus: number | null
  message: string
  taskId: string | null
  urlReady: boolean | null
  warnings: string[]
  jobs: JobState[]
  /** The site version taken before a push, or restored by a rollback (issue 27). */
  checkpointId?: string | null
}

export function newKnown(): Known {
  return { httpStatus: null, message: '', taskId: null, urlReady: null, warnings: [], jobs: [] }
}

/** Everything one operation on one site works with. */
export interface RunContext {
  config: Config
  /** The PRODUCTION site's id. */
  siteId: string
  client: StagingApiClient
  /** Evidence that api-url is the API root, asked once per run (contract §4 r3). */
  root: ApiRoot
  /** The site list (GET /v2/sites), read once per run when a staging id or URL is missing (issue 20 §1). */
  siteList?: SiteList
  /** Whether the service offers the staging read, learned once per run (probe.ts). */
  readRoute?: StagingReadRoute
  /** When status calls may go: shared by every job of a run (wait/batch.ts). */
  polls: PollScheduler
  /** if-busy: wait's pauses before sending a job's request again; its count is part of `retries`. */
  busy: Backoff
  clock: Clock
  /** Writes every line in the words of the run's front door (src/words.ts). */
  logger: Logger
  redactor: Redactor
  /** The front door whose words the Result speaks. */
  door: Door
  signal?: AbortSignal
  random?: () => number
  /** One GET of a site's own URL, for wait-for-url, production-url and the URL hints (default: a real one). */
  siteGet?: SiteGet
  /** Clock ms (monotonic) when the run started: durations. */
  started: number
  /** Wall-clock epoch ms when the run started: the Result's `startedAt`, a date for people. */
  startedWall: number
  known: Known
  /** What the run learnt of the staging site: id, URL, state, where each came from (facts.ts). */
  facts: Facts
  /** What the run is doing, for timeout and cancellation messages. */
  phase: string
}

/** A warning for the log and the Result, once. */
export function warn(ctx: RunContext, text: string): void {
  ctx.logger.warn(text)
  if (!ctx.known.warnings.includes(text)) ctx.known.warnings.push(text)
}

/**
 * Records what is known of a job: `sent` starts a new entry (unless one of `op` still waits for its
 * answer), `accepted` and `completed` move the latest one on, null forgets a request the server
 * refused or that never left (no job came of it).
 */
export function jobIs(
  ctx: RunContext,
  op: JobOperation,
  state: JobState['state'] | null,
  status?: number | null,
): void {
  const jobs = ctx.known.jobs
  const index = jobs.findLastIndex((j) => j.op === op)
  const job = jobs[index]
  if (state === null) {
    if (job?.state === 'sent') jobs.splice(index, 1)
  } else if (state === 'sent') {
    // Sent again after a refusal that was not taken: the same request, sent once more.
    if (job?.state === 'not-taken') jobs[index] = { op, state }
    else if (job?.state !== 'sent') jobs.push({ op, state })
  } else if (job) Object.assign(job, { state, ...(status !== undefined ? { status } : {}) })
  else jobs.push({ op, state, ...(status !== undefined ? { status } : {}) })
}

/** The deps of the wait functions (wait/follow.ts), from the run's context. */
export function waitDeps(ctx: RunContext): WaitDeps {
  return {
    client: ctx.client,
    polls: ctx.polls,
    clock: ctx.clock,
    logger: ctx.logger,
    redactor: ctx.redactor,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  }
}
