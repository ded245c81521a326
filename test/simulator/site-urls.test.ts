/**
 * Staging sites' own URLs, served on loopback (issue 12), on a simulator whose clock the test moves:
 * a site is seen not live yet because the clock stands still, and goes live when the clock passes
 * its creation's end and the site delay.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import type { ManualClock, Simulator } from '../../simulator/server.js'
import { admin, call, startOnClock, waitForTask } from './helpers.js'

let sim: Simulator
let clock: ManualClock
beforeAll(async () => {
  ;({ sim, clock } = await startOnClock({
    durationsMs: { create: 150, pull: 400, push: 150, delete: 80 },
    siteDelayMs: 400,
  }))
})
afterAll(() => sim.stop())
beforeEach(() => {
  sim.reset()
  sim.setOptions({ profile: 'spec', siteDelayMs: 400, durationsMs: { create: 150, delete: 80 } })
})

const visit = async (url: string, headers: Record<string, string> = {}) => {
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(30_000) })
  return { status: response.status, headers: response.headers, text: await response.text() }
}

describe('staging site URLs', () => {
  it('serves the seeded staging site at a loopback URL of its own, outside the API and /__sim', async () => {
    const url = sim.state.staging.get('1002')!.url
    expect(url).toBe(`${sim.url}/staging-sites/s-1002/`)
    const page = await visit(url)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    expect(page.text).toContain('blog-staging')
    expect(page.text).toContain('files staging-v1, database staging-v1')
    expect(sim.requests).toHaveLength(0)
  })

  it('answers 404 until the create job has completed and siteDelayMs more has passed, then 200', async () => {
    const created = await call(sim, 'POST', '/v2/sites/1001/staging')
    const url = created.json.data.staging_url as string
    expect(url).toBe(`${sim.url}/staging-sites/s-1001/`)
    const before = await visit(url)
    expect(before.status).toBe(404)
    expect(before.text).toMatch(/site not found/i)
    clock.advance(150)
    expect((await waitForTask(sim, created.json.data.task_id)).status).toBe('completed')
    const readyAt = sim.state.staging.get('1001')!.ready_at!
    expect(readyAt).toBe(clock.now())
    // completed, but not live yet: the delay runs from the completion
    expect((await visit(url)).status).toBe(404)
    clock.advance(399)
    expect((await visit(url)).status).toBe(404)
    clock.advance(1)
    const page = await visit(url)
    expect(page.status).toBe(200)
    expect(page.text).toContain('files prod-v1, database prod-v1')
    // every answer, as recorded, fits the boundary
    const liveAt = readyAt + 400
    expect(sim.siteRequests.map((r) => [r.status, r.at - liveAt])).toEqual([
      [404, -550],
      [404, -400],
      [404, -1],
      [200, 0],
    ])
  })

  it('keeps answering during a pull, and answers 404 again once deleted', async () => {
    sim.setOptions({ siteDelayMs: 0 })
    const url = sim.state.staging.get('1002')!.url
    const pull = await call(sim, 'POST', '/v2/sites/1002/staging/reset')
    expect(sim.state.staging.get('1002')?.status).toBe('syncing')
    expect((await visit(url)).status).toBe(200)
    clock.advance(400)
    await waitForTask(sim, pull.json.data.task_id)
    expect(sim.state.staging.get('1002')?.status).toBe('ready')
    const deleted = await call(sim, 'DELETE', '/v2/sites/1002/staging')
    expect((await visit(url)).status).toBe(200)
    expect(sim.state.staging.get('1002')?.status).toBe('deleting')
    clock.advance(80)
    await waitForTask(sim, deleted.json.data.task_id)
    expect((await visit(url)).status).toBe(404)
  })

  it('answers 401 with WWW-Authenticate: Basic for a password-protected production site', async () => {
    sim.setOptions({ siteDelayMs: 0 })
    const created = await call(sim, 'POST', '/v2/sites/1003/staging')
    clock.advance(150)
    await waitForTask(sim, created.json.data.task_id)
    const reply = await visit(created.json.data.staging_url)
    expect(reply.status).toBe(401)
    expect(reply.headers.get('www-authenticate')).toMatch(/^Basic realm=/)
  })

  it('answers 404 for an unknown staging id and for a failed creation', async () => {
    sim.setOptions({ siteDelayMs: 0 })
    expect((await visit(`${sim.url}/staging-sites/s-9999/`)).status).toBe(404)
    expect((await visit(`${sim.url}/staging-sites/%E0%A4%A/`)).status).toBe(404)
    sim.addFault({ taskError: 'no disk' })
    const created = await call(sim, 'POST', '/v2/sites/1001/staging')
    clock.advance(150)
    expect((await waitForTask(sim, created.json.data.task_id)).status).toBe('error')
    expect((await visit(created.json.data.staging_url)).status).toBe(404)
  })

  it('gives the same URL as wp_url in the service profile', async () => {
    sim.setOptions({ profile: 'service', siteDelayMs: 0 })
    const created = await call(sim, 'POST', '/api/v2/sites/1001/staging', {
      headers: { Accept: 'application/json' },
    })
    expect(created.json.data.wp_url).toBe(`${sim.url}/staging-sites/s-1001/`)
    expect((await visit(created.json.data.wp_url)).status).toBe(404)
    clock.advance(150)
    expect((await visit(created.json.data.wp_url)).status).toBe(200)
  })
})

describe('site requests are recorded apart', () => {
  it('keeps method, path, status, time, every header name and the Authorization value', async () => {
    const url = sim.state.staging.get('1002')!.url
    const t0 = clock.now()
    await visit(`${url}wp-login.php?x=1`, { Authorization: 'Bearer leaked-token', 'X-Trace-Me': 'yes' })
    await visit(url)
    expect(sim.siteRequests).toHaveLength(2)
    const [first, second] = sim.siteRequests
    expect(first).toMatchObject({
      method: 'GET',
      path: '/staging-sites/s-1002/wp-login.php?x=1',
      status: 200,
      authorization: 'Bearer leaked-token',
    })
    expect(first!.at).toBe(t0)
    expect(first!.headerNames).toEqual(expect.arrayContaining(['authorization', 'x-trace-me', 'host']))
    expect(second).not.toHaveProperty('authorization')
    expect(second!.headerNames).not.toContain('x-trace-me')
    const listed = await admin(sim, 'GET', '/site-requests')
    expect(listed).toEqual({ status: 200, body: sim.siteRequests })
    sim.reset()
    expect(sim.siteRequests).toHaveLength(0)
  })
})
