import { isProductionId, stagingSiteIdOf, stagingUrlOf, taskSiteIdOf } from '../contract.js'
import { httpUrl } from '../text.js'
import { warn, type RunContext } from './context.js'

/**
 * The one place the staging site's id and URL are filled from what the server said (contract §5):
 * every source of them (the create answer, a completed task, the staging probe) goes through
 * `fillStagingFields`. A record that names the production site as the staging site is not about
 * staging (§5 r3): nothing in it is used, and the run says so.
 */

/** What the record is: staging data (create answer, probe) or a task's data (only `resource_id`). */
export type StagingSource =
  'the create answer' | 'the task' | 'the staging environment' | `the site list, ${string}`

/**
 * Takes the staging id and URL from `data`, each checked. Returns false when the record was
 * refused (it names the production site), true otherwise.
 */
export function fillStagingFields(ctx: RunContext, data: unknown, source: StagingSource): boolean {
  const id = source === 'the task' ? taskSiteIdOf(data) : stagingSiteIdOf(data)
  if (id !== null && isProductionId(id, ctx.siteId)) {
    warn(
      ctx,
      `${capital(source)} gave the production site's own id (${ctx.siteId}) as the staging site's id: that cannot be true, so the staging site id is unknown and nothing else in that answer was used.`,
    )
    return false
  }
  if (id) {
    ctx.known.stagingSiteId = id
    ctx.known.stagingFrom.siteId = source
  }
  const text = stagingUrlOf(data)
  if (!text) return true
  // Credentials and any value that holds a secret of this run leave the URL before it is used or shown.
  const clean = ctx.redactor.stripUrl(text)
  if (clean === null)
    ctx.logger.warn(
      'Ignored a staging URL that carries the API token in its host or path: it is neither used nor shown.',
    )
  else if (httpUrl(clean)) {
    ctx.known.stagingUrl = clean
    ctx.known.stagingFrom.url = source
  } else
    ctx.logger.warn(`Ignored a staging URL that is not an http(s) URL: "${ctx.redactor.server(text, 80)}".`)
  return true
}

/** The staging site is gone (deleted, or there is none): nothing of it is known any more. */
export function forgetStaging(ctx: RunContext): void {
  ctx.known.stagingSiteId = null
  ctx.known.stagingUrl = null
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
