import { ApiError } from '../api/errors.js'
import { probePath } from '../contract.js'
import type { RunContext } from './context.js'
import { at, note } from './record.js'
import { ENDPOINTS, PUSH_PLAN, PUSH_WARNINGS, taskStatusPath } from './endpoints.js'
import type { Ending } from './ending.js'
import { readStaging } from './probe.js'
import { pushDryRun } from './push.js'
import { rollbackDryRun } from './rollback.js'
import { fillStagingFields, STAGING_READ } from './staging-fields.js'

/** dry-run: says what would be sent, reads the staging environment once, changes nothing. */
export async function dryRun(ctx: RunContext): Promise<Ending> {
  const { config, siteId, client, logger } = ctx
  const op = config.operation
  if (op === 'rollback') return rollbackDryRun(ctx)
  const lines: string[] = []
  let main = ''
  if (op === 'status')
    lines.push(`GET ${client.url(config.taskId ? taskStatusPath(config.taskId) : probePath(siteId))}`)
  else {
    const { method, path } = ENDPOINTS[op]
    main = `${method} ${client.url(path(siteId))}`
    lines.push(main)
    if (op === 'create' && config.ifExists === 'recreate')
      lines.unshift(
        `${ENDPOINTS.delete.method} ${client.url(ENDPOINTS.delete.path(siteId))} (only if staging exists)`,
      )
    // The task-status path with its placeholder shown as such ({task_id}, not %7Btask_id%7D).
    if (config.wait)
      lines.push(`GET ${decodeURI(client.url(taskStatusPath('{task_id}')))} (repeated until the job ends)`)
    if (op === 'push') pushDryRun(ctx, lines)
  }
  logger.info(`Dry run: would send, on site ${siteId}: ${lines.join('; ')}`)
  at(ctx, 'reading the staging environment (dry run)')
  try {
    const read = await readStaging(ctx)
    // A 404 is said as any other answer of the read (its error is not-found, never auth).
    if (read.kind === 'missing') throw read.error
    fillStagingFields(ctx, read.data, STAGING_READ)
    const url = ctx.facts.url
    logger.info(`Dry run: site ${siteId} has a staging environment${url ? ` at ${url}` : ''}.`)
  } catch (e) {
    if (!(e instanceof ApiError) || e.kind === 'auth') throw e
    logger.info(`Dry run: reading the staging environment answered: ${e.message}`)
  }
  const guarded = config.checkpoint !== 'none'
  if (op === 'push') {
    note(ctx, ...PUSH_WARNINGS.filter((_, i) => i > 0 || !guarded).map((w) => `If run: ${w}`))
    for (const line of pushPlan(guarded))
      logger.info(`Dry run: the push ${line.charAt(0).toLowerCase()}${line.slice(1)}`)
  }
  const plan = op === 'push' ? ` ${pushPlan(guarded).join(' ')}` : ''
  return {
    outcome: 'dry-run',
    summary: `Dry run: nothing was changed. Would send ${main || lines[0]}.${plan}${op === 'push' && guarded ? ' But first: a checkpoint of production (a site version), followed to completed; no checkpoint, no push.' : ''}`,
  }
}

/** PUSH_PLAN, without its "no backup" when a checkpoint is taken first (issue 27). */
function pushPlan(checkpoint: boolean): string[] {
  return checkpoint ? PUSH_PLAN.map((l) => l.replace(' No backup is taken first.', '')) : PUSH_PLAN
}
