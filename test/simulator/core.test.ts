/**
 * The API core without HTTP and without real time (issue 13): jobs end and rate windows roll at
 * the fake clock's times. Nothing here awaits: if the core relied on a timer, no job would end.
 */
import { describe, expect, it } from '@jest/globals'
import { ManualClock } from '../../simulator/clock.js'
import { createApiCore, type ApiCore, type CoreRequest } from '../../simulator/core.js'
import { RW } from './helpers.js'

const T0 = Date.UTC(2026, 10, 22, 20, 0, 0)

function setup(options: Parameters<typeof createApiCore>[0] = {}): { core: ApiCore; clock: ManualClock } {
  const clock = new ManualClock(T0)
  const core = createApiCore(
    { durationsMs: { create: 10_000, pull: 4_000, push: 4_000, delete: 2_000 }, ...options },
    clock,
    { origin: 'http://sim.example:9' },
  )
  return { core, clock }
}

function request(method: string, path: string, extra: Partial<CoreRequest> = {}): CoreRequest {
  const headers: Record<string, string> = { authorization: `Bearer ${RW}`, accept: 'application/json' }
  if (method === 'POST') headers['content-type'] = 'application/json'
  return { method, path, headers: { ...headers, ...extra.headers }, body: extra.body ?? '' }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const json = (body: string): any => JSON.parse(body)

describe('createApiCore with a fake clock', () => {
  it('answers requests as plain values: status, headers and a string body', () => {
    const { core } = setup()
    const reply = core.handle(request('GET', '/v2/sites?type=staging'))
    expect(reply.status).toBe(200)
    expect(typeof reply.body).toBe('string')
    expect(reply.headers['Content-Type']).toBe('application/json')
    expect(reply.headers['Content-Length']).toBe(String(Buffer.byteLength(reply.body)))
    expect(json(reply.body).data.map((s: { id: string }) => s.id)).toEqual(['s-1002'])
    expect(reply.processed).toBe(true)
  })

  it('ends a job exactly at its duration on the clock, and only then', () => {
    const { core, clock } = setup()
    const created = json(core.handle(request('POST', '/v2/sites/1001/staging')).body)
    const status = () =>
      json(core.handle(request('GET', `/v2/tasks/${created.data.task_id}/status`)).body).data
    clock.advance(9_999)
    expect(status().status).toBe('progress')
    expect(core.state.staging.get('1001')?.status).toBe('creating')
    expect(core.state.outbox).toHaveLength(0)
    clock.advance(1)
    expect(status()).toMatchObject({ status: 'completed', percentage_complete: '100' })
    expect(core.state.staging.get('1001')?.status).toBe('ready')
    expect(core.state.outbox).toEqual([expect.objectContaining({ site_id: 1001, at: T0 + 10_000 })])
    // the completion is dated by the job's end, not by when someone looked
    clock.advance(60_000)
    expect(status().updated_at).toBe('2026-11-22 20:00:10.000')
  })

  it('moves progress with virtual time: half the duration is half way on the linear curve', () => {
    const { core, clock } = setup({ progress: 'linear' })
    const created = json(core.handle(request('POST', '/v2/sites/1002/staging/reset')).body)
    clock.advance(2_000)
    const data = json(core.handle(request('GET', `/v2/tasks/${created.data.task_id}/status`)).body).data
    expect(data).toMatchObject({ status: 'progress', percentage_complete: '50' })
  })

  it('settles jobs in the order they end when the clock jumps past several', () => {
    const { core, clock } = setup()
    core.handle(request('POST', '/v2/sites/1002/staging/push'))
    core.handle(request('POST', '/v2/sites/1001/staging'))
    expect(core.nextDueAt()).toBe(T0 + 4_000)
    clock.advance(20_000)
    core.settle()
    expect(core.nextDueAt()).toBeNull()
    expect(core.state.purges).toEqual([{ site_id: 1002, at: T0 + 4_000 }])
    expect(core.state.outbox[0]?.at).toBe(T0 + 10_000)
  })

  it('keeps the busy rule in virtual time: a pull right after a pull is refused until the first ends', () => {
    const { core, clock } = setup()
    expect(core.handle(request('POST', '/v2/sites/1002/staging/reset')).status).toBe(202)
    clock.advance(3_999)
    expect(core.handle(request('POST', '/v2/sites/1002/staging/reset')).status).toBe(409)
    clock.advance(1)
    expect(core.handle(request('POST', '/v2/sites/1002/staging/reset')).status).toBe(202)
  })

  it('rolls rate windows at virtual times', () => {
    const { core, clock } = setup({ rateLimit: { limit: 2, windowMs: 60_000 } })
    const get = () => core.handle(request('GET', '/v2/sites'))
    expect([get().status, get().status]).toEqual([200, 200])
    clock.advance(59_000)
    const refused = get()
    expect(refused.status).toBe(429)
    expect(refused.processed).toBe(false)
    expect(refused.headers['Retry-After']).toBe('1')
    expect(refused.headers['X-RateLimit-Reset']).toBe(String((T0 + 60_000) / 1000))
    clock.advance(999)
    expect(get().status).toBe(429)
    clock.advance(1)
    const next = get()
    expect(next.status).toBe(200)
    expect(next.headers['X-RateLimit-Remaining']).toBe('1')
  })

  it('serves staging site URLs by the clock: 404 until the delay after creation, then 200', () => {
    const { core, clock } = setup({ siteDelayMs: 30_000 })
    const created = json(core.handle(request('POST', '/v2/sites/1001/staging')).body)
    const url = new URL(created.data.staging_url)
    expect(url.origin).toBe('http://sim.example:9')
    const site = () => core.handle({ method: 'GET', path: url.pathname })
    expect(site().status).toBe(404)
    clock.advance(10_000 + 29_999)
    expect(site().status).toBe(404)
    clock.advance(1)
    const page = site()
    expect(page.status).toBe(200)
    expect(page.headers['Content-Type']).toMatch(/^text\/html/)
    expect(page.body).toContain('files prod-v1, database prod-v1')
  })

  it('changes options and profile at run time, and reset() goes back to the seed', () => {
    const { core } = setup()
    expect(core.apiUrl()).toBe('http://sim.example:9')
    core.setOptions({ profile: 'service' })
    expect(core.apiUrl()).toBe('http://sim.example:9/api')
    expect(core.handle(request('GET', '/v2/sites')).status).toBe(404)
    expect(core.handle(request('GET', '/api/v2/sites')).status).toBe(200)
    core.handle(request('POST', '/api/v2/sites/1001/staging'))
    expect(core.state.staging.has('1001')).toBe(true)
    core.reset()
    expect(core.state.staging.has('1001')).toBe(false)
    expect(core.state.tasks.size).toBe(0)
    expect(core.options.profile).toBe('service')
    expect(() => core.setOptions({ profile: 'other' as never })).toThrow(/profile must be spec or service/)
  })

  it('shows service-profile tasks by the clock: queued, in_progress with two decimals, completed', () => {
    const { core, clock } = setup({ profile: 'service', progress: 'linear' })
    const created = json(core.handle(request('POST', '/api/v2/sites/1001/staging')).body)
    const task = () =>
      json(core.handle(request('GET', `/api/v2/tasks/${created.data.task_id}/status`)).body).data
    expect(task()).toMatchObject({
      status: 'queued',
      percentage_complete: '0.00',
      created_at: '2026-11-22T20:00:00.000000Z',
    })
    clock.advance(999)
    expect(task().status).toBe('queued')
    clock.advance(1)
    expect(task()).toMatchObject({ status: 'in_progress', percentage_complete: '10.00' })
    clock.advance(4_500)
    expect(task()).toMatchObject({ status: 'in_progress', percentage_complete: '55.00' })
    clock.advance(4_500)
    expect(task()).toMatchObject({
      status: 'completed',
      percentage_complete: '100.00',
      updated_at: '2026-11-22T20:00:10.000000Z',
    })
    const pulled = json(core.handle(request('POST', '/api/v2/sites/1002/staging/reset')).body)
    const pull = () =>
      json(core.handle(request('GET', `/api/v2/tasks/${pulled.data.task_id}/status`)).body).data
    expect(pull().status).toBe(1)
    clock.advance(4_000)
    expect(pull().status).toBe(0)
  })

  it('refuses to move the manual clock backwards', () => {
    const clock = new ManualClock(T0)
    expect(() => clock.advance(-1)).toThrow(/forward/)
    expect(() => clock.set(T0 - 1)).toThrow(/forward/)
    clock.set(T0 + 5)
    expect(clock.now()).toBe(T0 + 5)
  })
})
