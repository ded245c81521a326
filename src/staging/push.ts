import type { RunContext } from './context.js'
import {
  checkpointPolicy,
  pruneCheckpoints,
  rollbackCommand,
  takeCheckpoint,
  type Checkpoint,
} from './checkpoint.js'
import { PUSH_WARNINGS, PUSH_WARNINGS_IF_SENT, taskStatusPath } from './endpoints.js'
import { endingOf, type Ending } from './ending.js'
import { runJob } from './jobs.js'
import { restore } from './rollback.js'
import { maintenanceOff, protectAgain, switchTool } from './site-tools.js'
import { VERSIONS_PATH, toolsPath, versionPath } from '../contract.js'
import { setting } from '../words.js'

/**
 * A push, as issue 27 and design.md ("Checkpoints are part of the push") describe it: checkpoint ->
 * maintenance on -> push -> wait -> production checks -> maintenance off (in every ending) ->
 * password protection on -> restore on a failed job -> prune old checkpoints. Each step ends as a
 * value; a failed checkpoint ends the run before the push is sent.
 */
export async function runPush(ctx: RunContext): Promise<Ending> {
  const policy = checkpointPolicy(ctx.config)
  let checkpoint: Checkpoint | null = null
  if (policy.checkpoint === 'version') {
    const made = await takeCheckpoint(ctx)
    if ('outcome' in made) return made
    checkpoint = made
  }
  if (policy.maintenance) {
    const on = await switchTool(ctx, 'maintenance_mode', true)
    // It may have been switched on after all (no answer, a 5xx, a cancel while it was sent): off again.
    if (!on.ok && on.mayHaveHappened) await maintenanceOff(ctx)
    if (!on.ok && on.stopped) {
      const stopped = endingOf(ctx, on.stopped)
      return { ...stopped, summary: `${stopped.summary} The push was not sent.` }
    }
    if (!on.ok)
      return {
        outcome: 'failed',
        summary: `Maintenance mode could not be switched on (${on.why}), so the push was not sent: production is unchanged and not in maintenance mode.${checkpoint ? ` Checkpoint ${checkpoint.id} was taken.` : ''}`,
        error: {
          kind: 'maintenance',
          hint: `Run again, or run with ${setting('maintenance', 'false')} to push with the site open to visitors.`,
        },
      }
  }
  let ending: Ending
  try {
    ending = await runJob(ctx, 'push')
  } catch (e) {
    ending = endingOf(ctx, e)
  }
  const pushed = ctx.known.jobs.some((j) => j.op === 'push')
  let restored = false
  if (ending.outcome === 'failed' && ending.error?.kind === 'task-failed' && checkpoint) {
    if (policy.rollbackOnFailure) ({ ending, restored } = await restoreAfterFailure(ctx, ending, checkpoint))
    else
      ending = withHint(
        ending,
        `To restore production as it was before the push, ${rollbackCommand(ctx.siteId, checkpoint.id)}.`,
      )
  }
  if (policy.maintenance) await maintenanceOff(ctx)
  if (policy.protectProduction && pushed && (await protectAgain(ctx)))
    dropWarning(ctx, PUSH_WARNINGS[1]!, PUSH_WARNINGS_IF_SENT[1]!)
  if (!checkpoint) return ending
  dropWarning(ctx, PUSH_WARNINGS[0]!, PUSH_WARNINGS_IF_SENT[0]!)
  if (ending.outcome === 'succeeded' && !ctx.signal?.aborted)
    await pruneCheckpoints(ctx, policy.keep, checkpoint.id)
  return withCheckpoint(ctx, ending, checkpoint, restored)
}

/** Issue 27 §4: the push's job failed on the server: restore the checkpoint at once; the run stays red. */
async function restoreAfterFailure(
  ctx: RunContext,
  failed: Ending,
  checkpoint: Checkpoint,
): Promise<{ ending: Ending; restored: boolean }> {
  ctx.logger.warn(
    `The push failed on the server: restoring production to checkpoint ${checkpoint.id} (rollback-on-failure).`,
  )
  // The push's facts (its task, status, the server's words) stay the run's outputs.
  const { taskId, httpStatus, message } = ctx.known
  let restored: Ending
  try {
    restored = await restore(ctx, checkpoint.id)
  } catch (e) {
    // Timed out or cancelled while restoring: said, and maintenance still goes off after this.
    restored = endingOf(ctx, e)
  }
  Object.assign(ctx.known, { taskId, httpStatus, message })
  const again = rollbackCommand(ctx.siteId, checkpoint.id)
  if (restored.outcome === 'succeeded')
    return {
      restored: true,
      ending: {
        ...failed,
        summary: `${sentence(failed.summary)} Production was restored to checkpoint ${checkpoint.id}.`,
      },
    }
  return {
    restored: false,
    ending: withHint(
      {
        ...failed,
        summary: `${sentence(failed.summary)} Restoring production to checkpoint ${checkpoint.id} did not complete: ${restored.summary}`,
      },
      `To try the restore again, ${again}.`,
    ),
  }
}

/** The summary names the checkpoint and the step that restores it (issue 27 §1). */
function withCheckpoint(ctx: RunContext, ending: Ending, checkpoint: Checkpoint, restored: boolean): Ending {
  const name = checkpoint.name ? ` ("${checkpoint.name}")` : ''
  const step = rollbackCommand(ctx.siteId, checkpoint.id)
  // Once rollback-on-failure has restored it, the step to restore it again is no news.
  const said = restored
    ? `Checkpoint ${checkpoint.id}${name} was taken before the push.`
    : `Checkpoint ${checkpoint.id}${name} was taken before the push; to restore it, ${step}.`
  // An unknown outcome (no answer, timed out, cancelled) is never restored automatically (§4).
  const unknown =
    ending.outcome === 'timed-out' ||
    ending.outcome === 'cancelled' ||
    ending.error?.kind === 'unknown-outcome'
  const summary = `${sentence(ending.summary)} ${said}`
  return unknown
    ? withHint({ ...ending, summary }, `If production is wrong, ${step}.`)
    : { ...ending, summary }
}

/** Text that ends as a sentence (a server's reason may not), so that the next one reads apart. */
function sentence(text: string): string {
  const trimmed = text.trimEnd()
  return /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`
}

function withHint(ending: Ending, hint: string): Ending {
  if (!ending.error) return ending
  if (ending.error.hint.includes(hint)) return ending
  return { ...ending, error: { ...ending.error, hint: `${ending.error.hint} ${hint}` } }
}

/** A push warning that no longer holds (a checkpoint was taken, protection was switched back on). */
function dropWarning(ctx: RunContext, ...texts: string[]): void {
  ctx.known.warnings = ctx.known.warnings.filter((w) => !texts.includes(w))
}

/**
 * dry-run of a push: the checkpoint and maintenance steps around the push's own lines (in `lines`,
 * in the order they would be sent).
 */
export function pushDryRun(ctx: RunContext, lines: string[]): void {
  const policy = checkpointPolicy(ctx.config)
  const url = (path: string) => decodeURI(ctx.client.url(path))
  const before: string[] = []
  if (policy.checkpoint === 'version')
    before.push(
      `POST ${url(VERSIONS_PATH)} (checkpoint: a site version of production)`,
      `PUT ${url(versionPath('{version_id}'))} (checkpoint: its name)`,
      `GET ${url(taskStatusPath('{task_id}'))} (checkpoint: repeated until the version is complete; no push without it)`,
    )
  if (policy.maintenance) before.push(`POST ${url(toolsPath(ctx.siteId))} (maintenance mode on)`)
  const after: string[] = []
  if (policy.maintenance)
    after.push(`POST ${url(toolsPath(ctx.siteId))} (maintenance mode off, in every ending)`)
  if (policy.protectProduction) after.push(`POST ${url(toolsPath(ctx.siteId))} (password protection on)`)
  if (policy.checkpoint === 'version')
    after.push(
      `DELETE ${url(VERSIONS_PATH)} (this tool's checkpoints beyond ${setting('keep-checkpoints', String(policy.keep))}, if any)`,
    )
  lines.unshift(...before)
  lines.push(...after)
}
