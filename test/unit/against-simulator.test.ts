/**
 * The policies, refusals, ways of waiting, status, and several sites in one run: the core run and
 * its report (runAll, assembleReport, renderSummary) against the simulator's own API core, both
 * profiles, in virtual time (test/helpers/virtual-sim.ts). These were whole-action runs; what needs
 * the bundle (the runner's commands, the outputs and summary files, exit codes, masking) stays in
 * test/action/operations.ts and multi-site.ts.
 */
import { describe, expect, it } from '@jest/globals'
import { EACH_PROFILE } from '../helpers/sim.js'
import { runVirtual, VirtualSim } from '../helpers/virtual-sim.js'
import { SIM_TOKENS } from '../../simulator/seed.js'

const RO = SIM_TOKENS.readOnly
/** Every line of a virtual run's texts that mentions `secret`. */
const leaks = (texts: string[], secret: string) =>
  texts.flatMap((t) => t.split('\n')).filter((line) => line.includes(secret))

describe.each(EACH_PROFILE)('profile %s, in virtual time', (profile, p) => {
  const simOf = (options = {}) => new VirtualSim({ profile, ...options })

  describe('policies', () => {
    it('speaks Spanish when asked (only the message changes)', async () => {
      const sim = simOf()
      const es = await runVirtual(sim, { operation: 'pull', siteIds: ['1002'], language: 'es' })
      expect(es.outputs.result).toBe('succeeded')
      expect(sim.requests[0]!.localization).toBe('es')
      expect(es.outputs.message).not.toBe('')
      const english = await runVirtual(simOf(), { operation: 'pull', siteIds: ['1002'], language: 'en' })
      expect(english.outputs.message).not.toBe(es.outputs.message)
    })
    it('if-exists: skip succeeds as skipped and still gives the staging URL', async () => {
      const sim = simOf()
      const run = await runVirtual(sim, { operation: 'create', siteIds: ['1002'], ifExists: 'skip' })
      expect(run.report.failed).toBe(false)
      expect(run.outputs.result).toBe('skipped')
      expect(run.outputs['staging-url']).toBe(sim.state.staging.get('1002')!.url)
    })
    it('if-exists: recreate deletes the old staging site, then creates a new one', async () => {
      const sim = simOf()
      const run = await runVirtual(sim, { operation: 'create', siteIds: ['1002'], ifExists: 'recreate' })
      expect(run.report.failed).toBe(false)
      expect(run.outputs.result).toBe('succeeded')
      expect(sim.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.status}`)).toEqual([
        'POST 422',
        `DELETE ${p.accepted}`,
        `POST ${p.accepted}`,
      ])
      expect(sim.state.staging.get('1002')?.status).toBe('ready')
    })
    it('if-missing: skip skips a pull on a site with no staging', async () => {
      const run = await runVirtual(simOf(), { operation: 'pull', ifMissing: 'skip' })
      expect(run.report.failed).toBe(false)
      expect(run.outputs).toMatchObject({ result: 'skipped', 'http-status': '404' })
    })
    it('if-missing: fail fails a delete on a site with no staging', async () => {
      const run = await runVirtual(simOf(), { operation: 'delete' })
      expect(run.report.failed).toBe(true)
      expect(run.outputs).toMatchObject({ result: 'failed', 'http-status': '404' })
    })
    it('if-busy: wait waits for the running pull (a minute long), then pushes once', async () => {
      const sim = simOf({ durationsMs: { pull: 60_000 } })
      expect(sim.call('POST', '/sites/1002/staging/reset').status).toBe(p.accepted)
      const run = await runVirtual(sim, { operation: 'push', siteIds: ['1002'], timeoutMs: 5 * 60_000 })
      expect(run.report.failed).toBe(false)
      expect(run.outputs.result).toBe('succeeded')
      expect(Number(run.outputs.retries)).toBeGreaterThanOrEqual(1)
      expect(run.log).toMatch(/busy with another job/)
      // It waited for the pull, not a fixed time: the push went once the pull had ended.
      const pullEnd = [...sim.state.tasks.values()].find((t) => t.kind === 'pull')!.ends_at
      const accepted = sim.sentTo('POST', '/staging/push').filter((r) => r.status === p.accepted)
      expect(accepted).toHaveLength(1)
      expect(accepted[0]!.at).toBeGreaterThanOrEqual(pullEnd)
    })
    it("if-busy: fail fails at once (409, or the service family's 422 that says a sync runs)", async () => {
      const sim = simOf({ durationsMs: { pull: 3000 } })
      sim.call('POST', '/sites/1002/staging/reset')
      const run = await runVirtual(sim, { operation: 'push', siteIds: ['1002'], ifBusy: 'fail' })
      expect(run.report.failed).toBe(true)
      expect(run.outputs).toMatchObject({ result: 'failed', 'http-status': String(p.busy) })
      expect(sim.sentTo('POST', '/staging/push')).toHaveLength(1)
    })
    it('wait: false ends as accepted right after the request', async () => {
      const run = await runVirtual(simOf(), { operation: 'create', wait: false })
      expect(run.report.failed).toBe(false)
      expect(run.outputs.result).toBe('accepted')
      expect(run.outputs.requests).toBe('1')
    })
    it('dry-run sends nothing that changes anything, and says what it would send', async () => {
      const sim = simOf()
      const run = await runVirtual(sim, { operation: 'push', siteIds: ['1002'], dryRun: true })
      expect(run.outputs.result).toBe('dry-run')
      expect(sim.requests.length).toBeGreaterThan(0)
      expect(sim.requests.every((r) => r.method === 'GET')).toBe(true)
      expect(run.log).toContain(`POST ${sim.apiUrl}/sites/1002/staging/push`)
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
        const run = await runVirtual(simOf(), { operation: 'create', siteIds: [site] })
        expect(run.report.failed).toBe(true)
        expect(run.outputs).toMatchObject({
          result: 'failed',
          'http-status': String(site === '2001' ? p.plan : 403),
        })
        expect(run.outputs.message).toMatch(why)
        expect(run.report.errors.map((e) => e.hint).join('\n')).toMatch(/plan may not include staging/)
      },
    )
    it('a wrong token fails with 401 and the hint to check the secret, the token nowhere', async () => {
      const token = 'wrong-token-123456'
      const run = await runVirtual(simOf(), { operation: 'pull', siteIds: ['1002'], apiToken: token })
      expect(run.outputs).toMatchObject({ result: 'failed', 'http-status': '401' })
      expect(run.report.errors.map((e) => e.hint).join('\n')).toMatch(/check that the api-token secret/)
      expect(leaks([run.log, run.summary, JSON.stringify(run.outputs)], token)).toEqual([])
    })
    it('a read-only token fails with 403', async () => {
      const sim = simOf()
      const run = await runVirtual(sim, { operation: 'pull', siteIds: ['1002'], apiToken: RO })
      expect(sim.requests[0]!.token).toBe('ro')
      expect(run.outputs).toMatchObject({ result: 'failed', 'http-status': '403' })
    })
  })

  describe('waiting', () => {
    it('the timeout ends the run as timed-out at the timeout, saying the job may still be running', async () => {
      const run = await runVirtual(simOf({ durationsMs: { create: 60_000 } }), {
        operation: 'create',
        timeoutMs: 3000,
      })
      expect(run.report.failed).toBe(true)
      expect(run.outputs.result).toBe('timed-out')
      // The last line of the log, and the summary.
      expect(run.report.finalLine).toMatch(/may still be running on the server/)
      expect(run.summary).toMatch(/may still be running on the server/)
      expect(run.summary).toMatch(/operation: status, site-id: 1001, task-id: [0-9a-f]{12}/)
      // One deadline: not a poll interval later, not the job's minute.
      expect(run.elapsedMs).toBeGreaterThanOrEqual(3000)
      expect(run.elapsedMs).toBeLessThanOrEqual(3000 + 100)
    })
    it('without task ids, follows the staging environment; where the service cannot read it, ends accepted', async () => {
      const sim = simOf({ taskIds: false })
      const run = await runVirtual(sim, { operation: 'create' })
      expect(sim.sentTo('GET', '/sites/1001/staging').length).toBeGreaterThan(0)
      if (p.probe) expect(run.outputs).toMatchObject({ result: 'succeeded', 'task-id': '' })
      else {
        // The service family answers the probe route 405: the job cannot be followed (contract §3).
        expect(run.outputs).toMatchObject({ result: 'accepted', 'task-id': '' })
        expect(run.log).toMatch(
          /warn: .*cannot be tracked: the service offers no way to read the staging environment's status \(HTTP 405\)/,
        )
      }
    })
    it('when completion cannot be tracked, the result is accepted with a warning, never succeeded', async () => {
      const run = await runVirtual(simOf({ taskIds: false, probe: false }), {
        operation: 'pull',
        siteIds: ['1002'],
      })
      expect(run.report.failed).toBe(false)
      expect(run.outputs.result).toBe('accepted')
      expect(run.log).toMatch(/warn: .*cannot be tracked/)
      expect(run.report.warnings.join('\n')).toMatch(/cannot be tracked/)
    })
    it('a task invisible at first is waited for', async () => {
      const sim = simOf({ taskVisibilityDelayMs: 2500 })
      const run = await runVirtual(sim, { operation: 'pull', siteIds: ['1002'] })
      expect(run.outputs.result).toBe('succeeded')
      expect(sim.requests.some((r) => r.path.includes('/tasks/') && r.status === 404)).toBe(true)
    })
  })

  describe('status: read-only, and a way to check on a job later (issue 11)', () => {
    it('reads each state, sends only GETs, and sets staging-state', async () => {
      if (!p.probe) {
        // The service family has no route to read staging (405): the site list names the staging
        // site by a field, and its record's status (0) says it is ready (issue 20 §1).
        const sim = simOf()
        const run = await runVirtual(sim, { operation: 'status', siteIds: ['1002'] })
        expect(run.outputs).toMatchObject({
          result: 'succeeded',
          'staging-state': 'ready',
          'staging-site-id': '51002',
          'staging-url': sim.state.staging.get('1002')!.url,
        })
        expect(run.summary).toMatch(/the site list names it/)
        // A site the list names no staging for: that is not evidence of none, so it still fails, pointing at task-id.
        const unknown = await runVirtual(sim, { operation: 'status', siteIds: ['1001'] })
        expect(unknown.outputs).toMatchObject({
          result: 'failed',
          'staging-state': 'unknown',
          'http-status': '405',
        })
        expect(unknown.report.failed).toBe(true)
        expect(`${unknown.log}\n${unknown.report.errors.map((e) => e.hint).join('\n')}`).toMatch(/task-id/)
        expect(unknown.summary).toMatch(/names no staging site for this site/)
        expect(sim.requests.every((r) => r.method === 'GET')).toBe(true)
        return
      }
      const sim = simOf()
      const ready = await runVirtual(sim, { operation: 'status', siteIds: ['1002'] })
      expect(ready.report.failed).toBe(false)
      expect(ready.outputs).toMatchObject({
        result: 'succeeded',
        'staging-state': 'ready',
        'staging-site-id': 's-1002',
      })
      expect(ready.outputs['staging-url']).toBe(sim.state.staging.get('1002')!.url)
      const none = await runVirtual(sim, { operation: 'status', siteIds: ['1001'] })
      expect(none.outputs).toMatchObject({ result: 'succeeded', 'staging-state': 'none', 'staging-url': '' })
      expect(none.summary).toContain('| Staging state | none |')
      expect(sim.requests.every((r) => r.method === 'GET')).toBe(true)
    })
    it('wait: false in one step, then status with its task-id follows the job to its end', async () => {
      const sim = simOf({ durationsMs: { create: 1500 } })
      const started = await runVirtual(sim, { operation: 'create', wait: false })
      expect(started.outputs.result).toBe('accepted')
      const taskId = started.outputs['task-id']
      expect(taskId).toMatch(/^[0-9a-f]{12}$/)
      expect(started.summary).toContain(`operation: status, site-id: 1001, task-id: ${taskId}`)
      expect(sim.state.staging.get('1001')?.status).toBe('creating')
      const followed = await runVirtual(sim, { operation: 'status', taskId })
      expect(followed.report.failed).toBe(false)
      expect(followed.outputs).toMatchObject({
        result: 'succeeded',
        'task-id': taskId,
        'staging-state': p.probe ? 'ready' : 'unknown',
      })
      expect(sim.state.staging.get('1001')?.status).toBe('ready')
      expect(sim.sentTo('POST', '/sites/1001/staging')).toHaveLength(1)
    })
  })

  describe('several sites in one run', () => {
    it('the worst outcome is the result, and the run fails', async () => {
      const run = await runVirtual(simOf(), { operation: 'create', siteIds: ['1001', '2001'] })
      expect(run.report.failed).toBe(true)
      expect(run.outputs.result).toBe('failed')
      expect(run.results.find((r) => r.siteId === '2001')).toMatchObject({
        result: 'failed',
        httpStatus: p.plan,
      })
      expect(run.results.find((r) => r.siteId === '1001')).toMatchObject({ result: 'succeeded' })
    })
    it('fail-fast starts no new site after the first failure', async () => {
      const sim = simOf()
      const run = await runVirtual(sim, {
        operation: 'create',
        siteIds: ['2001', '1001', '1003'],
        concurrency: 1,
        failFast: true,
      })
      expect(run.report.failed).toBe(true)
      expect(run.results.map((r) => r.result)).toEqual(['failed', 'skipped', 'skipped'])
      expect(run.results[1]!.summary).toMatch(/fail-fast/)
      expect(sim.sentTo('POST', '/sites/1001/staging')).toHaveLength(0)
    })
    it('respects concurrency: never more jobs at once than allowed, and uses what is allowed', async () => {
      const sim = simOf({ durationsMs: { create: 800 } })
      const sites = ['1001', '1003', ...sim.newSites(3)]
      const run = await runVirtual(sim, { operation: 'create', siteIds: sites, concurrency: 2 })
      expect(run.outputs.result).toBe('succeeded')
      const tasks = [...sim.state.tasks.values()]
      expect(tasks).toHaveLength(5)
      const overlaps = tasks.map(
        (t) => tasks.filter((u) => u.started_at < t.ends_at && u.ends_at > t.started_at).length,
      )
      expect(Math.max(...overlaps)).toBe(2)
    })
    it('shares one rate budget: a batch under a tight limit slows down instead of failing on 429', async () => {
      const sim = simOf({ rateLimit: { limit: 4, windowMs: 3000 }, durationsMs: { pull: 3000 } })
      const run = await runVirtual(sim, {
        operation: 'pull',
        siteIds: ['1002', '1003'],
        ifMissing: 'skip',
        maxRetries: 0,
      })
      expect(run.outputs.result).toBe('succeeded')
      // More calls than one window allows were needed. None was refused where the server says when
      // its window ends (the spec's shapes); the service family's count has no reset, so one request
      // per exhausted window may learn it from a 429 (Retry-After), and is sent again.
      expect(sim.requests.length).toBeGreaterThan(4)
      const refused = sim.requests.filter((r) => r.status === 429).length
      if (profile === 'spec') expect(refused).toBe(0)
      else expect(refused).toBeLessThanOrEqual(3)
    })
    it('a batch short of calls economises: the first job is followed, the others are asked once it has ended', async () => {
      const sim = simOf({ durationsMs: { create: 1500 } })
      const sites = sim.newSites(6)
      // 6 creates and 6 final status calls fit one window of 16; polling freely would not.
      sim.core.setOptions({ rateLimit: { limit: 16, windowMs: 20_000 } })
      const run = await runVirtual(sim, { operation: 'create', siteIds: sites })
      expect(run.outputs.result).toBe('succeeded')
      expect(sim.requests.filter((r) => r.status === 429)).toHaveLength(0)
      const statusCalls = sim.requests.filter((r) => r.path.includes('/tasks/'))
      // One call for each of the five others, the rest for the one followed.
      expect(statusCalls.length).toBeLessThanOrEqual(16 - 6)
      expect(sim.requests.length).toBeLessThanOrEqual(16)
    })
    it('reads staging at most once a run where the service offers no such read; each site still gets its URL', async () => {
      const sim = simOf({ urlInAnswers: false })
      const sites = sim.newSites(3)
      const run = await runVirtual(sim, { operation: 'create', siteIds: sites })
      expect(run.outputs.result).toBe('succeeded')
      for (const r of run.results) expect(r.stagingUrl).toMatch(/^http:\/\/127\.0\.0\.1\/staging-sites\//)
      const reads = sites.flatMap((site) => sim.sentTo('GET', `/sites/${site}/staging`))
      // Where the read answers, one a site; where it answers 405, the first 405 stands for the run.
      expect(reads).toHaveLength(p.probe ? 3 : 1)
    })
    it('sharing the account, a create asks the site list before the staging read (one list serves every site)', async () => {
      const sim = simOf({ urlInAnswers: false, rateLimit: { limit: 60, windowMs: 60_000 } })
      const sites = sim.newSites(3)
      // Another run on the same account: a call every 200 ms, in the same window.
      let othersCalls = 0
      const others = (async () => {
        for (let i = 0; i < 40; i++) {
          await sim.clock.sleep(200)
          if (sim.call('GET', '/sites?per_page=1').status === 200) othersCalls++
        }
      })()
      const run = await runVirtual(sim, { operation: 'create', siteIds: sites })
      await sim.clock.run(others)
      expect(othersCalls).toBeGreaterThan(10)
      expect(run.log).toMatch(
        /Other runs are using this account's rate limit: at least \d+ calls? a minute\./,
      )
      expect(run.log).not.toMatch(/ 1 calls/)
      expect(run.outputs.result).toBe('succeeded')
      for (const r of run.results) expect(r.stagingUrl).toMatch(/^http:\/\/127\.0\.0\.1\/staging-sites\//)
      expect(sim.sentTo('GET', '/sites').length).toBeGreaterThan(0)
      // The list named every staging site: no site spent a call on the staging read.
      expect(sites.flatMap((site) => sim.sentTo('GET', `/sites/${site}/staging`))).toHaveLength(0)
    })
    // Issue 10 and contract §6: no header may make the client idle longer than it can plausibly mean.
    it.each([
      [
        'a reset in epoch milliseconds',
        (now: number) => ({
          'X-RateLimit-Limit': '60',
          'X-RateLimit-Remaining': '3',
          'X-RateLimit-Reset': String(now + 30_000),
        }),
      ],
      ['a negative remaining', () => ({ 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '-1' })],
      [
        'a reset in the year 10^300',
        () => ({
          'X-RateLimit-Limit': '60',
          'X-RateLimit-Remaining': '1',
          'X-RateLimit-Reset': `1${'0'.repeat(300)}`,
        }),
      ],
      [
        'a reset years ahead',
        () => ({
          'X-RateLimit-Limit': '60',
          'X-RateLimit-Remaining': '2',
          'X-RateLimit-Reset': '99999999999',
        }),
      ],
    ])('%s on every answer does not stall the batch', async (_, headers) => {
      const sim = simOf()
      sim.extraHeaders.push({ path: '/v2/', headers: headers(sim.clock.now()) })
      const run = await runVirtual(sim, { operation: 'pull', siteIds: ['1002', '1003'], ifMissing: 'skip' })
      expect(run.outputs.result).toBe('succeeded')
      // The jobs were followed to their end by status calls, not slept through.
      expect(sim.requests.filter((r) => r.path.includes('/tasks/')).length).toBeGreaterThanOrEqual(1)
      // And in about the time the job took, not the header's.
      expect(run.elapsedMs).toBeLessThan(15_000)
    })
  })
})
