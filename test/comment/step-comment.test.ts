/**
 * `pr-comment` in the action's whole step: src/action.ts's runAction in this process, as the runner
 * would run it (inputs, outputs, summary, log, exit code), against the simulator's API core and the
 * fake GitHub API in this process (GitHub's fetch seam), on a virtual clock: a job's polls take no
 * real time. The bundle's own runs with GitHub are in test/github/action-deployments.test.ts.
 */
import { beforeEach, describe, expect, test } from '@jest/globals'
import { SIM_SITES, SIM_TOKENS } from '../../simulator/server.js'
import { leaks, type RunResult } from '../helpers/run-action.js'
import type { VirtualFaultSim } from '../helpers/virtual-action.js'
import { markerFor } from '../../src/report/comment.js'
import { BOT, eventEnv as githubEventEnv, type FakeGitHub } from '../github/fake-github.js'
import { useVirtualActionWithGitHub } from '../github/action-fixture.js'

const GH_TOKEN = 'ghs_whole-action-github-token-0042'
const PR = 12

const fixture = useVirtualActionWithGitHub(
  { durationsMs: { create: 300, pull: 200, push: 200, delete: 200 } },
  {
    dirPrefix: 'comment-test-',
    githubToken: GH_TOKEN,
  },
)
let sim: VirtualFaultSim
let gh: FakeGitHub
let dir: string
let runStep: (inputs: Record<string, string>, env: Record<string, string>) => Promise<RunResult>
beforeEach(() => {
  ;({ sim, gh, dir, run: runStep } = fixture.current())
})

const eventEnv = (eventName: string, payload: unknown) => githubEventEnv(gh, dir, eventName, payload)

const prEvent = () =>
  eventEnv('pull_request', {
    action: 'synchronize',
    number: PR,
    pull_request: { number: PR, head: { ref: 'feature' } },
    repository: { name: 'site-repo', owner: { login: 'octo-org' } },
  })

const run = (operation: string, env: Record<string, string>, extra: Record<string, string> = {}) =>
  runStep(
    {
      operation,
      'site-id': String(SIM_SITES.eligible),
      'api-token': SIM_TOKENS.readWrite,
      'api-url': sim.apiUrl,
      'pr-comment': 'true',
      'github-token': GH_TOKEN,
      'if-exists': 'skip',
      ...extra,
    },
    env,
  )

const ours = () =>
  gh.comments.filter(
    (c) => c.user?.login === BOT.login && c.body.startsWith('<!-- site-staging-action:site=1001 -->'),
  )
const count = (method: string) => gh.requests.filter((r) => r.method === method).length

describe('pr-comment in the whole step', () => {
  test('create posts one comment; pull updates it; delete updates it to say staging was removed', async () => {
    gh.addOthers(PR, 105) // the action's comment will sit on page 2
    const env = prEvent()

    const created = await run('create', env)
    expect(created.code).toBe(0)
    expect(created.outputs.result).toBe('succeeded')
    expect(count('POST')).toBe(1)
    expect(ours()).toHaveLength(1)
    const id = ours()[0]!.id
    expect(ours()[0]!.body).toContain('Staging environment ready')
    expect(ours()[0]!.body).toContain(created.outputs['staging-url']!)
    expect(ours()[0]!.body).toContain('https://github.example/octo-org/site-repo/actions/runs/4242')
    expect(created.stdout).toMatch(/Posted the comment for site 1001 on pull request #12/)

    const pulled = await run('pull', env)
    expect(pulled.code).toBe(0)
    expect(count('POST')).toBe(1)
    expect(count('PATCH')).toBe(1)
    expect(ours()).toHaveLength(1)
    expect(ours()[0]!.id).toBe(id)
    expect(ours()[0]!.body).toContain('Staging refreshed from production')
    expect(pulled.stdout).toMatch(/Updated the comment for site 1001/)

    const deleted = await run('delete', env)
    expect(deleted.code).toBe(0)
    expect(count('POST')).toBe(1)
    expect(count('PATCH')).toBe(2)
    expect(ours()).toHaveLength(1)
    expect(ours()[0]!.body).toContain('Staging environment removed')
    expect(ours()[0]!.body).not.toContain(created.outputs['staging-url']!)
    // Every listing followed the Link header to page 2.
    expect(gh.requests.filter((r) => r.method === 'GET' && r.path.endsWith('page=2'))).toHaveLength(3)
    expect(gh.requests.every((r) => r.authorization === `token ${GH_TOKEN}`)).toBe(true)
  })

  test('a refused comment (no pull-requests: write) is a warning; the staging result and exit code stand', async () => {
    gh.refuse({ method: 'POST', status: 403, message: 'Resource not accessible by integration' })
    const r = await run('create', prEvent())
    expect(r.code).toBe(0)
    expect(r.outputs.result).toBe('succeeded')
    expect(r.stdout).toMatch(/^::warning title=Pull-request comment::.*pull-requests: write/m)
    expect(r.summary).toContain('Staging create: succeeded')
  })

  test('a failed operation still fails, and its comment says so without any secret', async () => {
    sim.addFault({ method: 'POST', path: '/staging', status: 500, body: 'echo-token', times: Infinity })
    const r = await run('create', prEvent(), { 'max-retries': '0' })
    expect(r.code).toBe(1)
    expect(r.outputs.result).toBe('failed')
    expect(ours()).toHaveLength(1)
    const body = ours()[0]!.body
    expect(body).toContain('failed')
    // The simulator echoed the Authorization header into its message: it arrives masked.
    expect(body).toContain('Bearer \\*\\*\\*')
    const sent = gh.requests.map((q) => q.body).join('\n')
    expect(leaks(sent, SIM_TOKENS.readWrite)).toEqual([])
    expect(leaks(sent, GH_TOKEN)).toEqual([])
    expect(leaks(r.everything, SIM_TOKENS.readWrite)).toEqual([])
    expect(leaks(r.everything, GH_TOKEN)).toEqual([])
  })

  test('issue 10: a forged marker comment by another user is neither edited nor read, and a notice says so once', async () => {
    const phishing = 'https://phishing.example.test/wp-login.php'
    const forgedBody = `${markerFor('1001')}\n<!-- site-staging-action:staging-url=${phishing} -->\n### ✅ Staging environment ready`
    const forged = gh.addComment(PR, forgedBody, { login: 'mallory', type: 'User' })
    gh.addComment(PR, forgedBody, { login: 'mallory', type: 'User' })
    const env = prEvent()

    // A push reports no staging URL of its own: the old attack made it republish the forged one.
    const pushed = await run('push', env, { 'site-id': String(SIM_SITES.withStaging) })
    expect(pushed.code).toBe(0)
    expect(count('PATCH')).toBe(0)
    expect(forged.body).toBe(forgedBody)
    const mine = gh.comments.filter((c) => c.user?.login === BOT.login)
    expect(mine).toHaveLength(1)
    expect(mine[0]!.body).not.toContain('phishing')
    expect(mine[0]!.body).not.toContain('from an earlier run')
    const notices = pushed.stdout.split('\n').filter((l) => l.startsWith('::notice::'))
    expect(notices).toHaveLength(1)
    expect(notices[0]).toMatch(
      /ignored 2 comment\(s\) on pull request #12 .*written by mallory, not by github-actions\[bot\]/,
    )

    // The next run finds its own comment (not the forged ones) and updates it.
    const again = await run('push', env, { 'site-id': String(SIM_SITES.withStaging) })
    expect(again.code).toBe(0)
    expect(count('POST')).toBe(1)
    expect(count('PATCH')).toBe(1)
    expect(gh.requests.find((r) => r.method === 'PATCH')!.path).toContain(`/comments/${mine[0]!.id}`)
    expect(forged.body).toBe(forgedBody)
  })

  test("comment-author set to a custom login: that account's comment is adopted, the bot's is not", async () => {
    const byUser = gh.addComment(PR, `${markerFor('1001')}\nold`, { login: 'Staging-Poster', type: 'User' })
    const byBot = gh.addComment(PR, `${markerFor('1001')}\nby the bot`, BOT)
    const r = await run('create', prEvent(), { 'comment-author': 'staging-poster' })
    expect(r.code).toBe(0)
    expect(count('POST')).toBe(0)
    expect(count('PATCH')).toBe(1)
    expect(byUser.body).toContain('Staging environment ready')
    expect(byUser.body).toContain(r.outputs['staging-url']!)
    expect(byBot.body).toBe(`${markerFor('1001')}\nby the bot`)
    expect(r.stdout).toMatch(/^::notice::pr-comment: ignored 1 comment\(s\) .*not by staging-poster/m)
  })

  test('on a push event: a notice, no comment, no failure', async () => {
    const r = await run('create', eventEnv('push', { ref: 'refs/heads/main' }))
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^::notice::pr-comment: the triggering event is "push"/m)
    expect(gh.requests).toHaveLength(0)
  })

  test('pr-comment false (the default) sends nothing to GitHub', async () => {
    const r = await run('create', prEvent(), { 'pr-comment': 'false' })
    expect(r.code).toBe(0)
    expect(gh.requests).toHaveLength(0)
  })
})
