/**
 * Source 2 of the staging site's id and URL (issue 20 §1): `GET /v2/sites`, read whole (contract r4 §12). A record
 * is this production site's staging only when a field links it so (docs/assumptions.md: STAGING_OF, PARENT on a
 * record marked as staging, STAGING_ID on the production site's own record); never by a name or URL that looks like
 * staging, nor a record whose id is the production id (contract §5, r3).
 */
import { field, idText, isProductionId, isRecord, stagingUrlOf } from '../contract.js'
import { DeadlineError, type StagingApiClient } from '../api/client.js'
import { ApiError } from '../api/errors.js'
import type { RateWindow } from '../api/rate-window.js'

/** Rows asked for per page (the service may answer fewer: `last_page` says how many pages there are), and the most pages read. */
export const LIST_PER_PAGE = 100
export const LIST_MAX_PAGES = 10
/** The fewest rows a page of the family's answers holds (its CLI reads pages of 20: contract r4 §12). */
const SMALLEST_PAGE = 20

/**
 * The most pages one read of the list may take for `sites` sites: the base cap, and room for every staging
 * record of the batch at the smallest page (issue 26 §5): 60 pages for 1000 sites. Still a cap: a server
 * that pages forever cannot keep the run reading.
 */
export function listPagesFor(sites: number): number {
  return LIST_MAX_PAGES + Math.ceil(Math.max(0, sites) / SMALLEST_PAGE)
}

/** What reading the list found: its records, and the pages it did not read, and why. */
export type ListRead =
  | {
      records: Record<string, unknown>[]
      pagesRead: number
      /** Pages not read: 0 when read whole; 'unknown' when no answer said how many pages there are. */
      pagesUnread: number | 'unknown'
      /** Why the walk stopped before the last page (words for people); null when read whole. */
      stoppedBy: string | null
    }
  /** The first page could not be read. */
  | { error: string }

/**
 * Reads the list page by page (one try each), to the last page the answers state (a short page is not the last);
 * without one, to an empty page, a null `next_page_url`, or a page that only repeats rows. It stops early at
 * `maxPages`, the deadline, a later page's failure, and when `supply` has no call to spare: a further page never
 * waits for one, so the list never takes calls the jobs' plan counts on (contract §6 r3). With `idle` (nothing
 * else to send) each page waits its turn and is retried. A first page's timeout is thrown, its failure returned.
 */
export async function readSiteList(
  client: StagingApiClient,
  options: {
    maxPages?: number
    supply?: Pick<RateWindow, 'available'>
    idle?: boolean
    /** Another paged list (a site's versions, contract §13 r5): its path for a page; its first page's error thrown. */
    list?: { path: (page: number, perPage: number) => string; maxRetries: number }
  } = {},
): Promise<ListRead> {
  const { maxPages = LIST_MAX_PAGES, supply, idle = false, list } = options
  const path = list?.path ?? ((page: number, n: number) => `/sites?type=staging&per_page=${n}&page=${page}`)
  const records: Record<string, unknown>[] = []
  const seen = new Set<string>()
  let last: number | null = null
  let read = 0
  const stop = (why: string): ListRead => ({
    records,
    pagesRead: read,
    pagesUnread: last === null ? 'unknown' : Math.max(1, last - read),
    stoppedBy: why,
  })
  for (let page = 1; ; page++) {
    if (page > 1) {
      if (page > maxPages) return stop(`at most ${maxPages} pages are read`)
      if (supply && !idle && supply.available() < 1) return stop('the rate limit left no call to spare')
    }
    let answer
    try {
      answer = await client.call('GET', path(page, LIST_PER_PAGE), 'read', {
        maxRetries: page === 1 && list ? list.maxRetries : idle ? undefined : 0,
      })
    } catch (e) {
      if (e instanceof DeadlineError && page > 1) return stop('the timeout was reached')
      if (!(e instanceof ApiError)) throw e
      if (page === 1 && list) throw e
      if (page === 1) return { error: e.message }
      return stop(e.kind === 'rate-limited' ? 'the service answered 429 (rate limited)' : e.message)
    }
    read = page
    const { data, meta } = answer.reply
    const items = listItems(data)
    last = lastPageOf(meta, data) ?? last
    const fresh = items.filter((r) => !seen.has(rowKey(r)))
    for (const r of items) seen.add(rowKey(r))
    records.push(...fresh)
    const whole = { records, pagesRead: read, pagesUnread: 0, stoppedBy: null }
    // A page of rows all read already is not the page asked for (a server that ignores `page`).
    if (last !== null && page > 1 && items.length > 0 && fresh.length === 0) {
      read = page - 1
      return stop(`page ${page} repeated rows of an earlier page`)
    }
    if (last !== null) {
      if (page >= last) return whole
      continue
    }
    const next = nextPageOf(meta, data)
    if (next === 'none' || items.length === 0 || (next === null && fresh.length === 0)) return whole
  }
}

/** The site list, read once per run and shared by every site; a timeout or cancel of its first page is not kept. */
export class SiteList {
  private reading: Promise<ListRead> | null = null
  /** When (clock ms) the read in `reading` started. */
  private readAt = -Infinity
  /** The run's plan of calls, while it keeps PLANNED_PAGES for the read to come (plan). */
  private planned: { after: number } | null = null
  /** The run's creates and pulls accepted so far, and when the first was (early). */
  private accepted = 0
  private firstAcceptedAt = Infinity

  constructor(
    private readonly supply?: Pick<RateWindow, 'available' | 'windowMs' | 'sharers' | 'needs'>,
    private readonly maxPages = LIST_MAX_PAGES,
  ) {}

  /** A site will read the list (no answer gave its URL): the run's plan keeps calls for it until it is read. */
  plan(polls: { after: number }): void {
    if (this.planned || this.reading) return
    this.planned = polls
    polls.after += PLANNED_PAGES
  }

  /**
   * A create or pull of the run's `sites` was accepted: its staging is a site from then on (contract §5). Sharing an
   * account whose window cannot hold every run's needs (issue 33), once all were accepted, within a window of the
   * first, the list is read while the jobs run: its calls come back with the creates', before the finals need them.
   * Read too early, in part, or without a URL, it is read again after the jobs (fromSiteList); a failed one is dropped.
   */
  early(client: StagingApiClient, sites: number, now: number): void {
    this.firstAcceptedAt = Math.min(this.firstAcceptedAt, now)
    const s = this.supply
    if (++this.accepted !== sites || this.reading || !s || s.sharers <= 1) return
    if (now >= this.firstAcceptedAt + s.windowMs || s.sharers * s.needs() <= s.available()) return
    const reading = this.read(client, -Infinity, now)
    reading.then(
      (list) => 'error' in list && this.reading === reading && (this.reading = null),
      () => {},
    )
  }

  /** The list, read whole once per run, shared by every site; again when the last read started before `since` (a
   * site whose job ended after it, issue 26 §5). `idle`: the run has nothing else to send (readSiteList). */
  read(client: StagingApiClient, since = -Infinity, now = 0, idle = false): Promise<ListRead> {
    if (this.planned) this.planned.after -= PLANNED_PAGES
    this.planned = null
    if (this.reading && this.readAt < since) this.reading = null
    if (!this.reading) this.readAt = now
    const options = { maxPages: this.maxPages, idle, ...(this.supply ? { supply: this.supply } : {}) }
    this.reading ??= readSiteList(client, options).catch((e: unknown) => {
      this.reading = null
      throw e
    })
    return this.reading
  }
}

/** Calls the plan keeps for the list once a site will read it (§6 r3): the first page and one more (readSiteList). */
const PLANNED_PAGES = 2

/** What the list said about this production site's staging. */
export type ListFinding =
  | { found: { id: string; url: string | null; field: string; record: Record<string, unknown> | null } }
  /** `no-link`: no record has any linking field (this path cannot tell); `not-listed`: none links to this site. */
  | { skipped: 'no-link' | 'not-listed' }
  /** Two or more records claim to be its staging (their ids): neither is used. */
  | { conflict: string[] }

const STAGING_OF = ['staging_of', 'production_site_id', 'production_id']
const PARENT = ['parent_id', 'parent_site_id']
const STAGING_ID = ['staging_site_id', 'staging_id']

/** The records of one page of the answer's `data` (an array, or a paginator's `data.data`). */
export function listItems(data: unknown): Record<string, unknown>[] {
  const list = Array.isArray(data) ? data : field(data, 'data')
  return Array.isArray(list) ? list.filter(isRecord) : []
}

/** The last page the answer's paginator states (`meta.last_page`, or `last_page` beside the data), else null. */
export function lastPageOf(meta: unknown, data: unknown): number | null {
  for (const v of [field(meta, 'last_page'), field(data, 'last_page')]) {
    const n = typeof v === 'string' ? Number(v) : v
    if (typeof n === 'number' && Number.isSafeInteger(n) && n >= 1) return n
  }
  return null
}

/**
 * This production site's staging record in a list's records, or why there is none. Two records that claim to
 * be its staging contradict each other (contract r4 §12): neither is used. The same record twice is one claim.
 */
export function findStagingInList(
  records: readonly Record<string, unknown>[],
  productionId: string,
): ListFinding {
  const index = indexOf(records)
  const claims = new Map<string, { field: string; record: Record<string, unknown> | null }>()
  const claim = (id: string | null, field: string, record: Record<string, unknown> | null) => {
    if (!id || id === productionId) return
    const held = claims.get(id)
    if (!held || (!held.record && record)) claims.set(id, { field: held?.field ?? field, record })
  }
  for (const link of index.links.get(productionId) ?? []) claim(link.id, link.field, link.record)
  // The production site's own record may name its staging site; one whose own links name another site contradicts it.
  for (const own of index.own.get(productionId) ?? []) {
    const record = (own.id !== null && index.byId.get(own.id)) || null
    const links = stagingOf(record)
    if (own.id !== null && links.length && !links.some((id) => isProductionId(id, productionId)))
      return { conflict: [productionId, own.id] }
    claim(own.id, own.field, record)
  }
  if (claims.size > 1) return { conflict: [...claims.keys()] }
  const [first] = claims
  if (first) {
    const [id, { field, record }] = first
    return { found: { id, url: record ? stagingUrlOf(record) : null, field, record } }
  }
  return { skipped: index.anyLink ? 'not-listed' : 'no-link' }
}

interface Link {
  id: string | null
  field: string
  record: Record<string, unknown>
}

/** What a read of the list says of every production site, worked out once (a batch asks it per site). */
interface ListIndex {
  /** By production id, in the list's order: the records that name it as the site they stage. */
  links: Map<string, Link[]>
  /** By production id: the staging ids its own record names. */
  own: Map<string, Omit<Link, 'record'>[]>
  /** The first record of each id. */
  byId: Map<string, Record<string, unknown>>
  /** Some record has a linking field (else the list cannot tell). */
  anyLink: boolean
}

const indexes = new WeakMap<readonly Record<string, unknown>[], ListIndex>()

function indexOf(records: readonly Record<string, unknown>[]): ListIndex {
  const known = indexes.get(records)
  if (known) return known
  const index: ListIndex = { links: new Map(), own: new Map(), byId: new Map(), anyLink: false }
  const add = <T>(map: Map<string, T[]>, key: string | null, value: T) =>
    key !== null && map.set(key, [...(map.get(key) ?? []), value])
  for (const r of records) {
    const id = idText(r.id)
    if (id !== null && !index.byId.has(id)) index.byId.set(id, r)
    const staging = markedStaging(r)
    for (const name of staging ? [...STAGING_OF, ...PARENT] : STAGING_OF) {
      if (r[name] === undefined || r[name] === null) continue
      index.anyLink = true
      add(index.links, idText(r[name]), { id, field: name, record: r })
    }
    const name = STAGING_ID.find((n) => r[n] !== undefined && r[n] !== null)
    if (name) index.anyLink = true
    if (name && !staging) add(index.own, id, { id: idText(r[name]), field: name })
  }
  indexes.set(records, index)
  return index
}

/** The production sites a record says it is the staging of, by its own linking fields (none: it does not say). */
export function stagingOf(r: unknown): string[] {
  if (!isRecord(r)) return []
  const names = markedStaging(r) ? [...STAGING_OF, ...PARENT] : STAGING_OF
  return names.map((n) => idText(r[n])).filter((id): id is string => id !== null)
}

/** Marked as a staging site by a field (never by its name or URL). */
function markedStaging(r: Record<string, unknown>): boolean {
  const flag = r.is_staging
  if (flag === true || flag === 1 || flag === '1' || flag === 'true') return true
  return [r.type, r.site_type].some((t) => typeof t === 'string' && t.trim().toLowerCase() === 'staging')
}

/** A paginator without a last page (a "simple" one): `next_page_url` (or `links.next`) null means no more. */
function nextPageOf(meta: unknown, data: unknown): 'more' | 'none' | null {
  for (const holder of [data, meta, field(meta, 'links')])
    for (const name of ['next_page_url', 'next']) {
      if (!isRecord(holder) || !(name in holder)) continue
      return holder[name] === null || holder[name] === '' ? 'none' : 'more'
    }
  return null
}

/** A row as a key, to tell a page that only repeats rows already read. */
function rowKey(r: Record<string, unknown>): string {
  const id = idText(r.id)
  return id !== null ? `id:${id}` : JSON.stringify(r)
}
