import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { start, type Simulator } from '../../simulator/server.js'
import { admin, call, FAST, waitForTask } from './helpers.js'

let sim: Simulator
beforeAll(async () => {
  sim = await start({ durationsMs: FAST })
})
afterAll(() => sim.stop())
beforeEach(() => {
  sim.reset()
  sim.setOptions({
    durationsMs: FAST,
    busyStatus: 409,
    progress: 'nonlinear',
    taskIds: true,
    rateLimit: null,
  })
})

describe('admin paths (/__sim)', () => {
  it('GET /__sim/state returns the whole state as JSON', async () => {
    const { status, body } = await admin(sim, 'GET', '/state')
    expect(status).toBe(200)
    expect(body.sites.map((s: { id: number }) => s.id)).toEqual([1001, 1002, 1003, 2001, 3001, 4001])
    expect(body.staging).toEqual([expect.objectContaining({ id: 's-1002', site_id: 1002, status: 'ready' })])
    expect(body).toMatchObject({ tasks: [], outbox: [], purges: [], faults: [] })
    expect(body.options.durationsMs).toEqual({ ...FAST, version: 1500, restore: 2000 })
  })

  it('is not part of the v2 API: no token, no rate limit, not recorded', async () => {
    sim.setOptions({ rateLimit: { limit: 0, windowMs: 60_000 } })
    for (let i = 0; i < 3; i++) expect((await admin(sim, 'GET', '/outbox')).status).toBe(200)
    expect(sim.requests).toHaveLength(0)
    expect((await call(sim, 'GET', '/v2/sites')).status).toBe(429)
    expect(sim.requests).toHaveLength(1)
    sim.setOptions({ rateLimit: null })
  })

  it('GET /__sim/sites/{id} shows production and staging with content and credentials', async () => {
    const { body } = await admin(sim, 'GET', '/sites/1002')
    expect(body.site).toMatchObject({ id: 1002, content: { files: 'prod-v1', database: 'prod-v1' } })
    expect(body.site.ssh_password).toBe('sim-ssh-pass-1002')
    expect(body.staging).toMatchObject({
      id: 's-1002',
      content: { files: 'staging-v1', database: 'staging-v1' },
    })
    expect((await admin(sim, 'GET', '/sites/1001')).body.staging).toBeNull()
    expect((await admin(sim, 'GET', '/sites/77')).status).toBe(404)
  })

  it('POST /__sim/sites/{id}/content bumps production or staging content versions', async () => {
    expect(
      (await admin(sim, 'POST', '/sites/1002/content', { target: 'production' })).body.site.content,
    ).toEqual({
      files: 'prod-v2',
      database: 'prod-v2',
    })
    const again = await admin(sim, 'POST', '/sites/1002/content', { target: 'production', part: 'files' })
    expect(again.body.site.content).toEqual({ files: 'prod-v3', database: 'prod-v2' })
    const staging = await admin(sim, 'POST', '/sites/1002/content', { target: 'staging' })
    expect(staging.body.staging.content).toEqual({ files: 'staging-v2', database: 'staging-v2' })
    expect(sim.state.staging.get('1002')?.content.files).toBe('staging-v2')
    expect((await admin(sim, 'POST', '/sites/1001/content', { target: 'staging' })).status).toBe(409)
    expect((await admin(sim, 'POST', '/sites/1001/content', { target: 'moon' })).status).toBe(400)
  })

  it('GET /__sim/requests lists v2 requests with status, time and flags', async () => {
    await call(sim, 'GET', '/v2/sites', { lang: 'es' })
    await call(sim, 'POST', '/v2/sites/1001/staging', { token: null })
    const { body } = await admin(sim, 'GET', '/requests')
    expect(body).toEqual([
      expect.objectContaining({
        method: 'GET',
        path: '/v2/sites',
        status: 200,
        token: 'rw',
        localization: 'es',
      }),
      expect.objectContaining({
        method: 'POST',
        path: '/v2/sites/1001/staging',
        status: 401,
        token: 'none',
        contentType: 'application/json',
        faulted: false,
        processed: true,
      }),
    ])
    expect(typeof body[0].at).toBe('number')
  })

  it('POST /__sim/faults takes one rule or an array, with regex paths and "Infinity"', async () => {
    const added = await admin(sim, 'POST', '/faults', [
      { method: 'GET', path: { regex: '^/v2/sites\\?' }, status: 503, times: 'Infinity' },
      { path: '/staging/push', status: 500, body: 'html' },
    ])
    expect(added.status).toBe(200)
    expect(added.body).toHaveLength(2)
    expect((await call(sim, 'GET', '/v2/sites?page=1')).status).toBe(503)
    expect((await call(sim, 'GET', '/v2/sites?page=1')).status).toBe(503)
    expect((await call(sim, 'GET', '/v2/sites')).status).toBe(200)
    const html = await call(sim, 'POST', '/v2/sites/1002/staging/push')
    expect(html.status).toBe(500)
    expect(html.text).toMatch(/<html>/)
    const listed = (await admin(sim, 'GET', '/faults')).body
    expect(listed).toEqual([
      expect.objectContaining({ method: 'GET', status: 503, times: 'Infinity', left: 'Infinity' }),
    ])
    expect(listed[0].path.flags).toBe('')
    expect(new RegExp(listed[0].path.regex).test('/v2/sites?page=1')).toBe(true)
    expect((await admin(sim, 'DELETE', '/faults')).status).toBe(200)
    expect((await call(sim, 'GET', '/v2/sites?page=1')).status).toBe(200)
    const bad = await admin(sim, 'POST', '/faults', { status: 'often' })
    expect(bad.status).toBe(400)
    expect(bad.body.error).toMatch(/status/)
  })

  it('POST /__sim/options changes options at run time and refuses bad values', async () => {
    const changed = await admin(sim, 'POST', '/options', {
      durationsMs: { create: 60 },
      busyStatus: 423,
      progress: 'linear',
      taskIds: false,
    })
    expect(changed.status).toBe(200)
    expect(changed.body).toMatchObject({ busyStatus: 423, progress: 'linear', taskIds: false })
    expect(changed.body.durationsMs.create).toBe(60)
    const created = await call(sim, 'POST', '/v2/sites/1001/staging')
    expect(created.json.data.task_id).toBeUndefined()
    expect((await admin(sim, 'POST', '/options', { busyStatus: 418 })).status).toBe(400)
    expect((await admin(sim, 'POST', '/options', { durationsMs: { nap: 1 } })).status).toBe(400)
    await admin(sim, 'POST', '/options', {
      busyStatus: 409,
      progress: 'nonlinear',
      taskIds: true,
      durationsMs: FAST,
    })
  })

  it('POST /__sim/options switches the profile and the site delay, and refuses bad values', async () => {
    const changed = await admin(sim, 'POST', '/options', { profile: 'service', siteDelayMs: 1234 })
    try {
      expect(changed.status).toBe(200)
      expect(changed.body).toMatchObject({ profile: 'service', siteDelayMs: 1234 })
      expect(sim.apiUrl).toBe(`${sim.url}/api`)
      const moved = await call(sim, 'GET', '/v2/sites', { headers: { Accept: 'application/json' } })
      expect([moved.status, moved.json]).toEqual([404, { message: 'The route v2/sites could not be found.' }])
      expect((await call(sim, 'GET', '/api/v2/sites')).status).toBe(200)
      const bad = await admin(sim, 'POST', '/options', { profile: 'laravel' })
      expect([bad.status, bad.body.error]).toEqual([400, 'profile must be spec or service'])
      const negative = await admin(sim, 'POST', '/options', { siteDelayMs: -1 })
      expect([negative.status, negative.body.error]).toEqual([400, 'siteDelayMs must be a number >= 0'])
      expect(sim.options).toMatchObject({ profile: 'service', siteDelayMs: 1234 })
    } finally {
      await admin(sim, 'POST', '/options', { profile: 'spec', siteDelayMs: 3000 })
    }
    expect(sim.apiUrl).toBe(sim.url)
  })

  it('POST /__sim/reset brings back the seeded state', async () => {
    const created = await call(sim, 'POST', '/v2/sites/1001/staging')
    await waitForTask(sim, created.json.data.task_id)
    await call(sim, 'POST', '/v2/sites', { body: { site_name: 'extra' } })
    sim.addFault({ status: 500, times: Infinity })
    const { body } = await admin(sim, 'POST', '/reset')
    expect(body.sites).toHaveLength(6)
    expect(body.staging).toHaveLength(1)
    expect(body).toMatchObject({ tasks: [], outbox: [], purges: [], faults: [], requests: 0 })
    expect((await call(sim, 'GET', '/v2/sites')).status).toBe(200)
  })

  it('answers 404 with JSON for an unknown admin path', async () => {
    const reply = await admin(sim, 'GET', '/nothing')
    expect(reply.status).toBe(404)
    expect(reply.body.error).toMatch(/no admin route/)
  })
})
