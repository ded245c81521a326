// Issue 17 §2 (a 404 needs evidence of the API root; staging ids from the right field and never the
// production site's) and §5 (cancel reports per job, hints without placeholders), on the core.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals'
import nock from 'nock'
import { runAll } from '../../src/staging/batch.js'
import { runOperation } from '../../src/staging/operations.js'
import { SiteList } from '../../src/staging/site-list.js'
import { client } from '../helpers/client.js'
import { StagingReadRoute } from '../../src/staging/read-route.js'
import { ApiError } from '../../src/api/errors.js'
import {
  API,
  FakeClock,
  MemoryLogger,
  config,
  envelope,
  redactor,
  runOnFakes as run,
} from '../helpers/fakes.js'

beforeAll(() => nock.disableNetConnect())
afterAll(() => {
  nock.enableNetConnect()
  nock.restore()
})
afterEach(() => nock.cleanAll())

const api = () => nock(API)

/** A pull accepted (task t1) and completed, on a server with no staging probe (405): the site list tells the rest. */
function pullEndsUnprobed(): void {
  api()
    .post('/v2/sites/1001/staging/reset')
    .reply(202, envelope({ task_id: 't1' }))
  api()
    .get('/v2/tasks/t1/status')
    .reply(200, envelope({ status: 'completed' }))
  api().get('/v2/sites/1001/staging').reply(405, { message: 'not supported' })
}

const API_URL_HINT =
  /^The API root https:\/\/api\.example\.test\/v2 did not answer as the staging API\. Set api-url /

describe('a 404 is "no staging environment" only once the API root answered GET /v2/sites', () => {
  it('if-missing: skip fails with the api-url hint when the root answers the framework 404 there', async () => {
    api()
      .post('/v2/sites/1001/staging/reset')
      .reply(404, envelope(null, 'No staging', false))
    api()
      .get('/v2/sites')
      .reply(404, envelope(null, 'Not found', false))
    const { result } = await run({ operation: 'pull', ifMissing: 'skip' })
    expect(result.result).toBe('failed')
    expect(result.error?.kind).toBe('api-url')
    expect(result.error?.hint).toMatch(API_URL_HINT)
    expect(result.summary).toMatch(/cannot mean "no staging environment"/)
  })
  it.each([
    ['an HTML page', () => api().get('/v2/sites').times(10).reply(200, '<html>proxy</html>')],
    ['an empty 200', () => api().get('/v2/sites').reply(200, '')],
    ['a 405', () => api().get('/v2/sites').reply(405, { message: 'Method not allowed' })],
  ])('status fails (not "none") when the root answers %s', async (_what, root) => {
    api()
      .get('/v2/sites/1001/staging')
      .reply(404, envelope(null, 'Not found', false))
    root()
    const { result } = await run({ operation: 'status' })
    expect(result.result).toBe('failed')
    expect(result.stagingState).toBe('unknown')
    expect(result.error?.kind).toBe('api-url')
  })
  it('recreate does not create blindly when the delete 404s and the root does not answer', async () => {
    api()
      .post('/v2/sites/1001/staging')
      .reply(422, envelope(null, 'exists', false))
    api()
      .delete('/v2/sites/1001/staging')
      .reply(404, envelope(null, 'gone', false))
    api().get('/v2/sites').reply(404, '<html>no</html>')
    const create = api()
      .post('/v2/sites/1001/staging')
      .reply(202, envelope({ task_id: 't1' }))
    const { result } = await run({ ifExists: 'recreate' })
    expect(result.result).toBe('failed')
    expect(result.error?.kind).toBe('api-url')
    expect(create.isDone()).toBe(false)
  })
  it('a root that is down is not called wrong: the run fails with that trouble, not a skip', async () => {
    api()
      .delete('/v2/sites/1001/staging')
      .reply(404, envelope(null, 'No staging', false))
    api()
      .get('/v2/sites')
      .times(10)
      .reply(503, envelope(null, 'maintenance', false))
    const { result } = await run({ operation: 'delete', ifMissing: 'skip', maxRetries: 1 })
    expect(result.result).toBe('failed')
    expect(result.error?.kind).toBe('server')
    expect(result.summary).toMatch(/could not be checked/)
  })
  it('one GET /v2/sites per run, shared by every site of a batch', async () => {
    for (const site of ['1001', '1002', '1003'])
      api()
        .post(`/v2/sites/${site}/staging/reset`)
        .reply(404, envelope(null, 'No staging', false))
    const root = api()
      .get('/v2/sites')
      .reply(200, envelope([{ id: 1001 }]))
    const results = await runAll(
      config({ operation: 'pull', ifMissing: 'skip', siteIds: ['1001', '1002', '1003'] }),
      {
        clock: new FakeClock(),
        logger: new MemoryLogger(),
        redactor: redactor(),
      },
    )
    expect(root.isDone()).toBe(true)
    expect(results.map((r) => r.result)).toEqual(['skipped', 'skipped', 'skipped'])
    expect(results.reduce((n, r) => n + r.requests, 0)).toBe(4)
  })
  it('a run that never meets a 404 never asks', async () => {
    api()
      .get('/v2/sites/1001/staging')
      .reply(200, envelope({ status: 'ready', id: 's-1' }))
    const { result } = await run({ operation: 'status' })
    expect(result).toMatchObject({ result: 'succeeded', requests: 1, stagingState: 'ready' })
  })
})

describe('the staging site id (contract §5)', () => {
  it("a task without resource_id never replaces the create answer's staging_site_id with its own id", async () => {
    api()
      .post('/v2/sites/1001/staging')
      .reply(202, envelope({ task_id: 't1', staging_site_id: 2002, staging_url: 'https://s.example.test' }))
    api()
      .get('/v2/tasks/t1/status')
      .reply(200, envelope({ id: 148601, status: 'completed', percentage_complete: '100' }))
    const { result } = await run({})
    expect(result.result).toBe('succeeded')
    expect(result.stagingSiteId).toBe('2002')
  })
  it("a create followed on the staging read, which answers the production site's own record: not green", async () => {
    api().post('/v2/sites/1001/staging').reply(202, '')
    api()
      .get('/v2/sites/1001/staging')
      .times(20)
      .reply(200, envelope({ id: 1001, name: 'shop', status: 0, url: 'https://shop.example.test' }))
    api().get('/v2/sites').query(true).times(5).reply(200, envelope([]))
    const { result } = await run({ timeoutMs: 60_000 })
    expect(result.result).not.toBe('succeeded')
    expect(result.stagingUrl).toBeNull()
    expect(result.warnings.join(' ')).toMatch(
      /could not be confirmed: the staging read answered with a production site's record/,
    )
  })
  it("the create answer and the task name two staging sites: the later id, without the other answer's URL, and a warning", async () => {
    api()
      .post('/v2/sites/1001/staging')
      .reply(
        202,
        envelope({ task_id: 't1', staging_site_id: 2002, staging_url: 'https://stg-2002.example.test' }),
      )
    api()
      .get('/v2/tasks/t1/status')
      .reply(200, envelope({ resource_type: 'App\\Models\\Site', resource_id: 3003, status: 'completed' }))
    api().get('/v2/sites').query(true).times(5).reply(200, envelope([]))
    const { result } = await run({})
    expect(result.stagingSiteId).toBe('3003')
    expect(result.stagingUrl).not.toBe('https://stg-2002.example.test')
    expect(result.warnings.join(' ')).toMatch(
      /gave 3003 as the staging site id, but .* gave 2002: the sources disagree/,
    )
  })
  it('a task whose resource_id is the production site: id unknown, warning, nothing else from it', async () => {
    api()
      .post('/v2/sites/1001/staging')
      .reply(202, envelope({ task_id: 't1' }))
    api()
      .get('/v2/tasks/t1/status')
      .reply(
        200,
        envelope({ resource_id: 1001, status: 'completed', staging_url: 'https://prod.example.test' }),
      )
    api()
      .get('/v2/sites/1001/staging')
      .reply(200, envelope({ status: 'ready' }))
    const { result } = await run({})
    expect(result.result).toBe('succeeded')
    expect(result.stagingSiteId).toBeNull()
    expect(result.stagingUrl).toBeNull()
    expect(result.warnings.join(' ')).toMatch(/production site's own id \(1001\)/)
  })
  it('a staging record whose id is the production id: status says it is not known, no URL, a warning', async () => {
    api()
      .get('/v2/sites/1001/staging')
      .reply(200, envelope({ id: '01001', status: 'ready', staging_url: 'https://prod.example.test' }))
    const { result } = await run({ operation: 'status' })
    expect(result).toMatchObject({
      result: 'failed',
      stagingState: 'unknown',
      stagingSiteId: null,
      stagingUrl: null,
    })
    expect(result.warnings).toHaveLength(1)
  })
})

describe('sentences that are true (issue 17 §5)', () => {
  it('sites whose turn never came before the timeout say nothing was sent, not that a push was being sent', async () => {
    api()
      .persist()
      .post(/\/v2\/sites\/\d+\/staging\/push$/)
      .reply(202, envelope({ task_id: 't1' }))
    api()
      .persist()
      .get('/v2/tasks/t1/status')
      .reply(200, envelope({ status: 'running' }))
    const results = await runAll(
      config({ operation: 'push', siteIds: ['1001', '1002', '1003'], concurrency: 1, timeoutMs: 15_000 }),
      { logger: new MemoryLogger(), redactor: redactor(), clock: new FakeClock(), door: 'cli' },
    )
    expect(results.map((r) => r.result)).toEqual(['timed-out', 'timed-out', 'timed-out'])
    expect(results[0]!.summary).toMatch(/may still be running/)
    for (const r of results.slice(1)) {
      expect(r.summary).toBe('Not started: the timeout was reached before its turn; nothing was sent for it.')
      expect(r.requests).toBe(0)
    }
  })
  it('cancelled while waiting for the staging URL after the create completed: says staging was created', async () => {
    const abort = new AbortController()
    api()
      .post('/v2/sites/1001/staging')
      .reply(
        202,
        envelope({ task_id: 't1', staging_site_id: 2002, staging_url: 'https://stg.example.test/' }),
      )
    api()
      .get('/v2/tasks/t1/status')
      .reply(200, envelope({ status: 'completed' }))
    nock('https://stg.example.test')
      .get('/')
      .reply(() => {
        abort.abort()
        return [503, '']
      })
    const { result } = await run({ waitForUrl: true }, abort.signal)
    expect(result.result).toBe('cancelled')
    expect(result.summary).toMatch(/waiting for https:\/\/stg\.example\.test\/ to answer/)
    expect(result.summary).toMatch(/The create job had completed: staging was created\./)
    expect(result.summary).not.toMatch(/still be running there/)
  })
  // The last answer said running, or a word not known here ("finished" at 100%): never "keeps running".
  it.each([
    ['the job runs', { status: 'in_progress' }],
    ['the task answered a word not known here', { status: 'finished', percentage_complete: 100 }],
  ])('cancelled while %s: says that job may still be running', async (_, last) => {
    const abort = new AbortController()
    api()
      .post('/v2/sites/1001/staging/reset')
      .reply(202, envelope({ task_id: 't1' }))
    api()
      .get('/v2/tasks/t1/status')
      .reply(200, () => {
        abort.abort()
        return envelope(last)
      })
    const { result } = await run({ operation: 'pull' }, abort.signal)
    expect(result.result).toBe('cancelled')
    expect(result.summary).toMatch(/The pull job the server accepted may still be running there\./)
    expect(result.summary).not.toMatch(/keeps running/)
  })
  it('the unknown-outcome hint names the site everywhere it is named, no {site} left', async () => {
    api()
      .delete('/v2/sites/1001/staging')
      .reply(500, envelope(null, 'oops', false))
    const { result } = await run({ operation: 'delete' })
    expect(result.error?.kind).toBe('unknown-outcome')
    expect(result.error?.hint).toContain('run this action with operation: status, site-id: 1001,')
    expect(result.error?.hint).not.toContain('{site}')
  })
})

describe('the staging read, where the service offers none, is asked once a run', () => {
  const refusal = (status: number) =>
    new ApiError({
      kind: 'validation',
      processing: 'processed',
      httpStatus: status,
      message: `answered ${status}`,
    })
  const notSent = (first: ApiError) => new Error(`not sent: the route answered ${first.httpStatus}`)
  it('reads that start while the first is unanswered wait for it, and are not sent after a 405', async () => {
    const route = new StagingReadRoute()
    let refuse!: (e: unknown) => void
    const sent: string[] = []
    const first = route.read(() => {
      sent.push('first')
      return new Promise((_, reject) => (refuse = reject))
    }, notSent)
    const second = route.read(async () => {
      sent.push('second')
      return 'read'
    }, notSent)
    refuse(refusal(405))
    await expect(first).rejects.toMatchObject({ httpStatus: 405 })
    await expect(second).rejects.toThrow('not sent: the route answered 405')
    expect(sent).toEqual(['first'])
    expect(route.refused?.httpStatus).toBe(405)
  })
  it.each([
    ['an answer', () => Promise.resolve('read')],
    ['a 500', () => Promise.reject(refusal(500))],
    ['a 404 (no staging for that site)', () => Promise.reject(refusal(404))],
  ])('after %s, every other site reads for itself', async (_what, first) => {
    const route = new StagingReadRoute()
    await route.read(first, notSent).catch(() => undefined)
    let sent = 0
    await Promise.all(
      [1, 2].map(() =>
        route.read(async () => {
          sent++
          return 'read'
        }, notSent),
      ),
    )
    expect(sent).toBe(2)
    expect(route.refused).toBeNull()
  })
})

describe('what a later read may undo (contract r4 §3)', () => {
  const listPage = (page: number, data: unknown, lastPage: number) =>
    api()
      .get('/v2/sites')
      .query({ type: 'staging', per_page: '100', page: String(page) })
      .reply(200, { status: true, message: 'ok', data, meta: { current_page: page, last_page: lastPage } })

  it("a staging read answering 404 after the create succeeded keeps the create answer's URL, and warns", async () => {
    api()
      .post('/v2/sites/1001/staging')
      .reply(200, envelope({ task_id: 't1', wp_url: 'https://s.example.test/' }))
    api()
      .get('/v2/tasks/t1/status')
      .reply(200, envelope({ status: 'completed' }))
    api()
      .get('/v2/sites/1001/staging')
      .reply(404, envelope(null, 'Staging not found', false))
    // The id is still unknown: the list is read, whole, and does not name it either.
    listPage(1, [{ id: 7, is_staging: true, parent_id: 1005 }], 1)
    const { result } = await run({})
    expect(result).toMatchObject({
      result: 'succeeded',
      stagingUrl: 'https://s.example.test/',
      stagingSiteId: null,
      stagingFrom: { url: 'the create answer' },
    })
    expect(result.warnings).toEqual([
      'The staging read (GET /v2/sites/1001/staging answered 404) says there is no staging environment, but the create answer named the staging site at https://s.example.test/: the sources disagree; what the create answer said was kept.',
      'The site list (GET /v2/sites) says there is no staging environment, but the create answer named the staging site at https://s.example.test/: the sources disagree; what the create answer said was kept.',
    ])
    // No root check was needed: nothing was read as "none".
    expect(result.requests).toBe(4)
  })

  it('a staging read that fails says nothing: the create answer stands, no disagreement is claimed', async () => {
    api()
      .post('/v2/sites/1001/staging')
      .reply(202, envelope({ task_id: 't1', staging_url: 'https://s.example.test/' }))
    api()
      .get('/v2/tasks/t1/status')
      .reply(200, envelope({ status: 'completed' }))
    api()
      .get('/v2/sites/1001/staging')
      .reply(500, envelope(null, 'Server Error', false))
    listPage(1, [{ id: 51001, is_staging: true, parent_id: 1001, url: 'https://s.example.test/' }], 1)
    const { result } = await run({})
    expect(result).toMatchObject({
      result: 'succeeded',
      stagingUrl: 'https://s.example.test/',
      stagingSiteId: '51001',
      stagingFrom: { url: 'the create answer', siteId: 'the site list, GET /v2/sites (field parent_id)' },
      warnings: [],
    })
  })

  it('a list read in part never says it names no staging site: it says how many pages it did not read', async () => {
    api()
      .post('/v2/sites/1001/staging/reset')
      .reply(202, envelope({ task_id: 't1' }))
    api()
      .get('/v2/tasks/t1/status')
      .reply(200, envelope({ status: 'completed', resource_id: 51001 }))
    api()
      .get('/v2/sites/1001/staging')
      .reply(405, { message: 'The GET method is not supported for route api/v2/sites/1001/staging.' })
    listPage(1, [{ id: 7, is_staging: true, parent_id: 1005 }], 3)
    // Refused every time: with nothing else left to send, the page is tried as max-retries says.
    const refused = api()
      .get('/v2/sites')
      .query({ type: 'staging', per_page: '100', page: '2' })
      .times(10)
      .reply(429, { message: 'Too Many Attempts.' }, { 'Retry-After': '30' })
    const { result } = await run({ operation: 'pull' })
    expect(refused.pendingMocks()).toHaveLength(1) // some of the ten tries are left: it stopped
    expect(result).toMatchObject({ result: 'succeeded', stagingSiteId: null, stagingUrl: null })
    expect(result.stagingFrom.notes).toEqual([
      'The one page of the site list (GET /v2/sites) that was read names no staging site for this site (2 of its 3 pages were not read: the service answered 429 (rate limited)).',
    ])
    expect(JSON.stringify(result)).not.toMatch(/names no staging site for this site\./)
    expect(result.warnings.join(' ')).not.toMatch(/disagree/)
  })

  it.each([
    [
      'naming the staging site but not its URL yet',
      [{ id: 51001, is_staging: true, parent_id: 1001, url: null }],
    ],
    ['empty (the service lists a staging site once its job ended)', []],
  ])('a list read while the job ran, %s, is read again after it', async (_, early) => {
    pullEndsUnprobed()
    listPage(1, early, 1)
    listPage(1, [{ id: 51001, is_staging: true, parent_id: 1001, url: 'https://s.example.test/' }], 1)
    // The run's list, read early (issue 33) before the run's clock starts: its job ends after that read.
    const siteList = new SiteList()
    expect(await siteList.read(client().c, -Infinity, -1)).toMatchObject({ stoppedBy: null })
    const clock = new FakeClock()
    const deps = { clock, logger: new MemoryLogger(), redactor: redactor(), random: () => 0.5, siteList }
    const result = await runOperation(config({ operation: 'pull' }), '1001', deps)
    expect(result).toMatchObject({ stagingSiteId: '51001', stagingUrl: 'https://s.example.test/' })
  })

  it('two records that claim this site: said, and neither is used', async () => {
    pullEndsUnprobed()
    listPage(1, [{ id: 7, is_staging: true, parent_id: 1001, url: 'https://a.test/' }], 2)
    listPage(2, [{ id: 8, staging_of: 1001, url: 'https://b.test/' }], 2)
    const { result } = await run({ operation: 'pull' })
    expect(result).toMatchObject({ result: 'succeeded', stagingSiteId: null, stagingUrl: null })
    expect(result.stagingFrom.notes).toEqual([
      "The site list (GET /v2/sites) has records that contradict each other about this site's staging (7, 8), so neither was used.",
    ])
  })
})
