/**
 * wait-for-url (issue 12) and production-url in the action's whole step: src/action.ts's runAction
 * in this process against the simulator's API core on a virtual clock, on both profiles. The staging
 * site's own GET goes through the same core (test/helpers/virtual-action.ts's `siteGet`): a staging
 * site answers 404 until its job has ended and `siteDelayMs` more has passed, so "not yet, then
 * yes" is an order of events, not a race. What the real GET sends (no token, no header of ours) is
 * the whole-process run's (test/action/wait-for-url.test.ts).
 */
import { describe, expect, it } from '@jest/globals'
import { leaks } from '../helpers/run-action.js'
import { EACH_PROFILE, FAST, RW } from '../helpers/sim.js'
import { runActionVirtually, useVirtualSimulator } from '../helpers/virtual-action.js'

describe.each(EACH_PROFILE)('wait-for-url, profile %s', (profile) => {
  const { sim } = useVirtualSimulator({ ...FAST, profile })

  it('after a create, waits until the staging site answers: asked while it does not, then once it does', async () => {
    sim().setOptions({ siteDelayMs: 5000 })
    const run = await runActionVirtually(sim(), {
      operation: 'create',
      'site-id': '1001',
      'wait-for-url': 'true',
    })
    expect(run.code).toBe(0)
    expect(run.outputs).toMatchObject({ result: 'succeeded', 'url-ready': 'true' })
    const visits = sim().siteRequests
    expect(visits.length).toBeGreaterThanOrEqual(2)
    expect(visits.at(0)!.status).toBe(404)
    expect(visits.at(-1)!.status).toBe(200)
    expect(visits.slice(0, -1).every((v) => v.status === 404)).toBe(true)
    for (const v of visits) {
      expect(v.method).toBe('GET')
      expect(v.path).toBe(new URL(run.outputs['staging-url']!).pathname)
    }
    // Asked again soon after it answers (a quarter of the time waited at most), not a whole timeout later.
    const ready = sim().state.staging.get('1001')!.ready_at! + 5000
    expect(visits.at(-1)!.at).toBeGreaterThanOrEqual(ready)
    expect(visits.at(-1)!.at - ready).toBeLessThanOrEqual((ready - visits[0]!.at) / 4 + 1000)
    expect(leaks(run.everything, RW)).toEqual([])
    expect(run.summary).toMatch(/Staging created in \d+s; the staging site answered \d+s later\./)
    expect(run.summary).toMatch(/\| Staging URL \| \[[^\]]+\]\([^)]+\) — answers; from the create answer \|/)
  })

  it('a password-protected staging site answers 401: that counts as answering', async () => {
    const run = await runActionVirtually(sim(), {
      operation: 'create',
      'site-id': '1003',
      'wait-for-url': 'true',
    })
    expect(run.outputs['url-ready']).toBe('true')
    expect(sim().siteRequests.at(-1)!.status).toBe(401)
  })

  it('a site that never answers within the timeout: timed-out at the timeout, url-ready false, the job itself completed', async () => {
    sim().setOptions({ siteDelayMs: 10 * 60_000 })
    const run = await runActionVirtually(sim(), {
      operation: 'create',
      'site-id': '1001',
      'wait-for-url': 'true',
      timeout: '6s',
    })
    expect(run.code).toBe(1)
    expect(run.outputs).toMatchObject({ result: 'timed-out', 'url-ready': 'false' })
    expect(run.stdout).toMatch(/The create job completed, but the staging site did not answer/)
    expect(sim().state.staging.get('1001')?.status).toBe('ready')
    expect(sim().siteRequests.length).toBeGreaterThan(1)
    // One deadline: not a moment past the timeout (a round trip of grace).
    expect(run.elapsedMs).toBeLessThanOrEqual(6000 + 100)
  })

  it('off by default: url-ready is empty and the site is never asked', async () => {
    const run = await runActionVirtually(sim(), { operation: 'pull', 'site-id': '1002' })
    expect(run.outputs).toMatchObject({ result: 'succeeded', 'url-ready': '' })
    expect(sim().siteRequests).toHaveLength(0)
  })
})

describe.each(EACH_PROFILE)('production-url, profile %s', (profile) => {
  const { sim } = useVirtualSimulator({ ...FAST, profile })
  const live = (site: string) => `${sim().url}/production-sites/${site}/`

  it('after a push: production is asked once the push completed, and answers', async () => {
    const run = await runActionVirtually(sim(), {
      operation: 'push',
      'site-id': '1002',
      'production-url': live('1002'),
    })
    expect(run.code).toBe(0)
    expect(run.outputs).toMatchObject({ result: 'succeeded', 'url-ready': '', 'production-check': 'passed' })
    expect(sim().siteRequests).toEqual([
      expect.objectContaining({ method: 'GET', path: '/production-sites/1002/', status: 200 }),
    ])
    const pushed = sim().requests.find((q) => q.method === 'POST' && q.path.endsWith('/staging/push'))!
    expect(sim().siteRequests[0]!.at).toBeGreaterThan(pushed.at)
  })

  it('production in maintenance (503, Retry-After 600) fails its check within the timeout: red, the push said done and how to go back', async () => {
    sim().state.sites.get('1002')!.maintenance = true
    const run = await runActionVirtually(sim(), {
      operation: 'push',
      'site-id': '1002',
      'production-url': live('1002'),
      timeout: '20s',
    })
    expect(run.code).toBe(1)
    expect(run.outputs).toMatchObject({ result: 'failed', 'url-ready': '', 'production-check': 'failed' })
    expect(sim().siteRequests.length).toBeGreaterThan(1)
    expect(sim().siteRequests.every((v) => v.status === 503)).toBe(true)
    expect(run.elapsedMs).toBeLessThanOrEqual(20_000 + 100)
    expect(run.stdout).toContain(`Staging pushed to production in`)
    expect(run.stdout).toContain(`Production FAILED its check at ${live('1002')}: HTTP 503`)
    expect(run.stdout).toMatch(/run this action with operation: rollback, site-id: 1002, checkpoint-id: \S+/)
  })
})
