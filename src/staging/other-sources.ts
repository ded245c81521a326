import { httpUrl } from '../text.js'
import type { StagingHint } from '../types.js'
import type { RunContext } from './context.js'
import { at } from './record.js'
import { findStagingInList } from './site-list.js'
import { cleanUrl, listSource, SITE_LIST } from './staging-fields.js'
import { waitForUrl } from './url-check.js'
import { capitalised, perDoor } from '../words.js'

/**
 * The staging site's id and URL when this run's answers did not say them (issue 20 §1), after the answers
 * (source 1): 2. the site list (site-list.ts), read once the run's other jobs ended; 3. a URL an earlier run
 * recorded (`config.stagingHints`); 4. the `staging-url` input, each of these two used only once it answers.
 * `readStaging`: the after-job staging read, when the run put the list before it (after-job.ts). Each source
 * tells the run's facts what it found (facts.ts), or why it gave nothing. Best effort: nothing fails a run.
 */
export async function fillFromOtherSources(
  ctx: RunContext,
  readStaging?: () => Promise<void>,
): Promise<void> {
  if (!ctx.facts.complete) {
    const listed = await fromSiteList(ctx)
    if ('note' in listed) ctx.facts.note(listed.note)
  }
  if (!ctx.facts.complete && readStaging) await readStaging()
  if (!ctx.facts.url) await fillFromHints(ctx)
}

/** How long a known URL gets to answer. */
const HINT_CHECK_MS = 10_000

/** This site's staging record in the site list, learnt, or why the list does not name it. A list read in part
 * never says it names no staging site: it says how many pages it did not read (contract r4 §12). */
export async function fromSiteList(
  ctx: RunContext,
): Promise<{ record: Record<string, unknown> | null } | { note: string }> {
  await ctx.polls.untilQuiet()
  at(ctx, 'reading the site list for the staging site')
  const ended = ctx.clock.now()
  let list = await ctx.siteList.read(ctx.client, -Infinity, ended, ctx.polls.idle)
  if ('error' in list) return { note: `The site list (GET /v2/sites) could not be read: ${list.error}` }
  let finding = findStagingInList(list.records, ctx.siteId)
  // Read before this site's job ended (early, maybe empty) and not naming it or its URL: read again, with calls
  // to spare or nothing else to send (issue 26 §5; sites ending meanwhile share that read; none after its end).
  if (
    ('skipped' in finding || ('found' in finding && !finding.found.url)) &&
    (ctx.polls.spareNow() || ctx.polls.idle)
  ) {
    list = await ctx.siteList.read(ctx.client, ended, ctx.clock.now(), ctx.polls.idle)
    if ('error' in list) return { note: `The site list (GET /v2/sites) could not be read: ${list.error}` }
    finding = findStagingInList(list.records, ctx.siteId)
  }
  const unread =
    list.stoppedBy === null
      ? ''
      : ` (${list.pagesUnread === 'unknown' ? 'further pages were' : `${list.pagesUnread} of its ${list.pagesRead + list.pagesUnread} pages ${list.pagesUnread === 1 ? 'was' : 'were'}`} not read: ${list.stoppedBy})`
  if ('found' in finding) {
    const { id, url, field, record } = finding.found
    ctx.facts.learn(listSource(field), { id, url: cleanUrl(ctx, url) })
    return { record }
  }
  if ('conflict' in finding) {
    const note = `The site list (GET /v2/sites) has records that contradict each other about this site's staging (${finding.conflict.join(', ')}), so neither was used.`
    return { note }
  }
  const where =
    list.stoppedBy === null
      ? 'in it'
      : list.pagesRead === 1
        ? 'in the page read'
        : `in the ${list.pagesRead} pages read`
  if (finding.skipped === 'no-link')
    return {
      note: `The site list (GET /v2/sites) was skipped: no record ${where} says which site is another site's staging${unread}.`,
    }
  if (list.stoppedBy !== null)
    return {
      note: `${list.pagesRead === 1 ? 'The one page of the site list (GET /v2/sites) that was read names' : `The ${list.pagesRead} pages of the site list (GET /v2/sites) that were read name`} no staging site for this site${unread}.`,
    }
  // Read whole, and no record links to this site: a weaker word than this run's answers (§3 r4).
  ctx.facts.learn(SITE_LIST, { state: 'none' })
  return { note: 'The site list (GET /v2/sites) names no staging site for this site.' }
}

/** Sources 3 and 4: the hints the front door gave, then the staging-url input; each must answer. */
async function fillFromHints(ctx: RunContext): Promise<void> {
  const hints: StagingHint[] = [...(ctx.config.stagingHints ?? [])]
  if (ctx.config.stagingUrl)
    hints.push({
      url: ctx.config.stagingUrl,
      from: perDoor({
        action: 'the staging-url input',
        gitlab: 'the staging-url input',
        pipe: 'the staging-url setting',
        cli: 'the --staging-url option',
      }),
    })
  for (const hint of hints) {
    const url = ctx.redactor.stripUrl(hint.url)
    if (!url || !httpUrl(url)) {
      ctx.facts.note(`${capitalised(hint.from)} gave a URL that is not a plain http(s) URL: it was not used.`)
      continue
    }
    at(ctx, `checking ${url} (from ${hint.from})`)
    const answered = await waitForUrl(url, ctx, {
      deadline: Math.min(ctx.client.deadline, ctx.clock.now() + HINT_CHECK_MS),
      why: `checking the staging URL from ${hint.from}`,
    })
    if (answered) {
      ctx.facts.learn({ kind: 'outside', words: `${hint.from} (it answers)` }, { url })
      return
    }
    ctx.facts.note(
      answered === null
        ? `${capitalised(hint.from)} gave ${url}, plain http on a host that is not loopback: not checked, so not used.`
        : `${capitalised(hint.from)} gave ${url}, which did not answer: it was not used.`,
    )
  }
}
