/**
 * Source 2 of the staging site's id and URL (issue 20 §1): the list the spec documents,
 * `GET /v2/sites` (query parameters `type`, `page`, `per_page`). Pure: an answer in, a finding out.
 *
 * A record is this production site's staging only when one of its fields links it so
 * (docs/assumptions.md): a field whose name says "staging of" (`staging_of`, `production_site_id`,
 * `production_id`) equal to the production id; or `parent_id` / `parent_site_id` equal to it on a
 * record marked as staging (`is_staging` true or 1, or `type` / `site_type` "staging"); or, on the
 * production site's own record, `staging_site_id` / `staging_id` naming the staging record. A name
 * or a URL that looks like staging is never enough. A record whose id is the production id is
 * never the staging site (contract §5, r3).
 */
import { stagingUrlOf } from '../contract.js'

/** What the list said about this production site's staging. */
export type ListFinding =
  | { found: { id: string; url: string | null; field: string; record: Record<string, unknown> | null } }
  /** `no-link`: no record has any linking field (this path cannot tell); `not-listed`: none links to this site. */
  | { skipped: 'no-link' | 'not-listed' }

const STAGING_OF = ['staging_of', 'production_site_id', 'production_id']
const PARENT = ['parent_id', 'parent_site_id']
const STAGING_ID = ['staging_site_id', 'staging_id']

/** The records of one page of the answer's `data` (an array, or a paginator's `data.data`). */
export function listItems(data: unknown): Record<string, unknown>[] {
  const list = Array.isArray(data) ? data : field(data, 'data')
  return Array.isArray(list) ? list.filter(isRecord) : []
}

/** The last page the answer's paginator states (`meta.last_page`, or `last_page` beside the data), else null. */
export function lastPageOf(body: unknown, data: unknown): number | null {
  for (const v of [
    field(field(body, 'meta'), 'last_page'),
    field(data, 'last_page'),
    field(body, 'last_page'),
  ]) {
    const n = typeof v === 'string' ? Number(v) : v
    if (typeof n === 'number' && Number.isSafeInteger(n) && n >= 1) return n
  }
  return null
}

/**
 * This production site's staging record in the records of a list answer (one or more pages put
 * together), or why there is none.
 */
export function findStagingInList(
  records: readonly Record<string, unknown>[],
  productionId: string,
): ListFinding {
  const same = (v: unknown) => idText(v) !== null && idText(v) === productionId
  let anyLink = false
  for (const r of records) {
    const id = idText(r.id)
    for (const name of STAGING_OF) {
      if (r[name] === undefined || r[name] === null) continue
      anyLink = true
      if (same(r[name]) && id && id !== productionId) return found(r, id, name)
    }
    if (markedStaging(r))
      for (const name of PARENT) {
        if (r[name] === undefined || r[name] === null) continue
        anyLink = true
        if (same(r[name]) && id && id !== productionId) return found(r, id, name)
      }
  }
  // The production site's own record may name its staging site.
  for (const r of records) {
    if (!same(r.id) || markedStaging(r)) continue
    for (const name of STAGING_ID) {
      if (r[name] === undefined || r[name] === null) continue
      anyLink = true
      const stagingId = idText(r[name])
      if (!stagingId || stagingId === productionId) continue
      const record = records.find((x) => idText(x.id) === stagingId)
      return {
        found: {
          id: stagingId,
          url: record ? stagingUrlOf(record) : null,
          field: name,
          record: record ?? null,
        },
      }
    }
  }
  for (const r of records) if (STAGING_ID.some((n) => r[n] !== undefined && r[n] !== null)) anyLink = true
  return { skipped: anyLink ? 'not-listed' : 'no-link' }
}

function found(r: Record<string, unknown>, id: string, name: string): ListFinding {
  return { found: { id, url: stagingUrlOf(r), field: name, record: r } }
}

/** Marked as a staging site by a field (never by its name or URL). */
function markedStaging(r: Record<string, unknown>): boolean {
  const flag = r.is_staging
  if (flag === true || flag === 1 || flag === '1' || flag === 'true') return true
  return [r.type, r.site_type].some((t) => typeof t === 'string' && t.trim().toLowerCase() === 'staging')
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function field(data: unknown, name: string): unknown {
  return isRecord(data) ? data[name] : undefined
}

/** An id as text: digits or id characters (a string), or a non-negative integer; else null. */
function idText(value: unknown): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value)
  if (typeof value === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(value.trim())) return value.trim()
  return null
}
