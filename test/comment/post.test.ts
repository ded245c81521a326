/** Posting the pull-request comment (src/github/comment.ts) against the fake GitHub API, in process. */
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals'
import { ignoredNotice, postOrUpdateComments, writtenBy, type PostOptions } from '../../src/github/comment.js'
import { octokitFor } from '../../src/github/octokit.js'
import { parseCommentAuthor } from '../../src/inputs/index.js'
import { markerFor } from '../../src/report/comment.js'
import { Redactor } from '../../src/secrets/redactor.js'
import { createdResult } from '../helpers/fakes.js'
import type { Result } from '../../src/types.js'
import { BOT, startFakeGitHub, type FakeGitHub } from '../github/fake-github.js'

const GH_TOKEN = 'ghs_in-process-test-token-123'
const API_TOKEN = 'api-token-that-must-never-show-456'

const result = (over: Partial<Result> = {}): Result =>
  createdResult({
    stagingUrl: 'https://staging-1001.example.test',
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

const options = (number = 7, author = 'github-actions[bot]'): PostOptions => ({
  octokit: octokitFor(GH_TOKEN, gh.url),
  target: { owner: gh.owner, repo: gh.repo, number },
  author,
  scrub: (t) => redactor.scrub(t),
})
const count = (method: string) => gh.requests.filter((r) => r.method === method).length
const FORGED_URL = 'https://phishing.example.test/login'
const forged = (siteId = '1001') =>
  `${markerFor(siteId)}\n<!-- site-staging-action:staging-url=${FORGED_URL} -->\n### ✅ Staging environment ready`

describe('postOrUpdateComments', () => {
  test('creates one comment, then updates it (found on a later page) instead of adding another', async () => {
    gh.addOthers(7, 130)
    const first = await postOrUpdateComments([result()], options())
    expect(first.reports).toEqual([expect.objectContaining({ siteId: '1001', action: 'created' })])
    gh.addOthers(7, 120)
    const second = await postOrUpdateComments([result({ operation: 'push', stagingUrl: null })], options())
    expect(second.reports).toEqual([expect.objectContaining({ action: 'updated' })])
    expect(second.ignored).toEqual([])

    const ours = gh.comments.filter((c) => c.body.includes('site-staging-action:site=1001'))
    expect(ours).toHaveLength(1)
    expect(count('POST')).toBe(1)
    expect(count('PATCH')).toBe(1)
    expect(ours[0]!.body).toContain('Staging pushed to production')
    expect(ours[0]!.body).toContain('staging-1001.example.test) (from an earlier run)') // carried from the create
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
    gh.addComment(7, `> ${markerFor('1001')}\nwhy is this here?`, { login: 'someone', type: 'User' })
    const outcome = await postOrUpdateComments([result()], options())
    expect(outcome.reports[0]!.action).toBe('created')
    expect(gh.comments[0]!.body).toContain('why is this here?')
  })

  test('a forged marker comment by another user is neither edited nor read: a new comment is posted', async () => {
    const fake = gh.addComment(7, forged(), { login: 'mallory', type: 'User' })
    const outcome = await postOrUpdateComments([result({ operation: 'push', stagingUrl: null })], options())
    expect(outcome.reports).toEqual([expect.objectContaining({ action: 'created' })])
    expect(outcome.ignored).toEqual([{ id: fake.id, login: 'mallory' }])
    expect(count('PATCH')).toBe(0)
    expect(fake.body).toBe(forged()) // untouched
    const ours = gh.comments.filter((c) => c.user?.login === BOT.login)
    expect(ours).toHaveLength(1)
    // Nothing was taken from the forged comment: no phishing link as "the URL from an earlier run".
    expect(ours[0]!.body).not.toContain('phishing')
    expect(ours[0]!.body).not.toContain('from an earlier run')
    expect(ours[0]!.body).toContain('| Staging URL | — |')
  })

  test('forgeries cannot pass for the bot: a user named like it, a Bot of another name, no user at all', async () => {
    gh.addComment(7, forged(), { login: 'github-actions', type: 'User' })
    gh.addComment(7, forged(), { login: 'GitHub-Actions[bot]', type: 'User' }) // type gives it away
    gh.addComment(7, forged(), { login: 'evil-app[bot]', type: 'Bot' })
    gh.addComment(7, forged(), null) // a deleted ("ghost") account
    const outcome = await postOrUpdateComments([result({ operation: 'pull', stagingUrl: null })], options())
    expect(outcome.ignored).toHaveLength(4)
    expect(count('PATCH')).toBe(0)
    expect(count('POST')).toBe(1)
    expect(gh.comments.at(-1)!.body).not.toContain('phishing')
  })

  test('our own comment is found across pages, behind a forged one, and updated', async () => {
    gh.addComment(7, forged(), { login: 'mallory', type: 'User' })
    gh.addOthers(7, 140)
    const own = gh.addComment(
      7,
      `${markerFor('1001')}\n<!-- site-staging-action:staging-url=https://staging-1001.example.test/ -->\nold`,
      BOT,
    )
    gh.addOthers(7, 100)
    gh.addComment(7, forged(), { login: 'mallory', type: 'User' }) // page 3: never read
    const outcome = await postOrUpdateComments([result({ operation: 'push', stagingUrl: null })], options())
    expect(outcome.reports).toEqual([expect.objectContaining({ action: 'updated', id: own.id })])
    expect(
      gh.requests.filter((r) => r.method === 'GET').map((r) => r.path.replace(/^.*comments/, '')),
    ).toEqual(['?per_page=100', '?per_page=100&page=2'])
    expect(count('POST')).toBe(0)
    expect(own.body).toContain('staging-1001.example.test/) (from an earlier run)')
    expect(own.body).not.toContain('phishing')
    // The first forged one was seen (and ignored) on the way; the listing stopped once ours was found.
    expect(outcome.ignored.map((c) => c.login)).toEqual(['mallory'])
  })

  test("comment-author set to a custom login (a PAT user) adopts that user's comments, case-insensitively", async () => {
    const own = gh.addComment(7, `${markerFor('1001')}\nold`, { login: 'Release-Bot-User', type: 'User' })
    const botComment = gh.addComment(7, `${markerFor('1001')}\nby the bot`, BOT)
    const outcome = await postOrUpdateComments([result()], options(7, 'release-bot-user'))
    expect(outcome.reports).toEqual([expect.objectContaining({ action: 'updated', id: own.id })])
    expect(own.body).toContain('Staging environment ready')
    // With a custom author, the bot's marker comments are somebody else's.
    expect(botComment.body).toBe(`${markerFor('1001')}\nby the bot`)
    expect(outcome.ignored).toEqual([{ id: botComment.id, login: 'github-actions[bot]' }])
  })

  test('no secret reaches GitHub', async () => {
    await postOrUpdateComments(
      [
        result({
          result: 'failed',
          message: `token ${API_TOKEN} refused`,
          error: { kind: 'auth', hint: API_TOKEN },
          stagingUrl: `https://x.test/?k=${API_TOKEN}`,
        }),
      ],
      options(),
    )
    const sent = gh.requests.map((r) => r.body).join('\n')
    expect(sent).toContain('refused')
    expect(sent).not.toContain(API_TOKEN)
    expect(sent).not.toContain(encodeURIComponent(API_TOKEN))
    expect(sent).not.toContain(GH_TOKEN)
  })

  test('a refused comment is a warning that names the missing permission, never a throw', async () => {
    gh.refuse({ method: 'POST', status: 403, message: 'Resource not accessible by integration' })
    const { reports } = await postOrUpdateComments([result()], options())
    expect(reports).toEqual([
      { siteId: '1001', action: 'failed', warning: expect.stringContaining('pull-requests: write') },
    ])
    const warning = (reports[0] as { warning: string }).warning
    expect(warning).toContain('Resource not accessible by integration')
    expect(warning).toContain('The staging result is not affected')
  })

  test('a failed listing (404) is reported for every site', async () => {
    gh.refuse({ method: 'GET', status: 404, message: 'Not Found' })
    const { reports } = await postOrUpdateComments([result(), result({ siteId: '1002' })], options())
    expect(reports.map((r) => r.action)).toEqual(['failed', 'failed'])
    expect(count('POST')).toBe(0)
  })

  test("GitHub's error text is shown on one line, bounded, without workflow commands", async () => {
    gh.refuse({ method: 'POST', status: 500, message: `boom\n::error::injected\r\n${'x'.repeat(5000)}` })
    const { reports } = await postOrUpdateComments([result()], options())
    const warning = (reports[0] as { warning: string }).warning
    expect(warning).not.toMatch(/[\r\n]/)
    expect(warning).not.toContain('::error::')
    expect(warning.length).toBeLessThan(600)
  })
})

describe('who wrote a comment', () => {
  test('writtenBy compares logins case-insensitively and checks the account type', () => {
    expect(writtenBy({ user: { login: 'github-actions[bot]', type: 'Bot' } }, 'github-actions[bot]')).toBe(
      true,
    )
    expect(writtenBy({ user: { login: 'GITHUB-ACTIONS[BOT]', type: 'Bot' } }, 'github-actions[bot]')).toBe(
      true,
    )
    expect(writtenBy({ user: { login: 'github-actions[bot]', type: 'User' } }, 'github-actions[bot]')).toBe(
      false,
    )
    expect(writtenBy({ user: { login: 'alice', type: 'User' } }, 'Alice')).toBe(true)
    expect(writtenBy({ user: { login: 'alice', type: 'Bot' } }, 'alice')).toBe(false)
    expect(writtenBy({ user: { login: 'alice', type: 'Organization' } }, 'alice')).toBe(false)
    expect(writtenBy({ user: { login: 'alicex', type: 'User' } }, 'alice')).toBe(false)
    expect(writtenBy({ user: null }, 'alice')).toBe(false)
    expect(writtenBy({ user: { login: 42 } }, 'alice')).toBe(false)
  })

  test('parseCommentAuthor: empty means github-actions[bot]; anything but a login is refused', () => {
    expect(parseCommentAuthor('')).toBe('github-actions[bot]')
    expect(parseCommentAuthor('  my-bot-user ')).toBe('my-bot-user')
    expect(parseCommentAuthor('my-app[bot]')).toBe('my-app[bot]')
    for (const bad of ['a b', 'a/b', '-lead', 'x'.repeat(40), 'name[bot', 'ünï', '*'])
      expect(parseCommentAuthor(bad)).toBeNull()
  })

  test('the notice names the authors (as logins only) and the input to set', () => {
    const text = ignoredNotice(
      [
        { id: 1, login: 'mallory' },
        { id: 2, login: 'mallory' },
        { id: 3, login: 'eve\n::error::x' },
      ],
      'github-actions[bot]',
      12,
    )
    expect(text).toContain('ignored 3 comment(s) on pull request #12')
    expect(text).toContain('written by mallory, eveerrorx, not by github-actions[bot]')
    expect(text).toContain('comment-author')
    expect(text).not.toMatch(/[\r\n]|::/)
  })
})
