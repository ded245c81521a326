/**
 * One shared staging and many pull requests, in the action's whole step: src/action.ts's runAction
 * in this process, as the runner would run it, against the simulator's API core on its service
 * profile (the real service's answers) and the fake GitHub API in this process (GitHub's fetch
 * seam), on a virtual clock. Two pull requests run the PR-preview recipe in turn, one is closed
 * (release), and a pull request from a fork runs without secrets.
 */
import { beforeEach, describe, expect, test } from '@jest/globals'
import { readOwner } from '../../src/github/ownership.js'
import { markerFor } from '../../src/report/comment.js'
import { SIM_SITES, SIM_TOKENS } from '../../simulator/server.js'
import type { RunResult } from '../helpers/run-action.js'
import type { VirtualFaultSim } from '../helpers/virtual-action.js'
import { BOT, eventEnv, type FakeGitHub } from './fake-github.js'
import { useVirtualActionWithGitHub } from './action-fixture.js'

const GH_TOKEN = 'ghs_whole-action-shared-staging-0777'
const SITE = String(SIM_SITES.withStaging)
const sha = (pr: number) => String(pr).padStart(2, '0').repeat(20)

const fixture = useVirtualActionWithGitHub(
  {
    profile: 'service',
    durationsMs: { create: 300, pull: 200, push: 200, delete: 200 },
  },
  {
    dirPrefix: 'shared-staging-action-',
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

const prEnv = (pr: number, action = 'synchronize', runId = 7000 + pr, fork = false) =>
  eventEnv(
    gh,
    dir,
    'pull_request',
    {
      action,
      number: pr,
      pull_request: {
        number: pr,
        head: { sha: sha(pr), repo: { full_name: fork ? 'alice/site-repo' : 'octo-org/site-repo' } },
        base: { repo: { full_name: 'octo-org/site-repo' } },
      },
      repository: { name: 'site-repo', owner: { login: 'octo-org' } },
    },
    { GITHUB_RUN_ID: String(runId) },
  )

const action = (operation: string, pr: number, extra: Record<string, string> = {}, env = prEnv(pr)) =>
  runStep(
    {
      operation,
      'site-id': SITE,
      'api-token': SIM_TOKENS.readWrite,
      'api-url': sim.apiUrl,
      'github-token': GH_TOKEN,
      'pr-comment': 'true',
      'deployment-environment': `pr-${pr}`,
      ...extra,
    },
    env,
  )

const commentOn = (pr: number) =>
  gh.comments.filter(
    (c) => c.issue === pr && c.body.startsWith(markerFor(SITE)) && c.user?.login === BOT.login,
  )
const last = (pr: number) => gh.deployments.filter((d) => d.environment === `pr-${pr}`).at(-1)!
const stagingRequests = () => sim.requests.filter((r) => r.path.includes('/staging'))

describe('one shared staging, two pull requests, the service profile', () => {
  test('#10 then #12 refresh staging: #10 is told in its comment and its deployment goes inactive; #12 records itself', async () => {
    gh.pulls.set(10, 'open')
    gh.pulls.set(12, 'open')
    const a = await action('pull', 10)
    expect(a.code).toBe(0)
    expect(a.outputs.result).toBe('succeeded')
    expect(readOwner(last(10).payload, SITE)).toMatchObject({ pr: 10, sha: sha(10), runId: 7010 })

    const b = await action('pull', 12)
    expect(b.code).toBe(0)
    expect(b.stdout).toMatch(
      /^Staging shows #10 \(commit 101010101010, since .*\); this run refreshes it for #12\.$/m,
    )
    expect(last(10).statuses.at(-1)).toMatchObject({
      state: 'inactive',
      description: 'Staging now shows #12.',
    })
    expect(last(12).statuses.at(-1)!.state).toBe('success')
    expect(commentOn(10)).toHaveLength(1)
    expect(commentOn(10)[0]!.body).toMatch(
      /> ⚠️ Staging now shows #12 since .* UTC; \[re-run this workflow\]\(https:\/\/github\.example\/octo-org\/site-repo\/actions\/runs\/7010\) to show this pull request again\./,
    )
    expect(commentOn(12)[0]!.body).toMatch(/\| Staging shows \| this pull request at `121212121212`/)
    // The hand-over is part of #12's Result: its outputs, summary and log say it like any warning.
    const handOver =
      /Staging showed #10 \(commit 101010101010\) before this run; it now shows #12: that run's deployment is marked inactive, and its comment says so\./
    expect(JSON.parse(b.outputs.results!)[0].warnings).toEqual([expect.stringMatching(handOver)])
    expect(b.stdout).toMatch(/^::warning title=Staging::Staging showed #10 /m)
    expect(b.summary.replace(/\\|\u200b/g, '')).toMatch(handOver)
  })

  test('if-staging-taken: fail names the open owner and sends nothing to the staging service', async () => {
    gh.pulls.set(10, 'open')
    expect((await action('pull', 10)).code).toBe(0)
    const before = stagingRequests().length
    const r = await action('pull', 12, { 'if-staging-taken': 'fail' })
    expect(r.code).toBe(1)
    expect(r.outputs.result).toBe('failed')
    expect(r.outputs.message).toMatch(
      /^Staging shows #10 .*and that pull request is open\. if-staging-taken is fail/,
    )
    expect(r.stdout).toMatch(/^::error::Staging pull failed \(site \d+\): Staging shows #10 /m)
    expect(r.stdout.match(/^::error/gm)).toHaveLength(1)
    expect(r.summary).toMatch(/Staging: not started/)
    expect(JSON.parse(r.outputs.results!)).toEqual([
      expect.objectContaining({
        operation: 'pull',
        result: 'failed',
        requests: 0,
        error: expect.objectContaining({ kind: 'not-started' }),
      }),
    ])
    expect(stagingRequests()).toHaveLength(before)
    expect(gh.deployments.filter((d) => d.environment === 'pr-12')).toEqual([])
  })

  test('operation: release on the closed owner: no staging request, the deployment inactive, the comment says so', async () => {
    expect((await action('pull', 10)).code).toBe(0)
    const before = sim.requests.length
    const r = await action('release', 10, { 'api-token': '', 'api-url': '' }, prEnv(10, 'closed'))
    expect(r.code).toBe(0)
    expect(r.outputs.result).toBe('succeeded')
    expect(r.outputs.message).toMatch(/^Released staging of site \d+: #10 was closed/)
    expect(JSON.parse(r.outputs.results!)).toEqual([
      expect.objectContaining({ operation: 'release', result: 'succeeded' }),
    ])
    expect(sim.requests).toHaveLength(before)
    expect(last(10).statuses.at(-1)!.state).toBe('inactive')
    expect(commentOn(10)[0]!.body).toContain('This pull request was closed at ')
    // Released twice: nothing more to release.
    const again = await action('release', 10, {}, prEnv(10, 'closed'))
    expect(again.outputs.result).toBe('skipped')
  })

  test('a pull request from a fork, without secrets: a clear message, nothing sent anywhere, the step skipped', async () => {
    const r = await action('pull', 31, { 'api-token': '' }, prEnv(31, 'synchronize', 7031, true))
    expect(r.code).toBe(0)
    expect(r.outputs.result).toBe('skipped')
    expect(r.outputs.message).toMatch(
      /^This pull request comes from the fork alice\/site-repo\. GitHub gives a fork's workflow run no secrets/,
    )
    expect(r.stdout).toMatch(/^::warning title=Staging::This pull request comes from the fork/m)
    expect(r.summary).toMatch(/^## ⏭️ Staging: skipped\n/)
    expect(sim.requests).toEqual([])
    expect(gh.requests).toEqual([])
  })
})
