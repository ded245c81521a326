// Slow (about 6 s): each test runs dist/index.js in real time, at least one poll (about 1 s) per job.
/**
 * Whole-action tests of `deployment-environment` that need the bundle: dist/index.js in a child
 * process, as the runner runs it (its GitHub client loaded from the bundle's own chunk), against the
 * simulator (the staging API) and a fake GitHub API on loopback (GITHUB_API_URL): the runner's
 * signal, and its files on a full disk. The other checks run the same step in virtual time
 * (step-deployments.test.ts). Build first: npm run build.
 */
import { beforeEach, describe, expect, test } from '@jest/globals'
import { SIM_SITES, SIM_TOKENS, type Simulator } from '../../simulator/server.js'
import { runBundledAction } from '../helpers/run-action.js'
import { eventEnv as githubEventEnv, type FakeGitHub } from './fake-github.js'
import { useActionWithGitHub } from './action-fixture.js'

const GH_TOKEN = 'ghs_whole-action-deployments-token-0099'
const PR = 12
const HEAD_SHA = '1234abcd'.padEnd(40, 'e')
const MERGE_SHA = '9876fedc'.padEnd(40, 'f')

const DURATIONS_MS = { create: 300, pull: 200, push: 200, delete: 200 }
const fixture = useActionWithGitHub(
  { durationsMs: DURATIONS_MS },
  {
    dirPrefix: 'deployments-test-',
    githubToken: GH_TOKEN,
  },
)
let sim: Simulator
let gh: FakeGitHub
let dir: string
beforeEach(() => {
  ;({ sim, gh, dir } = fixture.current())
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
  runBundledAction(
    {
      operation,
      'site-id': String(SIM_SITES.eligible),
      'api-token': SIM_TOKENS.readWrite,
      'api-url': sim.url,
      'github-token': GH_TOKEN,
      'deployment-environment': `pr-${PR}`,
      'if-exists': 'skip',
      ...extra,
    },
    { env },
  )

const states = (i = 0) => gh.deployments[i]!.statuses.map((s) => s.state)
const stagingPosts = () => sim.requests.filter((r) => r.method === 'POST' && r.path.includes('/staging'))

describe('deployment-environment in the whole action', () => {
  test('cancelled mid-run: the deployment gets error within a few seconds of the signal', async () => {
    sim.setOptions({ durationsMs: { create: 20_000 } })
    const r = await runBundledAction(
      {
        operation: 'create',
        'site-id': String(SIM_SITES.eligible),
        'api-token': SIM_TOKENS.readWrite,
        'api-url': sim.url,
        'github-token': GH_TOKEN,
        'deployment-environment': `pr-${PR}`,
      },
      { env: prEvent(), signal: { name: 'SIGINT', whenOutput: /: in progress\./ } },
    )
    expect(r.code).toBe(1)
    expect(r.outputs.result).toBe('cancelled')
    expect(states()).toEqual(['in_progress', 'error'])
    expect(gh.deployments[0]!.statuses[1]!.description).toBe('Staging create was cancelled.')
    // The runner kills 10 s after its first signal; the action is done well before.
    expect(r.exitAfterSignalMs!).toBeLessThan(5000)
  })
})

describe('a step whose outputs or summary cannot be written (a full disk)', () => {
  test('GITHUB_OUTPUT on a full disk: said as it is, the staging result still printed, the deployment closed with error', async () => {
    const r = await run('create', { ...prEvent(), GITHUB_OUTPUT: '/dev/full' })
    expect(r.code).toBe(1)
    expect(r.stdout).not.toMatch(/Unexpected error/)
    // The operation's own result, then what went wrong with the outputs, by name.
    expect(r.stdout).toMatch(/^Staging create succeeded/m)
    expect(r.stdout).toMatch(
      /^::error title=Step outputs not written::Could not write the step's outputs to the file GITHUB_OUTPUT names \(ENOSPC: no space left on device/m,
    )
    expect(r.stdout).toMatch(/^::error::The step's outputs could not be written \(ENOSPC/m)
    // The staging create did happen, and the summary still says so.
    expect(stagingPosts()).toHaveLength(1)
    expect(r.summary).toMatch(/Staging create: succeeded/)
    expect(states()).toEqual(['in_progress', 'error'])
    expect(gh.deployments[0]!.statuses[1]!.description).toBe(
      "Staging create ended, but the step's outputs were lost.",
    )
  })

  test('GITHUB_STEP_SUMMARY on a full disk: a warning; outputs, result and deployment as usual', async () => {
    const r = await run('create', { ...prEvent(), GITHUB_STEP_SUMMARY: '/dev/full' })
    expect(r.code).toBe(0)
    expect(r.outputs.result).toBe('succeeded')
    expect(r.stdout).toMatch(
      /^::warning title=Job summary not written::Could not write the job summary to the file GITHUB_STEP_SUMMARY names \(ENOSPC/m,
    )
    expect(states()).toEqual(['in_progress', 'success'])
  })
})
