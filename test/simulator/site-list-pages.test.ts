/**
 * GET /v2/sites pages as the service family's does (contract r4 §12): the service profile answers
 * at most 20 rows a page whatever per_page asks, with meta saying so; the spec profile refuses a
 * per_page over 100 unless a cap is set; the paginator may sit inside `data`. Options set at run time.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { start, type Simulator } from '../../simulator/server.js'
import { productionSite, stagingSite } from '../../simulator/seed.js'
import { admin, call } from './helpers.js'

let sim: Simulator
beforeAll(async () => {
  sim = await start({ port: 0 })
})
afterAll(() => sim.stop())
beforeEach(() => {
  sim.reset()
  sim.setOptions({ profile: 'spec', listPageCap: null, listPaginator: 'meta' })
  // 30 production sites more, each with a staging site: 31 staging rows.
  for (let id = 5001; id <= 5030; id++) {
    const site = productionSite({ id, name: `site${id}`, tags: [] }, 0)
    sim.state.sites.set(String(id), site)
    sim.state.staging.set(String(id), stagingSite(site, 0, `seeded-${id}`, sim.url))
  }
})

const list = (query: string) => call(sim, 'GET', `${sim.apiUrl.slice(sim.url.length)}/v2/sites?${query}`)

describe('the page cap', () => {
  it('the service profile answers 20 rows a page when 100 are asked, and meta says how many pages', async () => {
    sim.setOptions({ profile: 'service' })
    const first = await list('type=staging&per_page=100')
    expect(first.status).toBe(200)
    expect(first.json.data).toHaveLength(20)
    expect(first.json.meta).toMatchObject({
      current_page: 1,
      per_page: 20,
      total: 31,
      last_page: 2,
      from: 1,
      to: 20,
    })
    const second = await list('type=staging&per_page=100&page=2')
    expect(second.json.data).toHaveLength(11)
    expect(second.json.meta).toMatchObject({ current_page: 2, last_page: 2, from: 21, to: 31 })
    // A per_page under the cap is honoured.
    expect((await list('type=staging&per_page=5')).json.meta).toMatchObject({ per_page: 5, last_page: 7 })
  })

  it('the spec profile refuses a per_page over 100; with listPageCap it answers the cap instead', async () => {
    expect((await list('per_page=101')).status).toBe(400)
    expect((await list('type=staging&per_page=100')).json.data).toHaveLength(31)
    expect((await admin(sim, 'POST', '/options', { listPageCap: 10 })).body.listPageCap).toBe(10)
    const capped = await list('type=staging&per_page=500')
    expect(capped.status).toBe(200)
    expect(capped.json.meta).toMatchObject({ per_page: 10, last_page: 4 })
  })
})

describe('the paginator inside data', () => {
  it.each(['spec', 'service'] as const)(
    '%s: data.data holds the rows, beside current_page and last_page',
    async (profile) => {
      sim.setOptions({ profile, listPaginator: 'data', listPageCap: 20 })
      const reply = await list('type=staging&per_page=100&page=2')
      expect(reply.json.meta).toBeUndefined()
      expect(reply.json.data).toMatchObject({ current_page: 2, per_page: 20, total: 31, last_page: 2 })
      expect(reply.json.data.data).toHaveLength(11)
    },
  )
})

describe('the options are checked', () => {
  it.each([
    [{ listPageCap: 0 }, /listPageCap must be an integer >= 1, or null/],
    [{ listPageCap: 2.5 }, /listPageCap/],
    [{ listPaginator: 'links' }, /listPaginator must be meta or data/],
  ])('%j is refused', async (patch, message) => {
    const reply = await admin(sim, 'POST', '/options', patch)
    expect(reply.status).toBe(400)
    expect(reply.body.error).toMatch(message)
  })
})
