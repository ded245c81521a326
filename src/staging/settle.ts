import type { Operation } from '../types.js'
import type { RunContext } from './context.js'
import { warn } from './record.js'
import { checkLaterHint } from './endpoints.js'
import { failure, taskFailed, type Ending } from './ending.js'
import { fillStagingFields, STAGING_READ, TASK } from './staging-fields.js'
import type { WaitOutcome } from './wait/follow.js'
import { jobOf } from '../words.js'

/**
 * A followed job's end as an ending: succeeded on evidence only; accepted when nothing can tell;
 * failed with the server's reason. A create's completion also names the staging site: from a task,
 * only its `resource_id` (never its own `id`: contract §5), from the probe, the staging record.
 */
export function settle(ctx: RunContext, op: Operation, outcome: WaitOutcome): Ending {
  const what = jobOf(op)
  if (outcome.kind === 'failed') return failure(taskFailed(`The ${what}`, outcome.reason))
  if (outcome.kind === 'untrackable' || outcome.kind === 'unconfirmed') {
    const warning =
      outcome.kind === 'untrackable'
        ? `The ${what} was accepted, but its completion cannot be tracked: ${outcome.reason}.`
        : `The ${what} was accepted, but its completion could not be confirmed: ${outcome.reason}.`
    warn(ctx, warning)
    return { outcome: 'accepted', summary: `${warning} ${checkLaterHint(ctx.siteId, ctx.record.taskId)}` }
  }
  if (op === 'create') fillStagingFields(ctx, outcome.data, outcome.from === 'task' ? TASK : STAGING_READ)
  return { outcome: 'succeeded', summary: '' }
}
