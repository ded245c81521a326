import { ApiError } from '../api/errors.js'
import { probePath } from '../contract.js'
import type { RunContext } from './context.js'
import { ENDPOINTS, PUSH_PLAN, PUSH_WARNINGS, taskStatusPath } from './endpoints.js'
import type { Ending } from './ending.js'
import { readStaging } from './probe.js'
import { fillStagingFields, STAGING_READ } from './staging-fields.js'

/** dry-run: says what would be sent, reads the staging environment once, changes nothing. */
export async function dryRun(ctx: RunContext): Promise<Ending> {
  const { config, siteId, client, logger, known } = ctx
  const op = config.operation
  const lines: string[] = []
  if (op === 'status')
    lines.push(`GET ${client.url(config.taskId ? taskStatusPath(config.taskId) : probePath(siteId))}`)
  else {
    const { method, path } = ENDPOINTS[op]
    lines.push(`${method} ${client.url(path(siteId))}`)
    if (op === 'create' && config.ifExists === 'recreate')
      lines.unshift(
        `${ENDPOINTS.delete.method} ${client.url(ENDPOINTS.delete.path(siteId))} (only if staging exists)`,
      )
    // The task-status path with its placeholder shown as such ({task_id}, not %7Btask_id%7D).
    if (config.wait)
      lines.push(`GET ${decodeURI(client.url(taskStatusPath('{task_id}')))} (repeated until the job ends)`)
  }
  logger.info(`Dry run: would send, on site ${siteId}: ${lines.join('; ')}`)
  ctx.phase = 'reading the staging environment (dry run)'
  try {
    const read = await readStaging(ctx)
    if (read.kind === 'missing')
      logger.info(`Dry run: reading the staging environment answered: ${read.error.message}`)
    else {
      fillStagingFields(ctx, read.data, STAGING_READ)
      const url = ctx.facts.url
      logger.info(`Dry run: site ${siteId} has a staging environment${url ? ` at ${url}` : ''}.`)
    }
  } catch (e) {
    if (!(e instanceof ApiError)) throw e
    if (e.kind === 'auth') throw e
    logger.info(`Dry run: reading the staging environment answered: ${e.message}`)
  }
  if (op === 'push') {
    known.warnings.push(...PUSH_WARNINGS.map((w) => `If run: ${w}`))
    for (const line of PUSH_PLAN)
      logger.info(`Dry run: the push ${line.charAt(0).toLowerCase()}${line.slice(1)}`)
  }
  const plan = op === 'push' ? ` ${PUSH_PLAN.join(' ')}` : ''
  return {
    outcome: 'dry-run',
    summary: `Dry run: nothing was changed. Would send ${lines.find((l) => !l.endsWith('exists)'))}.${plan}`,
  }
}
