/**
 * Contract §15 (r4), issue 24 §4: a refused token is refused everywhere. After a 401 in a batch no
 * further site starts (no request is sent for it); those not started say so with the token's hint, in
 * the door's words; a site already running is followed to its end.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals'
import nock from 'nock'
import { runAll } from '../../src/staging/batch.js'
import { API, FakeClock, MemoryLogger, config, envelope, redactor } from '../helpers/fakes.js'

beforeAll(() => nock.disableNetConnect())
afterAll(() => {
  nock.enableNetConnect()
  nock.restore()
})
afterEach(() => nock.cleanAll())

const sites = (n: number) => Array.from({ length: n }, (_, i) => String(2001 + i))

describe('a 401 in a batch', () => {
  it('starts no further site: 200 sites, 4 at a time, at most the 4 first requests are sent', async () => {
    const asked: string[] = []
    nock(API)
      .persist()
      .post(/\/v2\/sites\/\d+\/staging\/reset$/)
      .reply(function (uri: string) {
        asked.push(uri)
        return [401, envelope(null, 'Unauthenticated.', false)]
      })
    const logger = new MemoryLogger()
    const results = await runAll(config({ operation: 'pull', siteIds: sites(200), concurrency: 4 }), {
      logger,
      redactor: redactor(),
      clock: new FakeClock(),
      door: 'cli',
    })
    expect(asked.length).toBeGreaterThanOrEqual(1)
    expect(asked.length).toBeLessThanOrEqual(4)
    // Every site fails: those never started too (a revoked token must not leave the step green).
    expect(results.every((r) => r.result === 'failed' && r.error?.kind === 'auth')).toBe(true)
    const notStarted = results.filter((r) => r.summary.startsWith('Not started'))
    expect(notStarted.length).toBe(200 - asked.length)
    for (const r of notStarted) {
      expect(r.requests).toBe(0)
      expect(r.summary).toMatch(
        /^Not started: the token was refused \(POST \/v2\/sites\/\d+\/staging\/reset was answered HTTP 401\)/,
      )
      // The token's hint, in the CLI's words.
      expect(r.error?.hint).toContain('STAGING_API_TOKEN environment variable')
      expect(r.error?.hint).not.toContain('api-token secret')
    }
    expect(logger.text).toContain('The token was refused (HTTP 401): starting no more sites')
  })

  it('a site already running is followed to its end; the others do not start', async () => {
    nock(API)
      .post('/v2/sites/2001/staging/reset')
      .reply(202, envelope({ task_id: 't1' }))
    nock(API)
      .get('/v2/tasks/t1/status')
      .reply(200, envelope({ status: 'running', percentage_complete: '40' }))
    nock(API)
      .get('/v2/tasks/t1/status')
      .reply(200, envelope({ status: 'completed' }))
    nock(API)
      .get('/v2/sites/2001/staging')
      .reply(404, envelope(null, 'none', false))
    let others = 0
    nock(API)
      .persist()
      .post(/\/v2\/sites\/20(0[2-9]|10)\/staging\/reset$/)
      .reply(() => {
        others++
        return [401, envelope(null, 'Unauthenticated.', false)]
      })
    const results = await runAll(config({ operation: 'pull', siteIds: sites(10), concurrency: 2 }), {
      logger: new MemoryLogger(),
      redactor: redactor(),
      clock: new FakeClock(),
    })
    expect(results[0]).toMatchObject({ siteId: '2001', result: 'succeeded' })
    expect(others).toBe(1)
    expect(results[1]).toMatchObject({ siteId: '2002', result: 'failed', error: { kind: 'auth' } })
    expect(results.slice(2).map((r) => r.result)).toEqual(Array(8).fill('failed'))
    // The action's words for the action.
    expect(results[9]!.error?.hint).toContain('the api-token secret')
  })
})
