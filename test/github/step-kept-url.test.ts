/**
 * What a later read may undo (contract r4 §3, issue 25 §5, issue 24 §2), the action's whole step in
 * this process against the simulator's API core and the fake GitHub API on a virtual clock, on both
 * profiles: a create whose answer carries the staging URL keeps it in the outputs, the PR comment,
 * the deployment and wait-for-url (the staging site's own GET, served by the same core), although
 * the staging read after the job answers 404 and the site list does not name the staging site; the
 * run warns that its sources disagree.
 */
import { beforeEach, describe, expect, test } from '@jest/globals'
import { SIM_SITES, SIM_TOKENS } from '../../simulator/server.js'
import type { RunResult } from '../helpers/run-action.js'
import type { VirtualFaultSim } from '../helpers/virtual-action.js'
import { eventEnv, type FakeGitHub } from './fake-github.js'
import { useVirtualActionWithGitHub } from './action-fixture.js'

const SITE = String(SIM_SITES.eligible)
const GH_TOKEN = 'ghs_kept-staging-url-token-0425'
const fixture = useVirtualActionWithGitHub(
  { durationsMs: { create: 300, pull: 200, push: 200, delete: 200 }, siteDelayMs: 100 },
  { dirPrefix: 'kept-url-', githubToken: GH_TOKEN },
)
let sim: VirtualFaultSim
let gh: FakeGitHub
let dir: string
let runStep: (inputs: Record<string, string>, env: Record<string, string>) => Promise<RunResult>
beforeEach(() => {
  ;({ sim, gh, dir, run: runStep } = fixture.current())
})

/** The staging read answering 404 in the profile's own words, and the create answer naming no staging id. */
const FAULTS = {
  spec: () => {
    sim.addFault({
      method: 'POST',
      path: `/sites/${SITE}/staging`,
      patch: { data: { staging_site_id: null } },
    })
    sim.addFault({
      method: 'GET',
      path: new RegExp(`/sites/${SITE}/staging$`),
      times: Infinity,
      status: 404,
      json: { status: false, message: 'This site has no staging environment.', data: null },
    })
  },
  service: () => {
    // The task's resource_id is the staging site's id: without it, the run reads for the id.
    sim.addFault({ method: 'GET', path: '/tasks/', times: Infinity, patch: { data: { resource_id: null } } })
    sim.addFault({
      method: 'GET',
      path: new RegExp(`/sites/${SITE}/staging$`),
      times: Infinity,
      status: 404,
      json: { message: 'No query results for model [App\\Models\\StagingSite].' },
    })
  },
}

describe.each(['spec', 'service'] as const)('the %s profile', (profile) => {
  test("a later 404 and a list without the record never blank the create answer's staging URL", async () => {
    sim.setOptions({ profile })
    FAULTS[profile]()
    // The site list links a staging site to another site only (read whole: one page, its last).
    sim.addFault({
      method: 'GET',
      path: /\/sites\?/,
      times: Infinity,
      json: {
        status: true,
        message: 'ok',
        data: [{ id: 7, is_staging: true, parent_id: 1005, url: 'https://other.example.test/' }],
        meta: { current_page: 1, last_page: 1, total: 1 },
      },
    })
    const env = eventEnv(gh, dir, 'pull_request', {
      action: 'synchronize',
      number: 12,
      pull_request: { number: 12, head: { sha: 'cd'.repeat(20) } },
      repository: { name: 'site-repo', owner: { login: 'octo-org' } },
    })
    const r = await runStep(
      {
        operation: 'create',
        'site-id': SITE,
        'api-token': SIM_TOKENS.readWrite,
        'api-url': sim.apiUrl,
        'github-token': GH_TOKEN,
        'deployment-environment': 'pr-12',
        'pr-comment': 'true',
        'wait-for-url': 'true',
      },
      env,
    )
    const url = sim.state.staging.get(SITE)!.url
    // The read after the job did answer 404.
    expect(
      sim.requests.filter((q) => q.method === 'GET' && q.path.endsWith(`/sites/${SITE}/staging`)),
    ).toEqual([expect.objectContaining({ status: 404 })])
    expect(r.code).toBe(0)
    expect(r.outputs).toMatchObject({ result: 'succeeded', 'staging-url': url, 'url-ready': 'true' })
    expect(JSON.parse(r.outputs.results!)[0].stagingFrom).toMatchObject({ url: 'the create answer' })
    expect(r.stdout).toMatch(
      /answered 404\) says there is no staging environment, but the create answer named the staging site at .*: the sources disagree/,
    )
    expect(r.stdout).toMatch(
      /The site list \(GET \/v2\/sites\) says there is no staging environment, but the create answer named/,
    )
    // The PR comment and the deployment link it.
    expect(gh.comments).toHaveLength(1)
    expect(gh.comments[0]!.body).toContain(url)
    expect(gh.deployments.at(-1)!.statuses.at(-1)).toMatchObject({ state: 'success', environment_url: url })
    // wait-for-url asked that URL itself, and it answered.
    expect(sim.siteRequests.at(-1)).toMatchObject({ method: 'GET', path: new URL(url).pathname, status: 200 })
  })
})
