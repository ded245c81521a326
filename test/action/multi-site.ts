import { describe, expect, it } from '@jest/globals'
import type { Simulator } from '../../simulator/server.js'
import { profileOfThisFile, FAST, RW, runAgainst, sentTo, useSimulator } from '../helpers/sim.js'

// Every test runs against both simulator profiles (contract §10), one test file per profile
// (multi-site.<profile>-profile.test.ts).
describe.each(profileOfThisFile())('several sites in one step, profile %s', (profile, p) => {
  const { sim } = useSimulator({ ...FAST, profile })

  it('runs each site, concurrently, with a result per site in `results` and a summary row each', async () => {
    const run = await runAgainst(sim(), {
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
  it('the worst outcome is the result, and the step fails', async () => {
    const run = await runAgainst(sim(), { operation: 'create', 'site-id': '1001,2001' })
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
  it('fail-fast starts no new site after the first failure', async () => {
    const run = await runAgainst(sim(), {
      operation: 'create',
      'site-id': '2001,1001,1003',
      concurrency: '1',
      'fail-fast': 'true',
    })
    expect(run.code).toBe(1)
    const results = JSON.parse(run.outputs.results!) as Array<{
      siteId: string
      result: string
      message: string
      summary: string
    }>
    expect(results.map((r) => r.result)).toEqual(['failed', 'skipped', 'skipped'])
    expect(results[1]!.summary).toMatch(/fail-fast/)
    expect(sentTo(sim(), 'POST', '/sites/1001/staging')).toHaveLength(0)
  })
  it('respects concurrency: never more jobs at once than allowed', async () => {
    const sites = ['1001', '1003']
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${sim().apiUrl}/v2/sites`, {
        method: 'POST',
        headers: {
          authorization: `Bearer sim-rw-token-0123456789abcdef`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ site_name: `extra-${i}` }),
      })
      sites.push(String(((await res.json()) as { data: { id: number } }).data.id))
    }
    sim().setOptions({ durationsMs: { create: 800 } })
    const run = await runAgainst(sim(), { operation: 'create', 'site-id': sites.join(','), concurrency: '2' })
    expect(run.outputs.result).toBe('succeeded')
    const tasks = [...sim().state.tasks.values()]
    expect(tasks).toHaveLength(5)
    const maxOverlap = Math.max(
      ...tasks.map((t) => tasks.filter((u) => u.started_at < t.ends_at && u.ends_at > t.started_at).length),
    )
    expect(maxOverlap).toBeLessThanOrEqual(2)
  })
  it('shares one rate budget: a batch under a tight limit slows down instead of failing on 429', async () => {
    sim().setOptions({ rateLimit: { limit: 4, windowMs: 3000 }, durationsMs: { pull: 3000 } })
    const run = await runAgainst(sim(), {
      operation: 'pull',
      'site-id': '1002,1003',
      'if-missing': 'skip',
      'max-retries': '0',
    })
    expect(run.outputs.result).toBe('succeeded')
    // More calls than one window allows were needed. None was refused where the server says when
    // its window ends (the spec's shapes); the service family's count has no reset, so one request
    // per exhausted window may learn it from a 429 (Retry-After), and is sent again.
    expect(sim().requests.length).toBeGreaterThan(4)
    const refused = sim().requests.filter((r) => r.status === 429).length
    if (profile === 'spec') expect(refused).toBe(0)
    else expect(refused).toBeLessThanOrEqual(3)
  })
  it('a batch short of calls economises: the first job is followed, the others are asked once it has ended', async () => {
    const sites = await newSites(sim(), 6)
    // 6 creates and 6 final status calls fit one window of 16; polling freely would not.
    sim().setOptions({ rateLimit: { limit: 16, windowMs: 20_000 }, durationsMs: { create: 1500 } })
    const run = await runAgainst(sim(), { operation: 'create', 'site-id': sites.join(',') })
    expect(run.outputs.result).toBe('succeeded')
    expect(sim().requests.filter((r) => r.status === 429)).toHaveLength(0)
    const statusCalls = sim().requests.filter((r) => r.path.includes('/tasks/'))
    // One call for each of the five others, the rest for the one followed.
    expect(statusCalls.length).toBeLessThanOrEqual(16 - 6)
    // All of the batch's calls (not the test's own site creations) fitted one window's limit.
    const batch = sim().requests.filter((r) => !(r.method === 'POST' && r.path.endsWith('/v2/sites')))
    expect(batch.length).toBeLessThanOrEqual(16)
  })
  it('reads staging at most once a run where the service offers no such read; each site still gets its URL', async () => {
    const sites = await newSites(sim(), 3)
    sim().setOptions({ urlInAnswers: false })
    const run = await runAgainst(sim(), { operation: 'create', 'site-id': sites.join(',') })
    expect(run.outputs.result).toBe('succeeded')
    const results = JSON.parse(run.outputs.results!) as Array<{ stagingUrl: string | null }>
    for (const r of results) expect(r.stagingUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/staging-sites\//)
    const reads = sites.flatMap((site) => sentTo(sim(), 'GET', `/sites/${site}/staging`))
    // Where the read answers, one a site; where it answers 405, the first 405 stands for the run.
    expect(reads).toHaveLength(p.probe ? 3 : 1)
  })
  // Issue 10 and contract §6: no header may make the client idle longer than it can plausibly mean.
  it.each([
    [
      'a reset in epoch milliseconds',
      {
        'X-RateLimit-Limit': '60',
        'X-RateLimit-Remaining': '3',
        'X-RateLimit-Reset': String(Date.now() + 30_000),
      },
    ],
    ['a negative remaining', { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '-1' }],
    [
      'a reset in the year 10^300',
      { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '1', 'X-RateLimit-Reset': `1${'0'.repeat(300)}` },
    ],
    [
      'a reset years ahead',
      { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '2', 'X-RateLimit-Reset': '99999999999' },
    ],
  ])('%s on every answer does not stall the batch', async (_, headers) => {
    sim().addFault({ path: '/v2/', times: Infinity, headers })
    const run = await runAgainst(sim(), { operation: 'pull', 'site-id': '1002,1003', 'if-missing': 'skip' })
    expect(run.outputs.result).toBe('succeeded')
    // The jobs were followed to their end by status calls, not slept through.
    expect(sim().requests.filter((r) => r.path.includes('/tasks/')).length).toBeGreaterThanOrEqual(1)
  })
})

/** Production sites made for a test (before any limit is set). */
async function newSites(sim: Simulator, n: number): Promise<string[]> {
  const ids: string[] = []
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${sim.apiUrl}/v2/sites`, {
      method: 'POST',
      headers: { authorization: `Bearer ${RW}`, 'content-type': 'application/json' },
      body: JSON.stringify({ site_name: `batch-${i}` }),
    })
    ids.push(String(((await res.json()) as { data: { id: number } }).data.id))
  }
  return ids
}
