import { ApiError } from '../api/errors.js'
import type { RunContext } from './context.js'
import { takeCheckpoint, type Checkpoint } from './checkpoint.js'
import { taskStatusPath } from './endpoints.js'
import { endingOf, type Ending } from './ending.js'
import { runJob } from './jobs.js'
import { listVersions, pruneCheckpoints } from './versions.js'
import { answered, at, learnt, sentences, warn } from './record.js'
import { restore, verifyProduction } from './rollback.js'
import { maintenanceOff, protectAgain, switchTool } from './site-tools.js'
import { VERSIONS_PATH, isProductionId, toolsPath, versionPath } from '../contract.js'
import { setting } from '../words.js'

/**
 * A push, as issues 27 and 31 describe it: checkpoint -> maintenance on -> push -> wait -> maintenance off (in
 * every ending) -> production check -> [a failed job or check with rollback-on-failure: restore once, follow,
 * check again] -> password protection on (only once the push job ended) -> prune old checkpoints.
 */
export async function runPush(ctx: RunContext): Promise<Ending> {
  const { config } = ctx
  let checkpoint: Checkpoint | null = null
  if (config.checkpoint === 'version') {
    const made = await takeCheckpoint(ctx)
    if ('outcome' in made) return made
    checkpoint = made
  }
  // How long the checkpoint took (the run's first step): its restore takes about as long (both copy the site).
  const checkpointMs = checkpoint ? ctx.clock.now() - ctx.started : 0
  if (config.maintenance) {
    const on = await switchTool(ctx, 'maintenance_mode', true)
    if (on.ok) learnt(ctx, { maintenance: 'on' })
    else {
      // Named as the step it cut ("while switching maintenance mode on"), before the off is sent.
      const stopped = on.stopped ? endingOf(ctx, on.stopped) : null
      // It may have been switched on after all (no answer, a 5xx, a cancel while it was sent): off again.
      if (on.mayHaveHappened) {
        learnt(ctx, { maintenance: 'unknown' })
        await maintenanceOff(ctx)
      }
      return {
        outcome: stopped?.outcome ?? 'failed',
        summary: sentences(
          stopped?.summary ?? `Maintenance mode could not be switched on (${on.why})`,
          'The push was not sent: production is unchanged',
        ),
        error: stopped?.error ?? {
          kind: 'maintenance',
          hint: on.token
            ? 'The token was refused (a read-only token?): use a token that may change the site.'
            : `Run again, or run with ${setting('maintenance', 'false')} to push with the site open to visitors.`,
        },
      }
    }
  }
  let ending: Ending
  try {
    ending = await runJob(ctx, 'push')
  } catch (e) {
    ending = endingOf(ctx, e)
  }
  if (ending.error?.kind === 'task-failed') learnt(ctx, { content: { is: 'push-failed' } })
  if (config.maintenance) await maintenanceOff(ctx)
  const content = () => ctx.record.production.content.is
  // The push job switches protection off when it ends (contract §14 r5): on again after, in every ending.
  const ended = content() === 'pushed' || content() === 'push-failed'
  try {
    if (content() === 'pushed' && !ctx.signal?.aborted) ending = await verifyProduction(ctx, ending, 'push')
    const { check } = ctx.record.production
    const broken = content() === 'push-failed' || check?.passed === false
    // Never a restore that could not be followed (§13), nor of a version listed as another site's (§13 r5).
    const late = () => check?.cut || ctx.client.deadline - ctx.clock.now() < checkpointMs
    if (broken && checkpoint && config.rollbackOnFailure && !ctx.signal?.aborted) {
      const no = late() ? LATE : ((await elsewhere(ctx, checkpoint.id)) ?? (late() ? LATE : null))
      if (no) warn(ctx, `${setting('rollback-on-failure')}: not restored: ${no}.`)
      else ending = await restoreAfterFailure(ctx, ending, checkpoint)
    }
  } catch (e) {
    ending = endingOf(ctx, e)
  }
  if (config.protectProduction && ended) await protectAgain(ctx)
  else if (config.protectProduction && content() === 'unknown') learnt(ctx, { protection: 'after-push' })
  // Production left in maintenance mode, not protected again, or (the push's end not seen, so the steps after it
  // did not run) not checked, is not the push the user asked for: not green (guards refuse wait: false too).
  const { maintenance, protection, check } = ctx.record.production
  const unseen = ending.outcome === 'accepted'
  const todo = [
    ...(maintenance === 'on' || maintenance === 'unknown' ? ['switch maintenance mode off'] : []),
    ...(protection && protection !== 'on-again' ? ['turn password protection on'] : []),
    ...(unseen && config.productionUrl && !check ? ['check the live site'] : []),
  ].join(', and ')
  const [where, not] = unseen ? ['Once the push has ended', "Not done, as the push's end was not seen"] : []
  if ((ending.outcome === 'succeeded' || unseen) && todo)
    ending = {
      ...ending,
      outcome: 'failed',
      summary: not ? sentences(ending.summary, `${not}: ${todo}`) : ending.summary,
      error: { kind: 'site-tools', hint: `${where ?? 'Check production in the dashboard'}: ${todo}.` },
    }
  if (checkpoint && ending.outcome === 'succeeded' && !ctx.signal?.aborted)
    await pruneCheckpoints(ctx, config.keepCheckpoints, checkpoint.id)
  return ending
}

/** Issue 27 §4, issue 31 §8: the push's job or production's check failed: restore the checkpoint once, follow
 * it, check production again. The run stays red. */
async function restoreAfterFailure(ctx: RunContext, failed: Ending, checkpoint: Checkpoint): Promise<Ending> {
  // The push's facts (its task, status, the server's words) stay the run's outputs.
  const { taskId, httpStatus, message } = ctx.record
  let restored: Ending
  try {
    ctx.logger.warn(
      `Restoring production to checkpoint ${checkpoint.id} (${setting('rollback-on-failure')}).`,
    )
    restored = await restore(ctx, checkpoint.id)
  } catch (e) {
    restored = endingOf(ctx, e)
  }
  answered(ctx, { taskId, httpStatus, message })
  const cut = restored.outcome === 'cancelled' // a cancel sets cancelled (docs/behaviour.md)
  const outcome = cut ? 'cancelled' : failed.outcome === 'succeeded' ? 'failed' : failed.outcome
  if (restored.outcome === 'succeeded') {
    if (!ctx.signal?.aborted) await verifyProduction(ctx, restored, 'restore')
    return { ...failed, outcome }
  }
  const summary = sentences(
    failed.summary,
    `Restoring production to checkpoint ${checkpoint.id} ${restored.outcome === 'failed' && restored.error?.kind !== 'unknown-outcome' ? 'did not complete' : 'was not seen to complete'}: ${restored.summary}`,
  )
  // What production may be now, and the step to try again, are the record's (productionWords).
  return { ...failed, outcome, summary, error: failed.error ?? { kind: 'production-check', hint: '' } }
}

const LATE = 'no time left to follow a restore'
/** Why version `id` is not restored: the site's list names it as another site's (contract §13 r5) or shows it not
 * complete (as rollback refuses it); null when the list cannot be read or does not show it (the create's answer). */
async function elsewhere(ctx: RunContext, id: string): Promise<string | null> {
  at(ctx, `reading site ${ctx.siteId}'s versions before the restore`)
  const list = await listVersions(ctx).catch((e: unknown) =>
    e instanceof ApiError ? null : Promise.reject(e),
  )
  if (list?.others.some((o) => isProductionId(o, id))) return `the record of version ${id} names another site`
  const listed = list?.versions.find((v) => isProductionId(v.id, id))
  return listed && !listed.completed ? `version ${id} is not complete yet, so it cannot be restored` : null
}

/** dry-run of a push: the checkpoint and site-tool steps around the push's own `lines`, in the order sent. */
export function pushDryRun(ctx: RunContext, lines: string[]): void {
  const { config } = ctx
  const url = (path: string) => decodeURI(ctx.client.url(path))
  const before: string[] = []
  if (config.checkpoint === 'version')
    before.push(
      `POST ${url(VERSIONS_PATH)} (checkpoint: a site version of production)`,
      `PUT ${url(versionPath('{version_id}'))} (checkpoint: its name)`,
      `GET ${url(taskStatusPath('{task_id}'))} (checkpoint: repeated until the version is complete; no push without it)`,
    )
  if (config.maintenance) before.push(`POST ${url(toolsPath(ctx.siteId))} (maintenance mode on)`)
  const after: string[] = []
  if (config.maintenance)
    after.push(`POST ${url(toolsPath(ctx.siteId))} (maintenance mode off, in every ending)`)
  if (config.protectProduction) after.push(`POST ${url(toolsPath(ctx.siteId))} (password protection on)`)
  if (config.checkpoint === 'version')
    after.push(
      `DELETE ${url(VERSIONS_PATH)} (this tool's checkpoints beyond ${setting('keep-checkpoints', String(config.keepCheckpoints))}, if any)`,
    )
  lines.unshift(...before)
  lines.push(...after)
}
