import { DeadlineError } from '../api/client.js'
import { durationText } from '../duration.js'
import type { JobOperation } from '../types.js'
import type { RunContext } from './context.js'
import { at, answered, warn } from './record.js'
import { DONE } from './endpoints.js'
import type { Ending } from './ending.js'
import { fillFromOtherSources } from './other-sources.js'
import { learnFromStaging } from './probe.js'
import { waitForUrl } from './url-check.js'
import { setting } from '../words.js'

/** After a job that succeeded: the staging id and URL the answers did not give, and wait-for-url after a create
 * or pull. Returns the run's ending. */
export async function afterJob(ctx: RunContext, op: JobOperation): Promise<Ending> {
  // The job's own length: the reads after it (a site list held until the batch is quiet) are not the job's.
  const jobDone = ctx.clock.now()
  const done = () => ({
    outcome: 'succeeded' as const,
    summary: `${DONE[op]} in ${durationText(jobDone - ctx.started)}.`,
  })
  if (op === 'delete') return done()
  // Staging still exists after each of these: one GET fills what the answers did not say. Sharing
  // the account, a create or pull reads the site list first: one read of it serves every site of
  // the run, where the staging read costs each site a call the other runs need (contract §6 r5).
  const listFirst = op !== 'push' && ctx.polls.sharing
  try {
    if (!ctx.facts.complete && !listFirst) await readStagingAfterJob(ctx)
    // A push's production check comes after maintenance mode is off (push.ts).
    if (op === 'push') return done()
    // What the answers did not say: the site list (its calls kept in the run's plan from now), an
    // earlier run's URL, the staging-url input.
    if (!ctx.facts.complete) {
      if (!ctx.polls.sharing) ctx.siteList.plan(ctx.polls)
      await fillFromOtherSources(ctx, listFirst ? () => readStagingAfterJob(ctx) : undefined)
    }
  } catch (e) {
    // The job ended in time; reads that only fill its id and URL undo nothing (contract §3 r4).
    if (!(e instanceof DeadlineError) || ctx.config.waitForUrl) throw e // wait-for-url: the user's own condition
    ctx.facts.note(`The staging site's id and URL were not read: the timeout was reached first.`)
    return done()
  }
  if (!ctx.config.waitForUrl) return done()
  const url = ctx.facts.url
  if (!url) {
    warn(ctx, `${setting('wait-for-url')}: no staging URL is known, so the site was not checked.`)
    return done()
  }
  at(ctx, `waiting for ${url} to answer`)
  const ready = await waitForUrl(url, ctx, { deadline: ctx.client.deadline })
  answered(ctx, { urlReady: ready })
  if (ready === null) {
    warn(
      ctx,
      `${setting('wait-for-url')}: ${url} uses plain http on a host that is not loopback, so it was not checked.`,
    )
    return done()
  }
  if (ready)
    return {
      outcome: 'succeeded',
      summary: `${DONE[op]} in ${durationText(jobDone - ctx.started)}; the staging site answered ${durationText(ctx.clock.now() - jobDone)} later.`,
    }
  return {
    outcome: 'timed-out',
    summary: `The ${op} job completed, but the staging site did not answer at ${url} before the timeout (${durationText(ctx.config.timeoutMs)}): DNS and TLS can take a few minutes after a job ends.`,
    error: {
      kind: 'timeout',
      hint: `Raise ${setting('timeout')}, or run again later with ${setting('wait-for-url', 'true')}. The staging environment itself is in place.`,
    },
  }
}

/**
 * The one call site of the read a job that succeeded may cost (one try). Best effort (issue 26 §2): it goes
 * only with a call to spare while other jobs are followed (it never waits for a call one of them needs).
 */
async function readStagingAfterJob(ctx: RunContext): Promise<void> {
  const route = ctx.readRoute
  // None once the service refused the read, or it answered 404 after jobs that succeeded (namesNothing).
  if (route.refused || route.namesNothing) return
  if (!ctx.polls.spareNow()) {
    ctx.logger.debug('not reading the staging environment now: the calls left are for jobs still running')
    return
  }
  const read = () => learnFromStaging(ctx)
  await route.afterJob(read, (state) => (state === null ? null : state !== 'none'))
}
