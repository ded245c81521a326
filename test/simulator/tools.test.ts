/**
 * Site tools (contract §14): maintenance mode and password protection toggled with POST
 * /v2/sites/{site}/tools, the knob `tools`, the admin paths that show and set the state, and the
 * production page that shows it from outside, on both profiles.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { productionPageUrl, SIM_SITES, start, type Simulator } from '../../simulator/server.js'
import { admin, call, RO, sleep, type CallOptions } from './helpers.js'

const DURATIONS = { create: 150, pull: 120, push: 120, delete: 80, version: 100, restore: 100 }

let sim: Simulator
beforeAll(async () => {
  sim = await start({ durationsMs: DURATIONS })
})
afterAll(() => sim.stop())

const PROFILES = { spec: { prefix: '', accepted: 202 }, service: { prefix: '/api', accepted: 200 } } as const

const SHOP = SIM_SITES.eligible
const BLOG = SIM_SITES.withStaging
const MEMBERS = SIM_SITES.passwordProtected

/** The production page of `site`: status and the content line. */
async function page(site: number): Promise<{ status: number; content: string | null }> {
  const response = await fetch(productionPageUrl(sim.url, site), { signal: AbortSignal.timeout(10_000) })
  const text = await response.text()
  return { status: response.status, content: /<p id="content">([^<]*)<\/p>/.exec(text)?.[1] ?? null }
}

describe.each(Object.entries(PROFILES))('%s profile', (profile, p) => {
  beforeEach(() => {
    sim.reset()
    sim.setOptions({
      profile: profile as 'spec' | 'service',
      durationsMs: DURATIONS,
      tools: 'ok',
      versions: 'ok',
    })
  })

  const api = (method: string, path: string, options: CallOptions = {}) =>
    call(sim, method, `${p.prefix}/v2${path}`, { ...options, headers: { Accept: 'application/json' } })
  const tool = (site: number, body: unknown, options: CallOptions = {}) =>
    api('POST', `/sites/${site}/tools`, { ...options, body })
  const site = (id: number) => sim.state.sites.get(String(id))

  it('switches maintenance mode on and off; the site record and the production page show it', async () => {
    const on = await tool(SHOP, { tool: 'maintenance_mode', value: 'on' })
    expect(on.status).toBe(200)
    expect(on.json.data).toEqual({ site_id: SHOP, tool: 'maintenance_mode', value: 'on' })
    expect(site(SHOP)?.maintenance).toBe(true)
    expect((await admin(sim, 'GET', `/sites/${SHOP}`)).body.site.maintenance).toBe(true)
    expect((await page(SHOP)).status).toBe(503)
    expect((await tool(SHOP, { tool: 'maintenance_mode', value: 'off' })).status).toBe(200)
    expect(site(SHOP)?.maintenance).toBe(false)
    expect(await page(SHOP)).toEqual({ status: 200, content: 'files prod-v1, database prod-v1' })
    const changes = (await admin(sim, 'GET', '/tools')).body
    expect(changes).toEqual([
      { site_id: SHOP, tool: 'maintenance_mode', value: 'on', source: 'api', at: expect.any(Number) },
      { site_id: SHOP, tool: 'maintenance_mode', value: 'off', source: 'api', at: expect.any(Number) },
    ])
    expect(changes[0].at).toBeLessThanOrEqual(changes[1].at)
  })

  it('switches password protection; a push turns it off again (spec push rule 2)', async () => {
    expect((await tool(BLOG, { tool: 'password_protection', value: 'on' })).status).toBe(200)
    expect(site(BLOG)?.password_protected).toBe(true)
    expect((await page(BLOG)).status).toBe(401)
    const push = await api('POST', `/sites/${BLOG}/staging/push`, { body: {} })
    expect(push.status).toBe(p.accepted)
    const deadline = Date.now() + 10_000
    while (sim.state.staging.get(String(BLOG))?.status !== 'ready' && Date.now() < deadline) await sleep(10)
    expect(site(BLOG)?.password_protected).toBe(false)
    expect(await page(BLOG)).toEqual({ status: 200, content: 'files staging-v1, database staging-v1' })
    const pushTask = sim.state.tasks.get(push.json.data.task_id)
    expect(sim.state.toolChanges.map(({ tool, value, source }) => [tool, value, source])).toEqual([
      ['password_protection', 'on', 'api'],
      ['password_protection', 'off', 'push'],
    ])
    expect(sim.state.toolChanges[1]?.at).toBe(pushTask?.ends_at)
    expect((await tool(MEMBERS, { tool: 'password_protection', value: 'off' })).status).toBe(200)
    expect(site(MEMBERS)?.password_protected).toBe(false)
  })

  it('refuses an unknown tool or value, or none, with 422 naming the field, and changes nothing', async () => {
    const unknownTool = await tool(SHOP, { tool: 'cache', value: 'on' })
    expect(unknownTool.status).toBe(422)
    expect(unknownTool.json.errors).toEqual({ tool: ['The selected tool is invalid.'] })
    const badValue = await tool(SHOP, { tool: 'maintenance_mode', value: true })
    expect([badValue.status, Object.keys(badValue.json.errors)]).toEqual([422, ['value']])
    expect((await tool(SHOP, { tool: 'maintenance_mode', value: 'ON' })).status).toBe(422)
    expect((await tool(SHOP, { tool: 'maintenance_mode' })).status).toBe(422)
    expect((await tool(SHOP, { value: 'on' })).status).toBe(422)
    expect((await tool(SHOP, { tool: 'maintenance_mode', value: 'on', extra: 1 })).status).toBe(400)
    expect((await tool(424242, { tool: 'maintenance_mode', value: 'on' })).status).toBe(404)
    expect((await tool(SHOP, { tool: 'maintenance_mode', value: 'on' }, { token: RO })).status).toBe(403)
    expect(site(SHOP)?.maintenance).toBe(false)
  })

  it('plan-403: a valid toggle answers 403 with a message and changes nothing', async () => {
    sim.setOptions({ tools: 'plan-403' })
    const reply = await tool(SHOP, { tool: 'maintenance_mode', value: 'on' })
    expect(reply.status).toBe(403)
    expect(reply.json.message).toMatch(/plan does not include site tools/)
    expect(site(SHOP)?.maintenance).toBe(false)
  })

  it('absent-404: the route is unknown', async () => {
    sim.setOptions({ tools: 'absent-404' })
    const reply = await tool(SHOP, { tool: 'maintenance_mode', value: 'on' })
    expect(reply.status).toBe(404)
    if (profile === 'service')
      expect(reply.json.message).toBe(`The route api/v2/sites/${SHOP}/tools could not be found.`)
    expect(site(SHOP)?.maintenance).toBe(false)
  })

  it('a restore brings production content back, seen on its page', async () => {
    const seeded = await admin(sim, 'POST', `/sites/${BLOG}/versions`, {
      content: { files: 'old', database: 'old' },
    })
    const id = profile === 'spec' ? `v-${seeded.body.id}` : seeded.body.id
    const restore = await api('PUT', `/sites/${BLOG}/restore-versions/${id}`, {
      contentType: 'application/json',
    })
    expect(restore.status).toBe(p.accepted)
    const deadline = Date.now() + 10_000
    while ((await page(BLOG)).content !== 'files old, database old') {
      if (Date.now() > deadline) throw new Error('restore did not reach the page')
      await sleep(10)
    }
    expect(sim.state.purges.map((x) => x.site_id)).toEqual([BLOG])
  })
})

describe('admin: a site’s tool state', () => {
  beforeEach(() => sim.reset())

  it('sets maintenance and password protection directly, and refuses other values', async () => {
    const set = await admin(sim, 'POST', `/sites/${SHOP}/state`, {
      maintenance: true,
      password_protected: true,
    })
    expect(set.status).toBe(200)
    expect(set.body.site).toMatchObject({ maintenance: true, password_protected: true })
    expect(
      (await admin(sim, 'GET', '/state')).body.toolChanges.map((c: { source: string }) => c.source),
    ).toEqual(['admin', 'admin'])
    expect((await page(SHOP)).status).toBe(503)
    expect(
      (await admin(sim, 'POST', `/sites/${SHOP}/state`, { maintenance: false, password_protected: 'yes' }))
        .status,
    ).toBe(400)
    expect(sim.state.sites.get(String(SHOP))?.maintenance).toBe(true)
    expect((await admin(sim, 'POST', '/sites/424242/state', {})).status).toBe(404)
    sim.reset()
    expect(sim.state.sites.get(String(SHOP))).toMatchObject({ maintenance: false, password_protected: false })
  })

  it('serves 404 for an unknown production page', async () => {
    expect((await page(424242)).status).toBe(404)
  })
})
