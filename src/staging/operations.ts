import { StagingApiClient, USER_AGENT } from '../api/client.js'
import type { TokenVerdict } from '../api/errors.js'
import { RateWindow } from '../api/rate-window.js'
import { ApiRoot } from '../api/root.js'
import { NodeTransport, type Transport } from '../api/transport.js'
import { Backoff, BUSY_WAIT } from '../backoff.js'
import { CancelledError, realClock } from '../clock.js'
import type { Redactor } from '../secrets/redactor.js'
import type { Config } from '../inputs/index.js'
import type { Clock, Logger, Result } from '../types.js'
import type { RunContext } from './context.js'
import { newRecord, warn } from './record.js'
import { Facts } from './facts.js'
import { StagingReadRoute } from './read-route.js'
import { SiteList } from './site-list.js'
import { dryRun } from './dry-run.js'
import { endingOf, writeResult, type Ending } from './ending.js'
import { runJob } from './jobs.js'
import { runPush } from './push.js'
import { rollback } from './rollback.js'
import { PollScheduler } from './wait/batch.js'
import { status } from './status.js'
import { eachLine, inDoorWords, type Door } from '../words.js'
import type { SiteGet } from './url-check.js'

export interface RunDeps {
  logger: Logger
  redactor: Redactor
  clock?: Clock
  signal?: AbortSignal
  /** Shared by every site of a run: what the rate limit leaves (the client's), and when polls go. */
  ledger?: RateWindow
  polls?: PollScheduler
  /** Shared by every site of a run: the kept-alive connections to the API. Default: a new one, closed at the end. */
  transport?: Transport
  /** Shared by every site of a run: the evidence that api-url is the API root (one GET /v2/sites). */
  root?: ApiRoot
  /** Shared by every site of a run: the site list, read once when a staging id or URL is missing. */
  siteList?: SiteList
  /** Shared by every site of a run: whether the service offers the staging read (probe.ts). */
  readRoute?: StagingReadRoute
  /** Shared by every site of a run: whether the token was refused (contract §15 r4). */
  token?: TokenVerdict
  /** Absolute deadline (clock ms) shared by every site of a run; default: now + timeout. */
  deadline?: number
  /** Per-request time limit; default: a quarter of the run's timeout, between 5 and 30 seconds. */
  requestTimeoutMs?: number
  random?: () => number
  /** The front door whose words the run speaks (src/words.ts); default: the action's. */
  door?: Door
  /** One GET of a staging or production site's own URL (url-check.ts); default: a plain GET over the network. */
  siteGet?: SiteGet
}

/** Runs one operation on one production site and returns its Result. Never throws: a run ends here, written once. */
export async function runOperation(config: Config, siteId: string, deps: RunDeps): Promise<Result> {
  const clock = deps.clock ?? realClock
  const started = clock.now()
  const deadline = deps.deadline ?? started + config.timeoutMs
  const ownTransport = deps.transport ? null : new NodeTransport(USER_AGENT)
  const door = deps.door ?? 'action'
  // Every line of the core in the door's words.
  const logger = eachLine(deps.logger, (m) => inDoorWords(m, door))
  const ledger = deps.ledger ?? new RateWindow(clock, deps.signal ? { signal: deps.signal } : {})
  const optional = { signal: deps.signal, random: deps.random }
  const client = new StagingApiClient(
    {
      apiUrl: config.apiUrl,
      token: config.apiToken,
      language: config.language,
      maxRetries: config.maxRetries,
      deadline,
      requestTimeoutMs:
        deps.requestTimeoutMs ?? Math.min(30_000, Math.max(5000, Math.floor(config.timeoutMs / 4))),
    },
    {
      clock,
      logger,
      redactor: deps.redactor,
      ledger,
      transport: deps.transport ?? ownTransport!,
      token: deps.token,
      ...optional,
    },
  )
  const ctx: RunContext = {
    config,
    siteId,
    client,
    root: deps.root ?? new ApiRoot(),
    siteList: deps.siteList ?? new SiteList(ledger),
    readRoute: deps.readRoute ?? new StagingReadRoute(),
    polls: deps.polls ?? new PollScheduler(clock, ledger, deadline),
    busy: new Backoff(BUSY_WAIT, { clock, deadlineMs: deadline, ...optional }),
    clock,
    logger,
    redactor: deps.redactor,
    door,
    signal: deps.signal,
    siteGet: deps.siteGet,
    started,
    startedWall: clock.wallNow(),
    record: newRecord(),
    facts: new Facts(
      siteId,
      { warn: (text) => warn(ctx, text), info: (text) => logger.info(text) },
      config.siteIds,
    ),
  }
  let ending: Ending
  try {
    if (config.dryRun) ending = await dryRun(ctx)
    else if (config.operation === 'status') ending = await status(ctx)
    else if (config.operation === 'rollback') ending = await rollback(ctx)
    else if (config.operation === 'push') ending = await runPush(ctx)
    else ending = await runJob(ctx, config.operation)
  } catch (e) {
    ending = endingOf(ctx, e)
  } finally {
    ownTransport?.close()
  }
  // A cancel that came after the job ended (during the steps after it) still ends the run cancelled (docs/behaviour.md).
  if (ending.outcome === 'succeeded' && deps.signal?.aborted) ending = endingOf(ctx, new CancelledError())
  return writeResult(ctx, ending)
}
