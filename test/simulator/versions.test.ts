/** Site versions (contract §13): create, name, list, restore, delete, the quota, on both profiles. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { createApiCore, ManualClock, SIM_SITES, type Simulator } from '../../simulator/server.js'
import { admin, call, callJson, endTask, RW, startOnClock, type CallOptions } from './helpers.js'

const DURATIONS = { create: 150, pull: 120, push: 120, delete: 80, version: 120, restore: 120 }

// A job runs until the test moves the clock past its end (see settled()).
let sim: Simulator
let clock: ManualClock
beforeAll(async () => {
  ;({ sim, clock } = await startOnClock({ durationsMs: DURATIONS }))
})
afterAll(() => sim.stop())

const PROFILES = {
  spec: {
    prefix: '',
    accepted: 202,
    id: (n: number): string | number => `v-${n}`,
    busy: 409,
    otherSite: 422,
    done: 'completed' as string | number,
    failed: 'error' as string | number,
  },
  service: {
    prefix: '/api',
    accepted: 200,
    id: (n: number): string | number => n,
    busy: 422,
    otherSite: 404,
    done: 0 as string | number,
    failed: 2 as string | number,
  },
} as const

const SHOP = SIM_SITES.eligible
const BLOG = SIM_SITES.withStaging

describe.each(Object.entries(PROFILES))('%s profile', (profile, p) => {
  beforeEach(() => {
    sim.reset()
    sim.setOptions({
      profile: profile as 'spec' | 'service',
      durationsMs: DURATIONS,
      versions: 'ok',
      versionQuota: 3,
    })
  })

  const api = (method: string, path: string, options?: CallOptions) =>
    callJson(sim, p.prefix, method, path, options)

  /** Moves the clock to the end of a task; its data then. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const settled = (taskId: string): Promise<any> => endTask(sim, clock, taskId)

  /** Makes a version of `site` and waits for its task; its id as the profile shows it. */
  async function version(site: number, name?: string): Promise<string | number> {
    const created = await api('POST', '/site-versions', { body: { site_id: site } })
    expect(created.status).toBe(p.accepted)
    expect((await settled(created.json.data.task_id)).status).toBe(p.done)
    if (name !== undefined)
      expect((await api('PUT', `/site-versions/${created.json.data.id}`, { body: { name } })).status).toBe(
        200,
      )
    return created.json.data.id
  }

  it('creates a version: data.id and data.task_id, its task followed like any job, then completed', async () => {
    const created = await api('POST', '/site-versions', { body: { site_id: SHOP } })
    expect(created.status).toBe(p.accepted)
    expect(created.json.data).toEqual({ id: p.id(7001), task_id: expect.stringMatching(/^[0-9a-f]{12}$/) })
    const listed = await api('GET', `/site-versions?site_id=${SHOP}&per_page=100`)
    expect(listed.json.data).toEqual([
      {
        id: p.id(7001),
        site_id: SHOP,
        name: null,
        size_mb: null,
        status: 'progress',
        created_at: expect.any(String),
      },
    ])
    const task = await settled(created.json.data.task_id)
    expect(task.status).toBe(p.done)
    if (profile === 'service') expect(task).toMatchObject({ type: 'site_version', resource_id: SHOP })
    else expect(task).toMatchObject({ type: 'version', site_id: SHOP })
    const after = await api('GET', `/site-versions?site_id=${SHOP}&per_page=100`)
    expect(after.json.data[0]).toMatchObject({ status: 'completed', size_mb: expect.any(Number) })
  })

  it('names a version; a name over 25 characters or none is refused with 422 and changes nothing', async () => {
    const id = await version(SHOP)
    const named = await api('PUT', `/site-versions/${id}`, { body: { name: 'before push 1234567890abc' } })
    expect(named.status).toBe(200)
    expect(named.json.data).toMatchObject({ id, name: 'before push 1234567890abc' })
    const long = await api('PUT', `/site-versions/${id}`, { body: { name: 'x'.repeat(26) } })
    expect(long.status).toBe(422)
    expect(long.json.message).toMatch(/25 characters/)
    expect(long.json.errors.name).toHaveLength(1)
    expect((await api('PUT', `/site-versions/${id}`, { body: {} })).status).toBe(422)
    const listed = await api('GET', `/site-versions?site_id=${SHOP}`)
    expect(listed.json.data[0].name).toBe('before push 1234567890abc')
    expect((await api('PUT', `/site-versions/${p.id(9999)}`, { body: { name: 'x' } })).status).toBe(404)
  })

  it("lists a site's versions newest first, only that site's", async () => {
    const first = await version(SHOP, 'one')
    const second = await version(SHOP, 'two')
    await version(BLOG, 'other')
    const listed = await api('GET', `/site-versions?site_id=${SHOP}&per_page=100`)
    expect(listed.status).toBe(200)
    expect(listed.json.data.map((v: { id: unknown }) => v.id)).toEqual([second, first])
    expect(listed.json.data.map((v: { name: unknown }) => v.name)).toEqual(['two', 'one'])
    expect(listed.json.meta).toMatchObject({ total: 2, per_page: 100 })
    expect((await api('GET', '/site-versions')).status).toBe(422)
    expect((await api('GET', '/site-versions?site_id=424242')).status).toBe(422)
  })

  it('captures the content production had; a restore brings it back after a push overwrote it', async () => {
    const before = { ...sim.state.sites.get(String(BLOG))!.content }
    const id = await version(BLOG, 'before push')
    const push = await api('POST', `/sites/${BLOG}/staging/push`, { body: {} })
    await settled(push.json.data.task_id)
    expect(sim.state.sites.get(String(BLOG))!.content).toEqual({
      files: 'staging-v1',
      database: 'staging-v1',
    })
    const restore = await api('PUT', `/sites/${BLOG}/restore-versions/${id}`)
    expect(restore.status).toBe(p.accepted)
    expect(restore.json.data).toEqual({ task_id: expect.any(String) })
    expect((await settled(restore.json.data.task_id)).status).toBe(p.done)
    expect(sim.state.sites.get(String(BLOG))!.content).toEqual(before)
    const seen = await admin(sim, 'GET', `/sites/${BLOG}`)
    expect(seen.body.site.content).toEqual(before)
    expect(seen.body.versions[0]).toMatchObject({ name: 'before push', content: before })
  })

  it('refuses a restore of another site’s version, of one not completed, and while one runs', async () => {
    const shops = await version(SHOP)
    const other = await api('PUT', `/sites/${BLOG}/restore-versions/${shops}`)
    expect(other.status).toBe(p.otherSite)
    const running = await api('POST', '/site-versions', { body: { site_id: BLOG } })
    const early = await api('PUT', `/sites/${BLOG}/restore-versions/${running.json.data.id}`)
    expect(early.status).toBe(422)
    expect(early.json.message).toMatch(/not completed/)
    await settled(running.json.data.task_id)
    const first = await api('PUT', `/sites/${BLOG}/restore-versions/${running.json.data.id}`)
    expect(first.status).toBe(p.accepted)
    const second = await api('PUT', `/sites/${BLOG}/restore-versions/${running.json.data.id}`)
    expect(second.status).toBe(p.busy)
    expect(second.json.message).toMatch(/already in progress/)
    expect((await api('PUT', `/sites/${BLOG}/restore-versions/${p.id(9999)}`)).status).toBe(404)
    expect((await api('PUT', `/sites/424242/restore-versions/${running.json.data.id}`)).status).toBe(404)
    expect([...sim.state.tasks.values()].filter((t) => t.kind === 'restore')).toHaveLength(1)
  })

  it('deletes versions: success_ids and failed_ids (unknown, in progress)', async () => {
    const done = await version(SHOP)
    const running = await api('POST', '/site-versions', { body: { site_id: SHOP } })
    const ids = [done, running.json.data.id, p.id(9999)]
    const reply = await api('DELETE', '/site-versions', { body: { ids } })
    expect(reply.status).toBe(200)
    expect(reply.json.data).toEqual({ success_ids: [done], failed_ids: [running.json.data.id, p.id(9999)] })
    expect([...sim.state.siteVersions.values()].map((v) => v.status)).toEqual(['progress'])
    expect((await api('DELETE', '/site-versions', { body: { ids: [] } })).status).toBe(422)
  })

  it('keeps 3 versions plus 1 in progress per site: one at a time, none while 4 are kept; a 422 with a message', async () => {
    for (let i = 0; i < 3; i++) await version(SHOP)
    const fourth = await api('POST', '/site-versions', { body: { site_id: SHOP } })
    expect(fourth.status).toBe(p.accepted)
    const whileRunning = await api('POST', '/site-versions', { body: { site_id: SHOP } })
    expect(whileRunning.status).toBe(422)
    // One in progress: busy, not the quota (contract §13 r5).
    expect(whileRunning.json.message).toMatch(/already in progress/)
    expect((await api('POST', '/site-versions', { body: { site_id: BLOG } })).status).toBe(p.accepted)
    await settled(fourth.json.data.task_id)
    const full = await api('POST', '/site-versions', { body: { site_id: SHOP } })
    expect(full.status).toBe(422)
    expect(full.json.message).toMatch(/at most 3 versions per site, plus one in progress/)
    const oldest = (await api('GET', `/site-versions?site_id=${SHOP}&per_page=100`)).json.data.at(-1).id
    expect(
      (await api('DELETE', '/site-versions', { body: { ids: [oldest] } })).json.data.success_ids,
    ).toEqual([oldest])
    expect((await api('POST', '/site-versions', { body: { site_id: SHOP } })).status).toBe(p.accepted)
  })

  it('refuses a create for an unknown or missing site with 422 (never a 404, which means no versions)', async () => {
    const unknown = await api('POST', '/site-versions', { body: { site_id: 424242 } })
    expect([unknown.status, unknown.json.errors]).toEqual([
      422,
      { site_id: ['The selected site_id is invalid.'] },
    ])
    expect((await api('POST', '/site-versions', { body: {} })).status).toBe(422)
    expect((await api('POST', '/site-versions', { body: { site: SHOP } })).status).toBe(400)
    expect(sim.state.siteVersions.size).toBe(0)
  })
})

describe('in virtual time (the API core on a manual clock, as the benchmarks run it)', () => {
  it('a version and a restore end exactly at their durations; the restore puts the content back', () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 26, 5, 0, 0))
    const core = createApiCore({ durationsMs: { push: 4_000, version: 30_000, restore: 20_000 } }, clock)
    const headers = { authorization: `Bearer ${RW}`, 'content-type': 'application/json' }
    const send = (method: string, path: string, body = '') => {
      const reply = core.handle({ method, path, headers, body })
      return { status: reply.status, json: JSON.parse(reply.body) }
    }
    const created = send('POST', '/v2/site-versions', JSON.stringify({ site_id: BLOG }))
    const taskPath = `/v2/tasks/${created.json.data.task_id}/status`
    clock.advance(29_999)
    expect(send('GET', taskPath).json.data.status).toBe('progress')
    clock.advance(1)
    expect(send('GET', taskPath).json.data.status).toBe('completed')
    send('POST', `/v2/sites/${BLOG}/staging/push`)
    clock.advance(4_000)
    core.settle()
    expect(core.state.sites.get(String(BLOG))?.content.files).toBe('staging-v1')
    const restore = send('PUT', `/v2/sites/${BLOG}/restore-versions/${created.json.data.id}`)
    expect(restore.status).toBe(202)
    clock.advance(19_999)
    core.settle()
    expect(core.state.sites.get(String(BLOG))?.content.files).toBe('staging-v1')
    clock.advance(1)
    core.settle()
    expect(core.state.sites.get(String(BLOG))?.content).toEqual({ files: 'prod-v1', database: 'prod-v1' })
  })
})

describe('localization', () => {
  beforeEach(() => {
    sim.reset()
    sim.setOptions({ profile: 'service', versions: 'ok', versionQuota: 0 })
  })

  it("the application's messages follow X-localization; the framework's stay English", async () => {
    const headers = { Accept: 'application/json', 'Content-Type': 'application/json' }
    await admin(sim, 'POST', `/sites/${BLOG}/versions`, {})
    const quota = await call(sim, 'POST', '/api/v2/site-versions', {
      body: { site_id: BLOG },
      lang: 'es',
      headers,
    })
    expect([quota.status, quota.json.message]).toEqual([
      422,
      'Puede conservar como máximo 0 versiones por sitio, más una en curso. Elimine una versión antigua para crear una nueva.',
    ])
    const unknown = await call(sim, 'PUT', '/api/v2/site-versions/9999', {
      body: { name: 'x' },
      lang: 'es',
      headers,
    })
    expect(unknown.json).toEqual({ message: 'No query results for model [App\\Models\\SiteVersion] 9999' })
  })
})
