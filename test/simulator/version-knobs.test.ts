/**
 * The site-versions knobs (option `versions`, `versionQuota`; flags --versions, --version-quota), the
 * admin paths for versions, and a failing restore, on both profiles.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { ArgsError, parseArgs } from '../../simulator/args.js'
import { SLOW_VERSION_MS, VERSION_TASK_ERROR } from '../../simulator/options.js'
import { SIM_SITES, type ManualClock, type Simulator } from '../../simulator/server.js'
import { admin, callJson, endTask, RO, startOnClock, type CallOptions } from './helpers.js'

const DURATIONS = { create: 150, pull: 120, push: 120, delete: 80, version: 100, restore: 100 }

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
    id: (n: number): unknown => `v-${n}`,
    failed: 'error' as unknown,
    allow: 'GET',
  },
  service: {
    prefix: '/api',
    accepted: 200,
    id: (n: number): unknown => n,
    failed: 2 as unknown,
    allow: 'GET, HEAD',
  },
} as const

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

  /** Every versions route once (a seeded completed version to name, restore and delete). */
  async function everyRoute(token?: string | null): Promise<number[]> {
    const seeded = await admin(sim, 'POST', `/sites/${BLOG}/versions`, { name: 'seeded' })
    const id = String(p.id(seeded.body.id))
    const options = token === undefined ? {} : { token }
    return [
      (await api('POST', '/site-versions', { ...options, body: { site_id: BLOG } })).status,
      (await api('PUT', `/site-versions/${id}`, { ...options, body: { name: 'x' } })).status,
      (await api('GET', `/site-versions?site_id=${BLOG}&per_page=100`, options)).status,
      (await api('PUT', `/sites/${BLOG}/restore-versions/${id}`, options)).status,
      (await api('DELETE', '/site-versions', { ...options, body: { ids: [p.id(seeded.body.id)] } })).status,
    ]
  }

  it('absent-404: every versions route answers 404, as an unknown route', async () => {
    sim.setOptions({ versions: 'absent-404' })
    expect(await everyRoute()).toEqual([404, 404, 404, 404, 404])
    const reply = await api('POST', '/site-versions', { body: { site_id: BLOG } })
    if (profile === 'service')
      expect(reply.json).toEqual({ message: 'The route api/v2/site-versions could not be found.' })
    else expect(reply.json).toMatchObject({ status: false, message: 'API path not found: /v2/site-versions' })
    expect(sim.state.tasks.size).toBe(0)
  })

  it('absent-405: every change answers 405 (Allow: GET), the list is empty', async () => {
    sim.setOptions({ versions: 'absent-405' })
    expect(await everyRoute()).toEqual([405, 405, 200, 405, 405])
    const reply = await api('POST', '/site-versions', { body: { site_id: BLOG } })
    expect(reply.headers.get('allow')).toBe(p.allow)
    if (profile === 'service')
      expect(reply.json.message).toMatch(/^The POST method is not supported for route/)
    expect((await api('GET', `/site-versions?site_id=${BLOG}`)).json.data).toEqual([])
    expect(sim.state.tasks.size).toBe(0)
  })

  it('plan-403: every versions route answers 403 with a message, nothing starts', async () => {
    sim.setOptions({ versions: 'plan-403' })
    expect(await everyRoute()).toEqual([403, 403, 403, 403, 403])
    const reply = await api('POST', '/site-versions', { body: { site_id: BLOG } })
    expect(reply.json.message).toMatch(/plan does not include site versions/)
    if (profile === 'service') expect(Object.keys(reply.json)).toEqual(['message'])
    else expect(reply.json).toMatchObject({ status: false, data: null })
    expect(sim.state.tasks.size).toBe(0)
  })

  it('the read-only token may list versions but not change them', async () => {
    expect(await everyRoute(RO)).toEqual([403, 403, 200, 403, 403])
  })

  it('quota: every create refused with 422, even with no version yet', async () => {
    sim.setOptions({ versions: 'quota' })
    const reply = await api('POST', '/site-versions', { body: { site_id: BLOG } })
    expect(reply.status).toBe(422)
    expect(reply.json.message).toMatch(/Delete an old version/)
    expect(sim.state.siteVersions.size).toBe(0)
  })

  it('versionQuota counts completed versions (seeded ones too), not failed ones', async () => {
    sim.setOptions({ versionQuota: 1 })
    for (let i = 0; i < 3; i++) await admin(sim, 'POST', `/sites/${BLOG}/versions`, { status: 'failed' })
    await admin(sim, 'POST', `/sites/${BLOG}/versions`, { name: 'by a person' })
    const second = await api('POST', '/site-versions', { body: { site_id: BLOG } })
    expect(second.status).toBe(p.accepted)
    await settled(second.json.data.task_id)
    const third = await api('POST', '/site-versions', { body: { site_id: BLOG } })
    expect(third.status).toBe(422)
    expect(third.json.message).toMatch(/at most 1 versions per site/)
  })

  it('task-fails: the version task ends failed with a comment; the version is listed failed, never restorable', async () => {
    sim.setOptions({ versions: 'task-fails' })
    const created = await api('POST', '/site-versions', { body: { site_id: BLOG } })
    expect(created.status).toBe(p.accepted)
    const task = await settled(created.json.data.task_id)
    expect(task.status).toBe(p.failed)
    expect(task.comment).toBe(`Error: ${VERSION_TASK_ERROR}`)
    const listed = await api('GET', `/site-versions?site_id=${BLOG}`)
    expect(listed.json.data).toEqual([
      expect.objectContaining({ id: created.json.data.id, status: 'failed' }),
    ])
    const restore = await api('PUT', `/sites/${BLOG}/restore-versions/${created.json.data.id}`)
    expect(restore.status).toBe(422)
  })

  it('slow: the version task runs for 15 minutes', async () => {
    sim.setOptions({ versions: 'slow' })
    const created = await api('POST', '/site-versions', { body: { site_id: BLOG } })
    const task = sim.state.tasks.get(created.json.data.task_id)
    expect(task?.duration_ms).toBe(SLOW_VERSION_MS)
    clock.advance(SLOW_VERSION_MS - 1)
    const status = await api('GET', `/tasks/${created.json.data.task_id}/status`)
    expect(status.json.data.status).toBe(profile === 'service' ? 1 : 'progress')
    expect((await api('GET', `/site-versions?site_id=${BLOG}`)).json.data[0].status).toBe('progress')
    expect((await settled(created.json.data.task_id)).status).toBe(profile === 'service' ? 0 : 'completed')
  })

  it('no-task-id: the create answers the id without task_id; the version still completes in the list', async () => {
    sim.setOptions({ versions: 'no-task-id' })
    const created = await api('POST', '/site-versions', { body: { site_id: BLOG } })
    expect(created.status).toBe(p.accepted)
    expect(created.json.data).toEqual({ id: p.id(sim.state.nextVersionId - 1) })
    const listed = async () => (await api('GET', `/site-versions?site_id=${BLOG}`)).json.data[0]
    expect(await listed()).toMatchObject({ id: created.json.data.id, status: 'progress' })
    const [task] = [...sim.state.tasks.values()].filter((t) => t.kind === 'version')
    await settled(task!.id)
    expect(await listed()).toMatchObject({ id: created.json.data.id, status: 'completed' })
  })

  it('a restore whose task fails (fault taskError) leaves production as it was', async () => {
    const seeded = await admin(sim, 'POST', `/sites/${BLOG}/versions`, {
      content: { files: 'old-files', database: 'old-db' },
    })
    sim.addFault({ method: 'PUT', path: '/restore-versions/', taskError: 'disk full' })
    const restore = await api('PUT', `/sites/${BLOG}/restore-versions/${p.id(seeded.body.id)}`)
    expect(restore.status).toBe(p.accepted)
    const task = await settled(restore.json.data.task_id)
    expect([task.status, task.comment]).toEqual([p.failed, 'Error: disk full'])
    expect(sim.state.sites.get(String(BLOG))?.content).toEqual({ files: 'prod-v1', database: 'prod-v1' })
  })

  it('a push is refused as busy while a restore of production runs, and a restore while a push runs', async () => {
    const seeded = await admin(sim, 'POST', `/sites/${BLOG}/versions`, {})
    const restore = await api('PUT', `/sites/${BLOG}/restore-versions/${p.id(seeded.body.id)}`)
    const push = await api('POST', `/sites/${BLOG}/staging/push`, { body: {} })
    expect(push.status).toBe(profile === 'service' ? 422 : 409)
    expect(push.json.message).toMatch(/already in progress/)
    await settled(restore.json.data.task_id)
    const pushed = await api('POST', `/sites/${BLOG}/staging/push`, { body: {} })
    expect(pushed.status).toBe(p.accepted)
    const during = await api('PUT', `/sites/${BLOG}/restore-versions/${p.id(seeded.body.id)}`)
    expect(during.status).toBe(profile === 'service' ? 422 : 409)
  })
})

describe('admin paths for versions', () => {
  beforeEach(() => {
    sim.reset()
    sim.setOptions({ profile: 'spec', versions: 'ok' })
  })

  it('seeds a version (name, status, content, created_at) and lists a site’s versions newest first', async () => {
    const older = await admin(sim, 'POST', `/sites/${BLOG}/versions`, { name: 'manual', created_at: 1_000 })
    const newer = await admin(sim, 'POST', `/sites/${BLOG}/versions`, {
      status: 'progress',
      content: { files: 'f', database: 'd' },
    })
    expect(older.body).toMatchObject({
      id: 7001,
      site_id: BLOG,
      name: 'manual',
      status: 'completed',
      created_at: 1000,
    })
    expect(newer.body).toMatchObject({ id: 7002, status: 'progress', content: { files: 'f', database: 'd' } })
    const listed = await admin(sim, 'GET', `/sites/${BLOG}/versions`)
    expect(listed.body.map((v: { id: number }) => v.id)).toEqual([7002, 7001])
    expect((await admin(sim, 'GET', `/sites/${BLOG}`)).body.versions).toHaveLength(2)
    expect((await admin(sim, 'GET', '/state')).body.siteVersions).toHaveLength(2)
  })

  it('refuses bad seeds and unknown sites', async () => {
    expect((await admin(sim, 'POST', `/sites/${BLOG}/versions`, { status: 'done' })).status).toBe(400)
    expect((await admin(sim, 'POST', `/sites/${BLOG}/versions`, { content: { files: 1 } })).status).toBe(400)
    expect((await admin(sim, 'POST', '/sites/424242/versions', {})).status).toBe(404)
    expect(sim.state.siteVersions.size).toBe(0)
  })

  it('sets the knobs through POST /__sim/options and refuses unknown values', async () => {
    const set = await admin(sim, 'POST', '/options', {
      versions: 'task-fails',
      versionQuota: 5,
      tools: 'plan-403',
    })
    expect(set.body).toMatchObject({ versions: 'task-fails', versionQuota: 5, tools: 'plan-403' })
    expect((await admin(sim, 'POST', '/options', { versions: 'never' })).status).toBe(400)
    expect((await admin(sim, 'POST', '/options', { versionQuota: -1 })).status).toBe(400)
    expect((await admin(sim, 'POST', '/options', { tools: 'absent-405' })).status).toBe(400)
    sim.setOptions({ tools: 'ok' })
  })
})

describe('command-line flags', () => {
  it('parses --versions, --version-quota, --tools and version / restore durations', () => {
    const parsed = parseArgs([
      '--versions',
      'absent-405',
      '--version-quota=5',
      '--tools',
      'plan-403',
      '--duration',
      'version=2s',
      '--duration',
      'restore=500ms',
    ])
    expect(parsed).toEqual({
      help: false,
      options: {
        port: 0,
        versions: 'absent-405',
        versionQuota: 5,
        tools: 'plan-403',
        durationsMs: { version: 2000, restore: 500 },
      },
    })
  })

  it('refuses unknown modes', () => {
    expect(() => parseArgs(['--versions', 'maybe'])).toThrow(ArgsError)
    expect(() => parseArgs(['--tools', 'absent-405'])).toThrow(/--tools: ok, plan-403, absent-404/)
    expect(() => parseArgs(['--version-quota', 'x'])).toThrow(ArgsError)
  })
})
