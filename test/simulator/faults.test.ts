import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { Faults } from '../../simulator/faults.js'
import { start, type ManualClock, type Simulator } from '../../simulator/server.js'
import { call, endTask, FAST, RW, settlesWithin, startOnClock, stateOf, until, WAIT_MS } from './helpers.js'

// A job runs until the test moves the clock past its end (endTask).
let sim: Simulator
let clock: ManualClock
beforeAll(async () => {
  ;({ sim, clock } = await startOnClock({ durationsMs: FAST }))
})
afterAll(() => sim.stop())
beforeEach(() => sim.reset())

describe('status faults', () => {
  it('answers a 429 burst with Retry-After, then lets requests through', async () => {
    sim.addFault({ path: '/v2/sites', status: 429, times: 2, retryAfter: 3 })
    const first = await call(sim, 'GET', '/v2/sites')
    const second = await call(sim, 'GET', '/v2/sites')
    const third = await call(sim, 'GET', '/v2/sites')
    expect([first.status, second.status, third.status]).toEqual([429, 429, 200])
    expect(first.headers.get('retry-after')).toBe('3')
    expect(first.json).toMatchObject({
      status: false,
      data: null,
      message: expect.stringMatching(/too many/i),
    })
    expect(sim.requests.map((r) => [r.status, r.faulted, r.processed])).toEqual([
      [429, true, false],
      [429, true, false],
      [200, false, true],
    ])
  })

  it('accepts an HTTP date as Retry-After', async () => {
    const date = new Date(Date.now() + 5000).toUTCString()
    sim.addFault({ status: 503, retryAfter: date })
    const reply = await call(sim, 'GET', '/v2/sites')
    expect(reply.status).toBe(503)
    expect(reply.headers.get('retry-after')).toBe(date)
  })

  it.each([500, 502, 503])(
    'answers %s with a JSON envelope, an HTML page or an empty body',
    async (status) => {
      sim.addFault({ status, body: 'json' })
      sim.addFault({ status, body: 'html' })
      sim.addFault({ status, body: 'empty' })
      const json = await call(sim, 'POST', '/v2/sites/1001/staging')
      expect(json.status).toBe(status)
      expect(json.headers.get('content-type')).toBe('application/json')
      expect(json.json).toMatchObject({
        status: false,
        data: null,
        exception: `SimulatedFault: HTTP ${status}`,
      })
      const html = await call(sim, 'POST', '/v2/sites/1001/staging')
      expect(html.status).toBe(status)
      expect(html.headers.get('content-type')).toMatch(/^text\/html/)
      expect(html.text).toMatch(new RegExp(`<h1>${status} `))
      const empty = await call(sim, 'POST', '/v2/sites/1001/staging')
      expect(empty.status).toBe(status)
      expect(empty.text).toBe('')
      // none of them was processed
      expect(sim.state.staging.has('1001')).toBe(false)
      expect(sim.requests.every((r) => r.faulted && !r.processed)).toBe(true)
    },
  )

  it('with process: true, does the work and then answers with the fault status', async () => {
    sim.addFault({ method: 'POST', path: '/staging', status: 500, process: true })
    const reply = await call(sim, 'POST', '/v2/sites/1001/staging')
    expect(reply.status).toBe(500)
    expect(sim.state.staging.get('1001')?.status).toBe('creating')
    expect(sim.requests[0]).toMatchObject({ status: 500, faulted: true, processed: true })
    // the job really runs: a retry of the create is refused as busy
    expect((await call(sim, 'POST', '/v2/sites/1001/staging')).status).toBe(409)
  })

  it('echoes the Authorization header back in message and data with echo-token', async () => {
    sim.addFault({ status: 500, body: 'echo-token' })
    const reply = await call(sim, 'GET', '/v2/sites')
    expect(reply.status).toBe(500)
    expect(reply.json.message).toContain(`Bearer ${RW}`)
    expect(reply.json.data).toEqual({ authorization: `Bearer ${RW}` })
  })

  it('answers 307 with Location for a redirect fault', async () => {
    sim.addFault({ path: '/staging', redirect: 'http://127.0.0.1:9/elsewhere' })
    const reply = await call(sim, 'POST', '/v2/sites/1001/staging')
    expect(reply.status).toBe(307)
    expect(reply.headers.get('location')).toBe('http://127.0.0.1:9/elsewhere')
    expect(reply.json.status).toBe(false)
    expect(sim.state.staging.has('1001')).toBe(false)
  })
})

describe('matching', () => {
  it('matches by method and by path substring or RegExp', async () => {
    sim.addFault({ method: 'POST', path: '/staging/push', status: 502, times: Infinity })
    sim.addFault({ path: /\/tasks\/[0-9a-f]+\/status$/, status: 504, times: 1 })
    expect((await call(sim, 'GET', '/v2/sites/1002/staging')).status).toBe(200)
    expect((await call(sim, 'POST', '/v2/sites/1002/staging/reset')).status).toBe(202)
    expect((await call(sim, 'POST', '/v2/sites/1002/staging/push')).status).toBe(502)
    expect((await call(sim, 'POST', '/v2/sites/1002/staging/push')).status).toBe(502)
    expect((await call(sim, 'GET', '/v2/tasks/abcdef123456/status')).status).toBe(504)
    expect((await call(sim, 'GET', '/v2/tasks/abcdef123456/status')).status).toBe(404)
  })

  it('applies a rate-based rule to every request at rate 1 and to none at rate 0', async () => {
    sim.addFault({ path: '/v2/sites/1001', rate: 0, status: 500 })
    sim.addFault({ path: '/v2/sites/1002', rate: 1, status: 503 })
    for (let i = 0; i < 5; i++) {
      expect((await call(sim, 'GET', '/v2/sites/1001')).status).toBe(200)
      expect((await call(sim, 'GET', '/v2/sites/1002')).status).toBe(503)
    }
  })

  it('applies a rate with the random source it is given', () => {
    const values = [0.1, 0.9, 0.2, 0.8]
    const faults = new Faults(() => values.shift() ?? 1)
    faults.add({ rate: 0.5, status: 500 })
    const fired = [1, 2, 3, 4].map(() => faults.take('GET', '/v2/sites') !== null)
    expect(fired).toEqual([true, false, true, false])
  })

  it('clears all rules with clearFaults', async () => {
    sim.addFault({ status: 500, times: Infinity })
    expect((await call(sim, 'GET', '/v2/sites')).status).toBe(500)
    sim.clearFaults()
    expect((await call(sim, 'GET', '/v2/sites')).status).toBe(200)
  })

  it('refuses a malformed rule', () => {
    expect(() => sim.addFault({ status: 42 })).toThrow(/status/)
    expect(() => sim.addFault({ rate: 2 })).toThrow(/rate/)
    expect(() => sim.addFault({ drop: 'sometimes' as 'before' })).toThrow(/drop/)
  })
})

describe('latency, drops and hangs', () => {
  it('adds latency before handling', async () => {
    sim.addFault({ path: '/v2/sites', latencyMs: 250 })
    const began = Date.now()
    const slow = await call(sim, 'GET', '/v2/sites')
    expect(slow.status).toBe(200)
    expect(Date.now() - began).toBeGreaterThanOrEqual(240)
    expect(sim.requests[0]).toMatchObject({ status: 200, faulted: true, processed: true })
    // the rule is used up: the next request is not delayed
    await call(sim, 'GET', '/v2/sites')
    expect(sim.requests[1]).toMatchObject({ status: 200, faulted: false })
  })

  it('drop before: the connection closes with no answer and nothing happens', async () => {
    sim.addFault({ method: 'POST', path: '/staging', drop: 'before' })
    await expect(call(sim, 'POST', '/v2/sites/1001/staging')).rejects.toThrow()
    expect(sim.state.staging.has('1001')).toBe(false)
    expect(sim.state.tasks.size).toBe(0)
    expect(sim.requests).toHaveLength(1)
    expect(sim.requests[0]).toMatchObject({ status: 'dropped', faulted: true, processed: false })
  })

  it('drop after: the request is processed, then the connection closes with no answer', async () => {
    sim.addFault({ method: 'POST', path: '/staging', drop: 'after' })
    await expect(call(sim, 'POST', '/v2/sites/1001/staging')).rejects.toThrow()
    expect(sim.state.staging.get('1001')?.status).toBe('creating')
    expect(sim.state.tasks.size).toBe(1)
    expect(sim.requests[0]).toMatchObject({ status: 'dropped', faulted: true, processed: true })
    // the server is fine afterwards
    expect((await call(sim, 'GET', '/v2/sites/1001/staging')).status).toBe(200)
  })

  it('a hung request never answers: the client gives up, and stop() still resolves quickly', async () => {
    const own = await start({ durationsMs: FAST })
    own.addFault({ path: '/v2/sites', hang: true, times: 2 })
    const client = new AbortController()
    const first = call(own, 'GET', '/v2/sites', { signal: client.signal })
    await until(() => own.requests[0]?.status === 'hung')
    expect(own.requests[0]).toMatchObject({ status: 'hung', faulted: true, processed: false })
    // a later request is answered; the hung one still is not
    expect((await call(own, 'GET', '/v2/tasks/abcdef123456/status')).status).toBe(404)
    expect(await stateOf(first)).toBe('pending')
    client.abort()
    await expect(first).rejects.toThrow()
    // a second hung request is still open when stop() is called: stop() does not wait for its
    // client, who would wait WAIT_MS
    const second = call(own, 'GET', '/v2/sites').then(
      () => 'answered',
      () => 'failed',
    )
    await until(() => own.requests[2]?.status === 'hung')
    expect(await settlesWithin(own.stop(), WAIT_MS / 2)).toBe(true)
    expect(await second).toBe('failed')
    await own.stop() // twice is fine
  })

  it('stop() resolves quickly while a latency fault is sleeping', async () => {
    const own = await start()
    own.addFault({ latencyMs: 10 * 60_000 })
    const pending = call(own, 'GET', '/v2/sites').then(
      () => 'answered',
      () => 'failed',
    )
    await until(() => own.requests.length === 1)
    expect(await settlesWithin(own.stop(), WAIT_MS / 2)).toBe(true)
    expect(await pending).toBe('failed')
  })
})

describe('taskError', () => {
  it('makes a create end in error with the comment, and leaves no staging site nor e-mail', async () => {
    sim.addFault({ method: 'POST', path: '/staging', taskError: 'disk quota exceeded' })
    const reply = await call(sim, 'POST', '/v2/sites/1001/staging')
    expect(reply.status).toBe(202)
    expect(sim.requests[0]).toMatchObject({ status: 202, faulted: true, processed: true })
    expect(sim.state.staging.get('1001')?.status).toBe('creating')
    const done = await endTask(sim, clock, reply.json.data.task_id)
    expect(done).toMatchObject({ status: 'error', comment: 'Error: disk quota exceeded' })
    expect(Number(done.percentage_complete)).toBeLessThan(100)
    expect(sim.state.staging.has('1001')).toBe(false)
    expect(sim.state.outbox).toEqual([])
    expect((await call(sim, 'GET', '/v2/sites/1001/staging')).status).toBe(404)
    // and the site can try again
    expect((await call(sim, 'POST', '/v2/sites/1001/staging')).status).toBe(202)
  })

  it('makes a failed pull or push change nothing', async () => {
    sim.addFault({ path: '/staging/', taskError: 'rsync failed', times: 2 })
    const productionBefore = structuredClone(sim.state.sites.get('1002'))
    const stagingBefore = structuredClone(sim.state.staging.get('1002'))
    for (const path of ['/v2/sites/1002/staging/reset', '/v2/sites/1002/staging/push']) {
      const reply = await call(sim, 'POST', path)
      const done = await endTask(sim, clock, reply.json.data.task_id)
      expect([path, done.status, done.comment]).toEqual([path, 'error', 'Error: rsync failed'])
    }
    expect(sim.state.sites.get('1002')).toEqual(productionBefore)
    const stagingAfter = sim.state.staging.get('1002')
    expect(stagingAfter?.content).toEqual(stagingBefore?.content)
    expect(stagingAfter?.status).toBe('ready')
    expect(sim.state.purges).toEqual([])
  })

  it('makes a failed delete keep the staging site', async () => {
    sim.addFault({ method: 'DELETE', taskError: 'locked' })
    const reply = await call(sim, 'DELETE', '/v2/sites/1002/staging')
    const done = await endTask(sim, clock, reply.json.data.task_id)
    expect(done.status).toBe('error')
    expect(sim.state.staging.get('1002')?.status).toBe('ready')
  })
})
