import { ApiError } from '../api/errors.js'
import { httpUrl } from '../text.js'
import type { StagingHint } from '../types.js'
import type { RunContext } from './context.js'
import { findStagingInList, listItems } from './site-list.js'
import { fillStagingFields } from './staging-fields.js'
import { waitForUrl } from './url-check.js'
import { capitalised, perDoor } from '../words.js'

/**
 * The staging site's id and URL when this run's answers did not say them (issue 20 §1), in this
 * order after the answers themselves (source 1):
 *  2. the list the spec documents, `GET /v2/sites`, where a field links a record to this production
 *     site as its staging (src/staging/site-list.ts); skipped, and said so, when none does;
 *  3. a URL an earlier run recorded (the front door passes it as `config.stagingHints`);
 *  4. the `staging-url` input.
 * A URL from 3 or 4 is used only once it answers HTTP. Every source says in `known.stagingFrom`
 * where the id and URL came from, or why it gave nothing. Best effort: nothing here fails a run.
 */
export async function fillFromOtherSources(ctx: RunContext): Promise<void> {
  if (!ctx.known.stagingSiteId || !ctx.known.stagingUrl) await fillFromSiteList(ctx)
  if (!ctx.known.stagingUrl) await fillFromHints(ctx)
}

/** Pages of the list read at most (100 records each), and how long a known URL gets to answer. */
const MAX_PAGES = 5
const PER_PAGE = 100
const HINT_CHECK_MS = 10_000

/**
 * The site list, read once per run and shared by every site of a batch (like the check of the API
 * root): at most MAX_PAGES pages of staging records, or why it could not be read.
 */
export class SiteList {
  private read: Promise<{ records: Record<string, unknown>[] } | { error: string }> | null = null
  /** When the read in `read` started. */
  private readAt = -Infinity

  /** The list, read again when the last read started before `since` (issue 26 §5). */
  records(
    ctx: RunContext,
    since = -Infinity,
  ): Promise<{ records: Record<string, unknown>[] } | { error: string }> {
    if (this.read && this.readAt < since) this.read = null
    if (!this.read) this.readAt = ctx.clock.now()
    this.read ??= readPages(ctx).catch((e: unknown) => {
      // A timeout or a cancellation ends the run anyway: not remembered.
      this.read = null
      throw e
    })
    return this.read
  }
}

async function readPages(
  ctx: RunContext,
): Promise<{ records: Record<string, unknown>[] } | { error: string }> {
  const records: Record<string, unknown>[] = []
  for (let page = 1; page <= MAX_PAGES; page++) {
    try {
      const answer = await ctx.client.call(
        'GET',
        `/sites?type=staging&per_page=${PER_PAGE}&page=${page}`,
        'read',
        {
          maxRetries: 0,
        },
      )
      const items = listItems(answer.reply.data)
      records.push(...items)
      if (items.length < PER_PAGE) break
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
      if (records.length > 0) break
      return { error: e.message }
    }
  }
  return { records }
}

async function fillFromSiteList(ctx: RunContext): Promise<void> {
  const listed = await fromSiteList(ctx)
  if ('note' in listed) note(ctx, listed.note)
}

/**
 * This site's staging record in the site list, its id and URL taken where still unknown (what the
 * answers said stays); or why the list does not name it.
 */
export async function fromSiteList(
  ctx: RunContext,
): Promise<{ record: Record<string, unknown> | null } | { note: string }> {
  const { known } = ctx
  ctx.phase = 'reading the site list for the staging site'
  const ended = ctx.clock.now()
  const siteList = ctx.siteList ?? new SiteList()
  let list = await siteList.records(ctx)
  if ('error' in list) return { note: `The site list (GET /v2/sites) could not be read: ${list.error}` }
  let finding = findStagingInList(list.records, ctx.siteId)
  // Read before this site's job ended and not naming it: read again, with calls to spare (issue
  // 26 §5; sites ending meanwhile share that read).
  if ('skipped' in finding && finding.skipped === 'not-listed' && ctx.polls.spareNow()) {
    list = await siteList.records(ctx, ended)
    if ('error' in list) return { note: `The site list (GET /v2/sites) could not be read: ${list.error}` }
    finding = findStagingInList(list.records, ctx.siteId)
  }
  if ('found' in finding) {
    const { id, url, field, record } = finding.found
    fillStagingFields(
      ctx,
      { staging_site_id: known.stagingSiteId ? null : id, staging_url: known.stagingUrl ? null : url },
      `the site list, GET /v2/sites (field ${field})`,
    )
    return { record }
  }
  return {
    note:
      finding.skipped === 'not-listed'
        ? 'The site list (GET /v2/sites) names no staging site for this site.'
        : "The site list (GET /v2/sites) was skipped: no record in it says which site is another site's staging.",
  }
}

/** Sources 3 and 4: the hints the front door gave, then the staging-url input; each must answer. */
async function fillFromHints(ctx: RunContext): Promise<void> {
  const hints: StagingHint[] = [...(ctx.config.stagingHints ?? [])]
  if (ctx.config.stagingUrl)
    hints.push({
      url: ctx.config.stagingUrl,
      from: perDoor('the staging-url input', 'the --staging-url option'),
    })
  for (const hint of hints) {
    const url = ctx.redactor.stripUrl(hint.url)
    if (!url || !httpUrl(url)) {
      note(ctx, `${capital(hint.from)} gave a URL that is not a plain http(s) URL: it was not used.`)
      continue
    }
    ctx.phase = `checking ${url} (from ${hint.from})`
    const answered = await waitForUrl(url, {
      clock: ctx.clock,
      logger: ctx.logger,
      deadline: Math.min(ctx.client.deadline, ctx.clock.now() + HINT_CHECK_MS),
      why: `checking the staging URL from ${hint.from}`,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    })
    if (answered) {
      ctx.known.stagingUrl = url
      ctx.known.stagingFrom.url = `${hint.from} (it answers)`
      return
    }
    note(
      ctx,
      answered === null
        ? `${capital(hint.from)} gave ${url}, plain http on a host that is not loopback: not checked, so not used.`
        : `${capital(hint.from)} gave ${url}, which did not answer: it was not used.`,
    )
  }
}

function note(ctx: RunContext, text: string): void {
  ctx.logger.info(text)
  if (!ctx.known.stagingFrom.notes.includes(text)) ctx.known.stagingFrom.notes.push(text)
}

function capital(text: string): string {
  return capitalised(text)
}
