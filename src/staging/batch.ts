import { realClock } from '../clock.js'
import { roundedSeconds } from '../duration.js'
import { CALLS_PER_RUN } from '../contract.js'
import { extraCalls } from './checkpoint.js'
import { RateWindow } from '../api/rate-window.js'
import { USER_AGENT } from '../api/client.js'
import { TokenVerdict, hintFor } from '../api/errors.js'
import { ApiRoot } from '../api/root.js'
import { StagingReadRoute } from './read-route.js'
import { listPagesFor, SiteList } from './site-list.js'
import { NodeTransport } from '../api/transport.js'
import type { Config } from '../inputs/index.js'
import { isFailure, newResult, type Result } from '../types.js'
import { runOperation, type RunDeps } from './operations.js'
import { eachLine, inDoorWords, setting } from '../words.js'
import { PollScheduler } from './wait/batch.js'

/** Runs the operation on every site, up to `concurrency` at once, all sharing one rate window, poll scheduler,
 * transport, deadline and API root check; with `failFast`, no new site starts after a failure. */
export async function runAll(config: Config, deps: RunDeps): Promise<Result[]> {
  const clock = deps.clock ?? realClock
  const transport = deps.transport ?? new NodeTransport(USER_AGENT)
  const deadline = deps.deadline ?? clock.now() + config.timeoutMs
  const ledger =
    deps.ledger ??
    new RateWindow(clock, {
      signal: deps.signal,
      onShared: (perMinute) =>
        deps.logger.info(
          `Other runs are using this account's rate limit: at least ${perMinute} call${perMinute === 1 ? '' : 's'} a minute.`,
        ),
    })
  const shared: RunDeps = {
    ...deps,
    clock,
    ledger,
    polls: deps.polls ?? new PollScheduler(clock, ledger, deadline),
    root: deps.root ?? new ApiRoot(),
    siteList: deps.siteList ?? new SiteList(ledger, listPagesFor(config.siteIds.length)),
    readRoute: deps.readRoute ?? new StagingReadRoute(),
    token: deps.token ?? new TokenVerdict(),
    deadline,
    transport,
  }
  try {
    const results = await runSites(config, deps, shared)
    // The run's waiting for calls that other runs on the account used: the summary's timing line says it.
    if (ledger.sharedWaitMs > 0)
      for (const r of results) r.sharedWaitSeconds = roundedSeconds(ledger.sharedWaitMs)
    return results
  } finally {
    if (!deps.transport) transport.close()
    deps.logger.debug(`${transport.connections} connection(s) to the API`)
  }
}

async function runSites(config: Config, deps: RunDeps, shared: RunDeps): Promise<Result[]> {
  const ids = config.siteIds
  const door = deps.door ?? 'action'
  if (ids.length === 1) return [await runOperation(config, ids[0]!, shared)]
  const polls = shared.polls!

  const results: Result[] = new Array(ids.length)
  let next = 0
  let stoppedBy: string | null = null
  let toldRefused = false
  const worker = async () => {
    while (next < ids.length) {
      const index = next++
      // The poll scheduler plans the calls of the sites still to start too (contract §6 r3): each
      // site's request and its job's final status call, and what extraCalls counts besides.
      polls.due = (ids.length - next) * (2 + extraCalls(config)) + CALLS_PER_RUN
      const siteId = ids[index]!
      const notStarted = (
        result: 'skipped' | 'cancelled' | 'failed' | 'timed-out',
        summary: string,
      ): Result => ({
        ...newResult(config.operation, siteId, shared.clock!.wallNow()),
        result,
        summary,
      })
      // Never run, though asked for: a failure (a revoked token must not leave the step green).
      const tokenRefused = () => ({
        ...notStarted(
          'failed',
          `Not started: the token was refused (${shared.token!.refusedAt} was answered HTTP 401).`,
        ),
        error: { kind: 'auth', hint: hintFor('auth', door) },
      })
      if (deps.signal?.aborted) {
        results[index] = notStarted('cancelled', 'Not started: the run was cancelled.')
        continue
      }
      if (stoppedBy !== null) {
        const why = `Not started: site ${stoppedBy} failed first (${setting('fail-fast')}).`
        results[index] = notStarted('skipped', inDoorWords(why, door))
        continue
      }
      if (shared.clock!.now() >= shared.deadline!) {
        const why = 'Not started: the timeout was reached before its turn; nothing was sent for it.'
        const hint = `Raise ${setting('timeout')}, or run fewer sites in one step.`
        results[index] = { ...notStarted('timed-out', why), error: { kind: 'timeout', hint } }
        continue
      }
      // A refused token is refused everywhere (contract §15 r4): no site starts after a 401.
      if (shared.token!.refusedAt !== null) {
        results[index] = tokenRefused()
        continue
      }
      const result = await runOperation(config, siteId, {
        ...shared,
        // Progress updates name their site already: only the lines are prefixed.
        logger: eachLine(deps.logger, (m) => `[site ${siteId}] ${m}`),
      })
      // A site that sent nothing because the token was refused meanwhile did not start either.
      results[index] =
        shared.token!.refusedAt !== null && result.requests === 0 && result.error?.kind === 'auth'
          ? tokenRefused()
          : result
      if (shared.token!.refusedAt !== null && !toldRefused) {
        toldRefused = true
        deps.logger.warn(
          `The token was refused (HTTP 401): starting no more sites; those running are followed to their end.`,
        )
      }
      if (config.failFast && isFailure(results[index].result) && stoppedBy === null) {
        stoppedBy = siteId
        deps.logger.warn(
          inDoorWords(
            `Site ${siteId} ${result.result}: starting no more sites (${setting('fail-fast')}).`,
            door,
          ),
        )
      }
    }
  }
  deps.logger.info(
    `Running ${config.operation} on ${ids.length} sites, ${Math.min(config.concurrency, ids.length)} at a time.`,
  )
  try {
    await Promise.all(Array.from({ length: Math.min(config.concurrency, ids.length) }, worker))
  } finally {
    polls.due = CALLS_PER_RUN
  }
  return results
}
