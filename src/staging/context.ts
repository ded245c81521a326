import type { StagingApiClient } from '../api/client.js'
import type { ApiRoot } from '../api/root.js'
import type { Facts } from './facts.js'
import type { StagingReadRoute } from './read-route.js'
import type { SiteList } from './site-list.js'
import type { Backoff } from '../backoff.js'
import type { Redactor } from '../secrets/redactor.js'
import type { Config } from '../inputs/index.js'
import type { Clock, Logger } from '../types.js'
import type { RunRecord } from './record.js'
import type { PollScheduler } from './wait/batch.js'
import type { Door } from '../words.js'
import type { SiteGet } from './url-check.js'

/** Everything one operation on one site works with; the wait functions (wait/follow.ts) take it whole. */
export interface RunContext {
  config: Config
  /** The PRODUCTION site's id. */
  siteId: string
  client: StagingApiClient
  /** Evidence that api-url is the API root, asked once per run (contract §4 r3). */
  root: ApiRoot
  /** The site list (GET /v2/sites), read once per run when a staging id or URL is missing (issue 20 §1). */
  siteList: SiteList
  /** Whether the service offers the staging read, learned once per run (probe.ts). */
  readRoute: StagingReadRoute
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
  /** One GET of a site's own URL, for wait-for-url, production-url and the URL hints (default: a real one). */
  siteGet?: SiteGet
  /** Clock ms (monotonic) when the run started: durations. */
  started: number
  /** Wall-clock epoch ms when the run started: the Result's `startedAt`, a date for people. */
  startedWall: number
  /** What the run sent, what answered, what production is now: written by record.ts alone. */
  record: RunRecord
  /** What the run learnt of the staging site: id, URL, state, where each came from (facts.ts). */
  facts: Facts
}
