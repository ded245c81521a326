import { ApiError } from '../api/errors.js'
import { VERSIONS_NOT_OFFERED, restorePath, taskIdOf } from '../contract.js'
import { durationText } from '../duration.js'
import { waitDeps, warn, type RunContext } from './context.js'
import { isOurs, listVersions, withRootEvidence, type VersionRecord } from './checkpoint.js'
import { checkLaterHint } from './endpoints.js'
import { failure, taskFailed, type Ending } from './ending.js'
import { answers } from './after-job.js'
import { waitForTask } from './wait/follow.js'
import { setting } from '../words.js'

const OVERWRITES = "production's files and database"

/**
 * `operation: rollback` (issue 27 §3): restores production to `checkpoint-id`, or to the newest
 * completed checkpoint this tool made (never a version a person made unless its id is given).
 */
export async function rollback(ctx: RunContext): Promise<Ending> {
  const chosen = await chooseVersion(ctx)
  if ('outcome' in chosen) return chosen
  const ending = await restore(ctx, chosen.id)
  if (ending.outcome !== 'succeeded' || !ctx.config.productionUrl) return ending
  return checkProduction(ctx, ctx.config.productionUrl, ending)
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
  ctx.phase = `reading site ${siteId}'s versions`
  let versions: VersionRecord[]
  try {
    versions = await listVersions(ctx)
  } catch (caught) {
    if (!(caught instanceof ApiError) || caught.kind === 'auth') throw caught
    const e = await withRootEvidence(ctx, caught)
    const none = e === caught && e.httpStatus !== null && VERSIONS_NOT_OFFERED.includes(e.httpStatus)
    return {
      ...failure(e),
      summary: `Nothing was restored: reading site ${siteId}'s versions failed: ${e.message}`,
      ...(none
        ? {
            error: {
              kind: e.kind,
              hint: `The service answered as if it offers no site versions: check ${setting('api-url')}.`,
            },
          }
        : {}),
    }
  }
  const wanted = config.checkpointId ?? null
  const version = wanted
    ? versions.find((v) => v.id === wanted)
    : versions.find((v) => isOurs(v) && v.completed)
  if (!version)
    return {
      outcome: 'failed',
      summary: wanted
        ? `Nothing was restored: version ${wanted} is not among site ${siteId}'s versions (the newest 100).`
        : `Nothing was restored: site ${siteId} has no completed checkpoint made by this tool (a version named "before push …").`,
      error: {
        kind: 'not-found',
        hint: `Check ${setting('site-id')} (the PRODUCTION site) and ${setting('checkpoint-id')}: the push's checkpoint-id output (CHECKPOINT_ID in its dotenv) names its checkpoint.`,
      },
    }
  if (!version.completed)
    return {
      outcome: 'failed',
      summary: `Nothing was restored: version ${version.id} is not complete yet, so it cannot be restored.`,
      error: { kind: 'checkpoint', hint: 'Run the rollback again once the version has completed.' },
    }
  return version
}

/**
 * Restores production to version `id`: one PUT (never sent again unless refused: a restore
 * overwrites production as a push does, contract §13), its task followed to its end.
 */
export async function restore(ctx: RunContext, id: string): Promise<Ending> {
  const { client, siteId, logger } = ctx
  ctx.known.checkpointId = id
  ctx.phase = `restoring production to version ${id}`
  logger.info(`Site ${siteId}: restoring production to version ${id} (overwrites ${OVERWRITES}).`)
  let taskId: string | null
  try {
    const answer = await client.call('PUT', restorePath(siteId, id), 'restore')
    ctx.known.httpStatus = answer.status
    ctx.known.message = answer.reply.message
    const task = taskIdOf(answer.reply.data)
    taskId = task && 'id' in task ? task.id : null
  } catch (e) {
    if (!(e instanceof ApiError) || e.kind === 'auth') throw e
    ctx.known.httpStatus = e.httpStatus
    if (e.processing !== 'unknown') return failure(e)
    return {
      ...failure(e),
      error: {
        kind: 'unknown-outcome',
        hint: `Whether production is being restored is unknown; the restore was not sent again, by design. Look at the site in the dashboard before you run it again.`,
      },
    }
  }
  if (!taskId) {
    warn(ctx, `The restore of version ${id} was accepted, but the answer gave no task to follow.`)
    return {
      outcome: 'accepted',
      summary: `The restore of production to version ${id} was accepted; its end cannot be followed (no task id). Check the site in the dashboard.`,
    }
  }
  ctx.known.taskId = taskId
  // wait: false, as for a push (docs/assumptions.md 121): sent once, not followed, said as accepted.
  if (!ctx.config.wait) {
    logger.info(`The restore was accepted; not waiting for it (${setting('wait', 'false')}).`)
    return {
      outcome: 'accepted',
      summary: `The restore of production to version ${id} was accepted; not waited for. ${checkLaterHint(siteId, taskId)}`,
    }
  }
  ctx.phase = `waiting for the restore of version ${id} (task ${taskId}) to finish`
  const outcome = await waitForTask(waitDeps(ctx), 'rollback', siteId, taskId, ctx.clock.now())
  if (outcome.kind === 'completed')
    return {
      outcome: 'succeeded',
      summary: `Production was restored to version ${id} in ${durationText(ctx.clock.now() - ctx.started)}.`,
    }
  if (outcome.kind === 'failed') return failure(taskFailed(`The restore of version ${id}`, outcome.reason))
  warn(
    ctx,
    `The restore of version ${id} was accepted, but its completion cannot be confirmed: ${outcome.reason}.`,
  )
  return {
    outcome: 'accepted',
    summary: `The restore of production to version ${id} was accepted, but its completion cannot be confirmed: ${outcome.reason}. Check the site in the dashboard.`,
  }
}

/** production-url after a restore: the live site answers within the timeout. */
async function checkProduction(ctx: RunContext, url: string, restored: Ending): Promise<Ending> {
  ctx.phase = `waiting for production at ${url} to answer`
  const ready = await answers(ctx, url, 'production-url')
  if (ready === null) return restored
  if (ready) return { ...restored, summary: `${restored.summary} Production answered at ${url}.` }
  return {
    outcome: 'timed-out',
    summary: `${restored.summary} But production did not answer at ${url} before the timeout (${durationText(ctx.config.timeoutMs)}).`,
    error: { kind: 'timeout', hint: 'Check the live site now: the restore itself completed.' },
  }
}
