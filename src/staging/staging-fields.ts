import { stagingSiteIdOf, stagingUrlOf, taskSiteIdOf } from '../contract.js'
import { httpUrl } from '../text.js'
import type { RunContext } from './context.js'
import type { Source } from './facts.js'

/** The staging site's id and URL as the server's records say them (contract §5), checked, for the run's facts:
 * the sources whose records are read here, in the words the summary shows. */
export const CREATE_ANSWER: Source = { kind: 'answer', words: 'the create answer' }
export const TASK: Source = { kind: 'answer', words: 'the task' }
export const STAGING_READ: Source = { kind: 'read', words: 'the staging environment' }
export const SITE_LIST: Source = { kind: 'list', words: 'the site list (GET /v2/sites)' }
export const listSource = (field: string): Source => ({
  kind: 'list',
  words: `the site list, GET /v2/sites (field ${field})`,
})

/** Learns the staging id and URL that `data` gives; false when the record was refused (Facts.learn). */
export function fillStagingFields(ctx: RunContext, data: unknown, source: Source): boolean {
  const id = source === TASK ? taskSiteIdOf(data) : stagingSiteIdOf(data)
  return ctx.facts.learn(source, { id, url: cleanUrl(ctx, stagingUrlOf(data)) })
}

/** A staging URL as it may be used and shown: credentials out, http(s) only; else null, with a warning. */
export function cleanUrl(ctx: RunContext, text: string | null): string | null {
  if (!text) return null
  // Credentials and any value that holds a secret of this run leave the URL before it is used or shown.
  const clean = ctx.redactor.stripUrl(text)
  if (clean === null)
    ctx.logger.warn(
      'Ignored a staging URL that carries the API token in its host or path: it is neither used nor shown.',
    )
  else if (httpUrl(clean)) return clean
  else
    ctx.logger.warn(`Ignored a staging URL that is not an http(s) URL: "${ctx.redactor.server(text, 80)}".`)
  return null
}
