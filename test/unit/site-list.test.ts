/**
 * The site list (src/staging/site-list.ts): read whole, page by page, to the last page its paginator
 * states (contract r4 §12), and what it did not read when it stops before; this production site's
 * staging record in it, only where a field links it, and neither of two that claim it. Against
 * both simulator profiles' real answers and hand-made records in other shapes.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals'
import { SIM_SITES, SIM_TOKENS, start, type Simulator } from '../../simulator/server.js'
import { productionSite, stagingSite } from '../../simulator/seed.js'
import { field } from '../../src/contract.js'
import {
  findStagingInList,
  lastPageOf,
  listItems,
  readSiteList,
  SiteList,
} from '../../src/staging/site-list.js'
import { client } from '../helpers/client.js'

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
    expect(lastPageOf(field(body, 'meta'), field(body, 'data'))).toBe(1)
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
    expect(lastPageOf(field(body, 'meta'), field(body, 'data'))).toBeGreaterThan(1)
  })
})

describe('findStagingInList, other shapes', () => {
  test('one list asked for every site of a batch answers each with its own record', () => {
    const records = [
      { id: 1, staging_site_id: 11, url: 'https://one.test' },
      { id: 11, staging_of: 1, url: 'https://s-one.test' },
      { id: 12, parent_id: 2, type: 'staging', url: 'https://s-two.test' },
      { id: 2, url: 'https://two.test' },
      { id: 3, url: 'https://three.test' },
    ]
    for (let round = 0; round < 2; round++) {
      expect(findStagingInList(records, '1')).toMatchObject({
        found: { id: '11', url: 'https://s-one.test' },
      })
      expect(findStagingInList(records, '2')).toMatchObject({ found: { id: '12', field: 'parent_id' } })
      expect(findStagingInList(records, '3')).toEqual({ skipped: 'not-listed' })
    }
  })

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
    expect(lastPageOf({ last_page: 'x' }, [])).toBeNull()
  })
})

/** `count` more production sites (ids from 5001), each with a staging site: the list gets pages. */
function addStagedSites(sim: Simulator, count: number): string {
  let id = 5000
  for (let n = 0; n < count; n++) {
    id = 5001 + n
    const site = productionSite({ id, name: `site${id}`, tags: [] }, 0)
    sim.state.sites.set(String(id), site)
    sim.state.staging.set(String(id), stagingSite(site, 0, `seeded-${id}`, sim.url))
  }
  return String(id)
}

describe('the list read while the jobs run, by runs that share an account too small for them all (issue 33)', () => {
  // A run of 3 sites; its share of the window: what the others leave, against what every run needs.
  const window = (sharers: number, needs: number, available: number) => ({
    available: () => available,
    windowMs: 60_000,
    sharers,
    needs: () => needs,
  })
  test.each([
    [
      'sharing, every run needing more than is left: read once, at the last acceptance',
      window(8, 10, 20),
      0,
      1,
    ],
    ['sharing, what is left holds every run', window(4, 5, 40), 0, 0],
    ['alone (the list waits for the jobs, as ever)', window(1, 50, 10), 0, 0],
    ['the last acceptance a window after the first', window(8, 10, 20), 60_000, 0],
  ])('%s', async (_, supply, late, reads) => {
    const sim = await start({ port: 0, profile: 'service' })
    try {
      const api = client({ apiUrl: `${sim.apiUrl}/v2`, token: SIM_TOKENS.readWrite }).c
      const list = new SiteList(supply)
      list.early(api, 3, 0)
      list.early(api, 3, 1000)
      list.early(api, 3, late + 2000)
      const read = await list.read(api) // after the jobs: the early read serves, when there was one
      expect(read).toMatchObject({ stoppedBy: null })
      expect(sim.requests.filter((r) => r.path.includes('/v2/sites?')).length).toBe(1)
      // When the one read started: at the last acceptance, or after the jobs (`read`'s time, 0 here).
      expect((list as unknown as { readAt: number }).readAt).toBe(reads ? late + 2000 : 0)
    } finally {
      await sim.stop()
    }
  })
})

describe.each(['service', 'spec'] as const)(
  'readSiteList on the %s profile: the list read whole',
  (profile) => {
    let sim: Simulator
    let last: string
    beforeAll(async () => {
      sim = await start({ port: 0, profile })
    })
    afterAll(() => sim.stop())
    beforeEach(() => {
      sim.reset()
      // 45 staging sites more than the seed's one: 46 rows, 3 pages of 20 (the service answers 20 a
      // page whatever per_page asks; the spec profile is capped the same way here).
      sim.setOptions({ listPageCap: profile === 'spec' ? 20 : null, listPaginator: 'meta' })
      last = addStagedSites(sim, 45)
    })
    const api = () => client({ apiUrl: `${sim.apiUrl}/v2`, token: SIM_TOKENS.readWrite }).c

    test('a page shorter than per_page asks is not the last: every page is read, to meta.last_page', async () => {
      const read = await readSiteList(api())
      expect(read).toMatchObject({ pagesRead: 3, pagesUnread: 0, stoppedBy: null })
      if ('error' in read) throw new Error(read.error)
      expect(read.records).toHaveLength(46)
      // The last site's staging is on the last page, and is found.
      expect(findStagingInList(read.records, last)).toHaveProperty(
        'found.url',
        sim.state.staging.get(last)!.url,
      )
      const pages = sim.requests.filter((r) => r.path.includes('/v2/sites?')).map((r) => r.path)
      expect(pages).toHaveLength(3)
      expect(pages.at(-1)).toMatch(/[?&]page=3(&|$)/)
    })

    test('the paginator inside data (data.data, data.last_page) is walked the same way', async () => {
      sim.setOptions({ listPaginator: 'data' })
      const read = await readSiteList(api())
      expect(read).toMatchObject({ pagesRead: 3, pagesUnread: 0, stoppedBy: null })
      if (!('error' in read)) expect(findStagingInList(read.records, last)).toHaveProperty('found')
    })

    test('stopped by a cap: it says how many pages it did not read, and the unread record is not found', async () => {
      const read = await readSiteList(api(), { maxPages: 2 })
      expect(read).toMatchObject({ pagesRead: 2, pagesUnread: 1, stoppedBy: 'at most 2 pages are read' })
      if (!('error' in read)) expect(findStagingInList(read.records, last)).toEqual({ skipped: 'not-listed' })
    })

    test('stopped by a 429 on page 2: two pages unread, nothing sent again', async () => {
      sim.addFault({ method: 'GET', path: /\/sites\?.*page=2/, status: 429, retryAfter: 1 })
      const read = await readSiteList(api())
      expect(read).toMatchObject({ pagesRead: 1, pagesUnread: 2 })
      if (!('error' in read)) expect(read.stoppedBy).toMatch(/429/)
      expect(sim.requests.filter((r) => r.path.includes('/v2/sites?'))).toHaveLength(2)
    })

    test('a rate window with no call to spare: no further page waits for it', async () => {
      const read = await readSiteList(api(), { supply: { available: () => 0 } })
      expect(read).toMatchObject({
        pagesRead: 1,
        pagesUnread: 2,
        stoppedBy: 'the rate limit left no call to spare',
      })
    })

    test('with nothing else to send (idle), a further page waits its turn and a 429 is sent again: the list is read whole', async () => {
      sim.addFault({ method: 'GET', path: /\/sites\?.*page=2/, status: 429, retryAfter: 1 })
      const { c, clock } = client({ apiUrl: `${sim.apiUrl}/v2`, token: SIM_TOKENS.readWrite })
      const started = clock.now()
      const read = await readSiteList(c, { supply: { available: () => 0 }, idle: true })
      expect(read).toMatchObject({ pagesRead: 3, pagesUnread: 0, stoppedBy: null })
      if (!('error' in read)) expect(findStagingInList(read.records, last)).toHaveProperty('found')
      // Page 2 twice: refused, then again after its Retry-After (1 s), not before.
      const pages = sim.requests.filter((r) => r.path.includes('/v2/sites?')).map((r) => r.path)
      expect(pages.filter((p) => /[?&]page=2(&|$)/.test(p))).toHaveLength(2)
      expect(clock.now() - started).toBeGreaterThanOrEqual(1000)
    })

    test('idle, a page refused every time is tried as max-retries says, then the walk stops', async () => {
      sim.addFault({ method: 'GET', path: /\/sites\?.*page=2/, status: 429, retryAfter: 1, times: Infinity })
      const { c } = client({ apiUrl: `${sim.apiUrl}/v2`, token: SIM_TOKENS.readWrite, maxRetries: 2 })
      const read = await readSiteList(c, { idle: true })
      expect(read).toMatchObject({ pagesRead: 1, pagesUnread: 2 })
      if (!('error' in read)) expect(read.stoppedBy).toMatch(/429/)
      const pages = sim.requests.filter((r) => r.path.includes('/v2/sites?')).map((r) => r.path)
      expect(pages.filter((p) => /[?&]page=2(&|$)/.test(p))).toHaveLength(3)
    })

    test('stopped by the timeout after page 1: what was read is kept, and the pages left are said', async () => {
      const { c, clock } = client({ apiUrl: `${sim.apiUrl}/v2`, token: SIM_TOKENS.readWrite })
      // The run's deadline passes while page 1 is answered (the clock steps past it before page 2).
      const supply = {
        available: () => {
          clock.t = c.deadline
          return 1
        },
      }
      const read = await readSiteList(c, { supply })
      expect(read).toMatchObject({ pagesRead: 1, pagesUnread: 2, stoppedBy: 'the timeout was reached' })
      if (!('error' in read)) expect(read.records).toHaveLength(20)
    })

    test('the first page failing is no reading at all', async () => {
      sim.addFault({ method: 'GET', path: /\/sites\?/, status: 500 })
      const read = await readSiteList(api())
      expect(read).toHaveProperty('error')
    })
  },
)

describe('readSiteList without a stated last page', () => {
  let sim: Simulator
  beforeAll(async () => {
    sim = await start({ port: 0 })
  })
  afterAll(() => sim.stop())
  beforeEach(() => sim.reset())
  const api = () => client({ apiUrl: `${sim.apiUrl}/v2`, token: SIM_TOKENS.readWrite }).c
  const page = (data: unknown) => ({ status: true, message: 'ok', data })

  test('a short page with no paginator is not the last: the next is read, and an empty one ends it', async () => {
    sim.addFault({ method: 'GET', path: /page=1(&|$)/, json: page([{ id: 7, staging_of: 1001 }]) })
    sim.addFault({ method: 'GET', path: /page=2(&|$)/, json: page([{ id: 8, staging_of: 1002 }]) })
    sim.addFault({ method: 'GET', path: /page=3(&|$)/, json: page([]) })
    const read = await readSiteList(api())
    expect(read).toMatchObject({ pagesRead: 3, pagesUnread: 0 })
    if (!('error' in read)) expect(findStagingInList(read.records, '1002')).toHaveProperty('found.id', '8')
  })

  test('a server that ignores page (the same rows again) is read once; a null next_page_url ends a simple paginator', async () => {
    sim.addFault({ method: 'GET', path: /\/sites\?/, times: 2, json: page([{ id: 7, staging_of: 1001 }]) })
    expect(await readSiteList(api())).toMatchObject({ pagesRead: 2, pagesUnread: 0 })
    sim.addFault({
      method: 'GET',
      path: /\/sites\?/,
      json: page({ data: [{ id: 7, staging_of: 1001 }], next_page_url: null }),
    })
    expect(await readSiteList(api())).toMatchObject({ pagesRead: 1, pagesUnread: 0 })
  })

  test('stopped by the cap with no stated last page: the pages left are unknown, not zero', async () => {
    sim.addFault({
      method: 'GET',
      path: /\/sites\?/,
      times: Infinity,
      json: page({ data: [{ id: 7, staging_of: 1001 }], next_page_url: 'https://x.test/next' }),
    })
    expect(await readSiteList(api(), { maxPages: 3 })).toMatchObject({ pagesRead: 3, pagesUnread: 'unknown' })
  })
})

describe('a page that repeats an earlier one, with last_page stated', () => {
  test('is not read: the list is not whole, and says which page', async () => {
    const page1 = { data: [{ id: 700, staging_of: 9 }], meta: { current_page: 1, last_page: 2 } }
    const answers = { call: async () => ({ reply: page1 }) } // every page answered with page 1
    const read = await readSiteList(answers as never)
    expect(read).toMatchObject({
      pagesRead: 1,
      pagesUnread: 1,
      stoppedBy: 'page 2 repeated rows of an earlier page',
    })
  })
})

describe('two records that claim the same production site', () => {
  test('contradict each other: neither is used', () => {
    const records = [
      { id: 51002, is_staging: true, parent_id: 1002, url: 'https://a.test/' },
      { id: 61002, staging_of: 1002, url: 'https://b.test/' },
    ]
    expect(findStagingInList(records, '1002')).toEqual({ conflict: ['51002', '61002'] })
    // The production record naming another staging site than the one that claims it: the same.
    expect(
      findStagingInList(
        [
          { id: 1002, staging_site_id: 7 },
          { id: 8, staging_of: 1002 },
        ],
        '1002',
      ),
    ).toEqual({ conflict: ['8', '7'] })
    // The production record naming a record that says it is another site's staging: never this site's.
    expect(
      findStagingInList(
        [
          { id: 1, staging_site_id: 700 },
          { id: 700, type: 'staging', parent_id: 2, url: 'https://two-staging.example.test/' },
        ],
        '1',
      ),
    ).toEqual({ conflict: ['1', '700'] })
  })

  test('one record seen twice (it moved between pages), or named by both ends, is one claim', () => {
    const staging = { id: 51002, is_staging: true, parent_id: 1002, url: 'https://a.test/' }
    const records = [staging, { ...staging }, { id: 1002, staging_site_id: 51002 }]
    expect(findStagingInList(records, '1002')).toMatchObject({
      found: { id: '51002', url: 'https://a.test/' },
    })
  })
})

describe("the site list's calls in the run's plan (contract §6 r3)", () => {
  test('a site that will read it keeps 2 calls in the plan, once per run, until the read starts', async () => {
    const sim = await start({ port: 0, profile: 'service' })
    try {
      const polls = { after: 1 } // a checkpoint's push keeps one already
      const list = new SiteList()
      list.plan(polls)
      list.plan(polls) // a second site: the same read, nothing more kept
      expect(polls.after).toBe(3)
      const read = await list.read(client({ apiUrl: `${sim.apiUrl}/v2`, token: SIM_TOKENS.readWrite }).c)
      expect(read).toMatchObject({ stoppedBy: null })
      expect(polls.after).toBe(1)
      list.plan(polls) // read already: nothing kept again
      expect(polls.after).toBe(1)
    } finally {
      await sim.stop()
    }
  })
})
