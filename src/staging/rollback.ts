import { ApiError } from '../api/errors.js'
import { CHECKPOINT_PREFIX, VERSIONS_NOT_OFFERED, restorePath, taskIdOf } from '../contract.js'
import { durationText } from '../duration.js'
import type { RunContext } from './context.js'
import { withRootEvidence } from './checkpoint.js'
import { isOurs, listVersions, type VersionList, type VersionRecord } from './versions.js'
import { checkLaterHint } from './endpoints.js'
import { failure, taskFailed, type Ending } from './ending.js'
import { checkProduction } from './production-check.js'
import { answered, at, jobIs, jobState, learnt, sentences, warn } from './record.js'
import { waitForTask } from './wait/follow.js'
import { sendJob } from './jobs.js'
import type { ApiResponse } from '../api/reply.js'
import { outputNamed, setting } from '../words.js'

const OVERWRITES = "production's files and database"

/** `operation: rollback` (issue 27 §3): restores production to `checkpoint-id`, or to the newest completed
 * checkpoint this tool made (never a version a person made unless its id is given). */
export async function rollback(ctx: RunContext): Promise<Ending> {
  const chosen = await chooseVersion(ctx)
  if ('outcome' in chosen) return chosen
  const ending = await restore(ctx, chosen.id)
  // production-url acts once the restore has ended (as after a push): its end not seen, not green.
  if (ending.outcome === 'accepted' && ctx.config.productionUrl)
    return {
      ...ending,
      outcome: 'failed',
      summary: sentences(ending.summary, "Not done, as the restore's end was not seen: check the live site"),
      error: { kind: 'production-check', hint: '' }, // the step: the record's (productionWords)
    }
  return ending.outcome === 'succeeded' ? verifyProduction(ctx, ending, 'restore') : ending
}

/** dry-run of a rollback: which version would overwrite production; only reads. */
export async function rollbackDryRun(ctx: RunContext): Promise<Ending> {
  const chosen = await chooseVersion(ctx)
  if ('outcome' in chosen) return chosen
  const put = `PUT ${ctx.client.url(restorePath(ctx.siteId, chosen.id))}`
  ctx.logger.info(`Dry run: would send, on site ${ctx.siteId}: ${put}`)
  return {
    outcome: 'dry-run',
    summary: `Dry run: nothing was changed. Would send ${put}, which overwrites ${OVERWRITES} (site ${ctx.siteId}) with version ${describe(chosen)}; everything on the live site since then is lost.`,
  }
}

function describe(v: VersionRecord): string {
  const about = [v.name && `"${v.name}"`, v.createdAt && `made ${v.createdAt}`].filter(Boolean).join(', ')
  return about ? `${v.id} (${about})` : v.id
}

/** The version to restore, from the site's list, or the ending that says why there is none. */
async function chooseVersion(ctx: RunContext): Promise<VersionRecord | Ending> {
  const { siteId, config } = ctx
  at(ctx, `reading site ${siteId}'s versions`)
  let list: VersionList
  try {
    list = await listVersions(ctx)
  } catch (caught) {
    if (!(caught instanceof ApiError) || caught.kind === 'auth') throw caught
    const e = await withRootEvidence(ctx, caught)
    const failed = {
      ...failure(e),
      summary: `Nothing was restored: reading site ${siteId}'s versions failed: ${e.message}`,
    }
    const none = e === caught && e.httpStatus !== null && VERSIONS_NOT_OFFERED.includes(e.httpStatus)
    if (!none) return failed
    const hint = `The service answered as if it offers no site versions: check ${setting('api-url')}.`
    return { ...failed, error: { kind: e.kind, hint } }
  }
  const wanted = config.checkpointId
  const { versions, unread, outOfOrder, ageUnknown } = list
  // Newest first: without an id, the newest completed version carrying this tool's mark; none when the
  // list was not newest first and not read whole (the newest may be on a page not read).
  const version = wanted
    ? versions.find((v) => v.id === wanted)
    : versions.find((v) => isOurs(v) && v.completed && !(unread && outOfOrder) && !ageUnknown)
  const notRead = unread ? ` (${unread})` : ''
  if (!version)
    return {
      outcome: 'failed',
      summary: wanted
        ? `Nothing was restored: version ${wanted} is not among site ${siteId}'s versions${unread ? ' read' : ''}${notRead}${list.others.length ? '; versions of other sites are never restored' : ''}.`
        : (unread && outOfOrder) || ageUnknown
          ? `Nothing was restored: which of site ${siteId}'s checkpoints is the newest is not known: the list was not newest first and ${ageUnknown ? 'some of them have no date' : 'was not read whole'}${notRead}.`
          : `Nothing was restored: no completed checkpoint made by this tool (a version named "${CHECKPOINT_PREFIX}…") is among site ${siteId}'s versions${notRead}.`,
      error: {
        kind: 'not-found',
        hint: `Check ${setting('site-id')} (the PRODUCTION site) and ${setting('checkpoint-id')}: ${outputNamed('checkpoint-id')} of the push names its checkpoint.`,
      },
    }
  // Whose version it is, as the run knows it (contract §13 r5): the record's own site_id, or only
  // the service's site_id filter.
  ctx.logger.info(
    version.site === 'this'
      ? `Version ${version.id} is site ${siteId}'s: its record says so.`
      : `Version ${version.id}'s record names no site: it is taken as site ${siteId}'s because the service listed it for site_id=${siteId}.`,
  )
  if (!version.completed)
    return {
      outcome: 'failed',
      summary: `Nothing was restored: version ${version.id} is not complete yet, so it cannot be restored.`,
      error: { kind: 'checkpoint', hint: 'Run the rollback again once the version has completed.' },
    }
  return version
}

/** Restores production to version `id`: one PUT (never sent again unless refused: it overwrites production as a
 * push does, contract §13), its task followed to its end; what production is after it is the record's. */
export async function restore(ctx: RunContext, id: string): Promise<Ending> {
  const { client, siteId, logger } = ctx
  logger.info(`Site ${siteId}: restoring production to version ${id} (overwrites ${OVERWRITES}).`)
  const before = ctx.record.production.content
  at(ctx, `restoring production to version ${id}`)
  learnt(ctx, { content: { is: 'unknown', by: 'restore', version: id } })
  let answer: ApiResponse
  try {
    answer = await sendJob(ctx, 'restore', () => client.call('PUT', restorePath(siteId, id), 'restore'))
  } catch (e) {
    // Never sent, refused, or not taken (429, 503, busy): nothing was restored. No answer: unknown.
    if (jobState(ctx, 'restore') !== 'sent') learnt(ctx, { content: before })
    if (!(e instanceof ApiError) || e.kind === 'auth') throw e
    if (e.processing !== 'unknown') return failure(e)
    const hint = 'The restore was not sent again, by design.'
    return { ...failure(e), error: { kind: 'unknown-outcome', hint } }
  }
  answered(ctx, { message: answer.reply.message })
  const task = taskIdOf(answer.reply.data)
  const taskId = task && 'id' in task ? task.id : null
  if (!taskId) {
    warn(ctx, `The restore of version ${id} was accepted, but the answer gave no task to follow.`)
    return {
      outcome: 'accepted',
      summary: `The restore was accepted; its end cannot be followed (no task id).`,
    }
  }
  answered(ctx, { taskId })
  // wait: false, as for a push (docs/assumptions.md 121): sent once, not followed, said as accepted.
  if (!ctx.config.wait) {
    logger.info(`The restore was accepted; not waiting for it (${setting('wait', 'false')}).`)
    return {
      outcome: 'accepted',
      summary: `The restore was accepted; not waited for. ${checkLaterHint(siteId, taskId)}`,
    }
  }
  at(ctx, `waiting for the restore of version ${id} (task ${taskId}) to finish`)
  const outcome = await waitForTask(ctx, 'rollback', siteId, taskId, ctx.clock.now())
  if (outcome.kind === 'completed') {
    jobIs(ctx, 'restore', 'completed')
    answered(ctx, { checkpointId: id }) // the version restored: only once it was (action.yml)
    learnt(ctx, { content: { is: 'restored', version: id } })
    return {
      outcome: 'succeeded',
      summary: `The restore completed in ${durationText(ctx.clock.now() - ctx.started)}.`,
    }
  }
  if (outcome.kind === 'failed') {
    jobIs(ctx, 'restore', 'failed')
    learnt(ctx, { content: { is: 'restore-failed', version: id } })
    return failure(taskFailed(`The restore of version ${id}`, outcome.reason))
  }
  return {
    outcome: 'accepted',
    summary: `The restore was accepted, but its completion cannot be confirmed: ${outcome.reason}.`,
  }
}

/** production-url after a push or a restore (contract §16): the record keeps what the check saw, and a failed
 * check fails the run. A check that never asked (plain http, no time left) is no evidence: a warning. */
export async function verifyProduction(
  ctx: RunContext,
  ending: Ending,
  after: 'push' | 'restore',
): Promise<Ending> {
  const url = ctx.config.productionUrl
  if (!url) return ending
  // The maintenance page is not production (§16): no verdict, nor a restore, from it.
  if (['on', 'unknown'].includes(ctx.record.production.maintenance ?? '')) {
    warn(ctx, `${setting('production-url')}: production was not checked: maintenance mode may still be on.`)
    return ending
  }
  at(ctx, `checking production at ${url}`)
  const check = await checkProduction(ctx, url)
  if (check.tries === 0) {
    warn(
      ctx,
      `${setting('production-url')}: production was ${check.undecided?.said ?? 'not checked'} (${check.last}).`,
    )
    // Not green, and nothing restored on it: the answers decided nothing (a redirect; one answer only).
    if (check.undecided)
      return {
        outcome: 'failed',
        summary: ending.summary,
        error: { kind: 'production-check', hint: check.undecided.hint },
      }
    if (!check.cut) return ending // else no time was left for the check the user asked for: not green
    const summary = `${ending.summary} The timeout was reached before production could be checked at ${url}.`
    return { outcome: 'timed-out', summary, error: { kind: 'timeout', hint: `Raise ${setting('timeout')}.` } }
  }
  // After rollback-on-failure's restore, the push's check stays the run's: this one is its recheck.
  const again = after === 'restore' && ctx.record.production.check !== null
  learnt(
    ctx,
    again
      ? { recheck: { passed: check.passed, last: check.last, cut: check.cut } }
      : { check: { passed: check.passed, url, last: check.last, cut: check.cut } },
  )
  if (check.passed) return ending
  ctx.logger.warn(
    `Production failed its check at ${url} after the ${after}: ${check.last} (tries: ${check.tries}).`,
  )
  return {
    outcome: 'failed',
    summary: ending.summary,
    // The step to take is production's, from the record (record.ts, productionWords).
    error: { kind: 'production-check', hint: '' },
  }
}
