// Slow (about 3 s): dist/index.js runs a create in real time and GETs the staging site until it answers.
/**
 * wait-for-url (issue 12), whole action (dist/index.js) against the simulator, whose staging sites
 * are real URLs it serves on loopback: the real GET of the staging site, and what it carries. The
 * rest of wait-for-url and production-url (both profiles, the deadline, 401, off by default) runs
 * in virtual time: test/unit/wait-for-url-step.test.ts. Build first: npm run build.
 */
import { describe, expect, it } from '@jest/globals'
import { leaks } from '../helpers/run-action.js'
import { FAST, RW, runAgainst, useSimulator } from '../helpers/sim.js'

describe('wait-for-url, whole action', () => {
  const { sim } = useSimulator(FAST)

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
})
