/** Staging sites' own URLs, served on loopback (issue 12). */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { start, type Simulator } from '../../simulator/server.js'
import { admin, call, finishNow, sleep, waitForTask } from './helpers.js'

let sim: Simulator
beforeAll(async () => {
  sim = await start({ durationsMs: { create: 150, pull: 400, push: 150, delete: 80 }, siteDelayMs: 400 })
})
afterAll(() => sim.stop())
beforeEach(() => {
  sim.reset()
  sim.setOptions({ profile: 'spec', siteDelayMs: 400, durationsMs: { create: 150, delete: 80 } })
})

const visit = async (url: string, headers: Record<string, string> = {}) => {
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) })
  return { status: response.status, headers: response.headers, text: await response.text() }
}

/** Visits `url` until it answers `status`; returns that answer. */
async function visitUntil(url: string, status: number) {
  const deadline = Date.now() + 10_000
  for (;;) {
    const reply = await visit(url)
    if (reply.status === status) return reply
    if (Date.now() > deadline) throw new Error(`${url} still answers ${reply.status}`)
    await sleep(20)
  }
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
    // A long create, ended on purpose once the 404 is seen: no race with a short one.
    sim.setOptions({ durationsMs: { create: 60_000 } })
    const created = await call(sim, 'POST', '/v2/sites/1001/staging')
    const url = created.json.data.staging_url as string
    expect(url).toBe(`${sim.url}/staging-sites/s-1001/`)
    const before = await visit(url)
    expect(before.status).toBe(404)
    expect(before.text).toMatch(/site not found/i)
    finishNow(sim, created.json.data.task_id)
    await waitForTask(sim, created.json.data.task_id)
    const readyAt = sim.state.staging.get('1001')!.ready_at!
    const page = await visitUntil(url, 200)
    expect(page.text).toContain('files prod-v1, database prod-v1')
    // a 404 was seen after the job completed (the delay is real), and every answer fits the boundary
    const liveAt = readyAt + 400
    expect(sim.siteRequests.some((r) => r.status === 404 && r.at >= readyAt)).toBe(true)
    for (const r of sim.siteRequests) {
      if (r.status === 404) expect(r.at).toBeLessThan(liveAt)
      else expect(r.at).toBeGreaterThanOrEqual(liveAt - 5)
    }
  })

  it('keeps answering during a pull, and answers 404 again once deleted', async () => {
    sim.setOptions({ siteDelayMs: 0 })
    const url = sim.state.staging.get('1002')!.url
    await call(sim, 'POST', '/v2/sites/1002/staging/reset')
    expect(sim.state.staging.get('1002')?.status).toBe('syncing')
    expect((await visit(url)).status).toBe(200)
    await until200AfterSync()
    // A long delete, ended on purpose once the 200 is seen: no race with a short one.
    sim.setOptions({ durationsMs: { delete: 60_000 } })
    const deleted = await call(sim, 'DELETE', '/v2/sites/1002/staging')
    expect((await visit(url)).status).toBe(200)
    expect(sim.state.staging.get('1002')?.status).toBe('deleting')
    finishNow(sim, deleted.json.data.task_id)
    await waitForTask(sim, deleted.json.data.task_id)
    expect((await visit(url)).status).toBe(404)

    async function until200AfterSync(): Promise<void> {
      const deadline = Date.now() + 10_000
      while (sim.state.staging.get('1002')?.status !== 'ready') {
        if (Date.now() > deadline) throw new Error('pull did not end')
        await sleep(20)
      }
    }
  })

  it('answers 401 with WWW-Authenticate: Basic for a password-protected production site', async () => {
    sim.setOptions({ siteDelayMs: 0 })
    const created = await call(sim, 'POST', '/v2/sites/1003/staging')
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
    await waitForTask(sim, created.json.data.task_id)
    expect((await visit(created.json.data.staging_url)).status).toBe(404)
  })

  it('gives the same URL as wp_url in the service profile', async () => {
    sim.setOptions({ profile: 'service', siteDelayMs: 0 })
    const created = await call(sim, 'POST', '/api/v2/sites/1001/staging', {
      headers: { Accept: 'application/json' },
    })
    expect(created.json.data.wp_url).toBe(`${sim.url}/staging-sites/s-1001/`)
    await visitUntil(created.json.data.wp_url, 200)
  })
})

describe('site requests are recorded apart', () => {
  it('keeps method, path, status, time, every header name and the Authorization value', async () => {
    const url = sim.state.staging.get('1002')!.url
    const t0 = Date.now()
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
    expect(first!.at).toBeGreaterThanOrEqual(t0)
    expect(first!.headerNames).toEqual(expect.arrayContaining(['authorization', 'x-trace-me', 'host']))
    expect(second).not.toHaveProperty('authorization')
    expect(second!.headerNames).not.toContain('x-trace-me')
    const listed = await admin(sim, 'GET', '/site-requests')
    expect(listed).toEqual({ status: 200, body: sim.siteRequests })
    sim.reset()
    expect(sim.siteRequests).toHaveLength(0)
  })
})
