/** The scripted-answer fault knobs (issue 10's fault matrix): json, text, headers, patch, process, hang, debug. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { deepMerge } from '../../simulator/patch.js'
import type { ManualClock, Simulator } from '../../simulator/server.js'
import { admin, call, FAST, startOnClock, stateOf, until } from './helpers.js'

// A job runs until the test moves the clock past its end: a test sees it started, however slow the
// machine.
let sim: Simulator
let clock: ManualClock
beforeAll(async () => {
  ;({ sim, clock } = await startOnClock({ durationsMs: FAST }))
})
afterAll(() => sim.stop())
beforeEach(() => {
  sim.reset()
  sim.setOptions({ profile: 'spec' })
})

const HOSTILE = 'done\n::error::pwned\u001b[31m<b>x</b>'

describe('json', () => {
  it('sends any JSON value verbatim, with status 200 when given alone, without processing', async () => {
    sim.addFault({ path: '/staging', json: { message: HOSTILE, data: { task_id: '..' } } })
    sim.addFault({ path: '/staging', json: 'just a string' })
    sim.addFault({ path: '/staging', json: [1, null], status: 502 })
    const object = await call(sim, 'POST', '/v2/sites/1001/staging')
    expect(object.status).toBe(200)
    expect(object.headers.get('content-type')).toBe('application/json')
    expect(object.json).toEqual({ message: HOSTILE, data: { task_id: '..' } })
    const string = await call(sim, 'POST', '/v2/sites/1001/staging')
    expect([string.status, string.text]).toEqual([200, '"just a string"'])
    const array = await call(sim, 'POST', '/v2/sites/1001/staging')
    expect([array.status, array.text]).toEqual([502, '[1,null]'])
    expect(sim.state.staging.has('1001')).toBe(false)
    expect(sim.requests.map((r) => r.processed)).toEqual([false, false, false])
  })

  it('with process: true, runs the API first and then sends the scripted JSON instead', async () => {
    sim.addFault({ method: 'POST', path: '/staging', json: { status: true }, status: 201, process: true })
    const reply = await call(sim, 'POST', '/v2/sites/1001/staging')
    expect([reply.status, reply.json]).toEqual([201, { status: true }])
    expect(sim.state.staging.get('1001')?.status).toBe('creating')
    expect(sim.requests[0]).toMatchObject({ status: 201, faulted: true, processed: true })
  })

  it('can lie about its content type', async () => {
    sim.addFault({ json: { ok: true }, contentType: 'text/html' })
    const reply = await call(sim, 'GET', '/v2/sites')
    expect(reply.headers.get('content-type')).toBe('text/html')
    expect(reply.json).toEqual({ ok: true })
  })
})

describe('text', () => {
  it('sends a raw body, text/plain by default or with contentType, status 200 unless given', async () => {
    sim.addFault({ text: HOSTILE })
    sim.addFault({ text: '{"status": tru', contentType: 'application/json', status: 202 })
    const plain = await call(sim, 'GET', '/v2/sites')
    expect(plain.status).toBe(200)
    expect(plain.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(plain.text).toBe(HOSTILE)
    const broken = await call(sim, 'GET', '/v2/sites')
    expect([broken.status, broken.headers.get('content-type'), broken.text]).toEqual([
      202,
      'application/json',
      '{"status": tru',
    ])
  })
})

describe('headers', () => {
  it('adds headers to the real answer and to an injected one, replacing same-named ones', async () => {
    sim.addFault({
      path: '/v2/sites',
      headers: { 'X-RateLimit-Reset': '99999999999999', 'content-type': 'text/x-lie' },
    })
    sim.addFault({ status: 503, body: 'empty', retryAfter: 7, headers: { 'X-Extra': 'yes' } })
    const real = await call(sim, 'GET', '/v2/sites')
    expect(real.status).toBe(200)
    expect(real.headers.get('x-ratelimit-reset')).toBe('99999999999999')
    expect(real.headers.get('content-type')).toBe('text/x-lie')
    expect(JSON.parse(real.text).status).toBe(true)
    expect(sim.requests[0]).toMatchObject({ faulted: true, processed: true, status: 200 })
    const injected = await call(sim, 'GET', '/v2/sites')
    expect([injected.status, injected.headers.get('x-extra'), injected.headers.get('retry-after')]).toEqual([
      503,
      'yes',
      '7',
    ])
  })
})

describe('patch', () => {
  it('deep-merges into the real answer after the API ran: the create starts its job', async () => {
    sim.addFault({ method: 'POST', path: '/staging', patch: { message: HOSTILE, data: { task_id: '..' } } })
    const reply = await call(sim, 'POST', '/v2/sites/1001/staging')
    expect(reply.status).toBe(202)
    expect(reply.json).toEqual({
      status: true,
      message: HOSTILE,
      data: { task_id: '..', site_id: 1001, staging_site_id: 's-1001', staging_url: expect.any(String) },
    })
    expect(sim.state.staging.get('1001')?.status).toBe('creating')
    expect(sim.state.tasks.size).toBe(1)
    expect(sim.requests[0]).toMatchObject({ processed: true, faulted: true, status: 202 })
  })

  it('replaces arrays, and takes a status of its own', async () => {
    sim.addFault({ path: '/v2/sites', patch: { data: [{ id: 'x' }], meta: { total: -1 } }, status: 500 })
    const reply = await call(sim, 'GET', '/v2/sites')
    expect(reply.status).toBe(500)
    expect(reply.json.data).toEqual([{ id: 'x' }])
    expect(reply.json.meta).toMatchObject({ total: -1, current_page: 1, per_page: 10 })
  })

  it('becomes the body when the real answer is not JSON', async () => {
    sim.setOptions({ profile: 'service' })
    sim.addFault({ patch: { message: 'patched' } })
    const reply = await call(sim, 'GET', '/v2/sites', { headers: { Accept: 'text/html' } })
    expect(reply.status).toBe(404)
    expect(reply.headers.get('content-type')).toBe('application/json')
    expect(reply.json).toEqual({ message: 'patched' })
  })

  it('merges objects key by key, and anything else replaces', () => {
    expect(deepMerge({ a: { b: 1, c: [1, 2] }, d: 1 }, { a: { c: [3], e: null }, d: { f: 2 } })).toEqual({
      a: { b: 1, c: [3], e: null },
      d: { f: 2 },
    })
    expect(deepMerge(undefined, { a: 1 })).toEqual({ a: 1 })
    expect(deepMerge({ a: 1 }, 'x')).toBe('x')
  })
})

describe('hang with process', () => {
  it('processes the request, then never answers', async () => {
    sim.addFault({ method: 'POST', path: '/staging/push', hang: true, process: true })
    const client = new AbortController()
    const attempt = call(sim, 'POST', '/v2/sites/1002/staging/push', { signal: client.signal })
    await until(() => sim.requests[0]?.status === 'hung')
    expect(sim.requests[0]).toMatchObject({ processed: true, faulted: true })
    expect(sim.state.tasks.size).toBe(1)
    // the push runs to its end; its request is still not answered
    expect(sim.state.staging.get('1002')?.status).toBe('pushing')
    clock.advance(FAST.push)
    await until(() => sim.state.purges.length === 1)
    expect(await stateOf(attempt)).toBe('pending')
    client.abort()
    await expect(attempt).rejects.toThrow()
  })

  it('without process, hangs before anything runs (as before)', async () => {
    sim.addFault({ method: 'POST', path: '/staging/push', hang: true })
    const client = new AbortController()
    const attempt = call(sim, 'POST', '/v2/sites/1002/staging/push', { signal: client.signal })
    await until(() => sim.requests[0]?.status === 'hung')
    expect(sim.requests[0]).toMatchObject({ status: 'hung', processed: false })
    expect(sim.state.tasks.size).toBe(0)
    // a later request is answered; the hung one still is not
    expect((await call(sim, 'GET', '/v2/sites/1002/staging')).status).toBe(200)
    expect(await stateOf(attempt)).toBe('pending')
    client.abort()
    await expect(attempt).rejects.toThrow()
  })
})

describe('debug', () => {
  it("sends the framework's debug body in the spec profile too, with a chosen status", async () => {
    sim.addFault({ debug: true, status: 503 })
    const reply = await call(sim, 'GET', '/v2/sites')
    expect(reply.status).toBe(503)
    expect(Object.keys(reply.json)).toEqual(['message', 'exception', 'file', 'line', 'trace'])
  })
})

describe('the knobs over HTTP (/__sim/faults)', () => {
  it('takes json, text, headers and patch rules and applies them', async () => {
    const added = await admin(sim, 'POST', '/faults', [
      { path: '/v2/sites', json: { anything: [1, 2] }, headers: { 'X-From': 'admin' } },
      { method: 'POST', path: '/staging/reset', patch: { data: { task_id: 42 } } },
    ])
    expect(added.status).toBe(200)
    expect(added.body).toEqual([
      expect.objectContaining({ json: { anything: [1, 2] }, headers: { 'X-From': 'admin' }, left: 1 }),
      expect.objectContaining({ patch: { data: { task_id: 42 } } }),
    ])
    const listed = await call(sim, 'GET', '/v2/sites')
    expect([listed.json, listed.headers.get('x-from')]).toEqual([{ anything: [1, 2] }, 'admin'])
    const pulled = await call(sim, 'POST', '/v2/sites/1002/staging/reset')
    expect(pulled.json.data).toEqual({ task_id: 42 })
    expect(sim.state.staging.get('1002')?.status).toBe('syncing')
  })

  it.each([
    [{ json: 1, text: 'x' }, /only one of body, json, text and patch/],
    [{ body: 'html', patch: {} }, /only one of/],
    [{ text: 5 }, /text must be a string/],
    [{ contentType: 'text/html' }, /contentType goes with text or json/],
    [{ text: 'x', contentType: 'a\nb' }, /contentType must be a header value/],
    [{ headers: ['X-A'] }, /headers must be an object/],
    [{ headers: { 'Bad Name': 'x' } }, /not a header name/],
    [{ headers: { 'Content-Length': '5' } }, /Content-Length cannot be set/],
    [{ headers: { 'X-A': 'one\r\nX-B: two' } }, /headers\.X-A must be a string/],
    [{ headers: { 'X-A': 5 } }, /headers\.X-A must be a string/],
    [{ patch: {}, process: false }, /patch always processes/],
    [{ debug: 'yes' }, /debug must be a boolean/],
    [{ debug: true, text: 'x' }, /debug is a body of its own/],
    [{ debug: true, body: 'html' }, /debug goes with body json only/],
  ])('refuses %j with 400 and adds nothing', async (rule, message) => {
    const reply = await admin(sim, 'POST', '/faults', rule)
    expect(reply.status).toBe(400)
    expect(reply.body.error).toMatch(message)
    expect(() => sim.addFault(rule as never)).toThrow(message)
    expect((await admin(sim, 'GET', '/faults')).body).toEqual([])
  })
})
