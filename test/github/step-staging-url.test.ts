/**
 * A staging URL on every run (issue 20 §1), the action's whole step in this process against the
 * simulator's API core (service profile: its create-skip and pull answers name no staging site and
 * it has no staging read) and the fake GitHub API on a virtual clock: the four sources in order,
 * each said in the summary; a URL from an earlier run or the staging-url input used only once it
 * answers (the staging site's own GET, served by the same core); wait-for-url with any source,
 * warning once.
 */
import { beforeEach, describe, expect, test } from '@jest/globals'
import { SIM_SITES, SIM_TOKENS } from '../../simulator/server.js'
import type { RunResult } from '../helpers/run-action.js'
import type { VirtualFaultSim } from '../helpers/virtual-action.js'
import { eventEnv, type FakeGitHub } from './fake-github.js'
import { useVirtualActionWithGitHub } from './action-fixture.js'

const SITE = String(SIM_SITES.withStaging)
const GH_TOKEN = 'ghs_staging-url-sources-0101'
const fixture = useVirtualActionWithGitHub(
  {
    profile: 'service',
    durationsMs: { create: 300, pull: 200, push: 200, delete: 200 },
    siteDelayMs: 100,
  },
  {
    dirPrefix: 'staging-url-',
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

const prEnv = () =>
  eventEnv(gh, dir, 'pull_request', {
    action: 'synchronize',
    number: 12,
    pull_request: { number: 12, head: { sha: 'ab'.repeat(20) } },
    repository: { name: 'site-repo', owner: { login: 'octo-org' } },
  })

const run = (operation: string, extra: Record<string, string> = {}) =>
  runStep(
    {
      operation,
      'site-id': SITE,
      'api-token': SIM_TOKENS.readWrite,
      'api-url': sim.apiUrl,
      'github-token': GH_TOKEN,
      'deployment-environment': 'pr-12',
      'if-exists': 'skip',
      ...extra,
    },
    prEnv(),
  )

/** The summary as it reads once rendered (Markdown's escapes dropped). */
const shown = (markdown: string) => markdown.replace(/\\(.)/g, '$1').replace(/`/g, '')

/** The service's site list with every linking field taken away (a list that cannot tell). */
const unlinkedList = () =>
  sim.addFault({
    method: 'GET',
    path: /\/sites\?/,
    times: Infinity,
    json: {
      status: true,
      message: 'ok',
      data: [{ id: 51002, name: 'blog-staging', url: 'https://x.test/' }],
    },
  })

describe('the PR-preview recipe on the service profile: a staging URL on every run', () => {
  test('create (skipped: staging exists) then pull: both report the URL and id from the site list; the deployment links it', async () => {
    const url = sim.state.staging.get(SITE)!.url
    const created = await run('create', { 'wait-for-url': 'true' })
    expect(created.outputs).toMatchObject({
      result: 'skipped',
      'staging-url': url,
      'staging-site-id': '51002',
    })
    const pulled = await run('pull', { 'wait-for-url': 'true' })
    expect(pulled.code).toBe(0)
    expect(pulled.outputs).toMatchObject({
      result: 'succeeded',
      'staging-url': url,
      'staging-site-id': '51002',
      'url-ready': 'true',
    })
    expect(shown(pulled.summary)).toContain('— from the site list, GET /v2/sites (field parent_id)')
    expect(pulled.stdout).not.toMatch(/no staging URL is known/)
    // "View deployment" works on every run.
    // (GitHub marks the older one inactive when the newer succeeds.)
    expect(gh.deployments.map((d) => d.statuses.find((s) => s.state === 'success')?.environment_url)).toEqual(
      [url, url],
    )
    expect(gh.deployments.at(-1)!.statuses.at(-1)!.state).toBe('success')
    expect(JSON.parse(pulled.outputs.results!)[0].stagingFrom).toEqual({
      siteId: 'the site list, GET /v2/sites (field parent_id)',
      url: 'the site list, GET /v2/sites (field parent_id)',
      notes: [],
    })
  })

  test('a list that cannot tell is skipped and said so; an earlier run’s deployment gives the URL once it answers', async () => {
    const url = sim.state.staging.get(SITE)!.url
    expect((await run('pull')).outputs['staging-url']).toBe(url) // recorded in the deployment
    unlinkedList()
    const r = await run('pull')
    expect(r.outputs).toMatchObject({ result: 'succeeded', 'staging-url': url, 'staging-site-id': '' })
    expect(shown(r.summary)).toContain(
      "_The site list (GET /v2/sites) was skipped: no record in it says which site is another site's staging._",
    )
    expect(shown(r.summary)).toContain(
      '— from the last successful GitHub deployment of environment "pr-12" (it answers)',
    )
  })

  test('the staging-url input: used once it answers; a URL that does not answer is not reported', async () => {
    unlinkedList()
    const url = sim.state.staging.get(SITE)!.url
    const good = await run('pull', { 'staging-url': url, 'deployment-environment': '' })
    expect(good.outputs['staging-url']).toBe(url)
    expect(shown(good.summary)).toContain('— from the staging-url input (it answers)')
    expect(sim.siteRequests).toEqual([expect.objectContaining({ path: new URL(url).pathname, status: 200 })])

    const dead = `${sim.url}/staging-sites/s-nope/`
    const bad = await run('pull', {
      'staging-url': dead,
      'deployment-environment': '',
      'wait-for-url': 'true',
    })
    expect(bad.outputs['staging-url']).toBe('')
    expect(shown(bad.summary)).toContain(
      `The staging-url input gave ${dead}, which did not answer: it was not used.`,
    )
    // It was asked again and again within its 10 s (most of them) before it was left out.
    const asked = sim.siteRequests.filter((v) => v.path === '/staging-sites/s-nope/')
    expect(asked.length).toBeGreaterThan(1)
    expect(asked.every((v) => v.status === 404)).toBe(true)
    const span = asked.at(-1)!.at - asked[0]!.at
    expect(span).toBeGreaterThan(5000)
    expect(span).toBeLessThanOrEqual(10_000)
    // wait-for-url had nothing to check: it says so once, not twice.
    expect(bad.stdout.match(/wait-for-url: no staging URL is known/g)).toHaveLength(1)
  })
})
