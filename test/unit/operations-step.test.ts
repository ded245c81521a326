/**
 * The four operations, a refusal, the timeout and the masking of credentials from answers, through
 * the action's whole step (src/action.ts's runAction: its inputs, writer, outputs and job summary)
 * in this process against the simulator's API core on a virtual clock, on both profiles (contract
 * §10): a job's polls and a timeout take no real time, and no margin depends on the machine. What
 * only the bundle shows (the token masked in the real stdout before anything else, debug mode, the
 * runner's files and the process's exit code) is test/action/operations.ts.
 */
import { describe, expect, it } from '@jest/globals'
import { OUTPUT_NAMES } from '../../src/report/outputs.js'
import { leaks } from '../helpers/run-action.js'
import { EACH_PROFILE, FAST, RW, sentTo } from '../helpers/sim.js'
import { runActionVirtually, useVirtualSimulator } from '../helpers/virtual-action.js'

describe.each(EACH_PROFILE)('operations in virtual time, profile %s', (profile, p) => {
  const { sim } = useVirtualSimulator({ ...FAST, profile })

  /** Every output is set, on every path. */
  function expectAllOutputs(outputs: Record<string, string>) {
    for (const name of OUTPUT_NAMES) expect(Object.keys(outputs)).toContain(name)
  }

  describe('the four operations, end to end', () => {
    it('create: waits for the job, reports the staging site, and the service sent its e-mail', async () => {
      const run = await runActionVirtually(sim(), { operation: 'create', 'site-id': '1001' })
      expect(run.code).toBe(0)
      expectAllOutputs(run.outputs)
      expect(run.outputs).toMatchObject({
        result: 'succeeded',
        'http-status': String(p.accepted),
        'staging-site-id': p.stagingId('1001'),
        'staging-url': `${sim().url}/staging-sites/s-1001/`,
        retries: '0',
      })
      expect(run.outputs['task-id']).toMatch(/^[0-9a-f]{12}$/)
      expect(Number(run.outputs.requests)).toBeGreaterThanOrEqual(2)
      expect(Number(run.outputs.requests)).toBe(sim().requests.length)
      expect(sim().state.staging.get('1001')?.status).toBe('ready')
      expect(sim().state.outbox).toHaveLength(1)
      expect(run.summary).toContain('| Result | ✅ succeeded |')
      const url = `${sim().url}/staging-sites/s-1001/`
      // Where it came from is said (issue 20 §1).
      expect(run.summary).toContain(`| Staging URL | [${url}](${url}) — from the create answer |`)
      // Exactly the headers of the spec.
      const post = sentTo(sim(), 'POST', '/sites/1001/staging')[0]!
      expect(post.contentType).toBe('application/json')
      expect(post.localization).toBe('en')
      expect(post.token).toBe('rw')
    })

    it('debug lines (one per request) only with debug logging on (RUNNER_DEBUG), as the runner shows them', async () => {
      const quiet = await runActionVirtually(sim(), { operation: 'create', 'site-id': '1001' })
      expect(quiet.code).toBe(0)
      expect(quiet.stdout).not.toContain('::debug::')
      const debug = await runActionVirtually(
        sim(),
        { operation: 'delete', 'site-id': '1001' },
        { env: { RUNNER_DEBUG: '1' } },
      )
      expect(debug.code).toBe(0)
      const requests = debug.stdout.split('\n').filter((l) => /^::debug::(GET|POST|DELETE) \//.test(l))
      expect(requests.length).toBe(Number(debug.outputs.requests))
    })

    it('pull: staging becomes a copy of production, and keeps its URL and SSH credentials', async () => {
      const before = { ...sim().state.staging.get('1002')! }
      // Production changes first, as POST /__sim/sites/1002/content { target: production } changes it.
      sim().state.sites.get('1002')!.content = { files: 'prod-v2', database: 'prod-v2' }
      const run = await runActionVirtually(sim(), { operation: 'reset', 'site-id': '1002' })
      expect(run.code).toBe(0)
      expect(run.outputs.result).toBe('succeeded')
      const staging = sim().state.staging.get('1002')!
      expect(staging.content).toEqual(sim().state.sites.get('1002')!.content)
      expect(staging.content).not.toEqual(before.content)
      expect(staging.url).toBe(before.url)
      expect(staging.ssh_password).toBe(before.ssh_password)
      // Staging is read once after the job where the service offers a way to read it; else the site
      // list names it, by the field that links the staging record to its production site.
      expect(run.outputs['staging-url']).toBe(before.url)
      expect(JSON.parse(run.outputs.results!)[0].stagingFrom.url).toBe(
        p.probe ? 'the staging environment' : 'the site list, GET /v2/sites (field parent_id)',
      )
      expect(sentTo(sim(), 'POST', '/staging/reset')).toHaveLength(1)
    })

    it('push: production becomes the staging copy, its cache is purged, and the three warnings are shown', async () => {
      const stagingContent = { ...sim().state.staging.get('1002')!.content }
      // Without a checkpoint (test/unit/checkpoint-step.test.ts has the push with one): the no-backup warning holds.
      const run = await runActionVirtually(sim(), {
        operation: 'push',
        'site-id': '1002',
        checkpoint: 'none',
      })
      expect(run.code).toBe(0)
      expect(sim().state.sites.get('1002')!.content).toEqual(stagingContent)
      expect(sim().state.purges.map((p) => p.site_id)).toEqual([1002])
      expect(run.stdout).toMatch(/::warning title=Staging::No backup of production was taken/)
      expect(run.stdout).toMatch(
        /::warning title=Staging::If production was password-protected, that protection is now off/,
      )
      expect(run.stdout).toMatch(/::warning title=Staging::The production site's CDN cache was purged/)
      expect(run.summary).toContain('### ⚠️ Warnings')
      expect(run.summary).toContain('No backup of production')
      expect(sentTo(sim(), 'POST', '/staging/push')).toHaveLength(1)
    })

    it('delete: staging is gone and production is as it was', async () => {
      const production = JSON.stringify(sim().state.sites.get('1002'))
      const run = await runActionVirtually(sim(), { operation: 'delete', 'site-id': '1002' })
      expect(run.code).toBe(0)
      expect(run.outputs.result).toBe('succeeded')
      expect(sim().state.staging.has('1002')).toBe(false)
      expect(JSON.stringify(sim().state.sites.get('1002'))).toBe(production)
      expect(sentTo(sim(), 'DELETE', '/sites/1002/staging')).toHaveLength(1)
    })
  })

  describe('policies', () => {
    it('if-exists: fail (default) fails on an existing staging site, with the hint', async () => {
      const run = await runActionVirtually(sim(), { operation: 'create', 'site-id': '1002' })
      expect(run.code).toBe(1)
      expect(run.outputs).toMatchObject({ result: 'failed', 'http-status': '422' })
      expect(run.stdout).toMatch(/::error title=Staging create failed \(site 1002\)::.*if-exists: skip/)
      expect(run.summary).toContain('**What to do:**')
    })
  })

  describe('waiting', () => {
    it('the timeout ends the run as timed-out, saying the job may still be running', async () => {
      // A job of ten minutes, a timeout of 3 s: on the virtual clock no busy machine stretches the
      // run, so it ends at its timeout, not merely well before the job.
      sim().setOptions({ durationsMs: { create: 10 * 60_000 } })
      const run = await runActionVirtually(sim(), { operation: 'create', 'site-id': '1001', timeout: '3s' })
      expect(run.code).toBe(1)
      expect(run.outputs.result).toBe('timed-out')
      expect(run.stdout).toMatch(/may still be running on the server/)
      expect(run.summary).toMatch(/may still be running on the server/)
      expect(run.summary).toMatch(/operation: status, site-id: 1001, task-id: [0-9a-f]{12}/)
      expect(run.elapsedMs).toBeGreaterThanOrEqual(3000)
      expect(run.elapsedMs).toBeLessThan(45_000)
      // One deadline for the whole step: not a poll interval later (as the core alone, against-simulator.test.ts).
      expect(run.elapsedMs).toBeLessThanOrEqual(3000 + 100)
      expect(sim().state.staging.get('1001')?.status).not.toBe('ready')
    })
  })

  describe('secrets', () => {
    it('credentials in API responses are masked and never output', async () => {
      if (!p.probe)
        sim().addFault({
          method: 'GET',
          path: '/tasks/',
          patch: {
            data: {
              ssh_password: sim().state.staging.get('1002')!.ssh_password,
              wp_password: sim().state.staging.get('1002')!.wp_password,
            },
          },
          times: Infinity,
        })
      const run = await runActionVirtually(sim(), { operation: 'pull', 'site-id': '1002' })
      const staging = sim().state.staging.get('1002')!
      expect(run.stdout).toContain(`::add-mask::${staging.ssh_password}`)
      for (const secret of [staging.ssh_password, staging.wp_password])
        expect(leaks(run.everything, secret)).toEqual([])
      expect(leaks(run.everything, RW)).toEqual([])
    })
  })
})

// Contract §3: a staging read that answers 200 names the staging environment in its data, or names none.
describe('status, where the staging read answers 200 without a staging record', () => {
  const { sim } = useVirtualSimulator({ ...FAST, profile: 'spec' })
  it.each([null, [], {}, { id: 1002, name: 'shop', status: 0, url: 'https://shop.example.com' }])(
    'data %j is no evidence of a staging environment: not "has one", not green',
    async (data) => {
      sim().addFault({
        method: 'GET',
        path: '/sites/1002/staging',
        json: { status: true, message: 'OK', data },
      })
      const run = await runActionVirtually(sim(), { operation: 'status', 'site-id': '1002' })
      expect(run.outputs.result).toBe('failed')
      expect(run.stdout).toMatch(/Whether site 1002 has a staging environment is not known/)
    },
  )
})
