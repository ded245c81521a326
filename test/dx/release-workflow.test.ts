// Slow (about 40 s): two whole release workflows, every action step a run of dist/index.js against
// the simulator in real time.
/**
 * examples/release.yml, run here as far as a workflow can run outside GitHub (test/dx/workflow-runner.ts):
 * the action's steps as the runner runs them (dist/index.js) against the simulator's service profile (the real
 * service's answers) and a fake GitHub API, the shell steps (the deploy placeholder, the smoke
 * test with curl) with bash, `if:` and `${{ }}` as the runner evaluates them. The approval of the
 * protected environment is GitHub's: the test checks the push job runs in `production`.
 */
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { SIM_SITES, SIM_TOKENS, start, type Simulator } from '../../simulator/server.js'
import { startFakeGitHub, type FakeGitHub } from '../github/fake-github.js'
import { runWorkflow, type Contexts } from './workflow-runner.js'

// A whole workflow takes seconds on an idle machine and minutes on a loaded one; each action step is
// killed after 2 minutes (workflow-runner.ts), so a hung step fails its test long before this.
jest.setTimeout(10 * 60_000)

let sim: Simulator
let gh: FakeGitHub
let production: Server
let productionUrl: string
/** The live site answers 503 while the CDN purge settles (the first requests after a push). */
let productionHits = 0

beforeAll(async () => {
  sim = await start({
    port: 0,
    profile: 'service',
    durationsMs: { create: 400, pull: 300, push: 300, delete: 200 },
    siteDelayMs: 200,
  })
  gh = await startFakeGitHub()
  production = createServer((_req, res) => {
    productionHits++
    res.writeHead(productionHits <= 2 ? 503 : 200, { 'content-type': 'text/html' })
    res.end('<h1>shop</h1>')
  })
  await new Promise<void>((r) => production.listen(0, '127.0.0.1', r))
  productionUrl = `http://127.0.0.1:${(production.address() as AddressInfo).port}/`
})
afterAll(async () => {
  await sim.stop()
  await gh.stop()
  production.closeAllConnections()
  production.close()
})

const contexts = (siteId: number): Contexts => ({
  vars: { SITE_ID: String(siteId), STAGING_API_URL: sim.apiUrl, PRODUCTION_URL: productionUrl },
  secrets: { STAGING_API_TOKEN: SIM_TOKENS.readWrite },
  github: { ref_name: 'v1.4.0', event: { release: { tag_name: 'v1.4.0' } } },
  env: {
    GITHUB_API_URL: gh.url,
    GITHUB_REPOSITORY: `${gh.owner}/${gh.repo}`,
    GITHUB_EVENT_NAME: 'release',
    GITHUB_SHA: 'c'.repeat(40),
    GITHUB_RUN_ID: '31337',
    GITHUB_SERVER_URL: 'https://github.example',
  },
})

describe('examples/release.yml against the service profile', () => {
  test('a site with staging: refreshed, deployed, smoke-tested, planned, pushed, production answers', async () => {
    sim.reset()
    productionHits = 0
    const site = SIM_SITES.withStaging
    const run = await runWorkflow('examples/release.yml', contexts(site))
    const failed = run.steps
      .filter((s) => !s.ok)
      .map((s) => `${s.job}/${s.name} (${s.elapsedMs} ms):\n${s.log.slice(-3000)}`)
    expect(failed).toEqual([])
    expect(run.jobs).toEqual([
      { name: 'staging', environment: null, ok: true },
      { name: 'plan', environment: null, ok: true },
      { name: 'production', environment: 'production', ok: true },
    ])

    const stagingUrl = sim.state.staging.get(String(site))!.url
    expect(run.step('Create staging (kept if it exists)').outputs.result).toBe('skipped')
    const pull = run.step('Refresh staging from production')
    expect(pull.outputs).toMatchObject({
      result: 'succeeded',
      'staging-url': stagingUrl,
      'url-ready': 'true',
    })
    expect(run.step("Deploy this release's code to staging").log).toContain(
      `Deploy the code of v1.4.0 to staging site ${50_000 + site} at ${stagingUrl}`,
    )
    expect(run.step('Smoke test staging').log).toContain(`Staging answers at ${stagingUrl}`)

    // The plan: a dry run that sent nothing that changes anything, and says what the push overwrites.
    const plan = run.step('What the push will and will not overwrite (dry run)')
    expect(plan.outputs.result).toBe('dry-run')
    expect(plan.log).toMatch(/will overwrite.*files and database/i)
    expect(plan.log).toMatch(/will not overwrite.*domains.*CDN.*SSL/i)

    const push = run.step('Push staging to production')
    expect(push.outputs).toMatchObject({ result: 'succeeded', 'production-check': 'passed' })
    expect(productionHits).toBeGreaterThanOrEqual(3)
    expect(run.step('Report').log).toContain('Release v1.4.0: push succeeded (production check: passed).')
    // The checkpoint taken before the push, and the way back, in the report.
    const checkpoint = push.outputs['checkpoint-id']!
    expect(checkpoint).toMatch(/^\d+$/)
    expect(run.step('Report').log).toContain(
      `run this workflow with rollback and checkpoint-id ${checkpoint}`,
    )
    const pushes = sim.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/staging/push'))
    expect(pushes).toHaveLength(1)
    // The staging deployment shows the staging URL.
    expect(
      gh.deployments
        .filter((d) => d.environment === 'staging')
        .at(-1)!
        .statuses.at(-1),
    ).toMatchObject({
      state: 'success',
      environment_url: stagingUrl,
    })
  })

  test('run by hand with rollback and the checkpoint id: only the rollback job runs, and production is back', async () => {
    sim.reset()
    productionHits = 0
    const site = SIM_SITES.withStaging
    const before = { ...sim.state.sites.get(String(site))!.content }
    const release = await runWorkflow('examples/release.yml', contexts(site))
    const checkpoint = release.step('Push staging to production').outputs['checkpoint-id']!
    // What went live proves wrong: production changes after the release (here, by hand).
    sim.state.sites.get(String(site))!.content = { files: 'broken', database: 'broken' }
    const base = contexts(site)
    const run = await runWorkflow('examples/release.yml', {
      ...base,
      github: { ...base.github, event_name: 'workflow_dispatch', event: {} },
      inputs: { operation: 'rollback', 'checkpoint-id': checkpoint },
      env: { ...base.env, GITHUB_EVENT_NAME: 'workflow_dispatch' },
    })
    expect(run.steps.filter((s) => !s.ok).map((s) => `${s.job}/${s.name}: ${s.log.slice(-2000)}`)).toEqual([])
    expect(run.jobs).toEqual([{ name: 'rollback', environment: 'production', ok: true }])
    expect(run.step('Restore production to the checkpoint').outputs).toMatchObject({
      result: 'succeeded',
      'checkpoint-id': checkpoint,
    })
    expect(sim.state.sites.get(String(site))!.content).toEqual(before)
  }, 180_000)

  test('a site without staging: created (already a fresh copy, no pull), then the same way to production', async () => {
    sim.reset()
    productionHits = 0
    const site = SIM_SITES.eligible
    const run = await runWorkflow('examples/release.yml', contexts(site))
    expect(
      run.steps
        .filter((s) => !s.ok)
        .map((s) => `${s.job}/${s.name} (${s.elapsedMs} ms): ${s.log.slice(-2000)}`),
    ).toEqual([])
    expect(run.step('Create staging (kept if it exists)').outputs).toMatchObject({
      result: 'succeeded',
      'url-ready': 'true',
    })
    expect(run.step('Refresh staging from production').skipped).toBe(true)
    expect(run.step('Push staging to production').outputs.result).toBe('succeeded')
  })
})
