/**
 * `deployment-environment` in the action's whole step: src/action.ts's runAction in this process,
 * as the runner would run it, against the simulator's API core and the fake GitHub API in this
 * process (GitHub's fetch seam), on a virtual clock. What needs the bundle (a signal, the runner's
 * files on a full disk) is in action-deployments.test.ts.
 */
import { beforeEach, describe, expect, test } from '@jest/globals'
import { SIM_SITES, SIM_TOKENS } from '../../simulator/server.js'
import { leaks, type RunResult } from '../helpers/run-action.js'
import type { VirtualFaultSim } from '../helpers/virtual-action.js'
import { eventEnv as githubEventEnv, type FakeGitHub } from './fake-github.js'
import { useVirtualActionWithGitHub } from './action-fixture.js'

const GH_TOKEN = 'ghs_whole-action-deployments-token-0099'
const PR = 12
const HEAD_SHA = '1234abcd'.padEnd(40, 'e')
const MERGE_SHA = '9876fedc'.padEnd(40, 'f')
const RUN_URL = 'https://github.example/octo-org/site-repo/actions/runs/4242'

const DURATIONS_MS = { create: 300, pull: 200, push: 200, delete: 200 }
const fixture = useVirtualActionWithGitHub(
  { durationsMs: DURATIONS_MS },
  {
    dirPrefix: 'deployments-test-',
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

const eventEnv = (eventName: string, payload: unknown) =>
  githubEventEnv(gh, dir, eventName, payload, { GITHUB_SHA: MERGE_SHA })

const prEvent = () =>
  eventEnv('pull_request', {
    action: 'synchronize',
    number: PR,
    pull_request: { number: PR, head: { ref: 'feature', sha: HEAD_SHA } },
    repository: { name: 'site-repo', owner: { login: 'octo-org' } },
  })

const run = (operation: string, env: Record<string, string>, extra: Record<string, string> = {}) =>
  runStep(
    {
      operation,
      'site-id': String(SIM_SITES.eligible),
      'api-token': SIM_TOKENS.readWrite,
      'api-url': sim.apiUrl,
      'github-token': GH_TOKEN,
      'deployment-environment': `pr-${PR}`,
      'if-exists': 'skip',
      ...extra,
    },
    env,
  )

const states = (i = 0) => gh.deployments[i]!.statuses.map((s) => s.state)
const stagingPosts = () => sim.requests.filter((r) => r.method === 'POST' && r.path.includes('/staging'))

describe('deployment-environment in the whole step', () => {
  test('create: a deployment on the PR head commit, in_progress before the operation, then success with the staging URL', async () => {
    const r = await run('create', prEvent())
    expect(r.code).toBe(0)
    expect(r.outputs.result).toBe('succeeded')
    const url = r.outputs['staging-url']!
    expect(url).toMatch(/^https?:\/\//)

    expect(gh.deployments).toHaveLength(1)
    const d = gh.deployments[0]!
    expect(d).toMatchObject({
      ref: HEAD_SHA,
      environment: 'pr-12',
      auto_merge: false,
      required_contexts: [],
      production_environment: false,
      transient_environment: false,
    })
    expect(r.outputs['deployment-id']).toBe(String(d.id))
    expect(states()).toEqual(['in_progress', 'success'])
    expect(d.statuses[0]!.log_url).toBe(RUN_URL)
    expect(d.statuses[1]).toMatchObject({ environment_url: url, log_url: RUN_URL, auto_inactive: true })

    // The deployment was in progress before the staging API saw the create.
    const inProgress = gh.requests.find((q) => q.method === 'POST' && q.path.endsWith('/statuses'))!
    expect(stagingPosts()).toHaveLength(1)
    expect(inProgress.at).toBeLessThanOrEqual(stagingPosts()[0]!.at)
    expect(r.stdout).toMatch(
      new RegExp(`Deployment ${d.id} for environment "pr-12" on 1234abcdeeee: in progress`),
    )
    expect(gh.requests.every((q) => q.authorization === `token ${GH_TOKEN}`)).toBe(true)
  })

  test('a failed run: the deployment says failure, and the step still fails as the staging result says', async () => {
    sim.addFault({ method: 'POST', path: '/staging', status: 500, body: 'echo-token', times: Infinity })
    const r = await run('create', prEvent(), { 'max-retries': '0' })
    expect(r.code).toBe(1)
    expect(r.outputs.result).toBe('failed')
    expect(states()).toEqual(['in_progress', 'failure'])
    expect(gh.deployments[0]!.statuses[1]!.environment_url).toBeUndefined()
    // Our own words only: the server's message (which echoed the token) is not in the description.
    expect(gh.deployments[0]!.statuses[1]!.description).toBe('Staging create failed.')
  })

  test('delete: no new deployment; every deployment of the environment becomes inactive', async () => {
    const env = prEvent()
    const created = await run('create', env)
    expect(created.code).toBe(0)
    const pulled = await run('pull', env)
    expect(pulled.code).toBe(0)
    expect(gh.deployments).toHaveLength(2)
    expect(states(1)).toEqual(['in_progress', 'success'])
    expect(gh.deployments[1]!.statuses[1]!.environment_url).toBe(pulled.outputs['staging-url'])
    gh.addDeployment('pr-99') // another pull request's environment: left alone

    const deleted = await run('delete', env)
    expect(deleted.code).toBe(0)
    expect(deleted.outputs.result).toBe('succeeded')
    expect(deleted.outputs['deployment-id']).toBe('')
    expect(gh.deployments.filter((d) => d.environment === 'pr-12')).toHaveLength(2)
    expect(states(0).at(-1)).toBe('inactive')
    expect(states(1).at(-1)).toBe('inactive')
    expect(gh.deployments[2]!.statuses).toEqual([])
    expect(gh.requests.filter((q) => q.method === 'POST' && q.path.endsWith('/deployments'))).toHaveLength(2)
    expect(deleted.stdout).toMatch(/Marked 2 deployment\(s\) of environment "pr-12" inactive/)
  })

  test('a 403 is a warning naming the permission; the step succeeds and nothing else is tried', async () => {
    gh.refuse({ status: 403, message: 'Resource not accessible by integration' })
    const r = await run('create', prEvent())
    expect(r.code).toBe(0)
    expect(r.outputs.result).toBe('succeeded')
    expect(r.outputs['deployment-id']).toBe('')
    expect(r.stdout).toMatch(
      /^::warning title=GitHub deployment::Could not create a deployment for environment "pr-12" \(HTTP 403: Resource not accessible by integration[^)]*\)\. The github-token lacks the permission "deployments: write" \(permissions: deployments: write\)/m,
    )
    // The read of who staging shows, then the refused create; nothing after.
    expect(gh.requests.map((q) => q.method)).toEqual(['GET', 'POST'])
  })

  test('GitHub answering 502 to everything, echoing the token: warnings with the token masked; the staging result stands', async () => {
    gh.refuse({ status: 502, message: `Bad gateway for token ${GH_TOKEN}` })
    const r = await run('create', prEvent(), { 'pr-comment': 'true' })
    expect(r.code).toBe(0)
    expect(r.outputs.result).toBe('succeeded')
    expect(r.outputs['deployment-id']).toBe('')
    expect(stagingPosts()).toHaveLength(1)
    // Each of GitHub's jobs tried once and gave up on its first refusal: no retry, nothing after it.
    expect(gh.requests.map((q) => `${q.method} ${q.path.replace(/\?.*/, '')}`)).toEqual([
      'GET /repos/octo-org/site-repo/deployments',
      'POST /repos/octo-org/site-repo/deployments',
      'GET /repos/octo-org/site-repo/issues/12/comments',
    ])
    const warnings = r.stdout.split('\n').filter((l) => l.startsWith('::warning'))
    expect(warnings).toEqual([
      expect.stringMatching(
        /^::warning title=GitHub deployment::Could not create a deployment for environment "pr-12" \(HTTP 502: Bad gateway for token \*\*\*/,
      ),
      expect.stringMatching(
        /^::warning title=Pull-request comment::Could not read the comments .*\(HTTP 502: /,
      ),
    ])
    expect(leaks(r.everything, GH_TOKEN)).toEqual([])
  })

  test('on a push event the deployment is for GITHUB_SHA; a dry run makes none', async () => {
    const push = eventEnv('push', { ref: 'refs/heads/main' })
    const r = await run('pull', push, { 'site-id': String(SIM_SITES.withStaging) })
    expect(r.code).toBe(0)
    expect(gh.deployments.map((d) => d.ref)).toEqual([MERGE_SHA])
    expect(states()).toEqual(['in_progress', 'success'])

    const dry = await run('push', push, { 'dry-run': 'true', 'site-id': String(SIM_SITES.withStaging) })
    expect(dry.outputs.result).toBe('dry-run')
    expect(gh.deployments).toHaveLength(1)
    expect(dry.outputs['deployment-id']).toBe('')
  })
})
