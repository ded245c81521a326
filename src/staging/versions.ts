import { ApiError } from '../api/errors.js'
import { DeadlineError } from '../api/client.js'
import { CancelledError } from '../clock.js'
import {
  CHECKPOINT_NAME,
  VERSIONS_PATH,
  deletedIdsOf,
  isProductionId,
  versionCompleted,
  versionIdOf,
  versionListPath,
  versionSiteOf,
  versionTime,
} from '../contract.js'
import type { RunContext } from './context.js'
import { at, deletionSent, warn } from './record.js'
import { readSiteList } from './site-list.js'
import { setting } from '../words.js'

/** A site's version as this tool may touch it (issue 31 §4, contract §13 r5): only versions carrying this tool's
 * mark, of this site by their own record, are ever deleted. */
export interface VersionRecord {
  id: string
  name: string
  completed: boolean
  createdAt: string
  /** Whose version the record says it is (contract §13 r5): this site's, or it names none (others' are left out). */
  site: 'this' | 'unknown'
}

/** The site's versions, newest first, read whole (paged: `meta.last_page`), other sites' left out. */
export interface VersionList {
  versions: VersionRecord[]
  /** The ids of records that named another site (never restored, deleted or counted). */
  others: string[]
  /** Why the list was not read to its last page (words for people), or null. */
  unread: string | null
  /** Not listed newest first, by the records' own dates: `versions` are in the order of those dates. */
  outOfOrder: boolean
  /** Out of order, and a checkpoint of this tool has no date: which is newest is not known (none restored nor pruned). */
  ageUnknown: boolean
}

/** `GET /v2/site-versions`, every page (the site list's paging, site-list.ts), each record's site told. */
export async function listVersions(ctx: RunContext): Promise<VersionList> {
  const read = await readSiteList(ctx.client, {
    list: { path: (page, n) => versionListPath(ctx.siteId, page, n), maxRetries: 2 },
  })
  if ('error' in read) throw new Error(read.error) // not reached: a version list's first page throws
  const versions: VersionRecord[] = []
  const others: string[] = []
  for (const r of read.records) {
    const id = versionIdOf(r)
    if (!id) continue
    const site = versionSiteOf(r)
    if (site !== null && !isProductionId(site, ctx.siteId)) {
      others.push(id)
      continue
    }
    versions.push({
      id,
      name: typeof r.name === 'string' ? ctx.redactor.server(r.name, 60) : '',
      completed: versionCompleted(r),
      createdAt: typeof r.created_at === 'string' ? ctx.redactor.server(r.created_at, 40) : '',
      site: site === null ? 'unknown' : 'this',
    })
  }
  if (others.length > 0)
    warn(
      ctx,
      `The service's list of site ${ctx.siteId}'s versions also named ${others.length} version(s) of other sites: they were left alone (never restored, deleted or counted).`,
    )
  // Newest first, as §13 says; where the records' own dates say otherwise, the dates win (undated last).
  const time = (v: VersionRecord) => versionTime(v.createdAt) || -Infinity
  const dated = versions.filter((v) => time(v) > -Infinity)
  const outOfOrder = dated.some((v, i) => i > 0 && time(dated[i - 1]!) < time(v))
  if (outOfOrder) versions.sort((a, b) => time(b) - time(a) || 0)
  if (outOfOrder)
    warn(ctx, `Site ${ctx.siteId}'s versions were not listed newest first: ordered by their own dates.`)
  const unread = read.stoppedBy ? `${read.pagesUnread} page(s) not read: ${read.stoppedBy}` : null
  const ageUnknown = outOfOrder && versions.some((v) => isOurs(v) && v.completed && time(v) === -Infinity)
  return { versions, others, unread, outOfOrder, ageUnknown }
}

/** Before a checkpoint the service refused for its quota (422): deletes the checkpoints keep-checkpoints would
 * delete after the push (all but the newest `keep - 1`). True when some were deleted. */
export async function makeRoom(ctx: RunContext, keep: number): Promise<boolean> {
  let list: VersionList
  try {
    list = await listVersions(ctx)
  } catch (e) {
    if (e instanceof ApiError) return false
    throw e
  }
  const old = deletable(ctx, list, keep)
  if (old.length === 0) return false
  warn(
    ctx,
    `The service refused a new version (its quota): deleting this tool's older checkpoints of site ${ctx.siteId} first (${old.join(', ')}; ${setting('keep-checkpoints', String(keep))}).`,
  )
  return deleteVersions(ctx, old)
}

/** Whether this tool named the version (its mark, contract §13 r5; never a version a person made). */
export const isOurs = (v: VersionRecord): boolean => CHECKPOINT_NAME.test(v.name)

/** The ids this tool may delete beyond the newest `keep - 1`: its completed checkpoints (a failed one is no
 * way back), of this site by their own record, older than `except` (the one just made: a newer one is another
 * run's). */
function deletable(ctx: RunContext, list: VersionList, keep: number, except = ''): string[] {
  if (list.ageUnknown) return []
  const sent = ctx.record.deleteSent
  const older = list.versions.slice(list.versions.findIndex((v) => isProductionId(v.id, except)) + 1) // newest first
  const ours = older.filter((v) => isOurs(v) && v.completed && v.site === 'this' && !sent.includes(v.id))
  return ours.map((v) => v.id).slice(Math.max(0, keep - 1))
}

/**
 * One `DELETE /v2/site-versions` (ids only: nothing on the server limits it to one site). An answer
 * that did not come is unknown, never "not deleted". True when some were deleted.
 */
async function deleteVersions(ctx: RunContext, ids: string[]): Promise<boolean> {
  at(ctx, 'deleting older checkpoints')
  // Each id is sent for deletion once a run, whatever came back (a list that lags still shows it).
  deletionSent(ctx, ids)
  try {
    const answer = await ctx.client.call('DELETE', VERSIONS_PATH, 'delete', { body: { ids } })
    const { removed, failed } = deletedIdsOf(answer.reply.data)
    const gone = removed.length ? removed : failed.length ? [] : ids
    if (gone.length)
      ctx.logger.info(
        `Deleted ${gone.length} older checkpoint(s) of site ${ctx.siteId} (${gone.join(', ')}).`,
      )
    if (failed.length > 0) warn(ctx, `These older checkpoints could not be deleted: ${failed.join(', ')}.`)
    return gone.length > 0
  } catch (e) {
    if (!stoppable(e)) throw e
    // Stopped by the timeout: its last answer says whether the delete may have gone (429s only: it did not).
    const said = e instanceof DeadlineError ? (e.lastError ?? ctx.client.waitingAfter) : e
    const unknown = !(said instanceof ApiError) || said.processing === 'unknown' || said.afterUnknown
    warn(
      ctx,
      unknown
        ? `Whether older checkpoints (${ids.join(', ')}) were deleted is unknown: ${(e.message || 'no answer came').replace(/\.$/, '')}. Look at site ${ctx.siteId}'s versions in the dashboard.`
        : `Older checkpoints (${ids.join(', ')}) were not deleted: ${e.message}`,
    )
    return false
  }
}

/** Issue 27 §5: after a push that succeeded, this tool's checkpoints beyond `keep` are deleted (never the one just
 * made, one it did not name, or one whose site the list does not say). Never fails the run: a refusal warns. */
export async function pruneCheckpoints(ctx: RunContext, keep: number, current: string): Promise<void> {
  at(ctx, 'reading the versions to prune')
  let list: VersionList
  try {
    list = await listVersions(ctx)
  } catch (e) {
    if (!stoppable(e)) throw e
    warn(
      ctx,
      `Older checkpoints were not deleted: listing site ${ctx.siteId}'s versions failed (${e.message}).`,
    )
    return
  }
  const old = deletable(ctx, list, keep, current)
  if (list.ageUnknown)
    warn(ctx, 'Older checkpoints were not deleted: some have no date, so which are oldest is not known.')
  if (old.length > 0) await deleteVersions(ctx, old)
}

/** What ends a step after the push without changing how the push ended. */
const stoppable = (e: unknown): e is Error =>
  e instanceof ApiError || e instanceof DeadlineError || e instanceof CancelledError
