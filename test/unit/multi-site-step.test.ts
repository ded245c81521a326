import { describe, expect, it } from '@jest/globals'
import { EACH_PROFILE, FAST } from '../helpers/sim.js'
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
