/** The service profile (contract revision 2, §1-§10): the same rules, the service family's shapes. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { SIM_SITES, type ManualClock, type Simulator } from '../../simulator/server.js'
import { call, endTask, FAST, startOnClock, type CallOptions } from './helpers.js'

// A job runs until the test moves the clock past its end (endTask).
let sim: Simulator
let clock: ManualClock
beforeAll(async () => {
  ;({ sim, clock } = await startOnClock({ profile: 'service', durationsMs: FAST }))
})
afterAll(() => sim.stop())
beforeEach(() => {
  sim.reset()
  sim.setOptions({ profile: 'service', durationsMs: FAST, rateLimit: null, taskVisibilityDelayMs: 0 })
})

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/
const JSON_ACCEPT = { Accept: 'application/json' }
/** A request to the service API (under /api/v2) asking for JSON. */
const api = (method: string, path: string, options: CallOptions = {}) =>
  call(sim, method, `/api/v2${path}`, { ...options, headers: { ...JSON_ACCEPT, ...options.headers } })

describe('the API root under /api', () => {
  it('exposes the api-url a user passes: the origin plus /api', () => {
    expect(sim.apiUrl).toBe(`${sim.url}/api`)
    expect(sim.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  })

  it("answers the framework's JSON 404 to the root without its prefix, whatever the token", async () => {
    const reply = await call(sim, 'POST', '/v2/sites/1001/staging', { headers: JSON_ACCEPT })
    expect(reply.status).toBe(404)
    expect(reply.json).toEqual({ message: 'The route v2/sites/1001/staging could not be found.' })
    const unknown = await api('GET', '/nothing/here', { token: null })
    expect(unknown.json).toEqual({ message: 'The route api/v2/nothing/here could not be found.' })
    expect(sim.state.staging.has('1001')).toBe(false)
  })

  it('answers an HTML 404 page when the request does not ask for JSON', async () => {
    const reply = await call(sim, 'GET', '/v2/sites', { headers: { Accept: 'text/html' } })
    expect(reply.status).toBe(404)
    expect(reply.headers.get('content-type')).toMatch(/^text\/html/)
    expect(reply.text).toMatch(/^<!DOCTYPE html>/)
    expect(reply.text).toContain('Not Found')
    expect(reply.json).toBeUndefined()
  })

  it('answers 405 to the probe route with the framework message and Allow, before any token check', async () => {
    const reply = await api('GET', '/sites/1001/staging', { token: null })
    expect(reply.status).toBe(405)
    expect(reply.json).toEqual({
      message:
        'The GET method is not supported for route api/v2/sites/1001/staging. Supported methods: POST, DELETE.',
    })
    expect(reply.headers.get('allow')).toBe('POST, DELETE')
    const onTask = await api('POST', '/tasks/abc/status')
    expect(onTask.json.message).toBe(
      'The POST method is not supported for route api/v2/tasks/abc/status. Supported methods: GET, HEAD.',
    )
  })
})

describe('framework errors without the envelope', () => {
  it('401 is {"message": "Unauthenticated."}, in English whatever X-localization says', async () => {
    for (const lang of ['en', 'es']) {
      const reply = await api('POST', '/sites/1001/staging', { token: 'not-a-token', lang })
      expect(reply.status).toBe(401)
      expect(reply.json).toEqual({ message: 'Unauthenticated.' })
    }
  })

  it('an unknown production site is the model 404', async () => {
    const reply = await api('POST', '/sites/9999/staging')
    expect(reply.status).toBe(404)
    expect(reply.json).toEqual({ message: 'No query results for model [App\\Models\\Site] 9999' })
  })

  it('pull, push and delete on a site without staging: 404 "Staging site not found.", localized', async () => {
    for (const [method, path] of [
      ['POST', '/sites/1001/staging/reset'],
      ['POST', '/sites/1001/staging/push'],
      ['DELETE', '/sites/1001/staging'],
    ] as const) {
      const reply = await api(method, path)
      expect([path, reply.status, reply.json]).toEqual([path, 404, { message: 'Staging site not found.' }])
    }
    const es = await api('POST', '/sites/1001/staging/reset', { lang: 'es' })
    expect(es.json).toEqual({ message: 'Sitio de staging no encontrado.' })
  })

  it('a task that is not visible yet is the Task model 404', async () => {
    sim.setOptions({ taskVisibilityDelayMs: 5000 })
    const created = await api('POST', '/sites/1001/staging')
    const id = created.json.data.task_id
    const reply = await api('GET', `/tasks/${id}/status`)
    expect(reply.status).toBe(404)
    expect(reply.json).toEqual({ message: `No query results for model [App\\Models\\Task] ${id}` })
  })

  it('create when staging exists: 422 with errors.site_id', async () => {
    const reply = await api('POST', `/sites/${SIM_SITES.withStaging}/staging`)
    expect(reply.status).toBe(422)
    expect(reply.json).toEqual({
      message: 'This site already has a staging site.',
      errors: { site_id: ['This site already has a staging site.'] },
    })
  })

  it('a plan without staging is 422 with a plan message; WaaS and client-portal sites keep 403', async () => {
    const plan = await api('POST', `/sites/${SIM_SITES.planWithoutStaging}/staging`)
    expect(plan.status).toBe(422)
    expect(plan.json).toEqual({ message: expect.stringMatching(/plan does not include staging/) })
    const waas = await api('POST', `/sites/${SIM_SITES.waas}/staging`)
    expect([waas.status, waas.json]).toEqual([403, { message: expect.stringMatching(/WaaS/) }])
    const portal = await api('POST', `/sites/${SIM_SITES.clientPortal}/staging`, { lang: 'es' })
    expect([portal.status, portal.json]).toEqual([
      403,
      { message: expect.stringMatching(/portal de clientes/) },
    ])
    expect(sim.state.tasks.size).toBe(0)
  })
})

describe('busy: 422 with a message that says a job is in progress', () => {
  it('refuses a second create while one runs, in English and Spanish', async () => {
    expect((await api('POST', '/sites/1001/staging')).status).toBe(200)
    const en = await api('POST', '/sites/1001/staging')
    expect(en.status).toBe(422)
    expect(en.json).toEqual({
      message: expect.stringMatching(/already in progress\. Please wait until it finishes\./),
    })
    const es = await api('POST', '/sites/1001/staging', { lang: 'es' })
    expect(es.status).toBe(422)
    expect(es.json.message).toMatch(/ya está en curso/)
    expect(sim.state.tasks.size).toBe(1)
  })

  it('refuses pull, push and delete while a pull runs, and starts nothing', async () => {
    expect((await api('POST', '/sites/1002/staging/reset')).status).toBe(200)
    for (const [method, path] of [
      ['POST', '/sites/1002/staging/reset'],
      ['POST', '/sites/1002/staging/push'],
      ['DELETE', '/sites/1002/staging'],
    ] as const) {
      const reply = await api(method, path)
      expect([path, reply.status]).toEqual([path, 422])
      expect(reply.json.message).toMatch(/already in progress/)
      expect(reply.json).not.toHaveProperty('status')
    }
    expect(sim.state.tasks.size).toBe(1)
    expect(sim.state.staging.get('1002')?.status).toBe('syncing')
  })
})

describe('accepted jobs and their tasks', () => {
  it('create: 200 with task_id and wp_url, no site id; the task goes queued, in_progress, completed', async () => {
    sim.setOptions({ durationsMs: { create: 600 } })
    const created = await api('POST', '/sites/1001/staging')
    expect(created.status).toBe(200)
    expect(created.json).toEqual({
      status: true,
      message: expect.any(String),
      data: { task_id: expect.stringMatching(/^[0-9a-f]{12}$/), wp_url: `${sim.url}/staging-sites/s-1001/` },
    })
    const id = created.json.data.task_id
    const first = (await api('GET', `/tasks/${id}/status`)).json.data
    // queued for the first 10% of the duration, then in progress (exact timings: core.test.ts)
    expect(first).toEqual({
      id: 148601,
      cloud_task_id: id,
      type: 'site_install',
      resource_type: 'App\\Models\\Site',
      resource_id: 51001,
      status: 'queued',
      percentage_complete: '0.00',
      comment: null,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    })
    clock.advance(60)
    const running = (await api('GET', `/tasks/${id}/status`)).json.data
    expect(running.status).toBe('in_progress')
    expect(running.percentage_complete).toMatch(/^\d{1,2}\.\d{2}$/)
    expect(sim.state.outbox).toHaveLength(0)
    const done = await endTask(sim, clock, id)
    expect(done).toMatchObject({ status: 'completed', percentage_complete: '100.00', resource_id: 51001 })
    expect(sim.state.outbox).toHaveLength(1)
  })

  it('pull and push: 200, a body without a status field, numeric task statuses 1 then 0', async () => {
    for (const [path, type] of [
      ['/sites/1002/staging/reset', 'staging_sync'],
      ['/sites/1002/staging/push', 'staging_push'],
    ] as const) {
      const reply = await api('POST', path)
      expect(reply.status).toBe(200)
      expect(reply.json).toEqual({ message: expect.any(String), data: { task_id: expect.any(String) } })
      const id = reply.json.data.task_id
      const running = (await api('GET', `/tasks/${id}/status`)).json.data
      expect(running).toMatchObject({ status: 1, type, resource_id: 51002, cloud_task_id: id })
      expect(typeof running.id).toBe('number')
      expect(await endTask(sim, clock, id)).toMatchObject({
        status: 0,
        percentage_complete: '100.00',
      })
    }
    // the rules' effects are the same as in the spec profile
    expect(sim.state.staging.get('1002')?.content).toEqual({ files: 'prod-v1', database: 'prod-v1' })
    expect(sim.state.purges).toEqual([expect.objectContaining({ site_id: 1002 })])
  })

  it('delete: 200 with the envelope and a task_id; the staging site is gone when the task is 0', async () => {
    const reply = await api('DELETE', '/sites/1002/staging')
    expect(reply.status).toBe(200)
    expect(reply.json).toEqual({
      status: true,
      message: expect.any(String),
      data: { task_id: expect.any(String) },
    })
    expect(sim.state.staging.has('1002')).toBe(true)
    const done = await endTask(sim, clock, reply.json.data.task_id)
    expect(done).toMatchObject({ status: 0, type: 'site_delete' })
    expect(sim.state.staging.has('1002')).toBe(false)
  })

  it('a failed create task says failure; a failed pull says 2; both with an "Error:" comment', async () => {
    sim.addFault({ method: 'POST', path: '/sites/1001/staging', taskError: 'disk full' })
    sim.addFault({ method: 'POST', path: '/staging/reset', taskError: 'database copy failed' })
    const created = await api('POST', '/sites/1001/staging')
    const pulled = await api('POST', '/sites/1002/staging/reset')
    const create = await endTask(sim, clock, created.json.data.task_id)
    expect(create).toMatchObject({ status: 'failure', comment: 'Error: disk full' })
    const pull = await endTask(sim, clock, pulled.json.data.task_id)
    expect(pull).toMatchObject({ status: 2, comment: 'Error: database copy failed' })
  })

  it('task row ids grow one by one and are never a site id', async () => {
    const a = await api('POST', '/sites/1001/staging')
    const b = await api('POST', '/sites/1002/staging/reset')
    const rows = await Promise.all(
      [a, b].map(async (r) => (await api('GET', `/tasks/${r.json.data.task_id}/status`)).json.data.id),
    )
    expect(rows).toEqual([148601, 148602])
  })

  it('lists sites with ISO dates and numeric staging ids; staging and production records link by fields', async () => {
    const reply = await api('GET', '/sites?type=staging')
    expect(reply.json.status).toBe(true)
    expect(reply.json.data).toEqual([
      expect.objectContaining({
        id: 51002,
        is_staging: true,
        parent_id: 1002,
        status: 0,
        created_at: expect.stringMatching(ISO),
      }),
    ])
    expect(JSON.stringify(reply.json.data)).not.toMatch(/password/)
    const production = await api('GET', '/sites?type=production&per_page=100')
    expect(production.json.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: 1002, is_staging: false, parent_id: null, staging_site_id: 51002 }),
        expect.objectContaining({ id: 1001, staging_site_id: null }),
      ]),
    )
    expect((await api('GET', '/sites/51002')).json.data.id).toBe(51002)
  })
})

describe('rate limit (contract §6)', () => {
  it('puts Limit and Remaining on every answer; a 429 is "Too Many Attempts." with Retry-After and Reset', async () => {
    sim.setOptions({ rateLimit: { limit: 3, windowMs: 60_000 } })
    const ok = await api('GET', '/sites')
    const missing = await api('POST', '/sites/1001/staging/reset')
    const busyFree = await api('POST', '/sites/1002/staging/reset')
    expect([ok.status, missing.status, busyFree.status]).toEqual([200, 404, 200])
    expect([ok, missing, busyFree].map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual([
      '2',
      '1',
      '0',
    ])
    for (const r of [ok, missing, busyFree]) {
      expect(r.headers.get('x-ratelimit-limit')).toBe('3')
      expect(r.headers.get('x-ratelimit-reset')).toBeNull()
      expect(r.headers.get('retry-after')).toBeNull()
    }
    const refused = await api('GET', '/sites')
    expect(refused.status).toBe(429)
    expect(refused.json).toEqual({ message: 'Too Many Attempts.' })
    // the window started at the first request: the clock has not moved since
    expect(refused.headers.get('retry-after')).toBe('60')
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0')
    const windowEnd = clock.now() + 60_000
    expect(Number(refused.headers.get('x-ratelimit-reset'))).toBe(Math.ceil(windowEnd / 1000))
  })
})

describe('500 faults', () => {
  it('answer {"message": "Server Error"}; debug: true sends the debug shape', async () => {
    sim.addFault({ status: 500 })
    sim.addFault({ status: 500, debug: true })
    const plain = await api('GET', '/sites')
    expect([plain.status, plain.json]).toEqual([500, { message: 'Server Error' }])
    const debug = await api('GET', '/sites')
    expect(debug.status).toBe(500)
    expect(debug.json).toEqual({
      message: expect.any(String),
      exception: expect.stringMatching(/\\/),
      file: expect.stringMatching(/\.php$/),
      line: expect.any(Number),
      trace: expect.arrayContaining([
        expect.objectContaining({ file: expect.any(String), line: expect.any(Number) }),
      ]),
    })
  })
})
