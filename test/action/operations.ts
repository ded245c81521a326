import { describe, expect, it } from '@jest/globals'
import { OUTPUT_NAMES } from '../../src/report/outputs.js'
import { leaks } from '../helpers/run-action.js'
import {
  profileOfThisFile,
  FAST,
  RO,
  RW,
  finishNow,
  runAgainst,
  sentTo,
  useSimulator,
} from '../helpers/sim.js'

// Every test below runs against both simulator profiles (contract §10), one test file per profile
// (operations.<profile>-profile.test.ts); PROFILES says how they differ.
describe.each(profileOfThisFile())('profile %s', (profile, p) => {
  const { sim } = useSimulator({ ...FAST, profile })

  /** Every output is set, on every path. */
  function expectAllOutputs(outputs: Record<string, string>) {
    for (const name of OUTPUT_NAMES) expect(Object.keys(outputs)).toContain(name)
  }

  describe('the four operations, end to end (dist/index.js against the simulator)', () => {
    it('create: waits for the job, reports the staging site, and the service sent its e-mail', async () => {
      const run = await runAgainst(sim(), { operation: 'create', 'site-id': '1001' })
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

    it('pull: staging becomes a copy of production, and keeps its URL and SSH credentials', async () => {
      const before = { ...sim().state.staging.get('1002')! }
      await fetch(`${sim().url}/__sim/sites/1002/content`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ target: 'production' }),
      })
      const run = await runAgainst(sim(), { operation: 'reset', 'site-id': '1002' })
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
      // Without a checkpoint (checkpoint.ts has the push with one): the no-backup warning holds.
      const run = await runAgainst(sim(), { operation: 'push', 'site-id': '1002', checkpoint: 'none' })
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
      const run = await runAgainst(sim(), { operation: 'delete', 'site-id': '1002' })
      expect(run.code).toBe(0)
      expect(run.outputs.result).toBe('succeeded')
      expect(sim().state.staging.has('1002')).toBe(false)
      expect(JSON.stringify(sim().state.sites.get('1002'))).toBe(production)
      expect(sentTo(sim(), 'DELETE', '/sites/1002/staging')).toHaveLength(1)
    })

    it('speaks Spanish when asked (only the message changes)', async () => {
      const run = await runAgainst(sim(), { operation: 'pull', 'site-id': '1002', language: 'es' })
      expect(run.outputs.result).toBe('succeeded')
      expect(sim().requests[0]!.localization).toBe('es')
      expect(run.outputs.message).not.toBe('')
      const english = await runAgainst(sim(), { operation: 'pull', 'site-id': '1002', language: 'en' })
      expect(english.outputs.message).not.toBe(run.outputs.message)
    })
  })

  describe('policies', () => {
    it('if-exists: fail (default) fails on an existing staging site, with the hint', async () => {
      const run = await runAgainst(sim(), { operation: 'create', 'site-id': '1002' })
      expect(run.code).toBe(1)
      expect(run.outputs).toMatchObject({ result: 'failed', 'http-status': '422' })
      expect(run.stdout).toMatch(/::error title=Staging create failed \(site 1002\)::.*if-exists: skip/)
      expect(run.summary).toContain('**What to do:**')
    })
    it('if-exists: skip succeeds as skipped and still gives the staging URL', async () => {
      const run = await runAgainst(sim(), { operation: 'create', 'site-id': '1002', 'if-exists': 'skip' })
      expect(run.code).toBe(0)
      expect(run.outputs.result).toBe('skipped')
      expect(run.outputs['staging-url']).toBe(sim().state.staging.get('1002')!.url)
    })
    it('if-exists: recreate deletes the old staging site, then creates a new one', async () => {
      const run = await runAgainst(sim(), { operation: 'create', 'site-id': '1002', 'if-exists': 'recreate' })
      expect(run.code).toBe(0)
      expect(run.outputs.result).toBe('succeeded')
      expect(
        sim()
          .requests.filter((r) => r.method !== 'GET')
          .map((r) => `${r.method} ${r.status}`),
      ).toEqual(['POST 422', `DELETE ${p.accepted}`, `POST ${p.accepted}`])
      expect(sim().state.staging.get('1002')?.status).toBe('ready')
    })
    it('if-missing: skip skips a pull on a site with no staging', async () => {
      const run = await runAgainst(sim(), { operation: 'pull', 'site-id': '1001', 'if-missing': 'skip' })
      expect(run.code).toBe(0)
      expect(run.outputs).toMatchObject({ result: 'skipped', 'http-status': '404' })
    })
    it('if-missing: fail fails a delete on a site with no staging', async () => {
      const run = await runAgainst(sim(), { operation: 'delete', 'site-id': '1001' })
      expect(run.code).toBe(1)
      expect(run.outputs).toMatchObject({ result: 'failed', 'http-status': '404' })
    })
    it('if-busy: wait waits for the running pull, then pushes once', async () => {
      // A long pull, ended once the action has said the site is busy: no race with a short one.
      sim().setOptions({ durationsMs: { pull: 60_000 } })
      const busy = await fetch(`${sim().apiUrl}/v2/sites/1002/staging/reset`, {
        method: 'POST',
        headers: { authorization: `Bearer ${RW}`, 'content-type': 'application/json' },
      })
      expect(busy.ok).toBe(true)
      const pull = ((await busy.json()) as { data: { task_id: string } }).data.task_id
      const run = await runAgainst(
        sim(),
        { operation: 'push', 'site-id': '1002', 'if-busy': 'wait' },
        { onOutput: { when: /busy with another job/, then: () => finishNow(sim(), pull) } },
      )
      expect(run.code).toBe(0)
      expect(run.outputs.result).toBe('succeeded')
      expect(Number(run.outputs.retries)).toBeGreaterThanOrEqual(1)
      expect(run.stdout).toMatch(/busy with another job/)
      expect(sentTo(sim(), 'POST', '/staging/push').filter((r) => r.status === p.accepted)).toHaveLength(1)
    })
    it("if-busy: fail fails at once (409, or the service family's 422 that says a sync runs)", async () => {
      sim().setOptions({ durationsMs: { pull: 3000 } })
      await fetch(`${sim().apiUrl}/v2/sites/1002/staging/reset`, {
        method: 'POST',
        headers: { authorization: `Bearer ${RW}`, 'content-type': 'application/json' },
      })
      const run = await runAgainst(sim(), {
        operation: 'push',
        'site-id': '1002',
        'if-busy': 'fail',
        checkpoint: 'none',
      })
      expect(run.code).toBe(1)
      expect(run.outputs).toMatchObject({ result: 'failed', 'http-status': String(p.busy) })
      expect(sentTo(sim(), 'POST', '/staging/push')).toHaveLength(1)
    })
    it('wait: false ends as accepted right after the request', async () => {
      const run = await runAgainst(sim(), { operation: 'create', 'site-id': '1001', wait: 'false' })
      expect(run.code).toBe(0)
      expect(run.outputs.result).toBe('accepted')
      expect(run.outputs.requests).toBe('1')
    })
    it('dry-run sends nothing that changes anything', async () => {
      const run = await runAgainst(sim(), { operation: 'push', 'site-id': '1002', 'dry-run': 'true' })
      expect(run.code).toBe(0)
      expect(run.outputs.result).toBe('dry-run')
      expect(sim().requests.every((r) => r.method === 'GET')).toBe(true)
      expect(run.stdout).toContain(`POST ${sim().apiUrl}/v2/sites/1002/staging/push`)
    })
  })

  describe('refusals', () => {
    it.each([
      ['2001', /plan/i],
      ['3001', /WaaS/i],
      ['4001', /portal/i],
    ])(
      'create on ineligible site %s is refused (403, or 422 for the plan in the service family) and says why',
      async (site, why) => {
        const run = await runAgainst(sim(), { operation: 'create', 'site-id': site })
        expect(run.code).toBe(1)
        expect(run.outputs).toMatchObject({
          result: 'failed',
          'http-status': String(site === '2001' ? p.plan : 403),
        })
        expect(run.outputs.message).toMatch(why)
        expect(run.stdout).toMatch(/plan may not include staging/)
      },
    )
    it('a wrong token fails with 401 and the hint to check the secret', async () => {
      const run = await runAgainst(sim(), {
        operation: 'pull',
        'site-id': '1002',
        'api-token': 'wrong-token-123456',
      })
      expect(run.code).toBe(1)
      expect(run.outputs).toMatchObject({ result: 'failed', 'http-status': '401' })
      expect(run.stdout).toMatch(/check that the api-token secret/)
      expect(leaks(run.everything, 'wrong-token-123456')).toEqual([])
    })
    it('a read-only token fails with 403', async () => {
      const run = await runAgainst(sim(), { operation: 'pull', 'site-id': '1002', 'api-token': RO })
      expect(run.outputs).toMatchObject({ result: 'failed', 'http-status': '403' })
    })
  })

  describe('waiting', () => {
    it('the timeout ends the run as timed-out, saying the job may still be running', async () => {
      sim().setOptions({ durationsMs: { create: 60_000 } })
      const run = await runAgainst(sim(), { operation: 'create', 'site-id': '1001', timeout: '3s' })
      expect(run.code).toBe(1)
      expect(run.outputs.result).toBe('timed-out')
      expect(run.stdout).toMatch(/may still be running on the server/)
      expect(run.summary).toMatch(/may still be running on the server/)
      expect(run.summary).toMatch(/operation: status, site-id: 1001, task-id: [0-9a-f]{12}/)
      expect(run.elapsedMs).toBeLessThan(15_000)
    })
    it('without task ids, follows the staging environment; where the service cannot read it, ends accepted', async () => {
      sim().setOptions({ taskIds: false })
      const run = await runAgainst(sim(), { operation: 'create', 'site-id': '1001' })
      expect(sentTo(sim(), 'GET', '/sites/1001/staging').length).toBeGreaterThan(0)
      if (p.probe) expect(run.outputs).toMatchObject({ result: 'succeeded', 'task-id': '' })
      else {
        // The service family answers the probe route 405: the job cannot be followed (contract §3).
        expect(run.outputs).toMatchObject({ result: 'accepted', 'task-id': '' })
        expect(run.stdout).toMatch(
          /::warning.*cannot be tracked: the service offers no way to read the staging environment's status \(HTTP 405\)/,
        )
      }
    })
    it('when completion cannot be tracked, the result is accepted with a warning, never succeeded', async () => {
      sim().setOptions({ taskIds: false, probe: false })
      const run = await runAgainst(sim(), { operation: 'pull', 'site-id': '1002' })
      expect(run.code).toBe(0)
      expect(run.outputs.result).toBe('accepted')
      expect(run.stdout).toMatch(/::warning.*cannot be tracked/)
    })
    it('a task invisible at first is waited for', async () => {
      sim().setOptions({ taskVisibilityDelayMs: 2500 })
      const run = await runAgainst(sim(), { operation: 'pull', 'site-id': '1002' })
      expect(run.outputs.result).toBe('succeeded')
      expect(sim().requests.some((r) => r.path.includes('/tasks/') && r.status === 404)).toBe(true)
    })
  })

  describe('secrets and inputs', () => {
    it('the token appears nowhere but in the add-mask command, debug mode included', async () => {
      const run = await runAgainst(
        sim(),
        { operation: 'create', 'site-id': '1001' },
        { env: { RUNNER_DEBUG: '1' } },
      )
      expect(run.outputs.result).toBe('succeeded')
      expect(run.stdout.split('\n')[0]).toBe(`::add-mask::${RW}`)
      expect(run.stdout).toContain('::debug::')
      expect(leaks(run.everything, RW)).toEqual([])
    })
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
      const run = await runAgainst(sim(), { operation: 'pull', 'site-id': '1002' })
      const staging = sim().state.staging.get('1002')!
      expect(run.stdout).toContain(`::add-mask::${staging.ssh_password}`)
      for (const secret of [staging.ssh_password, staging.wp_password])
        expect(leaks(run.everything, secret)).toEqual([])
    })
    it('a bad input fails before any request, naming the input, with every output set', async () => {
      const run = await runAgainst(sim(), { operation: 'create', 'site-id': '../../admin' })
      expect(run.code).toBe(1)
      expectAllOutputs(run.outputs)
      expect(run.outputs.result).toBe('failed')
      expect(run.outputs.message).toMatch(/Input "site-id"/)
      expect(run.summary).toMatch(/No request was sent/)
      expect(sim().requests).toHaveLength(0)
    })
  })

  describe('status: read-only, and a way to check on a job later (issue 11)', () => {
    it('reads each state, sends only GETs, and sets staging-state', async () => {
      if (!p.probe) {
        // The service family has no route to read staging (405): the site list names the staging
        // site by a field, and its record's status (0) says it is ready (issue 20 §1).
        const run = await runAgainst(sim(), { operation: 'status', 'site-id': '1002' })
        expect(run.outputs).toMatchObject({
          result: 'succeeded',
          'staging-state': 'ready',
          'staging-site-id': '51002',
          'staging-url': sim().state.staging.get('1002')!.url,
        })
        expect(run.summary).toMatch(/the site list names it/)
        // A site the list names no staging for: that is not evidence of none, so it still fails, pointing at task-id.
        const unknown = await runAgainst(sim(), { operation: 'status', 'site-id': '1001' })
        expect(unknown.outputs).toMatchObject({
          result: 'failed',
          'staging-state': 'unknown',
          'http-status': '405',
        })
        expect(unknown.stdout).toMatch(/task-id/)
        expect(unknown.summary).toMatch(/names no staging site for this site/)
        expect(sim().requests.every((r) => r.method === 'GET')).toBe(true)
        return
      }
      const ready = await runAgainst(sim(), { operation: 'status', 'site-id': '1002' })
      expect(ready.code).toBe(0)
      expect(ready.outputs).toMatchObject({
        result: 'succeeded',
        'staging-state': 'ready',
        'staging-site-id': 's-1002',
      })
      expect(ready.outputs['staging-url']).toBe(sim().state.staging.get('1002')!.url)
      const none = await runAgainst(sim(), { operation: 'status', 'site-id': '1001' })
      expect(none.outputs).toMatchObject({ result: 'succeeded', 'staging-state': 'none', 'staging-url': '' })
      expect(none.summary).toContain('| Staging state | none |')
      expect(sim().requests.every((r) => r.method === 'GET')).toBe(true)
    })
    it('wait: false in one step, then status with its task-id follows the job to its end', async () => {
      sim().setOptions({ durationsMs: { create: 1500 } })
      const started = await runAgainst(sim(), { operation: 'create', 'site-id': '1001', wait: 'false' })
      expect(started.outputs.result).toBe('accepted')
      const taskId = started.outputs['task-id']!
      expect(started.summary).toContain(`operation: status, site-id: 1001, task-id: ${taskId}`)
      expect(sim().state.staging.get('1001')?.status).toBe('creating')
      const followed = await runAgainst(sim(), { operation: 'status', 'site-id': '1001', 'task-id': taskId })
      expect(followed.code).toBe(0)
      expect(followed.outputs).toMatchObject({
        result: 'succeeded',
        'task-id': taskId,
        'staging-state': p.probe ? 'ready' : 'unknown',
      })
      expect(sim().state.staging.get('1001')?.status).toBe('ready')
      expect(sentTo(sim(), 'POST', '/sites/1001/staging')).toHaveLength(1)
    })
  })
})
