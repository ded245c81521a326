import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { SIM_ACCOUNT_EMAIL, type ManualClock, type Simulator } from '../../simulator/server.js'
import { admin, call, endTask, FAST, startOnClock, until } from './helpers.js'

// A job runs until the test moves the clock past its end (endTask).
let sim: Simulator
let clock: ManualClock
beforeAll(async () => {
  ;({ sim, clock } = await startOnClock({ durationsMs: FAST }))
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

const clone = <T>(value: T): T => structuredClone(value)

async function run(method: string, path: string): Promise<string> {
  const reply = await call(sim, method, path)
  expect(reply.status).toBe(202)
  const done = await endTask(sim, clock, reply.json.data.task_id)
  expect(done.status).toBe('completed')
  return reply.json.data.task_id
}

describe('create', () => {
  it('copies production into the new staging site and sends one e-mail when it finishes', async () => {
    await admin(sim, 'POST', '/sites/1001/content', { target: 'production' })
    const created = await call(sim, 'POST', '/v2/sites/1001/staging')
    expect(sim.state.outbox).toHaveLength(0)
    await endTask(sim, clock, created.json.data.task_id)
    const staging = sim.state.staging.get('1001')
    expect(staging?.status).toBe('ready')
    expect(staging?.content).toEqual({ files: 'prod-v2', database: 'prod-v2' })
    const outbox = (await admin(sim, 'GET', '/outbox')).body
    expect(outbox).toEqual([
      {
        to: SIM_ACCOUNT_EMAIL,
        subject: 'Your staging site shop-staging is ready',
        site_id: 1001,
        staging_site_id: 's-1001',
        at: sim.state.tasks.get(created.json.data.task_id)!.ends_at,
      },
    ])
  })

  it('sends the e-mail at completion even when nobody polls', async () => {
    await call(sim, 'POST', '/v2/sites/1001/staging')
    clock.advance(FAST.create - 1)
    sim.core.settle()
    expect(sim.state.outbox).toHaveLength(0)
    clock.advance(1)
    // No request from here on: the server's own timer ends the job.
    await until(() => sim.state.outbox.length === 1)
    expect(sim.state.staging.get('1001')?.status).toBe('ready')
    expect(sim.requests).toHaveLength(1)
  })
})

describe('pull', () => {
  it('replaces staging content with production content and leaves production untouched', async () => {
    await admin(sim, 'POST', '/sites/1002/content', { target: 'production' })
    const before = clone(sim.state.sites.get('1002'))
    expect(sim.state.staging.get('1002')?.content).toEqual({ files: 'staging-v1', database: 'staging-v1' })
    await run('POST', '/v2/sites/1002/staging/reset')
    expect(sim.state.staging.get('1002')?.content).toEqual({ files: 'prod-v2', database: 'prod-v2' })
    expect(sim.state.sites.get('1002')).toEqual(before)
    expect(sim.state.purges).toEqual([])
  })

  it('keeps the staging URL and SSH credentials', async () => {
    const probe = async (): Promise<Record<string, unknown>> =>
      (await call(sim, 'GET', '/v2/sites/1002/staging')).json.data
    const before = await probe()
    await run('POST', '/v2/sites/1002/staging/reset')
    const after = await probe()
    for (const field of ['id', 'staging_url', 'ssh_username', 'ssh_password', 'wp_password']) {
      expect([field, after[field]]).toEqual([field, before[field]])
    }
  })

  it('copies production as it is when the pull finishes', async () => {
    const pull = await call(sim, 'POST', '/v2/sites/1002/staging/reset')
    await admin(sim, 'POST', '/sites/1002/content', { target: 'production', part: 'database' })
    expect(sim.state.staging.get('1002')?.content).toEqual({ files: 'staging-v1', database: 'staging-v1' })
    await endTask(sim, clock, pull.json.data.task_id)
    expect(sim.state.staging.get('1002')?.content).toEqual({ files: 'prod-v1', database: 'prod-v2' })
  })
})

describe('push', () => {
  it('replaces production content with staging content', async () => {
    await admin(sim, 'POST', '/sites/1002/content', { target: 'staging' })
    await run('POST', '/v2/sites/1002/staging/push')
    expect(sim.state.sites.get('1002')?.content).toEqual({ files: 'staging-v2', database: 'staging-v2' })
    expect(sim.state.staging.get('1002')?.content).toEqual({ files: 'staging-v2', database: 'staging-v2' })
  })

  it('turns off password protection and keeps domains, CDN, SSL, tags, SSH keys, plan and settings', async () => {
    // site 1003 has password protection on; give it staging first
    await run('POST', '/v2/sites/1003/staging')
    await admin(sim, 'POST', '/sites/1003/content', { target: 'staging' })
    const before = clone(sim.state.sites.get('1003'))
    expect(before?.password_protected).toBe(true)
    await run('POST', '/v2/sites/1003/staging/push')
    const after = sim.state.sites.get('1003')
    expect(after?.password_protected).toBe(false)
    expect(after?.content).toEqual({ files: 'staging-v2', database: 'staging-v2' })
    for (const field of [
      'domains',
      'cdn_zone',
      'ssl',
      'tags',
      'ssh_keys',
      'plan',
      'settings',
      'url',
      'site_name',
      'ssh_username',
      'ssh_password',
    ] as const) {
      expect([field, after?.[field]]).toEqual([field, before?.[field]])
    }
    const { content: _c1, password_protected: _p1, updated_at: _u1, ...restBefore } = before!
    const { content: _c2, password_protected: _p2, updated_at: _u2, ...restAfter } = after!
    expect(restAfter).toEqual(restBefore)
    // and the API shows it too
    const site = await call(sim, 'GET', '/v2/sites/1003')
    expect(site.json.data.password_protected).toBe(false)
  })

  it('purges the production CDN cache once, when the push completes', async () => {
    const push = await call(sim, 'POST', '/v2/sites/1002/staging/push')
    expect((await admin(sim, 'GET', '/purges')).body).toEqual([])
    await endTask(sim, clock, push.json.data.task_id)
    const purges = (await admin(sim, 'GET', '/purges')).body
    expect(purges).toEqual([{ site_id: 1002, at: sim.state.tasks.get(push.json.data.task_id)!.ends_at }])
  })
})

describe('delete', () => {
  it('removes the staging site and leaves production as it was', async () => {
    const before = clone(sim.state.sites.get('1002'))
    await run('DELETE', '/v2/sites/1002/staging')
    expect(sim.state.staging.has('1002')).toBe(false)
    expect(sim.state.sites.get('1002')).toEqual(before)
    expect((await call(sim, 'GET', '/v2/sites/1002/staging')).status).toBe(404)
    const list = await call(sim, 'GET', '/v2/sites?type=staging')
    expect(list.json.data).toEqual([])
    expect(sim.state.purges).toEqual([])
    expect(sim.state.outbox).toEqual([])
  })

  it('gives a re-created staging site fresh credentials and a fresh copy of production', async () => {
    const old = clone(sim.state.staging.get('1002'))
    await run('DELETE', '/v2/sites/1002/staging')
    await run('POST', '/v2/sites/1002/staging')
    const fresh = sim.state.staging.get('1002')
    expect(fresh?.content).toEqual({ files: 'prod-v1', database: 'prod-v1' })
    expect(fresh?.ssh_password).not.toBe(old?.ssh_password)
  })
})
