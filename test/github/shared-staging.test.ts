/**
 * One shared staging, many pull requests (src/github/ownership.ts through githubSideEffects and
 * releaseStaging), in process against the fake GitHub API: two pull requests refreshing in turn,
 * if-staging-taken take / wait / fail, a closed pull request, release, and forged records.
 */
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Stop } from '../../src/github/claim.js'
import { githubSideEffects } from '../../src/github/index.js'
import { releaseStaging } from '../../src/github/release.js'
import type { GitHubSideEffectOptions } from '../../src/github/run.js'
import { ownerPayload, readOwner, taskFor } from '../../src/github/ownership.js'
import { realClock } from '../../src/clock.js'
import { parseGitHubInputs } from '../../src/inputs/index.js'
import { markerFor } from '../../src/report/comment.js'
import { renderSummary } from '../../src/report/summary.js'
import { Redactor } from '../../src/secrets/redactor.js'
import type { Result } from '../../src/types.js'
import { createdResult, FakeClock } from '../helpers/fakes.js'
import { BOT, startFakeGitHub, type FakeGitHub } from './fake-github.js'

const GH_TOKEN = 'ghs_shared-staging-token-2718'
const SITE = '1001'
const sha = (n: number) => n.toString(16).padStart(2, '0').repeat(20)

let gh: FakeGitHub
let dir: string
beforeEach(async () => {
  gh = await startFakeGitHub()
  dir = mkdtempSync(path.join(tmpdir(), 'shared-staging-'))
})
afterEach(async () => {
  await gh.stop()
  rmSync(dir, { recursive: true, force: true })
})

interface Run {
  lines: string[]
  outputs: Record<string, string>
  stop: Stop | null
}

/** The env and inputs of a run for pull request `pr` (run id `runId`), or of a closed one. */
function options(
  pr: number,
  inputs: Record<string, string> = {},
  over: Partial<GitHubSideEffectOptions> & { action?: string; runId?: number } = {},
): { o: GitHubSideEffectOptions; rec: Run } {
  const file = path.join(dir, `event-${pr}-${Math.random()}.json`)
  writeFileSync(
    file,
    JSON.stringify({
      action: over.action ?? 'synchronize',
      number: pr,
      pull_request: { number: pr, head: { sha: sha(pr) } },
    }),
  )
  const rec: Run = { lines: [], outputs: {}, stop: null }
  const redactor = new Redactor()
  redactor.add(GH_TOKEN)
  const all: Record<string, string> = {
    'github-token': GH_TOKEN,
    'pr-comment': 'true',
    'comment-author': '',
    'deployment-environment': `pr-${pr}`,
    'if-staging-taken': 'take',
    ...inputs,
  }
  const run = { operation: over.operation ?? 'pull', siteIds: over.siteIds ?? [SITE], dryRun: false }
  const o: GitHubSideEffectOptions = {
    ...run,
    settings: parseGitHubInputs(all, run),
    clock: realClock,
    deadline: realClock.now() + 60_000,
    redactor,
    log: {
      info: (m) => rec.lines.push(`info: ${m}`),
      warnTitled: (m, title) => rec.lines.push(`warn[${title}]: ${m}`),
      notice: (m) => rec.lines.push(`notice: ${m}`),
    },
    setOutput: (name, value) => (rec.outputs[name] = value),
    env: {
      GITHUB_API_URL: gh.url,
      GITHUB_SERVER_URL: 'https://github.example',
      GITHUB_REPOSITORY: `${gh.owner}/${gh.repo}`,
      GITHUB_RUN_ID: String(over.runId ?? 9000 + pr),
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: file,
    },
    limits: { poll: 50 },
    ...over,
  }
  return { o, rec }
}

const pulled = (over: Partial<Result> = {}): Result =>
  createdResult({ operation: 'pull', result: 'succeeded', ...over })

/** One whole refresh by pull request `pr`: before, the operation's result, after. */
async function refresh(pr: number, inputs: Record<string, string> = {}, result = pulled(), runId?: number) {
  const { o, rec } = options(pr, inputs, runId ? { runId } : {})
  const side = await githubSideEffects(o)
  rec.stop = await side.before()
  if (!rec.stop) await side.after([result])
  return rec
}

const commentOn = (pr: number) =>
  gh.comments.filter(
    (c) => c.issue === pr && c.body.startsWith(markerFor(SITE)) && c.user?.login === BOT.login,
  )
const lastState = (pr: number) =>
  gh.deployments
    .filter((d) => d.environment === `pr-${pr}`)
    .at(-1)!
    .statuses.at(-1)!.state

describe('two pull requests refreshing staging in turn (if-staging-taken: take)', () => {
  test("each refresh records its owner; the previous owner's comment is updated in place and its deployment goes inactive", async () => {
    gh.pulls.set(10, 'open')
    gh.pulls.set(12, 'open')
    gh.addOthers(10, 130) // #10's comment will sit on page 2 of its comments

    const first = await refresh(10)
    expect(first.stop).toBeNull()
    const d10 = gh.deployments[0]!
    expect(d10.task).toBe(taskFor(SITE))
    expect(readOwner(d10.payload, SITE)).toMatchObject({
      pr: 10,
      sha: sha(10),
      runUrl: `https://github.example/${gh.owner}/${gh.repo}/actions/runs/9010`,
      runId: 9010,
    })
    expect(commentOn(10)).toHaveLength(1)
    expect(commentOn(10)[0]!.body).toMatch(/\| Staging shows \| this pull request at `0a0a0a0a0a0a` \(since /)

    const second = await refresh(12)
    expect(second.stop).toBeNull()
    expect(second.lines).toContainEqual(
      expect.stringMatching(
        /^info: Staging shows #10 \(commit 0a0a0a0a0a0a, since .*\); this run refreshes it for #12\.$/,
      ),
    )
    // #10: its deployment inactive, its one comment (the same one, edited) says who has staging now.
    expect(lastState(10)).toBe('inactive')
    expect(d10.statuses.at(-1)!.description).toBe('Staging now shows #12.')
    expect(commentOn(10)).toHaveLength(1)
    const told = commentOn(10)[0]!.body
    expect(told).toMatch(
      /^<!-- site-staging-action:site=1001 -->\n(<!-- site-staging-action:staging-url=\S+ -->\n)?<!-- site-staging-action:notice -->\n> ⚠️ Staging now shows #12 since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC; \[re-run this workflow\]\(https:\/\/github\.example\/octo-org\/site-repo\/actions\/runs\/9010\) to show this pull request again\.\n\n### /,
    )
    expect(second.lines).toContainEqual(
      expect.stringMatching(
        /^info: Told #10 that staging now shows #12: its comment was updated, its deployment \d+ is inactive\.$/,
      ),
    )
    expect(lastState(12)).toBe('success')
    expect(commentOn(12)[0]!.body).not.toContain('site-staging-action:notice')

    // #10 runs again: it takes staging back; its own comment loses the notice, #12's gets one.
    const third = await refresh(10)
    expect(third.stop).toBeNull()
    expect(commentOn(10)).toHaveLength(1)
    expect(commentOn(10)[0]!.body).not.toContain('site-staging-action:notice')
    expect(commentOn(12)[0]!.body).toContain('> ⚠️ Staging now shows #10 since ')
    expect(lastState(12)).toBe('inactive')
    // A fourth turn replaces #12's notice rather than stacking a second one.
    await refresh(12)
    await refresh(10)
    expect(commentOn(12)[0]!.body.match(/site-staging-action:notice/g)).toHaveLength(1)
    expect(gh.comments.filter((c) => c.user?.login === BOT.login)).toHaveLength(2)
    expect(gh.requests.map((r) => r.authorization)).not.toContain(undefined)
  })

  test('a refresh by the same pull request tells nobody; a failed refresh takes nothing', async () => {
    await refresh(10)
    const again = await refresh(10)
    expect(again.lines.filter((l) => /Told|Staging shows #/.test(l))).toEqual([])

    const failed = await refresh(12, {}, pulled({ result: 'failed' }))
    expect(failed.stop).toBeNull()
    expect(commentOn(10)[0]!.body).not.toContain('notice')
    expect(lastState(10)).toBe('success')
    // #10 still owns staging: a third pull request is told so.
    gh.pulls.set(10, 'open')
    const next = await refresh(14, { 'if-staging-taken': 'fail' })
    expect(next.stop?.message).toMatch(/^Staging shows #10 /)
  })

  test('a marker comment on the previous owner by somebody else is never edited', async () => {
    await refresh(10)
    const forged = gh.addComment(10, `${markerFor(SITE)}\nforged`, { login: 'mallory', type: 'User' })
    await refresh(12)
    expect(forged.body).toBe(`${markerFor(SITE)}\nforged`)
    expect(commentOn(10)[0]!.body).toContain('Staging now shows #12')
  })

  test('a deployment record written by another account, or in another shape, is not an owner', async () => {
    gh.addDeployment('pr-77', sha(77), {
      task: taskFor(SITE),
      payload: ownerPayload(SITE, {
        pr: 77,
        sha: sha(77),
        runUrl: null,
        runId: 1,
        at: '2026-11-24T10:00:00Z',
      }),
      creator: { login: 'mallory', type: 'User' },
      statuses: [{ id: 1, state: 'success', created_at: '2026-11-24T10:00:00Z' }],
    })
    gh.addDeployment('pr-78', sha(78), {
      task: taskFor(SITE),
      payload: { 'site-staging-action': { site: SITE, owner: { pr: 'x' } } },
      statuses: [{ id: 2, state: 'success', created_at: '2026-11-24T10:00:00Z' }],
    })
    // A well-formed record whose creator GitHub does not name (issue 24 §5): not attributable, not trusted.
    gh.addDeployment('pr-79', sha(79), {
      task: taskFor(SITE),
      payload: ownerPayload(SITE, {
        pr: 79,
        sha: sha(79),
        runUrl: null,
        runId: 3,
        at: '2026-11-24T10:00:00Z',
      }),
      creator: null,
      statuses: [{ id: 3, state: 'success', created_at: '2026-11-24T10:00:00Z' }],
    })
    gh.pulls.set(77, 'open')
    gh.pulls.set(79, 'open')
    const r = await refresh(12, { 'if-staging-taken': 'fail' })
    expect(r.stop).toBeNull()
    expect(r.lines.filter((l) => /Staging shows #7/.test(l))).toEqual([])
    expect(gh.comments.filter((c) => c.issue === 77 || c.issue === 79)).toEqual([])
    // Nor is it made inactive by the hand-over: it is not ours.
    expect(gh.deployments.filter((d) => d.environment === 'pr-79')[0]!.statuses).toHaveLength(1)
  })
})

describe('if-staging-taken: fail and wait', () => {
  test('fail: staging shows another open pull request; the run stops naming it, and nothing is created', async () => {
    gh.pulls.set(10, 'open')
    await refresh(10)
    const before = gh.deployments.length
    const r = await refresh(12, { 'if-staging-taken': 'fail' })
    expect(r.stop).toEqual({
      result: 'failed',
      message: expect.stringMatching(
        /^Staging shows #10 \(commit 0a0a0a0a0a0a, since .*, run https:\/\/github\.example\/octo-org\/site-repo\/actions\/runs\/9010\), and that pull request is open\. if-staging-taken is fail, so nothing was sent to the staging service\./,
      ),
    })
    expect(gh.deployments).toHaveLength(before)
    expect(commentOn(10)[0]!.body).not.toContain('notice')
    expect(r.outputs['deployment-id']).toBe('')
  })

  test('fail: a closed owner does not hold staging', async () => {
    gh.pulls.set(10, 'closed')
    await refresh(10)
    const r = await refresh(12, { 'if-staging-taken': 'fail' })
    expect(r.stop).toBeNull()
    expect(r.lines).toContain('info: Pull request #10 is closed: staging is free to take.')
    expect(commentOn(10)[0]!.body).toContain('Staging now shows #12')
  })

  test("wait: until the owner's workflow run is done, then take", async () => {
    gh.pulls.set(10, 'open')
    await refresh(10, {}, pulled(), 555)
    gh.runs.set(555, 'in_progress')
    // The owner's run ends once it has been asked about twice (counted, not timed: no race on a
    // busy machine), so the third answer lets this run take staging.
    const asked = () => gh.requests.filter((q) => q.path.endsWith('/actions/runs/555')).length
    const ends = (async () => {
      for (const giveUp = Date.now() + 10_000; asked() < 2 && Date.now() < giveUp;)
        await new Promise((resolve) => setTimeout(resolve, 10))
      gh.runs.set(555, 'completed')
    })()
    const r = await refresh(12, { 'if-staging-taken': 'wait' })
    await ends
    expect(r.stop).toBeNull()
    expect(asked()).toBeGreaterThanOrEqual(3)
    expect(r.lines).toContain('info: The workflow run of #10 is done: this run takes staging.')
    expect(lastState(12)).toBe('success')
  })

  test('wait: a run still going at the timeout ends the run timed-out; nothing is created', async () => {
    gh.pulls.set(10, 'open')
    await refresh(10, {}, pulled(), 556)
    gh.runs.set(556, 'in_progress')
    // On a fake clock: the owner's run is asked about every 15 s of it until the 5 minutes are spent.
    const clock = new FakeClock()
    const { o, rec } = options(
      12,
      { 'if-staging-taken': 'wait' },
      { clock, deadline: clock.now() + 300_000, limits: {} },
    )
    const stop = await (await githubSideEffects(o)).before()
    expect(clock.now()).toBeLessThanOrEqual(o.deadline)
    expect(gh.requests.filter((q) => q.path.endsWith('/actions/runs/556')).length).toBeGreaterThanOrEqual(
      300 / 15,
    )
    expect(stop).toEqual({
      result: 'timed-out',
      message: expect.stringMatching(
        /^Staging shows #10 .*its workflow run was still running when the timeout ran out/,
      ),
    })
    expect(gh.deployments.filter((d) => d.environment === 'pr-12')).toEqual([])
    expect(rec.outputs['deployment-id']).toBe('')
  })

  test('wait and fail need to know who staging shows: the one input schema refuses them before anything', () => {
    expect(() => options(12, { 'if-staging-taken': 'wait', 'deployment-environment': '' })).toThrow(
      /^Input "if-staging-taken": is wait, which needs to know who staging shows: set deployment-environment/,
    )
    expect(() => options(12, { 'if-staging-taken': 'steal' })).toThrow(
      /^Input "if-staging-taken": "steal" is not one of take, wait, fail/,
    )
    expect(gh.requests).toEqual([])
  })

  test('wait: no workflow run recorded for the owner: the run says it cannot wait and stops', async () => {
    gh.pulls.set(10, 'open')
    const { o } = options(10)
    o.env = { ...o.env, GITHUB_RUN_ID: '' }
    const side = await githubSideEffects(o)
    expect(await side.before()).toBeNull()
    await side.after([pulled()])
    const r = await refresh(12, { 'if-staging-taken': 'wait' })
    expect(r.stop).toEqual({
      result: 'failed',
      message: expect.stringMatching(
        /^Staging shows #10 .*, and that pull request is open, but its deployment records no workflow run to wait for\. if-staging-taken is wait, so nothing was sent to the staging service\./,
      ),
    })
    expect(gh.requests.filter((q) => q.path.includes('/actions/runs/'))).toEqual([])
    expect(gh.deployments.filter((d) => d.environment === 'pr-12')).toEqual([])
  })

  test.each([403, 404])(
    'wait: GitHub refuses to show the owner\'s run (HTTP %i): the run names "actions: read" and stops',
    async (status) => {
      gh.pulls.set(10, 'open')
      await refresh(10, {}, pulled(), 557)
      gh.runs.set(557, 'in_progress')
      if (status === 403)
        gh.refuse({
          method: 'GET',
          path: /actions\/runs\/557$/,
          status,
          message: 'Resource not accessible by integration',
        })
      else gh.runs.delete(557)
      const r = await refresh(12, { 'if-staging-taken': 'wait' })
      expect(r.stop).toEqual({
        result: 'failed',
        message: expect.stringMatching(
          new RegExp(
            `GitHub refused to show its workflow run \\(HTTP ${status}\\)\\. The github-token needs the permission "actions: read"`,
          ),
        ),
      })
      expect(r.stop!.message).toMatch(
        /if-staging-taken is wait, so nothing was sent to the staging service\.$/,
      )
      expect(gh.deployments.filter((d) => d.environment === 'pr-12')).toEqual([])
    },
  )

  test('fail: when GitHub will not say who staging shows, the run stops (the guarantee cannot be given)', async () => {
    gh.refuse({
      method: 'GET',
      path: /deployments$/,
      status: 403,
      message: 'Resource not accessible by integration',
    })
    const r = await refresh(12, { 'if-staging-taken': 'fail' })
    expect(r.stop?.message).toMatch(
      /^Could not read which pull request staging of site 1001 shows \(HTTP 403/,
    )
    expect(r.stop?.message).toMatch(/if-staging-taken is fail, so nothing was sent to the staging service\.$/)
    expect(gh.requests.filter((q) => q.method !== 'GET')).toEqual([])
  })
})

describe('a closed pull request releases staging (operation: release)', () => {
  const release = async (pr: number) => {
    const { o, rec } = options(pr, {}, { action: 'closed' })
    return { outcomes: await releaseStaging(o), rec }
  }

  test('the owner closed: its deployment inactive, its comment says so; the next pull request is not held', async () => {
    gh.pulls.set(10, 'open')
    await refresh(10)
    gh.pulls.set(10, 'closed')
    const { outcomes } = await release(10)
    expect(outcomes).toEqual([
      expect.objectContaining({
        operation: 'release',
        siteId: SITE,
        result: 'succeeded',
        requests: 0,
        error: null,
        summary: expect.stringMatching(
          /^Released staging of site 1001: #10 was closed, its deployment \d+ is inactive and its comment says so\./,
        ),
      }),
    ])
    expect(lastState(10)).toBe('inactive')
    expect(commentOn(10)[0]!.body).toContain('> ⚠️ This pull request was closed at ')
    // Nothing was asked of the staging service: only GitHub heard of it (this suite has no simulator).
    const next = await refresh(12, { 'if-staging-taken': 'fail' })
    expect(next.stop).toBeNull()
    expect(next.lines.filter((l) => l.includes('Staging shows #10'))).toEqual([])
  })

  test('a release GitHub refuses is a failed Result, rendered like any other, its reason said once', async () => {
    await refresh(10)
    gh.refuse({
      method: 'GET',
      path: /deployments$/,
      status: 403,
      message: 'Resource not accessible by integration',
    })
    const { outcomes } = await release(10)
    expect(outcomes).toEqual([
      expect.objectContaining({
        operation: 'release',
        result: 'failed',
        error: { kind: 'github', hint: expect.stringMatching(/HTTP 403.*"deployments: read"/) },
      }),
    ])
    const summary = renderSummary(outcomes)
    expect(summary).toMatch(/^## ❌ Staging release: failed\n/)
    expect(summary.match(/HTTP 403/g)).toHaveLength(1)
    expect(summary).not.toContain('Staging URL')
  })

  test('closing a pull request that does not own staging releases nothing', async () => {
    await refresh(10)
    await refresh(12)
    const { outcomes } = await release(10)
    expect(outcomes[0]).toMatchObject({
      result: 'skipped',
      summary: expect.stringMatching(/^Staging shows #12 .*not #10: nothing to release\.$/),
    })
    expect(lastState(12)).toBe('success')
    const none = await releaseStaging(options(33, {}, { action: 'closed', siteIds: ['2002'] }).o)
    expect(none[0]).toMatchObject({ result: 'skipped', summary: expect.stringMatching(/No run is recorded/) })
  })
})

describe('source 3: the staging URL an earlier run recorded (knownStaging)', () => {
  const known = async (pr: number, over: Partial<GitHubSideEffectOptions> = {}, inputs = {}) =>
    (await githubSideEffects(options(pr, inputs, over).o)).knownStaging()

  test('the last successful deployment of the same environment gives its environment_url', async () => {
    expect(await known(12)).toBeNull()
    await refresh(12, {}, pulled({ stagingUrl: 'https://staging-1001.example.test/' }))
    await refresh(12, {}, pulled({ result: 'failed', stagingUrl: null }))
    expect(await known(12)).toBe('https://staging-1001.example.test/')
    // Another environment's deployment is not this one's.
    expect(await known(14)).toBeNull()
  })

  test('a deployment by another account, or for another site, is never read; a push or several sites do not ask', async () => {
    gh.addDeployment('pr-12', sha(12), {
      creator: { login: 'mallory', type: 'User' },
      statuses: [
        {
          id: 1,
          state: 'success',
          created_at: '2026-11-24T10:00:00Z',
          environment_url: 'https://evil.test/',
        },
      ],
    })
    gh.addDeployment('pr-12', sha(12), {
      creator: null,
      statuses: [
        {
          id: 4,
          state: 'success',
          created_at: '2026-11-24T10:00:00Z',
          environment_url: 'https://no-creator.test/',
        },
      ],
    })
    gh.addDeployment('pr-12', sha(12), {
      payload: { 'site-staging-action': { site: '9999' } },
      statuses: [
        {
          id: 2,
          state: 'success',
          created_at: '2026-11-24T10:00:00Z',
          environment_url: 'https://other.test/',
        },
      ],
    })
    gh.addDeployment('pr-12', sha(12), {
      statuses: [
        {
          id: 3,
          state: 'success',
          created_at: '2026-11-24T10:00:00Z',
          environment_url: 'javascript:alert(1)',
        },
      ],
    })
    expect(await known(12)).toBeNull()
    const before = gh.requests.length
    expect(await known(12, { operation: 'push' })).toBeNull()
    expect(await known(12, { siteIds: ['1001', '1002'] })).toBeNull()
    expect(gh.requests).toHaveLength(before)
  })
})
