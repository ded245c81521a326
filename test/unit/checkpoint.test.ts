import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals'
import nock from 'nock'
import { renderComment } from '../../src/report/comment.js'
import { finalLine } from '../../src/report/assembly.js'
import { renderSummary } from '../../src/report/summary.js'
import { parseConfig } from '../../src/inputs/index.js'
import { checkpointName } from '../../src/staging/checkpoint.js'
import { runAll } from '../../src/staging/batch.js'
import {
  API,
  FakeClock,
  MemoryLogger,
  config,
  envelope,
  redactor,
  runOnFakes as run,
} from '../helpers/fakes.js'

// Issue 27 on fakes: the checkpoint before a push, rollback, rollback-on-failure, keep-checkpoints,
// maintenance and protect-production, each request seen as the server would (nock).

beforeAll(() => nock.disableNetConnect())
afterAll(() => {
  nock.enableNetConnect()
  nock.restore()
})
afterEach(() => nock.cleanAll())

const api = () => nock(API)
const order: string[] = []
afterEach(() => {
  order.length = 0
})
/** Records the request in `order` and answers `body`. */
const said = (what: string, body: unknown) => () => (order.push(what), body)
const task = (status: string, comment?: string) => envelope({ status, ...(comment ? { comment } : {}) })

/** A version created (v9, task vt), named, and its task completed. */
function checkpointAnswers() {
  api()
    .post('/v2/site-versions', { site_id: 1001 })
    .reply(200, said('version', envelope({ id: 9, task_id: 'vt' }, 'Version started')))
  api()
    .put('/v2/site-versions/9', (body: { name: string }) => body.name.startsWith('ssa~cp~'))
    .reply(200, said('name', envelope({ id: 9 })))
  api()
    .get('/v2/tasks/vt/status')
    .reply(200, said('version-progress', task('progress')))
  api()
    .get('/v2/tasks/vt/status')
    .reply(200, said('version-completed', task('completed')))
}
/** The push, accepted with task pt. */
const pushAccepted = () =>
  api()
    .post('/v2/sites/1001/staging/push')
    .reply(202, said('push', envelope({ task_id: 'pt' }, 'Push started')))
const pushEnds = (status: string, comment?: string) =>
  api()
    .get('/v2/tasks/pt/status')
    .reply(200, said(`push-${status}`, task(status, comment)))
/** One page of site 1001's versions, the last (`meta.last_page`, as the service pages it: contract §13 r5). */
const versions = (list: unknown[]) =>
  api()
    .get('/v2/site-versions')
    .query((q) => q.site_id === '1001')
    .reply(200, said('list', { ...envelope(list), meta: { current_page: 1, last_page: 1 } }))
const version = (id: number | string, name: string, status = 'completed') => ({
  id,
  name,
  status,
  site_id: 1001,
  size_mb: 12,
  created_at: '2026-11-20 10:00:00',
})

/** The prune's DELETE, answered that `ids` were deleted (recorded in `order` as `what`); `.body`: what it sent. */
function pruneAnswered(ids: number[], what?: string): { body: unknown } {
  const sent: { body: unknown } = { body: null }
  const answer = envelope({ success_ids: ids, failed_ids: [] })
  api()
    .delete('/v2/site-versions', (body: unknown) => ((sent.body = body), true))
    .reply(200, what ? said(what, answer) : answer)
  return sent
}

describe("a checkpoint is one site's", () => {
  it('a version id another site of the run already holds is no checkpoint of this one: not named, no push, nothing restored', async () => {
    checkpointAnswers() // site 1001: version 9
    pushAccepted()
    pushEnds('completed')
    versions([version(9, 'ssa~cp~1')])
    // Site 1002's create answers the same version 9 (no site_id in the answer).
    api()
      .post('/v2/site-versions', { site_id: 1002 })
      .reply(200, said('version-1002', envelope({ id: 9, task_id: 'vt2' }, 'Version started')))
    const [a, b] = await runAll(
      config({ operation: 'push', checkpoint: 'version', siteIds: ['1001', '1002'], concurrency: 1 }),
      { clock: new FakeClock(), logger: new MemoryLogger(), redactor: redactor(), door: 'cli' },
    )
    expect(a!.result).toBe('succeeded')
    expect(b!.result).toBe('failed')
    expect(b!.summary).toMatch(/names version 9 of site 1001, not of site 1002.*The push was not sent/)
    expect(order.filter((x) => x === 'name')).toHaveLength(1) // 1001's only: 9 was not renamed for 1002
    expect(nock.pendingMocks()).toEqual([])
  })
})

describe('a create answered with an existing version', () => {
  it.each([
    [
      'a date weeks before the run',
      { name: null, created_at: '2023-10-01 10:00:00' },
      /\(made 2023-10-01 10:00:00\)/,
    ],
    [
      "a person's name and a date weeks before",
      { name: 'before redesign', created_at: '2023-10-01 10:00:00' },
      /\(made 2023-10-01 10:00:00\)/,
    ],
  ])('(%s) is not renamed nor called the checkpoint: no push', async (_, shown, words) => {
    api()
      .post('/v2/site-versions', { site_id: 1001 })
      .reply(200, envelope({ id: 470, task_id: 'tv470', ...shown }, 'Version started'))
    const name = api()
      .put('/v2/site-versions/470')
      .reply(200, envelope({ id: 470 }))
    const push = pushAccepted()
    const { result } = await run({ operation: 'push', checkpoint: 'version' })
    expect(result.result).toBe('failed')
    expect(result.summary).toMatch(words)
    expect(result.summary).toMatch(/names an existing version 470 .*, not a new one.*The push was not sent/)
    expect(result.checkpointId).toBeNull()
    expect(name.isDone() || push.isDone()).toBe(false)
  })

  it.each([
    ['a date a few hours off (a server clock), no name', ''],
    ["a name the service gave it (not the tool's mark), a date of today", 'Manual backup'],
  ])('%s: a new version', async (_, given) => {
    api()
      .post('/v2/site-versions', { site_id: 1001 })
      .reply(200, envelope({ id: 9, task_id: 'vt', name: given, created_at: '2023-11-14 18:00:00' }))
    api()
      .put('/v2/site-versions/9')
      .reply(200, envelope({ id: 9 }))
    api().get('/v2/tasks/vt/status').reply(200, task('completed'))
    pushAccepted()
    pushEnds('completed')
    versions([version(9, 'ssa~cp~1')])
    const { result } = await run({ operation: 'push', checkpoint: 'version' })
    expect(result.result).toBe('succeeded')
    expect(result.checkpointId).toBe('9')
  })
})

describe('a checkpoint before every push', () => {
  it('version create -> named -> task completed -> the push, once; checkpoint-id and the restore step said', async () => {
    checkpointAnswers()
    pushAccepted()
    pushEnds('completed')
    versions([version(9, 'ssa~cp~1')])
    const { result } = await run({ operation: 'push', checkpoint: 'version' })
    expect(order).toEqual([
      'version',
      'name',
      'version-progress',
      'version-completed',
      'push',
      'push-completed',
      'list',
    ])
    expect(result.result).toBe('succeeded')
    expect(result.checkpointId).toBe('9')
    expect(result.summary).toMatch(
      /Checkpoint 9 \("ssa~cp~[^"]+"\) was taken before the push; to restore it, run this action with operation: rollback, site-id: 1001, checkpoint-id: 9\./,
    )
    expect(result.warnings.join(' ')).not.toMatch(/No backup/)
    // The summary, the pull-request comment and the last line each name it and the step back.
    const step = 'operation: rollback, site-id: 1001, checkpoint-id: 9'
    expect(renderSummary([result])).toContain(step)
    expect(renderSummary([result])).toMatch(/\| Checkpoint \| `9` \|/)
    expect(renderComment(result, (t) => t)).toContain(step)
    expect(finalLine([result])).toContain(step)
    expect(result.sent).toEqual([
      'POST /v2/site-versions -> 200',
      'PUT /v2/site-versions/9 -> 200',
      'POST /v2/sites/1001/staging/push -> 202',
    ])
  })

  it('its name fits the 25 characters the service takes, and says the run', () => {
    const name = checkpointName({ GITHUB_RUN_ID: '123456789012', GITHUB_RUN_ATTEMPT: '2' }, 0)
    expect(name.length).toBeLessThanOrEqual(25)
    expect(name).toBe('ssa~cp~123456789012-2')
    expect(checkpointName({ CI_PIPELINE_ID: '777' }, 0)).toBe('ssa~cp~777')
    expect(checkpointName({}, 1_700_000_000_000)).toMatch(/^ssa~cp~[a-z0-9]+$/)
  })

  it('checkpoint: none sends the push alone, and keeps the no-backup warning', async () => {
    pushAccepted()
    pushEnds('completed')
    const { result } = await run({ operation: 'push', checkpoint: 'none' })
    expect(order).toEqual(['push', 'push-completed'])
    expect(result.checkpointId).toBeNull()
    expect(result.warnings.join(' ')).toMatch(/No backup/)
  })
})

describe('no checkpoint, no push', () => {
  const refusals: [string, number, string][] = [
    ['the route is missing (404)', 404, 'Not Found'],
    ['the method is not offered (405)', 405, 'Method Not Allowed'],
    ['a plan gate (403)', 403, 'Your plan does not include versions'],
    ['the quota (422)', 422, 'You can keep at most 3 versions per site'],
  ]
  it.each(refusals)(
    '%s: failed with the service words and what to do; no push sent',
    async (_, status, text) => {
      api()
        .post('/v2/site-versions')
        .reply(status, said('version', { status: false, message: text }))
      // A quota with only a person's versions: nothing of this tool's to make room with.
      if (status === 422) versions([version(3, 'my own backup')])
      // A 404 says "no versions" only once the API root answered as the API (contract §4 r3).
      const root =
        status === 404
          ? api()
              .get('/v2/sites')
              .reply(200, envelope([{ id: 1001 }], 'Sites listed'))
          : null
      const push = pushAccepted()
      const { result } = await run({ operation: 'push', checkpoint: 'version' })
      expect(push.isDone()).toBe(false)
      expect(result.result).toBe('failed')
      expect(result.summary).toContain('The push was not sent')
      expect(result.summary).toContain(text)
      expect(result.error!.hint).toMatch(/checkpoint: none/)
      if (status === 422) expect(result.error!.hint).toMatch(/delete old versions/)
      expect(result.sent).toEqual([`POST /v2/site-versions -> ${status}`])
      if (root) expect(root.isDone()).toBe(true)
    },
  )
  it('a 404 where the API root does not answer as the API points at api-url; no push sent', async () => {
    api().post('/v2/site-versions').reply(404, '<html><body>Not Found</body></html>')
    api().get('/v2/sites').reply(404, '<html><body>Not Found</body></html>')
    const push = pushAccepted()
    const { result } = await run({ operation: 'push', checkpoint: 'version' })
    expect(push.isDone()).toBe(false)
    expect(result.result).toBe('failed')
    expect(result.error!.kind).toBe('api-url')
    expect(result.summary).toContain('The push was not sent')
    expect(result.error!.hint).not.toMatch(/offers no site versions/)
  })

  it("a quota (422) with this tool's checkpoints beyond keep-checkpoints: those deleted, the version asked for once more", async () => {
    api()
      .post('/v2/site-versions')
      .reply(422, said('version-422', { status: false, message: 'At most 3 versions per site' }))
    versions([
      version(8, 'ssa~cp~3'),
      version(7, 'my own backup'),
      version(6, 'ssa~cp~2'),
      version(5, 'ssa~cp~1'),
    ])
    const deleted = pruneAnswered([5], 'delete')
    checkpointAnswers()
    pushAccepted()
    pushEnds('completed')
    versions([])
    const { result } = await run({ operation: 'push', checkpoint: 'version' })
    expect(deleted.body).toEqual({ ids: ['5'] })
    expect(order.slice(0, 5)).toEqual(['version-422', 'list', 'delete', 'version', 'name'])
    expect(result.result).toBe('succeeded')
    // A deletion made to make room is told in the result, not only in the log.
    expect(result.warnings.join(' ')).toMatch(/refused a new version \(its quota\): deleting .*\(5;/)
  })

  it.each([
    [
      'a refusal while the site is migrated',
      {
        status: false,
        message: 'Site versions are temporarily unavailable while the site is being migrated.',
      },
    ],
    [
      'a validation error',
      {
        message: 'The selected site id is invalid.',
        errors: { site_id: ['The selected site id is invalid.'] },
      },
    ],
  ])('a 422 that is not the quota (%s): no checkpoint deleted to make room, no push', async (_, body) => {
    api().post('/v2/site-versions').reply(422, said('version-422', body))
    const list = versions([version(8, 'ssa~cp~3'), version(6, 'ssa~cp~2')])
    const remove = api()
      .delete('/v2/site-versions')
      .reply(200, envelope({ success_ids: [6, 8] }))
    const push = pushAccepted()
    const { result } = await run({ operation: 'push', checkpoint: 'version', keepCheckpoints: 1 })
    expect(result.result).toBe('failed')
    expect(list.isDone() || remove.isDone() || push.isDone()).toBe(false)
    expect(result.sent).toEqual(['POST /v2/site-versions -> 422'])
  })

  it('versions deleted to make room are never sent for deletion again, though the list still shows them', async () => {
    api()
      .post('/v2/site-versions')
      .reply(422, said('version-422', { status: false, message: 'At most 3 versions per site' }))
    const lagging = [version(8, 'ssa~cp~3'), version(6, 'ssa~cp~2'), version(5, 'ssa~cp~1')]
    versions(lagging)
    const deletes: unknown[] = []
    const deleted = (body: { ids?: unknown }) => Array.isArray(body?.ids) && deletes.push(body) > 0
    api()
      .delete('/v2/site-versions', deleted)
      .times(2)
      .reply(200, envelope({ success_ids: [5], failed_ids: [] }))
    checkpointAnswers()
    pushAccepted()
    pushEnds('completed')
    versions([version(9, 'ssa~cp~4'), ...lagging]) // the list lags: 5 still shown
    const { result } = await run({ operation: 'push', checkpoint: 'version', keepCheckpoints: 3 })
    expect(result.result).toBe('succeeded')
    expect(deletes).toEqual([{ ids: ['5'] }])
  })

  it("rollback: a record that names its site as a nested object (site: {id}) is another site's, never restored", async () => {
    const { site_id: _, ...bare } = version(902, 'ssa~cp~77-1')
    versions([
      { ...bare, site: { id: 2002 } },
      { ...version(901, 'ssa~cp~55-1'), site_id: undefined, site: { id: 1001 } },
    ])
    const restore = api()
      .put('/v2/sites/1001/restore-versions/901')
      .reply(200, envelope({ task_id: 'rt' }))
    api().get('/v2/tasks/rt/status').reply(200, task('completed'))
    const { result } = await run({ operation: 'rollback' })
    expect(restore.isDone()).toBe(true)
    expect(result.checkpointId).toBe('901')
    expect(result.warnings.join(' ')).toMatch(/also named 1 version\(s\) of other sites/)
  })

  it('undated checkpoints in a list that is not newest first: none pruned, none restored without its id', async () => {
    const undated = (id: number, name: string) => ({ ...version(id, name), created_at: null })
    const list = [
      { ...version(801, 'ssa~cp~a'), created_at: '2026-11-01 10:00:00' },
      { ...version(802, 'ssa~cp~b'), created_at: '2026-11-02 10:00:00' },
      undated(803, 'ssa~cp~c'),
      undated(804, 'ssa~cp~d'),
    ]
    versions(list)
    const restore = api()
      .put(/restore-versions/)
      .reply(200, envelope({ task_id: 'rt' }))
    const { result } = await run({ operation: 'rollback' })
    expect(result.result).toBe('failed')
    expect(result.summary).toMatch(
      /which of site 1001's checkpoints is the newest is not known: .*some of them have no date/,
    )
    expect(restore.isDone()).toBe(false)
    checkpointAnswers()
    pushAccepted()
    pushEnds('completed')
    versions([...list, version(9, 'ssa~cp~e')])
    const del = api()
      .delete('/v2/site-versions')
      .reply(200, envelope({ success_ids: [], failed_ids: [] }))
    const push = await run({ operation: 'push', checkpoint: 'version', keepCheckpoints: 2 })
    expect(push.result.result).toBe('succeeded')
    expect(del.isDone()).toBe(false)
    expect(push.result.warnings.join(' ')).toMatch(/some have no date, so which are oldest is not known/)
  })

  it("the version's task fails: no push, the server's reason said", async () => {
    api()
      .post('/v2/site-versions')
      .reply(200, envelope({ id: 9, task_id: 'vt' }))
    api()
      .put('/v2/site-versions/9')
      .reply(200, envelope({ id: 9 }))
    api().get('/v2/tasks/vt/status').reply(200, task('failed', 'disk full'))
    const push = pushAccepted()
    const { result } = await run({ operation: 'push', checkpoint: 'version' })
    expect(push.isDone()).toBe(false)
    expect(result).toMatchObject({ result: 'failed', message: 'disk full', checkpointId: null })
    expect(result.summary).toMatch(
      /checkpoint \(version 9\) did not complete: its task failed.*disk full.*push was not sent/,
    )
  })

  it('the version does not complete within the timeout: timed out, no push', async () => {
    api()
      .post('/v2/site-versions')
      .reply(200, envelope({ id: 9, task_id: 'vt' }))
    api()
      .put('/v2/site-versions/9')
      .reply(200, envelope({ id: 9 }))
    api().get('/v2/tasks/vt/status').times(500).reply(200, task('progress'))
    const push = pushAccepted()
    const { result } = await run({ operation: 'push', checkpoint: 'version', timeoutMs: 120_000 })
    expect(push.isDone()).toBe(false)
    expect(result.result).toBe('timed-out')
    expect(result.summary).toMatch(/checkpoint.*The push was not sent/)
    expect(result.error!.hint).toMatch(/raise timeout.*checkpoint: none/)
  })

  it('cancelled while the version is made: cancelled, no push', async () => {
    const abort = new AbortController()
    api()
      .post('/v2/site-versions')
      .reply(200, envelope({ id: 9, task_id: 'vt' }))
    api()
      .put('/v2/site-versions/9')
      .reply(200, envelope({ id: 9 }))
    api()
      .get('/v2/tasks/vt/status')
      .reply(200, () => (abort.abort(), task('progress')))
    const push = pushAccepted()
    const { result } = await run({ operation: 'push', checkpoint: 'version' }, abort.signal)
    expect(push.isDone()).toBe(false)
    expect(result.result).toBe('cancelled')
    expect(result.summary).toContain('The push was not sent')
  })

  describe('a version create that answers no task id: its status in the version list is followed', () => {
    /** The version created (v9) with no task id, and named. */
    const startedWithoutTask = () => {
      api()
        .post('/v2/site-versions')
        .reply(200, said('version', envelope({ id: 9 }, 'Version started')))
      api()
        .put('/v2/site-versions/9')
        .reply(200, said('name', envelope({ id: 9 })))
    }

    it('progress, then completed: then the push, once; checkpoint-id is the version', async () => {
      startedWithoutTask()
      versions([version(9, 'ssa~cp~1', 'progress'), version(3, 'my own backup')])
      versions([version(9, 'ssa~cp~1'), version(3, 'my own backup')])
      pushAccepted()
      pushEnds('completed')
      versions([version(9, 'ssa~cp~1')])
      const { result, logger } = await run({ operation: 'push', checkpoint: 'version' })
      expect(order).toEqual(['version', 'name', 'list', 'list', 'push', 'push-completed', 'list'])
      expect(result).toMatchObject({ result: 'succeeded', checkpointId: '9' })
      expect(logger.text).toMatch(/Waiting for version 9 to complete \(read from the site's version list\)/)
      expect(result.sent).toEqual([
        'POST /v2/site-versions -> 200',
        'PUT /v2/site-versions/9 -> 200',
        'POST /v2/sites/1001/staging/push -> 202',
      ])
    })

    it('the list says the version failed: no push, its status said', async () => {
      startedWithoutTask()
      versions([version(9, 'ssa~cp~1', 'failed')])
      const push = pushAccepted()
      const { result } = await run({ operation: 'push', checkpoint: 'version' })
      expect(push.isDone()).toBe(false)
      expect(result).toMatchObject({ result: 'failed', checkpointId: null })
      expect(result.summary).toMatch(
        /checkpoint \(version 9\) did not complete: it failed on the server: version 9 has the status "failed"\. The push was not sent/,
      )
    })

    it('the version never shows in the list: its completion cannot be confirmed, no push', async () => {
      startedWithoutTask()
      const listed = api()
        .get('/v2/site-versions')
        .query((q) => q.site_id === '1001')
        .times(100)
        .reply(200, envelope([version(3, 'my own backup')]))
      const push = pushAccepted()
      const { result, clock } = await run({ operation: 'push', checkpoint: 'version' })
      expect(push.isDone()).toBe(false)
      expect(listed.isDone()).toBe(false)
      // Just past the grace a task has to become visible (contract §2), not up to the 30 minutes' timeout.
      const waited = clock.slept.reduce((a, b) => a + b, 0)
      expect(waited).toBeGreaterThanOrEqual(30_000)
      expect(waited).toBeLessThan(120_000)
      expect(result.result).toBe('failed')
      expect(result.summary).toMatch(
        /its completion cannot be confirmed: version 9 is not in site 1001's version list/,
      )
    })

    it('still progress at the timeout: timed out, no push', async () => {
      startedWithoutTask()
      api()
        .get('/v2/site-versions')
        .query((q) => q.site_id === '1001')
        .times(500)
        .reply(200, envelope([version(9, 'ssa~cp~1', 'progress')]))
      const push = pushAccepted()
      const { result } = await run({ operation: 'push', checkpoint: 'version', timeoutMs: 120_000 })
      expect(push.isDone()).toBe(false)
      expect(result.result).toBe('timed-out')
      expect(result.summary).toMatch(/checkpoint.*The push was not sent/)
    })

    it('no id either: refused, with why and what to do; no push', async () => {
      api()
        .post('/v2/site-versions')
        .reply(200, said('version', envelope({ task_id: 'vt' }, 'Version started')))
      const push = pushAccepted()
      const { result } = await run({ operation: 'push', checkpoint: 'version' })
      expect(push.isDone()).toBe(false)
      expect(order).toEqual(['version'])
      expect(result.summary).toMatch(
        /did not say its id, so it cannot be followed nor restored\. The push was not sent/,
      )
      expect(result.error!.hint).toMatch(/checkpoint: none/)
    })
  })

  it('dry run: the checkpoint is in the plan, and nothing but a read is sent', async () => {
    api()
      .get('/v2/sites/1001/staging')
      .reply(200, envelope({ status: 'active' }))
    const { result, logger } = await run({ operation: 'push', checkpoint: 'version', dryRun: true })
    expect(result.sent).toEqual([])
    expect(logger.text).toMatch(/POST https:\/\/api\.example\.test\/v2\/site-versions \(checkpoint/)
    expect(result.summary).toMatch(/But first: a checkpoint of production/)
    expect(result.summary).not.toMatch(/No backup/)
    expect(result.warnings.join(' ')).not.toMatch(/No backup/)
  })
})

describe('rollback', () => {
  it("without checkpoint-id: the newest completed checkpoint this tool made, never a person's; one restore", async () => {
    versions([
      version(12, 'my own backup'),
      version(11, 'ssa~cp~8', 'progress'),
      version(10, 'ssa~cp~7'),
      version(9, 'ssa~cp~6'),
    ])
    api()
      .put('/v2/sites/1001/restore-versions/10')
      .reply(200, said('restore', envelope({ task_id: 'rt' }, 'Restore started')))
    api()
      .get('/v2/tasks/rt/status')
      .reply(200, said('restore-completed', task('completed')))
    const { result } = await run({ operation: 'rollback' })
    expect(order).toEqual(['list', 'restore', 'restore-completed'])
    expect(result).toMatchObject({ result: 'succeeded', checkpointId: '10' })
    expect(result.summary).toMatch(/Production was restored to version 10/)
  })

  it('with production-url: checked once the restore completed, and said', async () => {
    versions([version(10, 'ssa~cp~7')])
    api()
      .put('/v2/sites/1001/restore-versions/10')
      .reply(200, envelope({ task_id: 'rt' }))
    api().get('/v2/tasks/rt/status').reply(200, task('completed'))
    const live = nock('https://live.example.test').get('/').reply(200, 'ok')
    const { result } = await run({ operation: 'rollback', productionUrl: 'https://live.example.test/' })
    expect(live.isDone()).toBe(true)
    expect(result).toMatchObject({ result: 'succeeded', productionCheck: 'passed', urlReady: null })
    expect(result.summary).toMatch(/Production passed its check at https:\/\/live\.example\.test\/: HTTP 200/)
  })

  it('with checkpoint-id: that version, even one a person made', async () => {
    versions([version(12, 'my own backup'), version(10, 'ssa~cp~7')])
    api()
      .put('/v2/sites/1001/restore-versions/12')
      .reply(200, envelope({ task_id: 'rt' }))
    api().get('/v2/tasks/rt/status').reply(200, task('completed'))
    const { result } = await run({ operation: 'rollback', checkpointId: '12' })
    expect(result).toMatchObject({ result: 'succeeded', checkpointId: '12' })
  })

  it('wait: false: the restore sent once, not followed; accepted, with the step that follows its task', async () => {
    versions([version(10, 'ssa~cp~7')])
    api()
      .put('/v2/sites/1001/restore-versions/10')
      .reply(200, said('restore', envelope({ task_id: 'rt' }, 'Restore started')))
    const status = api().get('/v2/tasks/rt/status').reply(200, task('completed'))
    const { result } = await run({ operation: 'rollback', wait: false })
    expect(order).toEqual(['list', 'restore'])
    expect(status.isDone()).toBe(false)
    // checkpoint-id names the version restored: none yet (action.yml).
    expect(result).toMatchObject({ result: 'accepted', checkpointId: null, taskId: 'rt' })
    expect(result.summary).toMatch(
      /The restore was accepted; not waited for\. To check on it later, .*task-id: rt\. Whether production was restored to version 10 is unknown/,
    )
  })

  it('no checkpoint of this tool: nothing restored, nothing sent', async () => {
    versions([version(12, 'my own backup')])
    const { result } = await run({ operation: 'rollback' })
    expect(result.result).toBe('failed')
    expect(result.sent).toEqual([])
    expect(result.summary).toMatch(/no completed checkpoint made by this tool/)
  })

  it.each([500, 502])(
    'a restore answered %i is never sent again (its outcome is unknown)',
    async (status) => {
      versions([version(10, 'ssa~cp~7')])
      const first = api()
        .put('/v2/sites/1001/restore-versions/10')
        .reply(status, { status: false, message: 'oops' })
      const second = api()
        .put('/v2/sites/1001/restore-versions/10')
        .reply(200, envelope({ task_id: 'rt' }))
      const { result } = await run({ operation: 'rollback' })
      expect(first.isDone()).toBe(true)
      expect(second.isDone()).toBe(false)
      expect(result.result).toBe('failed')
      expect(result.error!.kind).toBe('unknown-outcome')
    },
  )

  it('dry run: says what it would overwrite and with which version; sends nothing', async () => {
    versions([version(10, 'ssa~cp~7')])
    const { result } = await run({ operation: 'rollback', dryRun: true })
    expect(result.result).toBe('dry-run')
    expect(result.sent).toEqual([])
    expect(result.summary).toMatch(
      /PUT https:\/\/api\.example\.test\/v2\/sites\/1001\/restore-versions\/10, which overwrites production's files and database \(site 1001\) with version 10 \("ssa~cp~7", made 2026-11-20 10:00:00\)/,
    )
  })
})

describe('rollback-on-failure', () => {
  it('the push job failed: production restored at once, and the run still fails saying so', async () => {
    checkpointAnswers()
    pushAccepted()
    pushEnds('failed', 'database import failed')
    api()
      .put('/v2/sites/1001/restore-versions/9')
      .reply(200, said('restore', envelope({ task_id: 'rt' })))
    api()
      .get('/v2/tasks/rt/status')
      .reply(200, said('restore-completed', task('completed')))
    const { result } = await run({ operation: 'push', checkpoint: 'version', rollbackOnFailure: true })
    expect(order.slice(-4)).toEqual(['push', 'push-failed', 'restore', 'restore-completed'])
    expect(result.result).toBe('failed')
    expect(result.taskId).toBe('pt')
    expect(result.summary).toMatch(/Production was restored to version 9/)
    // The server's reason ends a sentence; the restore step is not offered again once done.
    expect(result.summary).toMatch(/database import failed\. Production was restored/)
    expect(result.summary).not.toMatch(/to restore it, run/)
    // A checkpoint was taken: no warning may say that no backup was.
    expect(result.warnings.join(' ')).not.toMatch(/no backup/i)
    expect(result.warnings.join(' ')).toMatch(/may have overwritten part of production/)
  })

  it('the push job failed without rollback-on-failure: the warnings name no missing backup, the hint the restore', async () => {
    checkpointAnswers()
    pushAccepted()
    pushEnds('failed', 'database import failed')
    const { result } = await run({ operation: 'push', checkpoint: 'version' })
    expect(result.result).toBe('failed')
    expect(result.warnings.join(' ')).not.toMatch(/no backup/i)
    expect(result.error!.hint).toMatch(/To restore production as it was before the push, run this action/)
    expect(result.summary).toMatch(/to restore it, run this action with operation: rollback/)
  })

  it('a checkpoint the list shows not complete (failed) is not restored, in the words rollback refuses it with', async () => {
    checkpointAnswers()
    pushAccepted()
    pushEnds('failed', 'database import failed')
    versions([version(9, 'ssa~cp~1', 'failed')])
    const restore = api()
      .put('/v2/sites/1001/restore-versions/9')
      .reply(200, envelope({ task_id: 'rt' }))
    const { result } = await run({ operation: 'push', checkpoint: 'version', rollbackOnFailure: true })
    expect(result.result).toBe('failed')
    expect(restore.isDone()).toBe(false)
    expect(result.warnings.join(' ')).toMatch(
      /rollback-on-failure: not restored: version 9 is not complete yet, so it cannot be restored\./,
    )
  })

  it('the restore is refused too: the run says how to restore the checkpoint, once', async () => {
    checkpointAnswers()
    pushAccepted()
    pushEnds('failed', 'database import failed')
    api().put('/v2/sites/1001/restore-versions/9').reply(403, { status: false, message: 'not allowed' })
    const { result } = await run({ operation: 'push', checkpoint: 'version', rollbackOnFailure: true })
    expect(result.result).toBe('failed')
    expect(result.summary).toMatch(/Restoring production to checkpoint 9 did not complete/)
    // Refused (403): nothing was restored, so the step is the checkpoint's restore, said once.
    const step =
      /To restore production as it was before the push, run this action with operation: rollback, site-id: 1001, checkpoint-id: 9/g
    expect(result.error!.hint.match(step)).toHaveLength(1)
    expect(result.error!.hint).not.toMatch(/try the restore again/i)
  })

  it('a restore whose end is unknown (no task id) is "not seen to complete", never "did not complete"', async () => {
    checkpointAnswers()
    pushAccepted()
    pushEnds('failed', 'database import failed')
    versions([version(9, 'ssa~cp~1')])
    api().put('/v2/sites/1001/restore-versions/9').reply(200, envelope({}))
    const { result } = await run({ operation: 'push', checkpoint: 'version', rollbackOnFailure: true })
    expect(result.result).toBe('failed')
    expect(result.summary).toMatch(/Restoring production to checkpoint 9 was not seen to complete: /)
    expect(result.summary).not.toMatch(/did not complete/)
    expect(result.summary).toMatch(/Whether production was restored to version 9 is unknown/)
  })

  it('cancelled while restoring after a failed push: maintenance still goes off, and the run says so', async () => {
    const abort = new AbortController()
    api().post('/v2/sites/1001/tools').times(2).reply(200, envelope(null))
    checkpointAnswers()
    pushAccepted()
    pushEnds('failed', 'database import failed')
    api()
      .put('/v2/sites/1001/restore-versions/9')
      .reply(200, envelope({ task_id: 'rt' }))
    api()
      .get('/v2/tasks/rt/status')
      .reply(200, () => (abort.abort(), task('progress')))
    const { result } = await run(
      { operation: 'push', checkpoint: 'version', rollbackOnFailure: true, maintenance: true },
      abort.signal,
    )
    // Maintenance on before the push, and off after the cancelled restore.
    expect(result.sent.filter((x) => x.startsWith('POST /v2/sites/1001/tools'))).toEqual([
      'POST /v2/sites/1001/tools -> 200',
      'POST /v2/sites/1001/tools -> 200',
    ])
    expect(result.result).toBe('cancelled') // a cancel sets cancelled (docs/behaviour.md), the push's failure said
    expect(result.summary).toMatch(/database import failed/)
    expect(result.summary).toMatch(/Restoring production to checkpoint 9 was not seen to complete: Cancelled/)
    expect(result.error!.hint.match(/try the restore again/gi)).toHaveLength(1)
    // The restore the server accepted may still run: never "send it again" before it is seen ended.
    expect(result.error!.hint).toMatch(
      /The restore may still be running on the server: once the site's tasks/,
    )
    expect(result.summary).toMatch(/production may be partly restored/)
  })

  it('a push whose outcome is unknown (500) is never rolled back; the report says how', async () => {
    checkpointAnswers()
    api()
      .post('/v2/sites/1001/staging/push')
      .reply(500, said('push', { status: false, message: 'upstream' }))
    const restore = api()
      .put('/v2/sites/1001/restore-versions/9')
      .reply(200, envelope({ task_id: 'rt' }))
    const { result } = await run({ operation: 'push', checkpoint: 'version', rollbackOnFailure: true })
    expect(restore.isDone()).toBe(false)
    expect(result.error!.kind).toBe('unknown-outcome')
    expect(result.error!.hint).toMatch(/If production is wrong, run this action with operation: rollback/)
  })

  it('a push that timed out is never rolled back', async () => {
    checkpointAnswers()
    pushAccepted()
    api().get('/v2/tasks/pt/status').times(500).reply(200, task('progress'))
    const restore = api()
      .put('/v2/sites/1001/restore-versions/9')
      .reply(200, envelope({ task_id: 'rt' }))
    const { result } = await run({
      operation: 'push',
      checkpoint: 'version',
      rollbackOnFailure: true,
      timeoutMs: 120_000,
    })
    expect(restore.isDone()).toBe(false)
    expect(result.result).toBe('timed-out')
    expect(result.summary).toMatch(/Checkpoint 9/)
  })
})

describe('keep-checkpoints', () => {
  it("deletes only this tool's older checkpoints beyond the number, never a person's or the new one", async () => {
    checkpointAnswers()
    pushAccepted()
    pushEnds('completed')
    versions([
      version(9, 'ssa~cp~5'),
      version(8, 'my own backup'),
      version(7, 'ssa~cp~4'),
      version(6, 'ssa~cp~3'),
      version(5, 'ssa~cp~2'),
    ])
    const deleted = pruneAnswered([6, 5])
    const { result } = await run({ operation: 'push', checkpoint: 'version', keepCheckpoints: 2 })
    expect(result.result).toBe('succeeded')
    expect(deleted.body).toEqual({ ids: ['6', '5'] })
  })

  it.each([
    [
      "a checkpoint newer than the one just made (another run's)",
      [{ ...version(10, 'ssa~cp~other-run'), created_at: '2026-11-21 10:00:00' }, version(9, 'ssa~cp~5')],
    ],
    ['the one just made, listed with its id written otherwise (09 for 9)', [version('09', 'ssa~cp~5')]],
  ])('never deletes %s', async (_, listed) => {
    checkpointAnswers()
    pushAccepted()
    pushEnds('completed')
    versions([...listed, version(7, 'ssa~cp~4')])
    const deleted = pruneAnswered([7])
    const { result } = await run({ operation: 'push', checkpoint: 'version', keepCheckpoints: 1 })
    expect(result.result).toBe('succeeded')
    expect(deleted.body).toEqual({ ids: ['7'] })
  })
})

describe('maintenance and protect-production', () => {
  const tools: string[] = []
  afterEach(() => {
    tools.length = 0
  })
  const toolAnswers = () =>
    api()
      .post('/v2/sites/1001/tools', (body?: { tool?: string; value?: string }) => {
        if (!body?.tool) return false
        tools.push(`${body.tool}=${body.value}`)
        return true
      })
      .times(5)
      .reply(200, envelope(null, 'Done'))

  it.each([
    ['succeeded', 'completed'],
    ['failed', 'failed'],
  ])('maintenance on before the push and off after it (%s)', async (outcome, taskStatus) => {
    toolAnswers()
    pushAccepted()
    pushEnds(taskStatus)
    const { result } = await run({ operation: 'push', maintenance: true })
    expect(result.result).toBe(outcome)
    expect(tools).toEqual(['maintenance_mode=on', 'maintenance_mode=off'])
  })

  it('maintenance off after a timeout', async () => {
    toolAnswers()
    pushAccepted()
    api().get('/v2/tasks/pt/status').times(500).reply(200, task('progress'))
    const { result } = await run({ operation: 'push', maintenance: true, timeoutMs: 60_000 })
    expect(result.result).toBe('timed-out')
    expect(tools).toEqual(['maintenance_mode=on', 'maintenance_mode=off'])
  })

  it('maintenance off after a cancellation (the off request ignores the cancel, on its own short clock)', async () => {
    const abort = new AbortController()
    toolAnswers()
    pushAccepted()
    api()
      .get('/v2/tasks/pt/status')
      .reply(200, () => (abort.abort(), task('progress')))
    const { result } = await run({ operation: 'push', maintenance: true }, abort.signal)
    expect(result.result).toBe('cancelled')
    expect(tools).toEqual(['maintenance_mode=on', 'maintenance_mode=off'])
    expect(result.sent).toContain('POST /v2/sites/1001/tools -> 200')
  })

  it('cancelled while maintenance is switched on: off again, no push, cancelled', async () => {
    const abort = new AbortController()
    const sent: string[] = []
    api()
      .post('/v2/sites/1001/tools', (body?: { value?: string }) => body?.value === 'on')
      .reply(200, () => (sent.push('on'), abort.abort(), envelope(null)))
    api()
      .post('/v2/sites/1001/tools', (body?: { value?: string }) => body?.value === 'off')
      .reply(200, () => (sent.push('off'), envelope(null)))
    const push = pushAccepted()
    const { result } = await run({ operation: 'push', maintenance: true }, abort.signal)
    expect(push.isDone()).toBe(false)
    expect(result.result).toBe('cancelled')
    expect(sent).toEqual(['on', 'off'])
    expect(result.summary).toContain('The push was not sent')
  })

  it('maintenance refused: no push, and production said to be unchanged and open', async () => {
    api().post('/v2/sites/1001/tools').reply(403, { status: false, message: 'Upgrade your plan' })
    const push = pushAccepted()
    const { result } = await run({ operation: 'push', maintenance: true })
    expect(push.isDone()).toBe(false)
    expect(result.result).toBe('failed')
    expect(result.summary).toMatch(/The push was not sent: production is unchanged\.$/)
  })

  it('maintenance off refused: the run says production may still be in maintenance mode', async () => {
    api().post('/v2/sites/1001/tools').reply(200, envelope(null))
    api().post('/v2/sites/1001/tools').reply(422, { status: false, message: 'nope' })
    pushAccepted()
    pushEnds('completed')
    const { result } = await run({ operation: 'push', maintenance: true })
    expect(result.warnings.join(' ')).toMatch(/is still in maintenance mode: switching it off failed/)
    expect(result.result).toBe('failed')
  })

  it('protect-production: password protection back on after the push; refused, said plainly', async () => {
    toolAnswers()
    pushAccepted()
    pushEnds('completed')
    const ok = await run({ operation: 'push', protectProduction: true })
    expect(tools).toEqual(['password_protection=on'])
    expect(ok.result.warnings.join(' ')).not.toMatch(/protection is now off/)
    nock.cleanAll()
    api().post('/v2/sites/1001/tools').reply(403, { status: false, message: 'Upgrade your plan' })
    pushAccepted()
    pushEnds('completed')
    const refused = await run({ operation: 'push', protectProduction: true })
    expect(refused.result.warnings.join(' ')).toMatch(/is now NOT password-protected/)
  })
})

describe('a guarded push whose end cannot be followed', () => {
  it('accepted with no task id and no probe: not green, and the steps not done are named', async () => {
    api().post('/v2/sites/1001/staging/push').reply(202, envelope({}, 'Push started'))
    api().get('/v2/sites/1001/staging').reply(405, { status: false, message: 'Method Not Allowed' })
    const tools = api().post('/v2/sites/1001/tools').reply(200, envelope(null))
    const { result } = await run({
      operation: 'push',
      protectProduction: true,
      productionUrl: 'https://live.example.test/',
    })
    expect(result.result).toBe('failed')
    expect(tools.isDone()).toBe(false) // the push may still switch protection off: not on before it ends
    expect(result.summary).toMatch(
      /cannot be tracked.*Not done, as the push's end was not seen: turn password protection on, and check the live site\./,
    )
    expect(result.error).toMatchObject({ kind: 'site-tools' })
    expect(result.error!.hint).toMatch(
      /^Once the push has ended: turn password protection on, and check the live site\./,
    )
  })

  it('without guards, the same push stays accepted', async () => {
    api().post('/v2/sites/1001/staging/push').reply(202, envelope({}, 'Push started'))
    api().get('/v2/sites/1001/staging').reply(405, { status: false, message: 'Method Not Allowed' })
    const { result } = await run({ operation: 'push' })
    expect(result.result).toBe('accepted')
    expect(result.error).toBeNull()
  })
})

describe('the inputs', () => {
  const raw = { operation: 'push', 'site-id': '1001', 'api-token': 'tok-12345678' }
  it('defaults: a checkpoint, keep 3, nothing else', () => {
    expect(parseConfig(raw)).toMatchObject({
      checkpoint: 'version',
      checkpointId: null,
      rollbackOnFailure: false,
      keepCheckpoints: 3,
      maintenance: false,
      protectProduction: false,
    })
  })
  it.each(['maintenance', 'protect-production', 'rollback-on-failure'])(
    '%s with a push not waited for is refused before any request',
    (name) => {
      expect(() => parseConfig({ ...raw, wait: 'false', [name]: 'true' })).toThrow(
        `Input "${name}": acts when the push has ended: it needs wait: true`,
      )
    },
  )
  it('rollback-on-failure with checkpoint: none (nothing to restore) is refused before any request', () => {
    expect(() => parseConfig({ ...raw, checkpoint: 'none', 'rollback-on-failure': 'true' })).toThrow(
      'Input "rollback-on-failure": restores nothing with checkpoint: none',
    )
    // Only a push restores: a shared step's inputs on a create are no contradiction.
    const create = { ...raw, operation: 'create', checkpoint: 'none', 'rollback-on-failure': 'true' }
    expect(parseConfig(create).operation).toBe('create')
    expect(parseConfig({ ...raw, checkpoint: 'none' }).checkpoint).toBe('none')
  })
  it('checkpoint-id is for rollback, one site; keep-checkpoints is 1 to 100', () => {
    expect(() => parseConfig({ ...raw, 'checkpoint-id': '9' })).toThrow(/checkpoint-id/)
    expect(() =>
      parseConfig({ ...raw, operation: 'rollback', 'site-id': '1001,1002', 'checkpoint-id': '9' }),
    ).toThrow(/one site's version/)
    expect(() => parseConfig({ ...raw, 'keep-checkpoints': '0' })).toThrow(/at least 1/)
    expect(parseConfig({ ...raw, operation: 'rollback', 'checkpoint-id': 'v-7001' }).checkpointId).toBe(
      'v-7001',
    )
  })
})

describe('issue 31: production as the record knows it', () => {
  const tools: string[] = []
  afterEach(() => {
    tools.length = 0
  })
  const toolAnswers = () =>
    api()
      .post('/v2/sites/1001/tools', (body?: { tool?: string; value?: string }) => {
        if (!body?.tool) return false
        tools.push(`${body.tool}=${body.value}`)
        return true
      })
      .times(5)
      .reply(200, envelope(null, 'Done'))
  it('a push that timed out: protection is NOT switched on while the job may still run, and the run says so', async () => {
    toolAnswers()
    pushAccepted()
    api().get('/v2/tasks/pt/status').times(500).reply(200, task('progress'))
    const { result } = await run({ operation: 'push', protectProduction: true, timeoutMs: 60_000 })
    expect(result.result).toBe('timed-out')
    expect(tools).toEqual([])
    expect(result.warnings.join(' ')).toMatch(
      /Password protection was not switched on again: the push's end is not known.*turn protection on/,
    )
  })

  it('a version whose record names no site is never deleted; one naming another site is never counted', async () => {
    checkpointAnswers()
    pushAccepted()
    pushEnds('completed')
    const noSite = { ...version(7, 'ssa~cp~2'), site_id: undefined }
    const other = { ...version(8, 'ssa~cp~3'), site_id: 2002 }
    versions([version(9, 'ssa~cp~4'), other, noSite, version(6, 'ssa~cp~1')])
    const deleted = pruneAnswered([6])
    const { result } = await run({ operation: 'push', checkpoint: 'version', keepCheckpoints: 1 })
    expect(result.result).toBe('succeeded')
    expect(deleted.body).toEqual({ ids: ['6'] })
    expect(result.warnings.join(' ')).toMatch(/1 version\(s\) of other sites: they were left alone/)
  })

  it('a restore answered 429 past the timeout: not taken, production unchanged, never "may still be running"', async () => {
    versions([version(10, 'ssa~cp~7')])
    api()
      .put('/v2/sites/1001/restore-versions/10')
      .reply(429, { status: false, message: 'Too many' }, { 'Retry-After': '3600' })
    const { result } = await run({ operation: 'rollback', timeoutMs: 60_000 })
    expect(result.result).not.toBe('succeeded')
    expect(result.summary).not.toMatch(/still be running there|partly restored|was restored/)
    expect(result.summary).toMatch(/accepts requests again/)
    expect(result.summary).not.toMatch(/\.\./)
  })

  it('a server reason that ends with a stop never makes ".." in the summary', async () => {
    api()
      .post('/v2/site-versions', { site_id: 1001 })
      .reply(200, envelope({ id: 9, task_id: 'vt' }, 'Version started'))
    api()
      .put('/v2/site-versions/9')
      .reply(200, envelope({ id: 9 }))
    api().get('/v2/tasks/vt/status').reply(200, task('error', 'Disk full.'))
    const push = pushAccepted()
    const { result } = await run({ operation: 'push', checkpoint: 'version' })
    expect(push.isDone()).toBe(false)
    expect(result.summary).toMatch(/Disk full\. The push was not sent/)
    expect(result.summary).not.toMatch(/\.\./)
  })

  it('a rollback cancelled while the restore runs: production may be partly restored, and the step that tries again', async () => {
    const abort = new AbortController()
    versions([version(10, 'ssa~cp~7')])
    api()
      .put('/v2/sites/1001/restore-versions/10')
      .reply(200, envelope({ task_id: 'rt' }))
    api()
      .get('/v2/tasks/rt/status')
      .reply(200, () => (abort.abort(), task('progress')))
    const { result } = await run({ operation: 'rollback' }, abort.signal)
    expect(result.result).toBe('cancelled')
    expect(result.summary).toMatch(/production may be partly restored/)
    expect(result.summary).toMatch(
      /only if production is wrong try the restore again: run this action with operation: rollback, site-id: 1001, checkpoint-id: 10/,
    )
    expect(result.summary).not.toMatch(/still be running there\. A job|\.\./)
  })

  it('maintenance refused to a read-only token: told as a token problem, no push', async () => {
    api()
      .post('/v2/sites/1001/tools')
      .reply(403, { status: false, message: 'This API token is read-only and cannot change anything.' })
    const push = pushAccepted()
    const { result } = await run({ operation: 'push', maintenance: true })
    expect(push.isDone()).toBe(false)
    expect(result.error!.hint).toMatch(/read-only token/)
    expect(result.error!.hint).not.toMatch(/maintenance: false/)
  })
})

describe("the way back's words and steps when an answer is odd", () => {
  const pushed = (status: string, comment?: string) => {
    checkpointAnswers()
    pushAccepted()
    pushEnds(status, comment)
  }

  it('rollback with production-url: a restore whose end is not seen (no task id) is not green, the live site unchecked', async () => {
    versions([version(10, 'ssa~cp~7')])
    api().put('/v2/sites/1001/restore-versions/10').reply(202, envelope({}))
    const live = nock('https://live.example.test').get('/').reply(500, 'down')
    const { result } = await run({ operation: 'rollback', productionUrl: 'https://live.example.test/' })
    expect(live.isDone()).toBe(false)
    expect(result.result).toBe('failed')
    expect(result.summary).toMatch(/check the live site/)
  })

  it('rollback with production-url and wait: false is refused, as for a push: the check would be dropped', () => {
    const raw = { operation: 'rollback', 'site-id': '1001', 'api-token': 'x'.repeat(20) }
    expect(() =>
      parseConfig({ ...raw, wait: 'false', 'production-url': 'https://live.example.test/' }),
    ).toThrow(/"production-url": acts when the restore has ended/)
  })

  it('rollback-on-failure: a restore answered 500 (outcome unknown) is "not seen to complete", never "did not complete"', async () => {
    pushed('failed', 'database import failed')
    versions([version(9, 'ssa~cp~1')])
    const restore = api().put('/v2/sites/1001/restore-versions/9').reply(500, { message: 'Server Error' })
    const { result } = await run({ operation: 'push', checkpoint: 'version', rollbackOnFailure: true })
    expect(restore.isDone()).toBe(true)
    expect(result.summary).toMatch(/Whether production was restored to version 9 is unknown/)
    expect(result.summary).not.toMatch(/did not complete/)
  })

  it('rollback-on-failure: the checkpoint listed as 09, naming another site, is not restored', async () => {
    pushed('failed', 'database import failed')
    versions([{ ...version('09', 'ssa~cp~1'), site_id: 2002 }])
    const restore = api()
      .put('/v2/sites/1001/restore-versions/9')
      .reply(202, envelope({ task_id: 'rt' }))
    const { result } = await run({ operation: 'push', checkpoint: 'version', rollbackOnFailure: true })
    expect(restore.isDone()).toBe(false)
    expect(result.warnings.join(' ')).toMatch(/not restored: the record of version 9 names another site/)
  })

  it('rollback-on-failure: a recheck the timeout cut short is no verdict that production still fails', async () => {
    pushed('completed')
    versions([version(9, 'ssa~cp~1')])
    api()
      .put('/v2/sites/1001/restore-versions/9')
      .reply(202, envelope({ task_id: 'rt' }))
    api().get('/v2/tasks/rt/status').reply(200, task('completed'))
    nock('https://live.example.test').get('/').times(100).reply(503, 'busy')
    const { result } = await run({
      operation: 'push',
      checkpoint: 'version',
      rollbackOnFailure: true,
      productionUrl: 'https://live.example.test/',
      verifyTimeoutMs: 20_000,
      timeoutMs: 34_000, // the push 7 s, its check 20 s, the restore: a few seconds left for the recheck
    })
    expect(result.result).toBe('failed')
    expect(result.summary).toMatch(
      /After the restore, production did not pass its check before the timeout: HTTP 503/,
    )
    expect(result.summary).not.toMatch(/still fails/)
    expect(result.error!.hint).toMatch(/was not seen to pass its check before the timeout/)
  })

  it('keep-checkpoints: a prune answered 429 at every try until the timeout was not processed: "not deleted"', async () => {
    pushed('completed')
    versions([version(9, 'ssa~cp~5'), version(7, 'ssa~cp~4')])
    const past = 'Thu, 01 Jan 1970 00:00:00 GMT' // a Retry-After in the past: "soon", again and again
    api()
      .delete('/v2/site-versions')
      .times(30)
      .reply(429, { message: 'Too Many Attempts.' }, { 'Retry-After': past })
    const opts = { checkpoint: 'version' as const, keepCheckpoints: 1, timeoutMs: 60_000, maxRetries: 20 }
    const { result } = await run({ operation: 'push', ...opts })
    expect(result.result).toBe('succeeded')
    const warned = result.warnings.join(' ')
    expect(warned).toMatch(/Older checkpoints \(7\) were not deleted/)
    expect(warned).not.toMatch(/is unknown/)
  })
})
