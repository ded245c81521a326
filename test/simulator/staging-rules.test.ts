import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { SIM_SITES, type ManualClock, type Simulator } from '../../simulator/server.js'
import { call, endTask, startOnClock } from './helpers.js'

// A job runs until the test moves the clock past its end (endTask): it is surely still running
// while a test sends its next request, however slow the machine.
const SLOW = { create: 1500, pull: 1500, push: 1500, delete: 1500 }

let sim: Simulator
let clock: ManualClock
beforeAll(async () => {
  ;({ sim, clock } = await startOnClock({ durationsMs: SLOW }))
})
afterAll(() => sim.stop())
beforeEach(() => {
  sim.reset()
  sim.setOptions({ durationsMs: SLOW, busyStatus: 409 })
})

const staging = (site: number, suffix = ''): string => `/v2/sites/${site}/staging${suffix}`

describe('create', () => {
  it('answers 202 with task_id, site_id, staging_site_id and staging_url at once', async () => {
    const reply = await call(sim, 'POST', staging(SIM_SITES.eligible))
    expect(reply.status).toBe(202)
    expect(reply.json).toEqual({
      status: true,
      message: expect.any(String),
      data: {
        task_id: expect.stringMatching(/^[0-9a-f]{12}$/),
        site_id: SIM_SITES.eligible,
        staging_site_id: 's-1001',
        staging_url: `${sim.url}/staging-sites/s-1001/`,
      },
    })
    expect(sim.state.staging.get('1001')?.status).toBe('creating')
  })

  it.each([
    [SIM_SITES.planWithoutStaging, 'plan', /plan does not include staging/],
    [SIM_SITES.waas, 'waas', /WaaS/],
    [SIM_SITES.clientPortal, 'client_portal', /client portal/],
  ])('refuses site %s with 403 (%s) and creates nothing', async (site, reason, message) => {
    const reply = await call(sim, 'POST', staging(site))
    expect(reply.status).toBe(403)
    expect(reply.json).toEqual({
      status: false,
      message: expect.stringMatching(message),
      data: null,
      errors: { reason },
    })
    expect(sim.state.staging.has(String(site))).toBe(false)
    expect(sim.state.tasks.size).toBe(0)
  })

  it('refuses a second create while the first runs with 409', async () => {
    expect((await call(sim, 'POST', staging(SIM_SITES.eligible))).status).toBe(202)
    const second = await call(sim, 'POST', staging(SIM_SITES.eligible))
    expect(second.status).toBe(409)
    expect(second.json.message).toMatch(/already being created/)
    expect(sim.state.tasks.size).toBe(1)
  })

  it('refuses create when a staging site exists with 422', async () => {
    const reply = await call(sim, 'POST', staging(SIM_SITES.withStaging))
    expect(reply.status).toBe(422)
    expect(reply.json).toMatchObject({ status: false, errors: { staging_site_id: 's-1002' } })
  })

  it('refuses create while a delete runs with 409, and allows it once the delete is done', async () => {
    const deleting = await call(sim, 'DELETE', staging(SIM_SITES.withStaging))
    expect(deleting.status).toBe(202)
    const refused = await call(sim, 'POST', staging(SIM_SITES.withStaging))
    expect(refused.status).toBe(409)
    expect(refused.json.message).toMatch(/being deleted/)
    await endTask(sim, clock, deleting.json.data.task_id)
    expect((await call(sim, 'POST', staging(SIM_SITES.withStaging))).status).toBe(202)
  })

  it('refuses a staging POST with a wrong content type or body fields with 400', async () => {
    const text = await call(sim, 'POST', staging(SIM_SITES.eligible), { raw: '', contentType: 'text/plain' })
    expect(text.status).toBe(400)
    const fields = await call(sim, 'POST', staging(SIM_SITES.eligible), { body: { force: true } })
    expect(fields.status).toBe(400)
    expect(fields.json.errors).toEqual({ force: ['unknown attribute'] })
    expect(sim.state.staging.has('1001')).toBe(false)
  })
})

describe('pull, push and delete refusals', () => {
  it('answers 404 when the site has no staging environment', async () => {
    for (const [method, suffix] of [
      ['POST', '/reset'],
      ['POST', '/push'],
      ['DELETE', ''],
    ] as const) {
      const reply = await call(sim, method, staging(SIM_SITES.eligible, suffix))
      expect([method, suffix, reply.status]).toEqual([method, suffix, 404])
      expect(reply.json).toMatchObject({
        status: false,
        data: null,
        message: expect.stringMatching(/no staging/),
      })
    }
  })

  it('refuses a push while a pull runs, and a pull while a push runs, with 409', async () => {
    const pull = await call(sim, 'POST', staging(SIM_SITES.withStaging, '/reset'))
    expect(pull.status).toBe(202)
    expect(pull.json.data).toEqual({ task_id: expect.stringMatching(/^[0-9a-f]{12}$/) })
    const push = await call(sim, 'POST', staging(SIM_SITES.withStaging, '/push'))
    expect(push.status).toBe(409)
    expect(push.json.message).toMatch(/pull or push is already running/)
    const secondPull = await call(sim, 'POST', staging(SIM_SITES.withStaging, '/reset'))
    expect(secondPull.status).toBe(409)

    sim.reset()
    expect((await call(sim, 'POST', staging(SIM_SITES.withStaging, '/push'))).status).toBe(202)
    expect((await call(sim, 'POST', staging(SIM_SITES.withStaging, '/reset'))).status).toBe(409)
  })

  it('refuses a delete while a pull or a push runs, and keeps the staging site', async () => {
    for (const sync of ['/reset', '/push']) {
      sim.reset()
      expect((await call(sim, 'POST', staging(SIM_SITES.withStaging, sync))).status).toBe(202)
      const reply = await call(sim, 'DELETE', staging(SIM_SITES.withStaging))
      expect([sync, reply.status]).toEqual([sync, 409])
      expect(reply.json.message).toMatch(/cannot be deleted while a pull or push is running/)
      expect(sim.state.staging.has('1002')).toBe(true)
    }
  })

  it('refuses pull, push and delete while the create still runs', async () => {
    expect((await call(sim, 'POST', staging(SIM_SITES.eligible))).status).toBe(202)
    for (const [method, suffix] of [
      ['POST', '/reset'],
      ['POST', '/push'],
      ['DELETE', ''],
    ] as const) {
      const reply = await call(sim, method, staging(SIM_SITES.eligible, suffix))
      expect([method, suffix, reply.status]).toEqual([method, suffix, 409])
      expect(reply.json.message).toMatch(/still being created/)
    }
  })

  it('uses the configured busy status 423 for refusals while a sync runs (create refusals stay 409)', async () => {
    sim.setOptions({ busyStatus: 423 })
    expect((await call(sim, 'POST', staging(SIM_SITES.withStaging, '/reset'))).status).toBe(202)
    expect((await call(sim, 'POST', staging(SIM_SITES.withStaging, '/push'))).status).toBe(423)
    expect((await call(sim, 'POST', staging(SIM_SITES.withStaging, '/reset'))).status).toBe(423)
    expect((await call(sim, 'DELETE', staging(SIM_SITES.withStaging))).status).toBe(423)
    expect((await call(sim, 'POST', staging(SIM_SITES.eligible))).status).toBe(202)
    expect((await call(sim, 'POST', staging(SIM_SITES.eligible))).status).toBe(409)
  })

  it('allows one job per site: a sync on one site does not block another site', async () => {
    expect((await call(sim, 'POST', staging(SIM_SITES.withStaging, '/reset'))).status).toBe(202)
    expect((await call(sim, 'POST', staging(SIM_SITES.eligible))).status).toBe(202)
  })

  it('accepts the next sync once the running one has finished', async () => {
    const pull = await call(sim, 'POST', staging(SIM_SITES.withStaging, '/reset'))
    expect((await call(sim, 'POST', staging(SIM_SITES.withStaging, '/push'))).status).toBe(409)
    clock.advance(SLOW.pull - 1)
    expect((await call(sim, 'POST', staging(SIM_SITES.withStaging, '/push'))).status).toBe(409)
    clock.advance(1)
    const done = await endTask(sim, clock, pull.json.data.task_id)
    expect(done.status).toBe('completed')
    expect((await call(sim, 'POST', staging(SIM_SITES.withStaging, '/push'))).status).toBe(202)
  })
})

describe('probe: GET /v2/sites/{site}/staging', () => {
  it('shows creating, then ready with credentials', async () => {
    const created = await call(sim, 'POST', staging(SIM_SITES.eligible))
    const during = await call(sim, 'GET', staging(SIM_SITES.eligible))
    expect(during.status).toBe(200)
    expect(during.json.data).toMatchObject({
      id: 's-1001',
      staging_site_id: 's-1001',
      staging_url: `${sim.url}/staging-sites/s-1001/`,
      status: 'creating',
      is_syncing: false,
    })
    await endTask(sim, clock, created.json.data.task_id)
    const after = await call(sim, 'GET', staging(SIM_SITES.eligible))
    expect(after.json.data).toMatchObject({
      status: 'ready',
      is_syncing: false,
      ssh_username: 'staging1001',
      ssh_password: expect.stringMatching(/^sim-ssh-/),
      wp_password: expect.stringMatching(/^sim-wp-/),
    })
  })

  it('shows syncing during a pull, pushing during a push, with is_syncing true', async () => {
    await call(sim, 'POST', staging(SIM_SITES.withStaging, '/reset'))
    const pulling = await call(sim, 'GET', staging(SIM_SITES.withStaging))
    expect(pulling.json.data).toMatchObject({ status: 'syncing', is_syncing: true })
    sim.reset()
    await call(sim, 'POST', staging(SIM_SITES.withStaging, '/push'))
    const pushing = await call(sim, 'GET', staging(SIM_SITES.withStaging))
    expect(pushing.json.data).toMatchObject({ status: 'pushing', is_syncing: true })
  })

  it('shows deleting during a delete, then answers 404 once it is done', async () => {
    const deleting = await call(sim, 'DELETE', staging(SIM_SITES.withStaging))
    expect(deleting.status).toBe(202)
    expect((await call(sim, 'GET', staging(SIM_SITES.withStaging))).json.data.status).toBe('deleting')
    await endTask(sim, clock, deleting.json.data.task_id)
    const gone = await call(sim, 'GET', staging(SIM_SITES.withStaging))
    expect(gone.status).toBe(404)
    expect(gone.json).toMatchObject({ status: false, data: null })
  })

  it('answers 404 when no staging exists and 405 when the probe is turned off', async () => {
    expect((await call(sim, 'GET', staging(SIM_SITES.eligible))).status).toBe(404)
    sim.setOptions({ probe: false })
    const off = await call(sim, 'GET', staging(SIM_SITES.withStaging))
    expect(off.status).toBe(405)
    expect(off.json.status).toBe(false)
    sim.setOptions({ probe: true })
    expect((await call(sim, 'GET', staging(SIM_SITES.withStaging))).status).toBe(200)
  })

  it('omits task_id from staging responses when taskIds is off', async () => {
    sim.setOptions({ taskIds: false })
    const created = await call(sim, 'POST', staging(SIM_SITES.eligible))
    expect(created.status).toBe(202)
    expect(created.json.data).toEqual({
      site_id: 1001,
      staging_site_id: 's-1001',
      staging_url: `${sim.url}/staging-sites/s-1001/`,
    })
    const pull = await call(sim, 'POST', staging(SIM_SITES.withStaging, '/reset'))
    expect(pull.status).toBe(202)
    expect(pull.json.data).toEqual({})
    sim.setOptions({ taskIds: true })
  })
})
