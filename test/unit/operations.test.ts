import { afterEach, beforeAll, afterAll, describe, expect, it } from '@jest/globals'
import nock from 'nock'
import { PUSH_WARNINGS, PUSH_WARNINGS_IF_FAILED, PUSH_WARNINGS_IF_SENT } from '../../src/staging/endpoints.js'
import { runOperation } from '../../src/staging/operations.js'
import type { Config } from '../../src/inputs/index.js'
import {
  API,
  FakeClock,
  MemoryLogger,
  TOKEN,
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
/** The API root answering `GET /v2/sites` as the API: the evidence a 404 needs (contract §4 r3). */
const rootAnswers = () =>
  api()
    .get('/v2/sites')
    .reply(200, envelope([{ id: 1001 }], 'Sites listed'))
const task = (status: string, percentage?: string, comment?: string) =>
  envelope({
    task_id: 't1',
    status,
    ...(percentage ? { percentage_complete: percentage } : {}),
    ...(comment ? { comment } : {}),
  })

describe('create', () => {
  it('follows the task to completion and reports the staging site', async () => {
    api()
      .post('/v2/sites/1001/staging')
      .reply(
        202,
        envelope(
          { task_id: 't1', staging_site_id: 's-1001', staging_url: 'https://stg.example.test' },
          'Creating',
        ),
      )
    api().get('/v2/tasks/t1/status').reply(200, task('progress', '10'))
    api().get('/v2/tasks/t1/status').reply(200, task('progress', '60'))
    api().get('/v2/tasks/t1/status').reply(200, task('completed', '100'))
    const { result } = await run({})
    expect(result).toMatchObject({
      result: 'succeeded',
      httpStatus: 202,
      message: 'Creating',
      taskId: 't1',
      stagingSiteId: 's-1001',
      stagingUrl: 'https://stg.example.test',
      requests: 4,
      retries: 0,
      error: null,
    })
    expect(result.sent).toEqual(['POST /v2/sites/1001/staging -> 202'])
  })
  it('reads the staging URL from the probe when the responses did not carry it', async () => {
    api()
      .post('/v2/sites/1001/staging')
      .reply(202, envelope({ task_id: 't1' }))
    api().get('/v2/tasks/t1/status').reply(200, task('completed'))
    api()
      .get('/v2/sites/1001/staging')
      .reply(200, envelope({ id: 's-9', staging_url: 'https://s9.example.test', status: 'ready' }))
    const { result } = await run({})
    expect(result.stagingUrl).toBe('https://s9.example.test')
    expect(result.stagingSiteId).toBe('s-9')
  })
  it('a create whose job failed outputs no staging URL or id: it made no site to point at', async () => {
    api()
      .post('/v2/sites/1001/staging')
      .reply(201, envelope({ id: 5003, wp_url: 'https://s1003.example.test', task_id: 't1' }))
    api()
      .get('/v2/tasks/t1/status')
      .reply(200, task('failed', '40', 'Error: no space'))
    const { result } = await run({})
    expect(result).toMatchObject({ result: 'failed', stagingUrl: null, stagingSiteId: null })
    expect(result.warnings.join(' ')).toMatch(/Staging site 5003 was named by a create job that failed/)
  })
  it('if-exists: fail reports that staging exists, with the hint', async () => {
    api()
      .post('/v2/sites/1001/staging')
      .reply(422, envelope(null, 'Staging already exists', false))
    const { result } = await run({ ifExists: 'fail' })
    expect(result.result).toBe('failed')
    expect(result.httpStatus).toBe(422)
    expect(result.error?.kind).toBe('exists')
    expect(result.error?.hint).toMatch(/if-exists: skip/)
  })
  it('if-exists: skip is skipped and still reports the staging URL', async () => {
    api()
      .post('/v2/sites/1001/staging')
      .reply(422, envelope(null, 'Staging already exists', false))
    api()
      .get('/v2/sites/1001/staging')
      .reply(200, envelope({ staging_url: 'https://old.example.test', status: 'ready' }))
    const { result } = await run({ ifExists: 'skip' })
    expect(result.result).toBe('skipped')
    expect(result.stagingUrl).toBe('https://old.example.test')
  })
  it('if-exists: recreate deletes, waits for the delete, then creates', async () => {
    const order: string[] = []
    api()
      .post('/v2/sites/1001/staging')
      .reply(422, () => (order.push('create-422'), envelope(null, 'exists', false)))
    api()
      .delete('/v2/sites/1001/staging')
      .reply(202, () => (order.push('delete'), envelope({ task_id: 'd1' })))
    api()
      .get('/v2/tasks/d1/status')
      .reply(200, () => (order.push('delete-done'), envelope({ status: 'completed' })))
    api()
      .post('/v2/sites/1001/staging')
      .reply(
        202,
        () => (order.push('create'), envelope({ task_id: 't1', staging_url: 'https://new.example.test' })),
      )
    api().get('/v2/tasks/t1/status').reply(200, task('completed'))
    const { result } = await run({ ifExists: 'recreate' })
    expect(order).toEqual(['create-422', 'delete', 'delete-done', 'create'])
    expect(result.result).toBe('succeeded')
    expect(result.stagingUrl).toBe('https://new.example.test')
  })
  it('if-exists: recreate just creates when the staging site vanished before the delete', async () => {
    api()
      .post('/v2/sites/1001/staging')
      .reply(422, envelope(null, 'exists', false))
    api()
      .delete('/v2/sites/1001/staging')
      .reply(404, envelope(null, 'no staging', false))
    rootAnswers()
    api()
      .post('/v2/sites/1001/staging')
      .reply(202, envelope({ task_id: 't1', staging_url: 'https://n.example.test' }))
    api().get('/v2/tasks/t1/status').reply(200, task('completed'))
    const { result } = await run({ ifExists: 'recreate' })
    expect(result.result).toBe('succeeded')
    expect(result.sent).toEqual([
      'POST /v2/sites/1001/staging -> 422',
      'DELETE /v2/sites/1001/staging -> 404',
      'POST /v2/sites/1001/staging -> 202',
    ])
  })
  it('if-exists: recreate creates nothing when the deletion cannot be confirmed', async () => {
    api()
      .post('/v2/sites/1001/staging')
      .reply(422, envelope(null, 'exists', false))
    api().delete('/v2/sites/1001/staging').reply(200, envelope(null, 'Deleting'))
    api()
      .get('/v2/sites/1001/staging')
      .reply(405, envelope(null, 'no probe', false))
    const second = api()
      .post('/v2/sites/1001/staging')
      .reply(202, envelope({ task_id: 't1' }))
    const { result } = await run({ ifExists: 'recreate' })
    expect(result.result).toBe('failed')
    expect(result.error?.kind).toBe('unknown-outcome')
    expect(result.summary).toMatch(/no new one was created/)
    expect(second.isDone()).toBe(false)
  })
  it('a 422 after a first try of unknown outcome means that try went through: it is followed', async () => {
    api()
      .post('/v2/sites/1001/staging')
      .reply(502, envelope(null, 'bad gateway', false))
    api()
      .post('/v2/sites/1001/staging')
      .reply(422, envelope(null, 'exists', false))
    api()
      .get('/v2/sites/1001/staging')
      .reply(200, envelope({ status: 'creating' }))
    api()
      .get('/v2/sites/1001/staging')
      .reply(200, envelope({ status: 'ready', staging_url: 'https://s.example.test' }))
    const { result, logger } = await run({ ifExists: 'fail' })
    expect(logger.text).toMatch(/first try went through/)
    expect(result.result).toBe('succeeded')
    expect(result.stagingUrl).toBe('https://s.example.test')
  })
  it('a pull refused busy after a try of unknown outcome: that try went through; it is followed, not sent again', async () => {
    api()
      .post('/v2/sites/1001/staging/reset')
      .reply(500, envelope(null, 'Server Error', false))
    api()
      .post('/v2/sites/1001/staging/reset')
      .reply(422, envelope(null, 'A pull is already in progress for this site.', false))
    const third = api()
      .post('/v2/sites/1001/staging/reset')
      .reply(202, envelope({ task_id: 't2' }))
    api()
      .get('/v2/sites/1001/staging')
      .reply(200, envelope({ status: 'ready', staging_url: 'https://s.example.test' }))
    const { result, logger } = await run({ operation: 'pull' })
    expect(logger.text).toMatch(
      /The pull was answered 422 after a try whose outcome was unknown: that first try went/,
    )
    expect(third.isDone()).toBe(false)
    expect(result.result).not.toBe('failed')
  })
  it('403 says the plan or site is not eligible', async () => {
    api()
      .post('/v2/sites/1001/staging')
      .reply(403, envelope(null, 'Plan does not include staging', false))
    const { result } = await run({})
    expect(result.result).toBe('failed')
    expect(result.error?.kind).toBe('forbidden')
    expect(result.message).toContain('Plan does not include staging')
  })
})

describe('busy site (if-busy)', () => {
  it('wait: sends again after the other job, counting the retry', async () => {
    api()
      .post('/v2/sites/1001/staging/push')
      .reply(409, envelope(null, 'A sync is running', false))
    api()
      .post('/v2/sites/1001/staging/push')
      .reply(423, envelope(null, 'Locked', false))
    api()
      .post('/v2/sites/1001/staging/push')
      .reply(202, envelope({ task_id: 't1' }))
    api().get('/v2/tasks/t1/status').reply(200, task('completed'))
    const { result, logger } = await run({ operation: 'push', ifBusy: 'wait' })
    expect(result.result).toBe('succeeded')
    expect(result.retries).toBe(2)
    expect(logger.text).toMatch(/busy with another job/)
  })
  it('fail: fails at once with the busy hint', async () => {
    api()
      .post('/v2/sites/1001/staging/reset')
      .reply(409, envelope(null, 'A sync is running', false))
    const { result } = await run({ operation: 'pull', ifBusy: 'fail' })
    expect(result.result).toBe('failed')
    expect(result.error?.kind).toBe('busy')
    expect(result.requests).toBe(1)
  })
  it('wait: gives up as timed-out at the timeout', async () => {
    api()
      .post('/v2/sites/1001/staging/reset')
      .times(100)
      .reply(409, envelope(null, 'busy', false))
    const { result } = await run({ operation: 'pull', timeoutMs: 60_000 })
    expect(result.result).toBe('timed-out')
  })
})

describe('push and delete are never sent twice', () => {
  it.each([500, 502, 504])(
    'push answered %i: failed, outcome unknown, one request, warnings said as "if the push went through"',
    async (status) => {
      api()
        .post('/v2/sites/1001/staging/push')
        .reply(status, envelope(null, 'oops', false))
      const { result } = await run({ operation: 'push' })
      expect(result.result).toBe('failed')
      expect(result.error?.kind).toBe('unknown-outcome')
      expect(result.summary).toMatch(/outcome of the push request is unknown/)
      expect(result.summary).toMatch(/not sent again/)
      expect(result.requests).toBe(1)
      expect(result.httpStatus).toBe(status)
      expect(result.warnings).toEqual(PUSH_WARNINGS_IF_SENT)
      for (const w of result.warnings) expect(w).toMatch(/^If the push went through/)
    },
  )
  it.each([
    { status: 'false' },
    { success: false },
    { status: 'error' },
    { status: 'Failed' },
    { success: 'false' },
  ])('a 2xx whose body says it failed (%j) is failed, never "accepted"', async (flag) => {
    api()
      .delete('/v2/sites/1001/staging')
      .reply(200, { ...flag, message: 'Staging could not be deleted: permission denied' })
    const { result } = await run({ operation: 'delete', wait: false })
    expect(result.result).toBe('failed')
    expect(result.summary).toMatch(/its body says it failed/)
  })
  it('delete answered 500: failed, outcome unknown, one request', async () => {
    api()
      .delete('/v2/sites/1001/staging')
      .reply(500, envelope(null, 'oops', false))
    const { result } = await run({ operation: 'delete' })
    expect(result.error?.kind).toBe('unknown-outcome')
    expect(result.requests).toBe(1)
  })
  it('push accepted: succeeded with the three push warnings', async () => {
    api()
      .post('/v2/sites/1001/staging/push')
      .reply(202, envelope({ task_id: 't1' }))
    api().get('/v2/tasks/t1/status').reply(200, task('completed'))
    const { result } = await run({ operation: 'push' })
    expect(result.result).toBe('succeeded')
    expect(result.warnings).toEqual(PUSH_WARNINGS)
  })
  it('push accepted, then its job failed: the warnings of a failed push, no purge claimed', async () => {
    api()
      .post('/v2/sites/1001/staging/push')
      .reply(202, envelope({ task_id: 't1' }))
    api()
      .get('/v2/tasks/t1/status')
      .reply(200, task('error', undefined, 'Error: disk full'))
    const { result } = await run({ operation: 'push' })
    expect(result.result).toBe('failed')
    expect(result.error?.kind).toBe('task-failed')
    expect(result.warnings).toEqual(PUSH_WARNINGS_IF_FAILED)
    expect(result.warnings.join(' ')).not.toMatch(/purged/)
  })
  it('push accepted, still running at the timeout, or not waited for: the warnings as "if the push went through"', async () => {
    api()
      .post('/v2/sites/1001/staging/push')
      .reply(202, envelope({ task_id: 't1' }))
    api().get('/v2/tasks/t1/status').times(1000).reply(200, task('progress', '5'))
    const timedOut = (await run({ operation: 'push', timeoutMs: 120_000 })).result
    expect(timedOut.result).toBe('timed-out')
    expect(timedOut.warnings).toEqual(PUSH_WARNINGS_IF_SENT)
    nock.cleanAll()
    api()
      .post('/v2/sites/1001/staging/push')
      .reply(202, envelope({ task_id: 't2' }))
    const notWaited = (await run({ operation: 'push', wait: false })).result
    expect(notWaited.result).toBe('accepted')
    expect(notWaited.warnings).toEqual(PUSH_WARNINGS_IF_SENT)
  })
})

describe('missing staging (if-missing)', () => {
  it('skip: skipped', async () => {
    api()
      .post('/v2/sites/1001/staging/reset')
      .reply(404, envelope(null, 'No staging', false))
    const root = rootAnswers()
    const { result } = await run({ operation: 'pull', ifMissing: 'skip' })
    expect(root.isDone()).toBe(true)
    expect(result.result).toBe('skipped')
    expect(result.httpStatus).toBe(404)
    // A 404 cannot tell a missing staging environment from a mistyped site id: the summary says both.
    expect(result.summary).toMatch(/no staging environment, or there is no such site/)
    expect(result.message).toBe('No staging')
  })
  it('fail: failed with the not-found hint', async () => {
    api()
      .delete('/v2/sites/1001/staging')
      .reply(404, envelope(null, 'No staging', false))
    const root = rootAnswers()
    const { result } = await run({ operation: 'delete' })
    expect(result.result).toBe('failed')
    expect(result.error?.kind).toBe('not-found')
    // The site id is blamed once the API root answered as the API (issue 24 §3).
    expect(root.isDone()).toBe(true)
    expect(result.error?.hint).toMatch(/site-id is the PRODUCTION site's id/)
  })
})

describe('waiting', () => {
  it('a task ending in error fails with its comment', async () => {
    api()
      .post('/v2/sites/1001/staging/reset')
      .reply(202, envelope({ task_id: 't1' }))
    api()
      .get('/v2/tasks/t1/status')
      .reply(200, task('error', '40', 'Error: disk quota exceeded'))
    const { result } = await run({ operation: 'pull' })
    expect(result.result).toBe('failed')
    expect(result.error?.kind).toBe('task-failed')
    expect(result.summary).toBe('The pull job failed on the server: disk quota exceeded')
    // The server's own words, verbatim: the reason, not our sentence around it.
    expect(result.message).toBe('disk quota exceeded')
  })
  it.each(['failed', 'cancelled', 'timeout'])(
    'a task status "%s" is a failure, never success',
    async (status) => {
      api()
        .post('/v2/sites/1001/staging/reset')
        .reply(202, envelope({ task_id: 't1' }))
      api().get('/v2/tasks/t1/status').reply(200, task(status))
      expect((await run({ operation: 'pull' })).result.result).toBe('failed')
    },
  )
  it('a token refused (401) while the task is followed fails the run, never "accepted"', async () => {
    api()
      .post('/v2/sites/1001/staging/reset')
      .reply(202, envelope({ task_id: 't1' }))
    api().get('/v2/tasks/t1/status').reply(200, task('progress', '10'))
    api().get('/v2/tasks/t1/status').reply(401, { message: 'Unauthenticated.' })
    const { result } = await run({ operation: 'pull' })
    expect(result.result).toBe('failed')
    expect(result.error?.kind).toBe('auth')
    // The pull was accepted: it may run on; the poll's words are not the pull's answer.
    expect(result.summary).toMatch(/The pull job the server accepted may still be running there\.$/)
    expect(result.error?.hint).toMatch(/To check on it later, .*status/)
    expect(result.message).not.toBe('Unauthenticated.')
  })
  it('a task read whose top-level status is the word "failed" is the task failing, not a refused request', async () => {
    api()
      .post('/v2/sites/1001/staging/reset')
      .reply(202, envelope({ task_id: 't1' }))
    api()
      .get('/v2/tasks/t1/status')
      .reply(200, {
        status: 'failed',
        message: 'Task failed',
        data: { status: 'failed', comment: 'disk full' },
      })
    const { result } = await run({ operation: 'pull' })
    expect(result.result).toBe('failed')
    expect(result.error?.kind).toBe('task-failed')
  })
  it.each([
    [
      'the envelope false, the task failed in data',
      { status: false, message: 'Task failed', data: { status: 'failed', comment: 'disk full' } },
    ],
    [
      'a bare body failed, with its comment',
      { status: 'failed', comment: 'disk full', message: 'Task failed' },
    ],
    ['a bare body in error, with its reason', { status: 'error', comment: 'rsync failed', message: 'Error' }],
  ])('a task read that says it failed (%s) fails at once: not waited on to the timeout', async (_, body) => {
    api()
      .post('/v2/sites/1001/staging/reset')
      .reply(202, envelope({ task_id: 't1' }))
    api().get('/v2/tasks/t1/status').reply(200, body)
    const { result } = await run({ operation: 'pull' })
    expect(result.error?.kind).toBe('task-failed')
    expect(result.summary).toMatch(/^The pull job failed on the server: (disk full|rsync failed)/)
  })
  it.each([
    ['a bare word beside a message', { status: 'error', message: 'Unauthenticated.' }],
    [
      'the envelope false, a word alone in data',
      { status: false, message: 'Unauthenticated.', data: { status: 'error' } },
    ],
  ])('a 2xx refusal of the read (%s) is no task state: the job is followed on', async (_, body) => {
    api()
      .post('/v2/sites/1001/staging/reset')
      .reply(202, envelope({ task_id: 't1' }))
    api().get('/v2/tasks/t1/status').reply(200, body)
    api().get('/v2/tasks/t1/status').reply(200, task('completed'))
    expect((await run({ operation: 'pull' })).result.result).toBe('succeeded')
  })
  it('an unknown status keeps waiting and says so', async () => {
    api()
      .post('/v2/sites/1001/staging/reset')
      .reply(202, envelope({ task_id: 't1' }))
    api().get('/v2/tasks/t1/status').reply(200, task('warming-up'))
    api().get('/v2/tasks/t1/status').reply(200, task('done'))
    const { result, logger } = await run({ operation: 'pull' })
    expect(logger.text).toMatch(/a status that is not known here \("warming-up"\); still waiting/)
    expect(result.result).toBe('succeeded')
  })
  it('a 404 on the task in the first 30 s is "not yet"', async () => {
    api()
      .post('/v2/sites/1001/staging/reset')
      .reply(202, envelope({ task_id: 't1' }))
    api()
      .get('/v2/tasks/t1/status')
      .times(3)
      .reply(404, envelope(null, 'Task not found', false))
    api().get('/v2/tasks/t1/status').reply(200, task('completed'))
    api()
      .get('/v2/sites/1001/staging')
      .reply(200, envelope({ staging_url: 'https://s.example.test', status: 'ready' }))
    // The staging read gave no id: the site list does, by the field that links it (issue 20 §1).
    api()
      .get('/v2/sites')
      .query({ type: 'staging', per_page: '100', page: '1' })
      .reply(200, envelope([{ id: 51001, is_staging: true, parent_id: 1001 }]))
    // No paginator states the last page, and a short page is not the last (contract r4 §12): page 2
    // is read, and is empty.
    api().get('/v2/sites').query({ type: 'staging', per_page: '100', page: '2' }).reply(200, envelope([]))
    const { result } = await run({ operation: 'pull' })
    expect(result.result).toBe('succeeded')
    expect(result.requests).toBe(8)
    expect(result.stagingUrl).toBe('https://s.example.test')
    expect(result.stagingSiteId).toBe('51001')
    expect(result.stagingFrom).toEqual({
      siteId: 'the site list, GET /v2/sites (field parent_id)',
      url: 'the staging environment',
      notes: [],
    })
  })
  it('without a task id, follows the probe until ready', async () => {
    api()
      .post('/v2/sites/1001/staging')
      .reply(201, envelope({ staging_site_id: 's1' }))
    api()
      .get('/v2/sites/1001/staging')
      .reply(200, envelope({ status: 'creating' }))
    api()
      .get('/v2/sites/1001/staging')
      .reply(200, envelope({ status: 'ready', staging_url: 'https://s1.example.test' }))
    const { result } = await run({})
    expect(result.result).toBe('succeeded')
    expect(result.stagingUrl).toBe('https://s1.example.test')
  })
  it('without a task id, staging busy with another job (pushing) is no evidence of a pull', async () => {
    api().post('/v2/sites/1001/staging/reset').reply(200, envelope(null, 'Pull queued'))
    api()
      .get('/v2/sites/1001/staging')
      .times(2)
      .reply(200, envelope({ status: 'pushing', is_syncing: true })) // the status names the job: is_syncing names none
    api()
      .get('/v2/sites/1001/staging')
      .times(40)
      .reply(200, envelope({ status: 'ready' }))
    const { result } = await run({ operation: 'pull' })
    expect(result.result).toBe('accepted')
  })
  it('without a task id, is_syncing as PHP writes it (1) is busy: a create is not done while it syncs', async () => {
    api()
      .post('/v2/sites/1001/staging')
      .reply(201, envelope({ staging_site_id: 's1' }))
    api()
      .get('/v2/sites/1001/staging')
      .times(2)
      .reply(200, envelope({ status: 0, is_syncing: 1, percentage_complete: '5' }))
    api()
      .get('/v2/sites/1001/staging')
      .reply(200, envelope({ status: 'ready', staging_url: 'https://s1.example.test' }))
    const { result } = await run({})
    expect(result.result).toBe('succeeded')
    expect(result.stagingUrl).toBe('https://s1.example.test') // from the read once it had synced
  })
  it("a staging read that says it is another site's staging is neither evidence nor the staging", async () => {
    api()
      .post('/v2/sites/1001/staging')
      .reply(201, envelope({ staging_site_id: 's1' }))
    const other = {
      id: 77,
      status: 'ready',
      staging_of: 1002,
      staging_url: 'https://staging-of-1002.example.test',
    }
    api().get('/v2/sites/1001/staging').times(5).reply(200, envelope(other))
    const { result } = await run({})
    expect(result.result).not.toBe('succeeded')
    expect(result.stagingUrl).not.toBe('https://staging-of-1002.example.test')
    expect(result.stagingSiteId).not.toBe('77')
  })
  it('without a task id, a delete is done when the probe answers 404', async () => {
    api().delete('/v2/sites/1001/staging').reply(200, envelope(null, 'Deleting'))
    api()
      .get('/v2/sites/1001/staging')
      .reply(200, envelope({ status: 'deleting' }))
    api()
      .get('/v2/sites/1001/staging')
      .reply(404, envelope(null, 'not found', false))
    expect((await run({ operation: 'delete' })).result.result).toBe('succeeded')
  })
  it('when completion cannot be tracked (probe 405), the result is accepted with a warning', async () => {
    api().post('/v2/sites/1001/staging/reset').reply(200, envelope(null, 'Started'))
    api()
      .get('/v2/sites/1001/staging')
      .reply(405, envelope(null, 'Method not allowed', false))
    const { result } = await run({ operation: 'pull' })
    expect(result.result).toBe('accepted')
    expect(result.warnings.join(' ')).toMatch(/cannot be tracked/)
  })
  it('a job whose progress promises an end past the timeout gets one last look before it', async () => {
    const clock = new FakeClock()
    const t0 = clock.now()
    api()
      .post('/v2/sites/1001/staging/reset')
      .reply(202, envelope({ task_id: 't1' }))
    // The bar climbs 0.5% a second (an end 200 s away), but the job completes at 30 s.
    api()
      .get('/v2/tasks/t1/status')
      .times(20)
      .reply(() => {
        const s = (clock.now() - t0) / 1000
        return [200, s >= 30 ? task('completed') : task('running', String(Math.floor(s / 2)))]
      })
    const deps = { clock, logger: new MemoryLogger(), redactor: redactor(), random: () => 0.5 }
    const result = await runOperation(config({ operation: 'pull', timeoutMs: 50_000 }), '1001', deps)
    expect(result.result).toBe('succeeded')
  })
  it('the last look goes only as the poll scheduler lets it: none into a window the others filled', async () => {
    // A window of 6 calls a minute, shared: two calls of other runs beside each of this run's.
    const clock = new FakeClock()
    let calls: number[] = []
    let refused = 0
    const answer = (body: unknown) => () => {
      const now = clock.now()
      calls = calls.filter((t) => now - t < 60_000)
      const headers = (left: number) => ({ 'X-RateLimit-Limit': '6', 'X-RateLimit-Remaining': String(left) })
      if (calls.length >= 6)
        return (refused++, [429, { message: 'Too Many Attempts.' }, { ...headers(0), 'Retry-After': '30' }])
      calls.push(now, now, now)
      return [200, body, headers(Math.max(0, 6 - calls.length))]
    }
    api()
      .post('/v2/sites/1001/staging/reset')
      .reply(answer(envelope({ task_id: 't1' })))
    api()
      .get('/v2/tasks/t1/status')
      .times(10)
      .reply(answer(task('running', '10')))
    const deps = { clock, logger: new MemoryLogger(), redactor: redactor(), random: () => 0.5 }
    const result = await runOperation(config({ operation: 'pull', timeoutMs: 40_000 }), '1001', deps)
    expect(result.result).toBe('timed-out')
    expect(refused).toBe(0)
  })
  // The read of the staging site's id and URL hangs (its answer would come after the deadline).
  it.each([
    ['is green: the reads only filled its id and URL', false, 'succeeded'],
    ['with wait-for-url is the timeout: the URL was the condition', true, 'timed-out'],
  ])('a job that ended in time, its reads after it cut by the timeout, %s', async (_, waitForUrl, ending) => {
    api()
      .post('/v2/sites/1001/staging/reset')
      .reply(202, envelope({ task_id: 't1' }))
    api().get('/v2/tasks/t1/status').reply(200, task('completed'))
    api()
      .get('/v2/sites/1001/staging')
      .delay(20_000)
      .reply(200, envelope({ id: 51001 }))
    const { result } = await run({ operation: 'pull', timeoutMs: 2_500, waitForUrl })
    expect(result.result).toBe(ending)
    if (!waitForUrl)
      expect(result.stagingFrom.notes).toContain(
        "The staging site's id and URL were not read: the timeout was reached first.",
      )
  })
  it('wait: false ends as accepted after the request', async () => {
    api()
      .post('/v2/sites/1001/staging/reset')
      .reply(202, envelope({ task_id: 't1' }))
    const { result } = await run({ operation: 'pull', wait: false })
    expect(result.result).toBe('accepted')
    expect(result.taskId).toBe('t1')
    expect(result.requests).toBe(1)
  })
  it('the timeout ends the run as timed-out, saying the job may still be running', async () => {
    api()
      .post('/v2/sites/1001/staging')
      .reply(202, envelope({ task_id: 't1' }))
    api().get('/v2/tasks/t1/status').times(1000).reply(200, task('progress', '5'))
    const { result, clock } = await run({ timeoutMs: 120_000 })
    expect(result.result).toBe('timed-out')
    expect(result.summary).toMatch(/may still be running on the server/)
    expect(clock.now() - 1_700_000_000_000).toBeLessThanOrEqual(120_000)
  })
  it('a timeout after a 502 that may have started the pull says the job may be running (a 5xx is no refusal)', async () => {
    api().post('/v2/sites/1001/staging/reset').times(20).reply(502, 'Bad gateway')
    const { result } = await run({ operation: 'pull', timeoutMs: 8_000 })
    expect(result.result).toBe('timed-out')
    expect(result.summary).toMatch(/may still be running on the server/)
    expect(result.error?.hint).toMatch(/To check on it later/)
  })
  it('logs progress now and then, not at every poll', async () => {
    api()
      .post('/v2/sites/1001/staging')
      .reply(202, envelope({ task_id: 't1' }))
    for (let p = 1; p <= 30; p++)
      api()
        .get('/v2/tasks/t1/status')
        .reply(200, task('progress', String(p * 3)))
    api().get('/v2/tasks/t1/status').times(100).reply(200, task('completed'))
    const { logger, result } = await run({})
    const progressLines = logger.lines.filter((l) => l.includes('still running')).length
    expect(progressLines).toBeGreaterThan(0)
    expect(progressLines).toBeLessThan(result.requests - 1)
  })
})

describe('cancellation and dry run', () => {
  it('cancelled while waiting: says what was sent and that the job continues', async () => {
    const abort = new AbortController()
    api()
      .post('/v2/sites/1001/staging/push')
      .reply(202, envelope({ task_id: 't1' }))
    api()
      .get('/v2/tasks/t1/status')
      .reply(200, () => {
        abort.abort()
        return task('progress', '10')
      })
    const { result } = await run({ operation: 'push' }, abort.signal)
    expect(result.result).toBe('cancelled')
    expect(result.summary).toContain('POST /v2/sites/1001/staging/push -> 202')
    expect(result.summary).toMatch(/may still be running there/)
  })
  it('dry run sends only a read and reports what it would send', async () => {
    const reads = api()
      .get('/v2/sites/1001/staging')
      .reply(404, envelope(null, 'no staging', false))
    const { result, logger } = await run({ operation: 'push', dryRun: true })
    expect(reads.isDone()).toBe(true)
    expect(result.result).toBe('dry-run')
    expect(result.sent).toEqual([])
    expect(logger.text).toContain(`POST ${API}/v2/sites/1001/staging/push`)
    expect(logger.text).toContain(`GET ${API}/v2/tasks/{task_id}/status (repeated until the job ends)`)
  })
  it('the token appears in no message, even when the server echoes it', async () => {
    api()
      .post('/v2/sites/1001/staging/push')
      .reply(400, envelope(null, `Bad token Bearer ${TOKEN}`, false))
    const { result, logger } = await run({ operation: 'push' })
    expect(JSON.stringify(result)).not.toContain(TOKEN)
    expect(logger.text).not.toContain(TOKEN)
  })
})

describe('contract revision 2', () => {
  it("after a create, the staging site is the task's resource_id, never its row id", async () => {
    api()
      .post('/v2/sites/1001/staging')
      .reply(200, envelope({ task_id: 'd53a490af3cd', wp_url: 'https://s.example.test' }))
    api()
      .get('/v2/tasks/d53a490af3cd/status')
      .reply(
        200,
        envelope({
          id: 148601,
          resource_type: 'App\\Models\\Site',
          resource_id: 50123,
          status: 'in_progress',
          percentage_complete: '45.50',
        }),
      )
    api()
      .get('/v2/tasks/d53a490af3cd/status')
      .reply(
        200,
        envelope({ id: 148601, resource_type: 'App\\Models\\Site', resource_id: 50123, status: 'completed' }),
      )
    const { result } = await run({})
    expect(result.result).toBe('succeeded')
    expect(result.stagingSiteId).toBe('50123')
    expect(result.stagingUrl).toBe('https://s.example.test')
  })
  it.each([
    [2, 'failed'],
    ['failure', 'failed'],
    [0, 'succeeded'],
  ])('a task status of %p ends the run %s at once, not at the timeout', async (status, outcome) => {
    api()
      .post('/v2/sites/1001/staging/reset')
      .reply(200, { message: 'Sync started', data: { task_id: 't1' } })
    api()
      .get('/v2/tasks/t1/status')
      .reply(200, envelope({ status: 1, percentage_complete: '10.00' }))
    api()
      .get('/v2/tasks/t1/status')
      .reply(200, envelope({ status, comment: 'Error: out of disk' }))
    api().get('/v2/sites').query(true).reply(200, envelope([]))
    const { result, clock } = await run({ operation: 'pull' })
    expect(result.result).toBe(outcome)
    // (A pull that succeeded also reads the staging environment and the site list once each.)
    expect(result.requests).toBeLessThanOrEqual(5)
    expect(clock.t - 1_700_000_000_000).toBeLessThan(60_000)
    if (outcome === 'failed') expect(result.message).toBe('out of disk')
  })
  it('a push answered 2xx without a status field is accepted and followed, not "outcome unknown"', async () => {
    api()
      .post('/v2/sites/1001/staging/push')
      .reply(200, { message: 'Push started', data: { task_id: 't1' } })
    api()
      .get('/v2/tasks/t1/status')
      .reply(200, envelope({ status: 0 }))
    const { result } = await run({ operation: 'push' })
    expect(result.result).toBe('succeeded')
    expect(result.message).toBe('Push started')
    expect(result.summary).toMatch(/^Staging pushed to production in \d+s\.$/)
  })
  it('a push refused with 422 "a sync is already in progress" waits (if-busy: wait), then pushes once', async () => {
    api()
      .post('/v2/sites/1001/staging/push')
      .reply(422, { message: 'A sync is already in progress. Please wait until it finishes.' })
    const push = api()
      .post('/v2/sites/1001/staging/push')
      .reply(202, envelope({ task_id: 't1' }))
    api()
      .get('/v2/tasks/t1/status')
      .reply(200, envelope({ status: 'completed' }))
    const { result, logger } = await run({ operation: 'push' })
    expect(result.result).toBe('succeeded')
    expect(push.isDone()).toBe(true)
    expect(logger.text).toMatch(/busy with another job/)
  })
  it('a task id that cannot go into a path ("..") is never requested: the probe follows the job', async () => {
    api()
      .post('/v2/sites/1001/staging')
      .reply(202, envelope({ task_id: '..' }))
    api()
      .get('/v2/sites/1001/staging')
      .reply(200, envelope({ status: 'ready', id: 's-1' }))
    const { result, logger } = await run({})
    expect(result.result).toBe('succeeded')
    expect(result.taskId).toBeNull()
    expect(logger.text).toMatch(/cannot be used in a URL/)
    expect(logger.text).not.toMatch(/GET \/v2\/status|GET \/v2\/tasks\/\.\./)
  })
})

describe('evidence before success (contract §3, r2)', () => {
  it('a pull followed through the probe succeeds once the job was seen busy, then ready', async () => {
    api().post('/v2/sites/1001/staging/reset').reply(202, envelope(null, 'Started'))
    api()
      .get('/v2/sites/1001/staging')
      .reply(200, envelope({ status: 'syncing' }))
    api()
      .get('/v2/sites/1001/staging')
      .times(2)
      .reply(200, envelope({ status: 'ready' }))
    const { result } = await run({ operation: 'pull' })
    expect(result.result).toBe('succeeded')
  })
  it('a "ready" probe that never showed the job running gives accepted with a warning, never succeeded', async () => {
    api().post('/v2/sites/1001/staging/push').reply(202, envelope(null, 'Started'))
    api()
      .get('/v2/sites/1001/staging')
      .times(100)
      .reply(200, envelope({ status: 'ready' }))
    const { result } = await run({ operation: 'push' })
    expect(result.result).toBe('accepted')
    expect(result.warnings.join(' ')).toMatch(/completion could not be confirmed/)
    expect(result.summary).toMatch(/operation: status, site-id: 1001/)
  })
  it.each([
    ['only ready (the job may have failed before its task went): accepted', [], 'accepted'],
    ['busy, then ready: succeeded', ['syncing'], 'succeeded'],
  ])(
    'a task that vanished after it was seen running: the probe must see the job itself, %s',
    async (_, before, end) => {
      api()
        .post('/v2/sites/1001/staging/reset')
        .reply(202, envelope({ task_id: 't1' }))
      api()
        .get('/v2/tasks/t1/status')
        .reply(200, envelope({ status: 'running', percentage_complete: '5' }))
      api()
        .get('/v2/tasks/t1/status')
        .times(100)
        .reply(404, { message: 'No query results for model [App\\Models\\Task] t1' })
      for (const status of before) api().get('/v2/sites/1001/staging').reply(200, envelope({ status }))
      api()
        .get('/v2/sites/1001/staging')
        .times(100)
        .reply(200, envelope({ status: 'ready' }))
      const { result, logger } = await run({ operation: 'pull' })
      expect(logger.text).toMatch(/following the staging environment instead/)
      expect(result.result).toBe(end)
    },
  )
  it('a task that was never seen and vanished: the probe alone cannot confirm a pull', async () => {
    api()
      .post('/v2/sites/1001/staging/reset')
      .reply(202, envelope({ task_id: 't1' }))
    api()
      .get('/v2/tasks/t1/status')
      .times(100)
      .reply(404, { message: 'No query results for model [App\\Models\\Task] t1' })
    api()
      .get('/v2/sites/1001/staging')
      .times(100)
      .reply(200, envelope({ status: 'ready' }))
    const { result } = await run({ operation: 'pull' })
    expect(result.result).toBe('accepted')
  })
})

describe('status: read-only (issue 11)', () => {
  const status = (over: Partial<Config> = {}) => run({ operation: 'status', ...over })
  it('reads a ready staging environment: state, id and URL; only GETs', async () => {
    api()
      .get('/v2/sites/1001/staging')
      .reply(
        200,
        envelope({ status: 'ready', staging_site_id: 's-1001', staging_url: 'https://s.example.test' }),
      )
    const { result } = await status()
    expect(result).toMatchObject({
      result: 'succeeded',
      stagingState: 'ready',
      stagingSiteId: 's-1001',
      stagingUrl: 'https://s.example.test',
    })
    expect(result.sent).toEqual([])
  })
  it("a read that says it is another site's staging: failed, nothing of it reported as this site's", async () => {
    const other = {
      id: 77,
      status: 'ready',
      parent_id: 1002,
      type: 'staging',
      staging_url: 'https://x.example.test',
    }
    api().get('/v2/sites/1001/staging').reply(200, envelope(other))
    const { result } = await status()
    expect(result.result).toBe('failed')
    expect(result.summary).toMatch(/answered with the staging environment of site 1002, not of site 1001/)
    expect(result).toMatchObject({ stagingSiteId: null, stagingUrl: null })
  })
  it('a task id never found (404) is a failure: the staging environment busy with some job is not that task', async () => {
    api()
      .get('/v2/tasks/typo123/status')
      .times(40)
      .reply(404, envelope(null, 'Not found', false))
    api()
      .get('/v2/sites/1001/staging')
      .times(40)
      .reply(200, envelope({ status: 'syncing' }))
    const { result } = await status({ taskId: 'typo123', wait: true })
    expect(result.result).toBe('failed')
    expect(result.summary).toMatch(/Task typo123 was not found \(HTTP 404\)/)
    expect(result.error?.hint).toMatch(/Check task-id/)
  })
  it('no staging environment is a state, not a failure', async () => {
    api()
      .get('/v2/sites/1001/staging')
      .reply(404, envelope(null, 'Site 1001 has no staging environment.', false))
    rootAnswers()
    const { result } = await status()
    expect(result).toMatchObject({
      result: 'succeeded',
      stagingState: 'none',
      message: 'Site 1001 has no staging environment.',
    })
  })
  it('busy while a job runs', async () => {
    api()
      .get('/v2/sites/1001/staging')
      .reply(200, envelope({ status: 'syncing' }))
    expect((await status()).result.stagingState).toBe('busy')
  })
  it('a service without the probe (405): state unknown, failed, saying to follow a task instead', async () => {
    api()
      .get('/v2/sites/1001/staging')
      .reply(405, { message: 'The GET method is not supported for route api/v2/sites/1001/staging.' })
    const { result } = await status()
    expect(result).toMatchObject({ result: 'failed', stagingState: 'unknown' })
    expect(result.error?.hint).toMatch(/task-id/)
  })
  it('with task-id, follows that job to its end like any operation, then reads the state', async () => {
    api()
      .get('/v2/tasks/abc123/status')
      .reply(200, envelope({ status: 'in_progress', percentage_complete: '40.00' }))
    api()
      .get('/v2/tasks/abc123/status')
      .reply(200, envelope({ status: 0 }))
    api()
      .get('/v2/sites/1001/staging')
      .reply(200, envelope({ status: 'ready', staging_site_id: 's-1001' }))
    const { result, logger } = await status({ taskId: 'abc123' })
    expect(result).toMatchObject({
      result: 'succeeded',
      taskId: 'abc123',
      stagingState: 'ready',
      stagingSiteId: 's-1001',
    })
    expect(result.sent).toEqual([])
    // The job an earlier run started: never "the status job" (issue 24 §11).
    expect(logger.text).toContain('Waiting for the job (task abc123) to finish')
    expect(`${logger.text}\n${result.summary}`).not.toMatch(/status job/)
  })
  it('with task-id, a failed job fails with its reason', async () => {
    api()
      .get('/v2/tasks/abc123/status')
      .reply(200, envelope({ status: 'failure', comment: 'Error: quota' }))
    const { result } = await status({ taskId: 'abc123' })
    expect(result).toMatchObject({ result: 'failed', message: 'quota' })
  })
  it('with task-id and wait: false, one look: a running job is reported with the step to check again', async () => {
    api()
      .get('/v2/tasks/abc123/status')
      .reply(200, envelope({ status: 'running', percentage_complete: '12' }))
    const { result } = await status({ taskId: 'abc123', wait: false })
    expect(result).toMatchObject({ result: 'succeeded', stagingState: 'busy' })
    expect(result.summary).toMatch(/still running \(12%\)/)
    expect(result.summary).toMatch(/task-id: abc123/)
  })
  it('with task-id, times out like any operation', async () => {
    api()
      .get('/v2/tasks/abc123/status')
      .times(1000)
      .reply(200, envelope({ status: 'running' }))
    const { result } = await status({ taskId: 'abc123', timeoutMs: 60_000 })
    expect(result.result).toBe('timed-out')
  })
})

describe('every "check later" names the exact step (issue 11), in the words of its front door', () => {
  it('wait: false, through the action: the status step with its inputs', async () => {
    api()
      .post('/v2/sites/1001/staging/reset')
      .reply(202, envelope({ task_id: 't77' }))
    const { result, logger } = await run({ operation: 'pull', wait: false })
    expect(result.result).toBe('accepted')
    expect(result.summary).toContain('run this action with operation: status, site-id: 1001, task-id: t77.')
    expect(result.summary).not.toContain('site-staging')
    expect(logger.text).toContain('not waiting for it (wait: false)')
  })
  it('--no-wait, through the CLI: the status command with its flags', async () => {
    api()
      .post('/v2/sites/1001/staging/reset')
      .reply(202, envelope({ task_id: 't77' }))
    const logger = new MemoryLogger()
    const result = await runOperation(config({ operation: 'pull', wait: false }), '1001', {
      clock: new FakeClock(),
      logger,
      redactor: redactor(),
      door: 'cli',
    })
    expect(result.result).toBe('accepted')
    expect(result.summary).toContain('run site-staging status --site-id 1001 --task-id t77.')
    expect(result.summary).not.toMatch(/this action|operation: status/)
    expect(logger.text).toContain('not waiting for it (--no-wait)')
  })
})

describe('after a pull or push, staging is read once for its id and URL (issue 11)', () => {
  it('push: one GET fills staging-site-id and staging-url', async () => {
    api()
      .post('/v2/sites/1001/staging/push')
      .reply(202, envelope({ task_id: 't1' }))
    api()
      .get('/v2/tasks/t1/status')
      .reply(200, envelope({ status: 'completed' }))
    const probe = api()
      .get('/v2/sites/1001/staging')
      .reply(
        200,
        envelope({ status: 'ready', staging_site_id: 's-1001', staging_url: 'https://s.example.test' }),
      )
    const { result } = await run({ operation: 'push' })
    expect(probe.isDone()).toBe(true)
    expect(result).toMatchObject({
      result: 'succeeded',
      stagingSiteId: 's-1001',
      stagingUrl: 'https://s.example.test',
    })
  })
  it('a failed read there changes nothing and costs one request, no retries', async () => {
    api()
      .post('/v2/sites/1001/staging/push')
      .reply(202, envelope({ task_id: 't1' }))
    api()
      .get('/v2/tasks/t1/status')
      .reply(200, envelope({ status: 'completed' }))
    api()
      .get('/v2/sites/1001/staging')
      .reply(503, envelope(null, 'down', false))
    const { result } = await run({ operation: 'push' })
    expect(result).toMatchObject({ result: 'succeeded', requests: 3, retries: 0, stagingUrl: null })
  })
})
