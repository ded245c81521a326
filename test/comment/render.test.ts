import { describe, expect, test } from '@jest/globals'
import {
  escapeMarkdown,
  isCommentFor,
  markerFor,
  pullRequestTarget,
  renderComment,
  runUrlFrom,
  stagingUrlFromComment,
} from '../../src/report/comment.js'
import { Redactor } from '../../src/secrets.js'
import type { Result } from '../../src/types.js'

const result = (over: Partial<Result> = {}): Result => ({
  operation: 'create',
  siteId: '1001',
  result: 'succeeded',
  httpStatus: 202,
  message: 'Staging site creation started.',
  summary: 'Staging created in 12s.',
  stagingState: null,
  urlReady: null,
  taskId: 'abc123',
  stagingSiteId: 's-1001',
  stagingUrl: 'https://staging-1001.example.test',
  durationSeconds: 12.5,
  requests: 4,
  retries: 0,
  warnings: [],
  sent: ['POST /v2/sites/1001/staging -> 202'],
  error: null,
  startedAt: '2025-01-15T09:30:05.123Z',
  ...over,
})

const plain = (t: string) => t

describe('renderComment', () => {
  test('opens with the marker that names the site, then operation, result, URL, duration and time', () => {
    const body = renderComment(result(), plain, { runUrl: 'https://github.com/o/r/actions/runs/9' })
    const lines = body.split('\n')
    expect(lines[0]).toBe('<!-- site-staging-action:site=1001 -->')
    expect(body).toContain('### ✅ Staging environment ready')
    expect(body).toContain('| Operation | `create` |')
    expect(body).toContain('| Result | ✅ succeeded (HTTP 202) |')
    expect(body).toContain(
      '| Staging URL | [https://staging-1001.example.test](https://staging-1001.example.test) |',
    )
    expect(body).toContain('| Duration | 12.5 s |')
    expect(body).toContain('| Time | 2025-01-15 09:30:05 UTC |')
    expect(body).toContain('| Run | [workflow run](https://github.com/o/r/actions/runs/9) |')
    expect(body).toContain('> Staging site creation started.')
    expect(isCommentFor(body, '1001')).toBe(true)
    expect(isCommentFor(body, '100')).toBe(false)
    expect(isCommentFor(body, '10011')).toBe(false)
  })

  test('a delete says staging was removed and shows no URL', () => {
    const body = renderComment(
      result({ operation: 'delete', stagingUrl: null, stagingSiteId: null }),
      plain,
      {
        previousStagingUrl: 'https://staging-1001.example.test',
      },
    )
    expect(body).toContain('### 🗑️ Staging environment removed')
    expect(body).toContain('| Staging URL | — (removed) |')
    expect(body).not.toContain('staging-1001.example.test')
    expect(stagingUrlFromComment(body)).toBeNull()
  })

  test('a skipped delete (nothing left) also says removed; a failed delete does not', () => {
    expect(renderComment(result({ operation: 'delete', result: 'skipped' }), plain)).toContain(
      'Staging environment removed (there was none left to delete)',
    )
    const failed = renderComment(
      result({ operation: 'delete', result: 'failed', error: { kind: 'busy', hint: 'Try later.' } }),
      plain,
    )
    expect(failed).toContain('### ❌ Staging delete: failed')
    expect(failed).not.toContain('removed')
    expect(failed).toContain('**What to do:** Try later.')
  })

  test('a pull without its own URL keeps the URL an earlier comment recorded, and says so', () => {
    const created = renderComment(result(), plain)
    expect(stagingUrlFromComment(created)).toBe('https://staging-1001.example.test')
    const pulled = renderComment(result({ operation: 'pull', stagingUrl: null }), plain, {
      previousStagingUrl: stagingUrlFromComment(created),
    })
    expect(pulled).toContain('### ✅ Staging refreshed from production')
    expect(pulled).toContain('staging-1001.example.test) (from an earlier run)')
    expect(stagingUrlFromComment(pulled)).toBe('https://staging-1001.example.test')
  })

  test('push warnings are listed', () => {
    const body = renderComment(
      result({ operation: 'push', warnings: ['No backup was taken.', 'No backup was taken.'] }),
      plain,
    )
    expect(body).toContain('### ✅ Staging pushed to production')
    expect(body.match(/No backup was taken\./g)).toHaveLength(1)
  })

  test('every text goes through the redactor', () => {
    const redactor = new Redactor()
    redactor.add('s3cr3t-token-value')
    const body = renderComment(
      result({
        result: 'failed',
        message: 'refused token s3cr3t-token-value',
        error: { kind: 'auth', hint: 'check s3cr3t-token-value' },
        warnings: ['w s3cr3t-token-value'],
        stagingUrl: 'https://x.test/?k=s3cr3t-token-value',
      }),
      (t) => redactor.scrub(t),
    )
    expect(body).not.toContain('s3cr3t-token-value')
    expect(body).toContain('***')
  })

  test('server text cannot inject HTML, links, mentions or break the table', () => {
    const body = renderComment(
      result({ message: 'hi @octocat <img src=x> [x](http://evil) | end\n--> #12', stagingUrl: null }),
      plain,
    )
    expect(body).not.toContain('<img')
    expect(body).not.toContain('@octocat')
    expect(body).not.toContain('[x](http://evil)')
    expect(body.match(/-->/g)).toHaveLength(1)
    expect(body).not.toContain('#12')
    expect(body.split('\n').filter((l) => l.startsWith('> '))).toHaveLength(1)
    expect(escapeMarkdown('a|b')).toBe('a\\|b')
  })

  test('a marker for a site id is exact', () => {
    expect(markerFor('site_1')).toBe('<!-- site-staging-action:site=site_1 -->')
  })
})

describe('pullRequestTarget', () => {
  const payload = { pull_request: { number: 42 }, repository: { name: 'r2', owner: { login: 'o2' } } }
  test('pull_request and pull_request_target name the pull request', () => {
    expect(pullRequestTarget('pull_request', payload, 'o/r')).toEqual({
      target: { owner: 'o', repo: 'r', number: 42 },
    })
    expect(pullRequestTarget('pull_request_target', payload, undefined)).toEqual({
      target: { owner: 'o2', repo: 'r2', number: 42 },
    })
  })
  test('other events give a reason, not a target', () => {
    const push = pullRequestTarget('push', payload, 'o/r')
    expect(push).toEqual({ reason: expect.stringContaining('"push"') })
    expect(pullRequestTarget('pull_request', {}, 'o/r')).toEqual({
      reason: expect.stringContaining('no pull request'),
    })
  })
})

test('runUrlFrom builds the run link from the runner environment', () => {
  expect(runUrlFrom({ GITHUB_REPOSITORY: 'o/r', GITHUB_RUN_ID: '77' })).toBe(
    'https://github.com/o/r/actions/runs/77',
  )
  expect(
    runUrlFrom({
      GITHUB_SERVER_URL: 'https://ghe.example/',
      GITHUB_REPOSITORY: 'o/r',
      GITHUB_RUN_ID: '77',
      GITHUB_RUN_ATTEMPT: '2',
    }),
  ).toBe('https://ghe.example/o/r/actions/runs/77/attempts/2')
  expect(runUrlFrom({})).toBeNull()
})
