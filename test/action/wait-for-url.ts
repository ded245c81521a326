/**
 * wait-for-url (issue 12), whole action (dist/index.js) against the simulator, whose staging sites
 * are real URLs it serves on loopback, answering only `siteDelayMs` after their job ends.
 * One test file per profile runs these tests (wait-for-url.<profile>-profile.test.ts).
 */
import { describe, expect, it } from '@jest/globals'
import { leaks } from '../helpers/run-action.js'
import { profileOfThisFile, FAST, RW, runAgainst, useSimulator } from '../helpers/sim.js'

describe.each(profileOfThisFile())('wait-for-url, profile %s', (profile) => {
  const { sim } = useSimulator({ ...FAST, profile })

  it('after a create, waits until the staging site answers; sends it no token and no header of ours', async () => {
    // The site answers only once the action has been told "not yet" (a 404): an event, not a race
    // between a short delay and how fast a busy machine gets to its first look.
    sim().setOptions({ siteDelayMs: 10 * 60_000 })
    const answerOnceAsked = setInterval(() => {
      if (sim().siteRequests.some((v) => v.status === 404)) sim().setOptions({ siteDelayMs: 0 })
    }, 50)
    const run = await runAgainst(sim(), {
      operation: 'create',
      'site-id': '1001',
      'wait-for-url': 'true',
    }).finally(() => clearInterval(answerOnceAsked))
    expect(run.code).toBe(0)
    expect(run.outputs).toMatchObject({ result: 'succeeded', 'url-ready': 'true' })
    const visits = sim().siteRequests
    expect(visits.length).toBeGreaterThanOrEqual(2)
    expect(visits.at(0)!.status).toBe(404)
    expect(visits.at(-1)!.status).toBe(200)
    for (const v of visits) {
      expect(v.method).toBe('GET')
      expect(v.authorization).toBeUndefined()
      expect([...v.headerNames].sort()).toEqual(['accept', 'connection', 'host', 'user-agent'])
    }
    expect(leaks(run.everything, RW)).toEqual([])
    expect(run.summary).toMatch(/Staging created in \d+s; the staging site answered \d+s later\./)
    expect(run.summary).toMatch(/\| Staging URL \| \[[^\]]+\]\([^)]+\) — answers; from the create answer \|/)
  })
  it('a password-protected staging site answers 401: that counts as answering', async () => {
    const run = await runAgainst(sim(), { operation: 'create', 'site-id': '1003', 'wait-for-url': 'true' })
    expect(run.outputs['url-ready']).toBe('true')
    expect(sim().siteRequests.at(-1)!.status).toBe(401)
  })
  it('a site that never answers within the timeout: timed-out, url-ready false, the job itself completed', async () => {
    sim().setOptions({ siteDelayMs: 10 * 60_000 })
    const run = await runAgainst(sim(), {
      operation: 'create',
      'site-id': '1001',
      'wait-for-url': 'true',
      timeout: '6s',
    })
    expect(run.code).toBe(1)
    expect(run.outputs).toMatchObject({ result: 'timed-out', 'url-ready': 'false' })
    expect(run.stdout).toMatch(/The create job completed, but the staging site did not answer/)
    expect(sim().state.staging.get('1001')?.status).toBe('ready')
  })
  it('off by default: url-ready is empty and the site is never asked', async () => {
    const run = await runAgainst(sim(), { operation: 'pull', 'site-id': '1002' })
    expect(run.outputs).toMatchObject({ result: 'succeeded', 'url-ready': '' })
    expect(sim().siteRequests).toHaveLength(0)
  })
})
