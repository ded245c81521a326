import { afterEach, beforeEach, describe, expect, test } from '@jest/globals'
import { commentOnPullRequest, postOrUpdateComments, type CommentLog } from '../../src/report/comment.js'
import { Redactor } from '../../src/secrets.js'
import type { Result } from '../../src/types.js'
import { startFakeGitHub, type FakeGitHub } from './fake-github.js'

const GH_TOKEN = 'ghs_in-process-test-token-123'
const API_TOKEN = 'api-token-that-must-never-show-456'

const result = (over: Partial<Result> = {}): Result => ({
  operation: 'create',
  siteId: '1001',
  result: 'succeeded',
  httpStatus: 202,
  message: 'Staging site creation started.',
  summary: 'Staging created in 12s.',
  stagingState: null,
  urlReady: null,
  taskId: 't1',
  stagingSiteId: 's-1001',
  stagingUrl: 'https://staging-1001.example.test',
  durationSeconds: 3,
  requests: 3,
  retries: 0,
  warnings: [],
  sent: [],
  error: null,
  startedAt: new Date().toISOString(),
  ...over,
})

let gh: FakeGitHub
let redactor: Redactor
beforeEach(async () => {
  gh = await startFakeGitHub()
  redactor = new Redactor()
  redactor.add(GH_TOKEN)
  redactor.add(API_TOKEN)
})
afterEach(() => gh.stop())

const options = (number = 7) => ({
  token: GH_TOKEN,
  apiUrl: gh.url,
  target: { owner: gh.owner, repo: gh.repo, number },
  redactor,
})
const count = (method: string) => gh.requests.filter((r) => r.method === method).length

describe('postOrUpdateComments', () => {
  test('creates one comment, then updates it (found on a later page) instead of adding another', async () => {
    gh.addOthers(7, 130)
    const first = await postOrUpdateComments([result()], options())
    expect(first).toEqual([expect.objectContaining({ siteId: '1001', action: 'created' })])
    gh.addOthers(7, 120)
    const second = await postOrUpdateComments([result({ operation: 'pull', stagingUrl: null })], options())
    expect(second).toEqual([expect.objectContaining({ action: 'updated' })])

    const ours = gh.comments.filter((c) => c.body.includes('site-staging-action:site=1001'))
    expect(ours).toHaveLength(1)
    expect(count('POST')).toBe(1)
    expect(count('PATCH')).toBe(1)
    expect(ours[0]!.body).toContain('Staging refreshed from production')
    expect(ours[0]!.body).toContain('staging-1001.example.test') // carried from the create
    // 250 comments at 100 a page: the second run read pages 1 and 2 (ours is on page 2) and stopped.
    const lists = gh.requests.filter((r) => r.method === 'GET').map((r) => r.path)
    expect(lists.slice(-2)).toEqual([
      `/repos/${gh.owner}/${gh.repo}/issues/7/comments?per_page=100`,
      `/repos/${gh.owner}/${gh.repo}/issues/7/comments?per_page=100&page=2`,
    ])
    expect(gh.requests.every((r) => r.authorization === `token ${GH_TOKEN}`)).toBe(true)
  })

  test('one comment per site; a later run on one site touches only its comment', async () => {
    await postOrUpdateComments([result(), result({ siteId: '1002' })], options())
    await postOrUpdateComments([result({ siteId: '1002', operation: 'delete', stagingUrl: null })], options())
    expect(gh.comments).toHaveLength(2)
    expect(gh.comments.find((c) => c.body.includes('site=1001'))!.body).toContain('Staging environment ready')
    expect(gh.comments.find((c) => c.body.includes('site=1002'))!.body).toContain(
      'Staging environment removed',
    )
    expect(count('POST')).toBe(2)
    expect(count('PATCH')).toBe(1)
  })

  test('a comment by someone else that quotes the marker is not taken over', async () => {
    gh.comments.push({
      id: 1,
      issue: 7,
      body: '> <!-- site-staging-action:site=1001 -->\nwhy is this here?',
      html_url: 'x',
      user: { login: 'someone', type: 'User' },
    })
    const reports = await postOrUpdateComments([result()], options())
    expect(reports[0]!.action).toBe('created')
    expect(gh.comments[0]!.body).toContain('why is this here?')
  })

  test('no secret reaches GitHub', async () => {
    await postOrUpdateComments(
      [
        result({
          result: 'failed',
          message: `token ${API_TOKEN} refused`,
          error: { kind: 'auth', hint: API_TOKEN },
        }),
      ],
      options(),
    )
    const sent = gh.requests.map((r) => r.body).join('\n')
    expect(sent).toContain('refused')
    expect(sent).not.toContain(API_TOKEN)
    expect(sent).not.toContain(GH_TOKEN)
  })

  test('a refused comment is a warning that names the missing permission, never a throw', async () => {
    gh.refuse({ method: 'POST', status: 403, message: 'Resource not accessible by integration' })
    const reports = await postOrUpdateComments([result()], options())
    expect(reports).toEqual([
      {
        siteId: '1001',
        action: 'failed',
        warning: expect.stringContaining('pull-requests: write'),
      },
    ])
    expect((reports[0] as { warning: string }).warning).toContain('Resource not accessible by integration')
    expect((reports[0] as { warning: string }).warning).toContain('The staging result is not affected')
  })

  test('a failed listing (404) is reported for every site', async () => {
    gh.refuse({ method: 'GET', status: 404, message: 'Not Found' })
    const reports = await postOrUpdateComments([result(), result({ siteId: '1002' })], options())
    expect(reports.map((r) => r.action)).toEqual(['failed', 'failed'])
    expect(count('POST')).toBe(0)
  })
})

describe('commentOnPullRequest', () => {
  const log = () => {
    const lines: string[] = []
    const l: CommentLog = {
      info: (m) => lines.push(`info: ${m}`),
      warn: (m) => lines.push(`warn: ${m}`),
      notice: (m) => lines.push(`notice: ${m}`),
    }
    return { lines, l }
  }
  const env = () => ({
    GITHUB_API_URL: gh.url,
    GITHUB_REPOSITORY: `${gh.owner}/${gh.repo}`,
    GITHUB_RUN_ID: '99',
  })

  test('on a push event: a notice, no request', async () => {
    const { lines, l } = log()
    await commentOnPullRequest([result()], {
      token: GH_TOKEN,
      eventName: 'push',
      payload: {},
      env: env(),
      redactor,
      log: l,
    })
    expect(lines).toEqual([expect.stringMatching(/^notice: pr-comment: the triggering event is "push"/)])
    expect(gh.requests).toHaveLength(0)
  })

  test('on pull_request: posts, logs where, and links the run', async () => {
    const { lines, l } = log()
    await commentOnPullRequest([result()], {
      token: GH_TOKEN,
      eventName: 'pull_request',
      payload: { pull_request: { number: 3 } },
      env: env(),
      redactor,
      log: l,
    })
    expect(lines).toEqual([
      expect.stringMatching(/^info: Posted the comment for site 1001 on pull request #3: https:/),
    ])
    expect(gh.comments[0]!.body).toContain(`/${gh.owner}/${gh.repo}/actions/runs/99`)
  })

  test('a GitHub that never answers is given up on within the time limit', async () => {
    const { lines, l } = log()
    const { createServer } = await import('node:http')
    const hanging = createServer(() => {})
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r))
    const port = (hanging.address() as { port: number }).port
    const started = Date.now()
    await commentOnPullRequest([result()], {
      token: GH_TOKEN,
      eventName: 'pull_request',
      payload: { pull_request: { number: 3 } },
      env: { ...env(), GITHUB_API_URL: `http://127.0.0.1:${port}` },
      redactor,
      log: l,
      timeoutMs: 500,
    })
    hanging.closeAllConnections()
    hanging.close()
    expect(Date.now() - started).toBeLessThan(5000)
    expect(lines).toEqual([expect.stringMatching(/^warn: Could not read the comments of pull request #3/)])
  })
})
