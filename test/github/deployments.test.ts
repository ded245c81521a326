/** GitHub deployments (src/github/deployments.ts) against the fake GitHub API, in process. */
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals'
import {
  deactivateEnvironment,
  finalStatus,
  finishDeployment,
  MAX_DEACTIVATED,
  startDeployment,
  type DeploymentContext,
} from '../../src/github/deployments.js'
import { octokitFor } from '../../src/github/octokit.js'
import { Redactor } from '../../src/secrets/redactor.js'
import { createdResult } from '../helpers/fakes.js'
import { type Outcome, type Result } from '../../src/types.js'
import { startFakeGitHub, type FakeGitHub } from './fake-github.js'

const GH_TOKEN = 'ghs_deployments-test-token-789'
const SECRET = 'sk_live_secret-value-0123'
const SHA = 'abc1234'.padEnd(40, '0')
const RUN_URL = 'https://github.example/octo-org/site-repo/actions/runs/4242'

const result = (over: Partial<Result> = {}): Result =>
  createdResult({
    message: 'ok',
    ...over,
  })

let gh: FakeGitHub
let redactor: Redactor
beforeEach(async () => {
  gh = await startFakeGitHub()
  redactor = new Redactor()
  redactor.add(GH_TOKEN)
  redactor.add(SECRET)
})
afterEach(() => gh.stop())

const ctx = (environment = 'pr-12', logUrl: string | null = RUN_URL): DeploymentContext => ({
  octokit: octokitFor(GH_TOKEN, gh.url),
  repo: { owner: gh.owner, repo: gh.repo },
  environment,
  scrub: (t) => redactor.scrub(t),
  logUrl,
})

describe('finalStatus: what each outcome means for the deployment', () => {
  const one = (operation: string, outcome: Outcome, over: Partial<Result> = {}) =>
    finalStatus(operation, [
      result({ operation: operation as Result['operation'], result: outcome, ...over }),
    ])

  test.each([
    ['create', 'succeeded', 'success', true],
    ['pull', 'succeeded', 'success', true],
    ['push', 'succeeded', 'success', true],
    ['create', 'skipped', 'success', true], // staging exists, unchanged
    ['pull', 'skipped', 'inactive', false], // no staging (if-missing: skip)
    ['push', 'skipped', 'inactive', false],
    ['create', 'accepted', 'in_progress', true], // never success without evidence
    ['create', 'failed', 'failure', false],
    ['pull', 'timed-out', 'error', false],
    ['push', 'cancelled', 'error', false],
  ] as [string, Outcome, string, boolean][])('%s %s -> %s', (operation, outcome, state, withUrl) => {
    const s = one(operation, outcome)!
    expect(s.state).toBe(state)
    expect(s.environmentUrl).toBe(withUrl ? 'https://staging-1001.example.test/' : null)
    expect(s.description.length).toBeLessThanOrEqual(140)
  })

  test('a dry run, or no result at all, gives no status', () => {
    expect(one('create', 'dry-run')).toBeNull()
    expect(finalStatus('create', [])).toBeNull()
  })

  test('several sites: the worst outcome, and no environment_url (an environment has one URL)', () => {
    const s = finalStatus('pull', [result(), result({ siteId: '1002', stagingUrl: 'https://other.test/' })])!
    expect(s).toEqual({
      state: 'success',
      description: 'Staging pull succeeded (2 sites).',
      environmentUrl: null,
    })
    expect(finalStatus('pull', [result(), result({ siteId: '1002', result: 'failed' })])!.state).toBe(
      'failure',
    )
  })

  test('descriptions are our own words: no server text in any of them', () => {
    for (const outcome of ['succeeded', 'failed', 'timed-out', 'cancelled', 'accepted', 'skipped'] as const) {
      const s = one('create', outcome, { message: 'SERVER-TEXT', error: { kind: 'x', hint: 'SERVER-HINT' } })!
      expect(s.description).not.toMatch(/SERVER/)
    }
  })
})

describe('startDeployment and finishDeployment', () => {
  test('creates a deployment on the commit, in the environment, then marks it in_progress with the run link', async () => {
    const started = await startDeployment(ctx(), SHA, 'create', 1)
    expect(started).toEqual({ id: expect.any(Number), warning: null })
    expect(gh.deployments).toHaveLength(1)
    const d = gh.deployments[0]!
    expect(d).toMatchObject({
      id: started.id,
      ref: SHA,
      environment: 'pr-12',
      auto_merge: false,
      required_contexts: [],
      production_environment: false,
      transient_environment: false,
    })
    expect(d.statuses).toEqual([
      expect.objectContaining({
        state: 'in_progress',
        log_url: RUN_URL,
        description: 'Staging create started.',
      }),
    ])
    expect(d.statuses[0]!.environment_url).toBeUndefined()

    const warning = await finishDeployment(ctx(), started.id!, finalStatus('create', [result()])!)
    expect(warning).toBeNull()
    expect(d.statuses.at(-1)).toEqual(
      expect.objectContaining({
        state: 'success',
        environment_url: 'https://staging-1001.example.test/',
        log_url: RUN_URL,
        auto_inactive: true,
      }),
    )
  })

  test('a refused deployment (403) is a warning that names the permission', async () => {
    gh.refuse({ status: 403, message: 'Resource not accessible by integration' })
    const started = await startDeployment(ctx(), SHA, 'pull', 1)
    expect(started.id).toBeNull()
    expect(started.warning).toEqual(expect.stringContaining('permissions: deployments: write'))
    expect(started.warning).toContain('HTTP 403')
    expect(started.warning).toContain('The staging result is not affected')
  })

  test('a refused in_progress status keeps the deployment and warns', async () => {
    gh.refuse({ method: 'POST', path: /statuses$/, status: 404, message: 'Not Found' })
    const started = await startDeployment(ctx(), SHA, 'push', 1)
    expect(started.id).toBe(gh.deployments[0]!.id)
    expect(started.warning).toEqual(expect.stringContaining('deployments: write'))
  })

  test('an environment_url is only ever an http(s) URL, and never one holding a secret', async () => {
    const { id } = await startDeployment(ctx(), SHA, 'create', 1)
    for (const bad of [
      'javascript:alert(1)',
      'data:text/html,x',
      `https://x.test/?q=${SECRET}`,
      'https://u:p@x.test/',
    ]) {
      await finishDeployment(ctx(), id!, { state: 'success', description: 'x', environmentUrl: bad })
      expect(gh.deployments[0]!.statuses.at(-1)!.environment_url).toBeUndefined()
    }
    const sent = gh.requests.map((r) => r.body).join('\n')
    expect(sent).not.toContain(SECRET)
    expect(sent).not.toContain('javascript')
  })

  test('every string sent goes through the redactor, the environment name included', async () => {
    const started = await startDeployment(ctx(`env-${SECRET}`, `https://x.test/${SECRET}`), SHA, 'create', 1)
    expect(started.id).not.toBeNull()
    const sent = gh.requests.map((r) => r.body).join('\n')
    expect(sent).not.toContain(SECRET)
    expect(sent).not.toContain(GH_TOKEN)
    expect(gh.deployments[0]!.environment).toBe('env-***')
    expect(gh.deployments[0]!.statuses[0]!.log_url).toBeUndefined()
  })
})

describe('deactivateEnvironment (after a delete)', () => {
  test('marks every deployment of the environment inactive, across pages, and no other environment', async () => {
    for (let i = 0; i < 130; i++) gh.addDeployment('pr-12')
    const other = gh.addDeployment('pr-13')
    const done = await deactivateEnvironment(ctx())
    expect(done).toEqual({ deactivated: 130, left: 0, warning: null })
    for (const d of gh.deployments.filter((x) => x.environment === 'pr-12'))
      expect(d.statuses).toEqual([
        expect.objectContaining({ state: 'inactive', description: 'Staging environment deleted.' }),
      ])
    expect(other.statuses).toEqual([])
    const lists = gh.requests.filter((r) => r.method === 'GET').map((r) => r.path)
    expect(lists).toEqual([
      `/repos/${gh.owner}/${gh.repo}/deployments?environment=pr-12&per_page=100`,
      `/repos/${gh.owner}/${gh.repo}/deployments?environment=pr-12&per_page=100&page=2`,
    ])
  })

  test(`at most ${MAX_DEACTIVATED} (the newest); the rest are counted, not touched`, async () => {
    for (let i = 0; i < MAX_DEACTIVATED + 5; i++) gh.addDeployment('staging')
    const done = await deactivateEnvironment(ctx('staging'))
    expect(done).toEqual({ deactivated: MAX_DEACTIVATED, left: 5, warning: null })
    expect(gh.deployments.slice(0, 5).every((d) => d.statuses.length === 0)).toBe(true)
    expect(gh.deployments.slice(5).every((d) => d.statuses.length === 1)).toBe(true)
  })

  test('a refusal stops at the first one (the same request is not refused 100 times) and warns', async () => {
    for (let i = 0; i < 3; i++) gh.addDeployment('pr-12')
    gh.refuse({ method: 'POST', status: 403, message: 'Resource not accessible by integration' })
    const done = await deactivateEnvironment(ctx())
    expect(done.deactivated).toBe(0)
    expect(done.warning).toContain('permissions: deployments: write')
    expect(done.warning).toContain('3 of the environment')
    expect(gh.requests.filter((r) => r.method === 'POST')).toHaveLength(1)
  })

  test('no deployments: nothing to do, no warning', async () => {
    expect(await deactivateEnvironment(ctx())).toEqual({ deactivated: 0, left: 0, warning: null })
  })
})
