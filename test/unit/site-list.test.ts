/**
 * findStagingInList (src/staging/site-list.ts): this production site's staging record in a
 * GET /v2/sites answer, only where a field links it; against both simulator profiles' real answers
 * and hand-made records in other shapes.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { SIM_SITES, SIM_TOKENS, start, type Simulator } from '../../simulator/server.js'
import { findStagingInList, lastPageOf, listItems } from '../../src/staging/site-list.js'

const WITH = String(SIM_SITES.withStaging)
const WITHOUT = String(SIM_SITES.eligible)

describe.each(['service', 'spec'] as const)("the simulator's %s profile", (profile) => {
  let sim: Simulator
  beforeAll(async () => {
    sim = await start({ port: 0, profile })
  })
  afterAll(() => sim.stop())

  const list = async (query: string) => {
    const res = await fetch(`${sim.apiUrl}/v2/sites?${query}`, {
      headers: { Authorization: `Bearer ${SIM_TOKENS.readWrite}`, Accept: 'application/json' },
    })
    expect(res.status).toBe(200)
    const body = (await res.json()) as { data: unknown }
    return { body, records: listItems(body.data) }
  }

  test('the staging record links to its production site by a field; its id and URL are found', async () => {
    const { body, records } = await list('per_page=100')
    const finding = findStagingInList(records, WITH)
    const stagingId = profile === 'service' ? String(50_000 + Number(WITH)) : `s-${WITH}`
    expect(finding).toEqual({
      found: {
        id: stagingId,
        url: sim.state.staging.get(WITH)!.url,
        field: profile === 'service' ? 'parent_id' : 'production_site_id',
        // The record itself comes along (for its other fields), and it is the staging site's.
        record: records.find((r) => String(r.id) === stagingId),
      },
    })
    expect(lastPageOf(body, (body as { data: unknown }).data)).toBe(1)
  })

  test('type=staging lists only staging records, which still link', async () => {
    const { records } = await list('type=staging&per_page=100')
    expect(records.length).toBeGreaterThan(0)
    expect(findStagingInList(records, WITH)).toHaveProperty('found')
    // A site without staging: links exist in the answer, none to it.
    expect(findStagingInList(records, WITHOUT)).toEqual({ skipped: 'not-listed' })
  })

  test('paginated: per_page=1 says how many pages there are', async () => {
    const { body } = await list('per_page=1')
    expect(lastPageOf(body, (body as { data: unknown }).data)).toBeGreaterThan(1)
  })
})

describe('findStagingInList, other shapes', () => {
  test('no record has a linking field: the path is skipped as no-link (a name or URL is never enough)', () => {
    const records = [
      { id: 1002, name: 'blog', url: 'https://blog.example.test' },
      { id: 51002, name: 'blog-staging', url: 'https://staging-blog.example.test', status: 0 },
    ]
    expect(findStagingInList(records, '1002')).toEqual({ skipped: 'no-link' })
  })

  test('parent_id alone (a clone, say) is not staging without a staging mark', () => {
    expect(findStagingInList([{ id: 7, parent_id: 1002, url: 'https://clone.test' }], '1002')).toEqual({
      skipped: 'no-link',
    })
    const marked = { id: 7, parent_id: '1002', site_type: 'Staging', wp_url: 'https://s.test' }
    expect(findStagingInList([marked], '1002')).toEqual({
      found: { id: '7', url: 'https://s.test', field: 'parent_id', record: marked },
    })
    const flagged = { id: 8, staging_of: 1002, is_staging: 1 }
    expect(findStagingInList([flagged], '1002')).toEqual({
      found: { id: '8', url: null, field: 'staging_of', record: flagged },
    })
  })

  test("the production record's staging_site_id names the staging record, whose URL is read", () => {
    const records = [
      { id: 1002, staging_site_id: 51002 },
      { id: 51002, staging_url: 'https://staging.test/', url: 'https://other.test/' },
    ]
    expect(findStagingInList(records, '1002')).toEqual({
      found: { id: '51002', url: 'https://staging.test/', field: 'staging_site_id', record: records[1] },
    })
    // The staging record is not in the list: its id is known, nothing else.
    expect(findStagingInList([{ id: 1002, staging_site_id: 51002 }], '1002')).toEqual({
      found: { id: '51002', url: null, field: 'staging_site_id', record: null },
    })
  })

  test('a record whose id is the production id is never its staging; junk is read tolerantly', () => {
    expect(findStagingInList([{ id: 1002, production_site_id: 1002, is_staging: true }], '1002')).toEqual({
      skipped: 'not-listed',
    })
    expect(findStagingInList([{ id: 1002, staging_site_id: '1002' }], '1002')).toEqual({
      skipped: 'not-listed',
    })
    expect(listItems({ data: [null, 3, 'x', { id: 1 }] })).toEqual([{ id: 1 }])
    expect(listItems('nope')).toEqual([])
    expect(findStagingInList([{ id: { evil: 1 }, production_site_id: [1002] }], '1002')).toEqual({
      skipped: 'not-listed',
    })
    expect(lastPageOf({ meta: { last_page: 'x' } }, [])).toBeNull()
  })
})
