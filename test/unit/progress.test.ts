import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals'
import nock from 'nock'
import { runAll } from '../../src/staging/batch.js'
import type { Logger, ProgressUpdate } from '../../src/types.js'
import { API, FakeClock, config, envelope, redactor } from '../helpers/fakes.js'

beforeAll(() => nock.disableNetConnect())
afterAll(() => {
  nock.enableNetConnect()
  nock.restore()
})
afterEach(() => nock.cleanAll())

/** A front end with a live line: every progress update it is given. */
function liveLogger() {
  const updates: ProgressUpdate[] = []
  const logger: Logger = { info: () => {}, warn: () => {}, debug: () => {}, progress: (u) => updates.push(u) }
  return { logger, updates }
}

describe('live progress reaches the front end, and every job ends it', () => {
  it('from every site of a batch, each site ending its own', async () => {
    for (const site of ['1001', '1002']) {
      nock(API)
        .post(`/v2/sites/${site}/staging/reset`)
        .reply(202, envelope({ task_id: `t${site}` }))
      nock(API)
        .get(`/v2/tasks/t${site}/status`)
        .reply(200, envelope({ status: 'running', percentage_complete: '40' }))
      nock(API)
        .get(`/v2/tasks/t${site}/status`)
        .reply(200, envelope({ status: 'completed' }))
      nock(API)
        .get(`/v2/sites/${site}/staging`)
        .reply(404, envelope(null, 'none', false))
    }
    const { logger, updates } = liveLogger()
    const results = await runAll(config({ operation: 'pull', siteIds: ['1001', '1002'] }), {
      logger,
      redactor: redactor(),
      clock: new FakeClock(),
    })
    expect(results.map((r) => r.result)).toEqual(['succeeded', 'succeeded'])
    for (const site of ['1001', '1002']) {
      const mine = updates.filter((u) => u.siteId === site)
      expect(mine.some((u) => u.percent === 40 && !u.ended)).toBe(true)
      expect(mine.at(-1)!.ended).toBe(true)
    }
  })
  it('a job that fails ends its progress too', async () => {
    nock(API)
      .post('/v2/sites/1001/staging/reset')
      .reply(202, envelope({ task_id: 't1' }))
    nock(API)
      .get('/v2/tasks/t1/status')
      .reply(200, envelope({ status: 'running', percentage_complete: '10' }))
    nock(API)
      .get('/v2/tasks/t1/status')
      .reply(200, envelope({ status: 'failed', comment: 'Error: disk' }))
    const { logger, updates } = liveLogger()
    const [result] = await runAll(config({ operation: 'pull' }), {
      logger,
      redactor: redactor(),
      clock: new FakeClock(),
    })
    expect(result!.result).toBe('failed')
    expect(updates.at(-1)).toMatchObject({ siteId: '1001', ended: true })
  })
})
