import { describe, expect, it } from '@jest/globals'
import { EACH_PROFILE, FAST, RW } from '../helpers/sim.js'
import { runActionVirtually, useVirtualSimulator } from '../helpers/virtual-action.js'

// Every test runs against both simulator profiles (contract §10). Here the action's step (src/action.ts:
// the outputs, the summary rows, the log's site prefixes, the exit code) in virtual time; fail-fast,
// concurrency, the shared rate budget and headers that must not stall a batch, on the core alone:
// test/unit/against-simulator.test.ts.
describe.each(EACH_PROFILE)('several sites in one step, profile %s', (profile, p) => {
  const { sim } = useVirtualSimulator({ ...FAST, profile })

  it('runs each site, concurrently, with a result per site in `results` and a summary row each', async () => {
    const run = await runActionVirtually(sim(), {
      operation: 'pull',
      'site-id': '1002\n1003,1001',
      'if-missing': 'skip',
      concurrency: '3',
    })
    expect(run.code).toBe(0)
    const results = JSON.parse(run.outputs.results!) as Array<{ siteId: string; result: string }>
    expect(results.map((r) => [r.siteId, r.result])).toEqual([
      ['1002', 'succeeded'],
      ['1003', 'skipped'],
      ['1001', 'skipped'],
    ])
    expect(run.outputs.result).toBe('succeeded')
    expect(run.outputs.message).toBe('1 of 3 sites succeeded; skipped: 1003, 1001')
    expect(Number(run.outputs.requests)).toBe(sim().requests.length)
    for (const site of ['1002', '1003', '1001']) expect(run.summary).toContain(`| \`${site}\` |`)
    expect(run.stdout).toContain('[site 1002]')
  })
  it('sharing the account, reads the site list first; where it names nothing, the staging read still goes', async () => {
    const s = sim()
    s.setOptions({ urlInAnswers: false, rateLimit: { limit: 60, windowMs: 60_000 } })
    s.addFault({ method: 'GET', path: '/sites?type=staging', status: 500, times: Infinity })
    // Another run on the same account: a call every 200 ms.
    const list = {
      method: 'GET',
      path: `${new URL(s.apiUrl).pathname.replace(/\/$/, '')}/v2/sites?per_page=1`,
      headers: { authorization: `Bearer ${RW}` },
    }
    const others = (async () => {
      for (let i = 0; i < 30; i++) {
        await s.clock.sleep(200)
        s.core.handle(list)
      }
    })()
    const run = await runActionVirtually(s, { operation: 'create', 'site-id': '1001,1003' })
    await s.clock.run(others)
    expect(run.stdout).toContain("Other runs are using this account's rate limit")
    expect(run.outputs.result).toBe('succeeded')
    const sent = s.requests.map((r) => `${r.method} ${r.path.replace(/^.*\/v2/, '').split('?')[0]}`)
    const reads = sent.flatMap((r, i) => (/^GET \/sites\/100[13]\/staging$/.test(r) ? [i] : []))
    // The list first (it failed: it named nothing), then the read: one a site where it answers, one a run where it is refused.
    expect(reads).toHaveLength(p.probe ? 2 : 1)
    expect(sent).toContain('GET /sites')
    expect(Math.min(...reads)).toBeGreaterThan(sent.indexOf('GET /sites'))
    const results = JSON.parse(run.outputs.results!) as Array<{ stagingUrl?: string }>
    for (const r of results) expect(Boolean(r.stagingUrl)).toBe(p.probe)
  })
  it('one task id given for two sites tells neither: no site is green on it', async () => {
    const s = sim()
    s.addFault({ method: 'POST', path: '/staging', times: Infinity, patch: { data: { task_id: 'shared1' } } })
    const done = {
      status: true,
      message: 'ok',
      data: { task_id: 'shared1', status: 'completed', percentage_complete: 100 },
    }
    s.addFault({ method: 'GET', path: '/tasks/shared1/status', times: Infinity, json: done })
    const run = await runActionVirtually(s, { operation: 'create', 'site-id': '1001,1003', timeout: '2m' })
    const results = JSON.parse(run.outputs.results!) as Array<{ siteId: string; result: string }>
    expect(results.filter((r) => r.result === 'succeeded')).toHaveLength(0)
    expect(run.stdout).toMatch(/task shared1 was also given for site 100[13]/)
    expect(run.stdout).toMatch(/task shared1 was also given for another job of this run/)
  })

  it("a job's length in its summary is the job's: not the reads after it (a slow site list)", async () => {
    const s = sim()
    s.setOptions({ urlInAnswers: false })
    s.addFault({ method: 'GET', path: '/sites?type=staging', latencyMs: 20_000, times: Infinity })
    s.addFault({ method: 'GET', path: '/sites/1001/staging', status: 405, times: Infinity })
    const run = await runActionVirtually(s, { operation: 'create', 'site-id': '1001', timeout: '2m' })
    expect(run.outputs.result).toBe('succeeded')
    const took = /Staging created in (\d+)s/.exec(run.stdout)
    expect(took).not.toBeNull()
    expect(Number(took![1])).toBeLessThan(10) // the list answered 20 s after the job ended
  })

  it('the worst outcome is the result, and the step fails', async () => {
    const run = await runActionVirtually(sim(), { operation: 'create', 'site-id': '1001,2001' })
    expect(run.code).toBe(1)
    expect(run.outputs.result).toBe('failed')
    const results = JSON.parse(run.outputs.results!) as Array<{
      siteId: string
      result: string
      httpStatus: number
    }>
    expect(results.find((r) => r.siteId === '2001')).toMatchObject({ result: 'failed', httpStatus: p.plan })
    expect(results.find((r) => r.siteId === '1001')).toMatchObject({ result: 'succeeded' })
  })
})

// Spec §2: a staging belongs to one production site (the spec profile: its task names no other staging).
describe('one staging site named for two sites of a batch', () => {
  const { sim: spec } = useVirtualSimulator({ ...FAST, profile: 'spec' })
  it('one staging site named for two sites of a create: the second gets neither its id nor its URL, and is not green', async () => {
    const s = spec()
    const named = { staging_site_id: 2001, staging_url: 'https://stg-2001.example.test/' }
    s.addFault({ method: 'POST', path: '/staging', times: Infinity, patch: { data: named } })
    const run = await runActionVirtually(s, { operation: 'create', 'site-id': '1001,1003', timeout: '2m' })
    const results = JSON.parse(run.outputs.results!) as Array<{ result: string; stagingUrl?: string }>
    expect(results.filter((r) => r.stagingUrl === named.staging_url)).toHaveLength(1)
    expect(results.filter((r) => r.result === 'succeeded')).toHaveLength(1)
    expect(run.stdout).toMatch(/Staging site 2001 is also named as the staging of site 100[13]/)
  })
})
