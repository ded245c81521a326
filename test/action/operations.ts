import { describe, expect, it } from '@jest/globals'
import { OUTPUT_NAMES } from '../../src/report/outputs.js'
import { leaks } from '../helpers/run-action.js'
import { FAST, profileOfThisFile, RW, runAgainst, sentTo, useSimulator } from '../helpers/sim.js'

// Every test below runs against both simulator profiles (contract §10), one test file per profile
// (operations.<profile>-profile.test.ts); PROFILES says how they differ. Only what needs the bundle
// is here: the token masked in dist/index.js's real stdout before anything else (debug mode, an
// environment of its own, included), the runner's files it writes, and its exit code on success and
// on failure. The four operations, a refusal, the timeout and credentials from answers run through
// the action's step in virtual time (test/unit/operations-step.test.ts); the policies, ways of
// waiting and status against the core in test/unit/against-simulator.test.ts.
describe.each(profileOfThisFile())('profile %s', (profile) => {
  const { sim } = useSimulator({ ...FAST, profile })

  /** Every output is set, on every path. */
  function expectAllOutputs(outputs: Record<string, string>) {
    for (const name of OUTPUT_NAMES) expect(Object.keys(outputs)).toContain(name)
  }

  it('a create, debug mode on: the token is masked first and appears nowhere else; the files written, exit 0', async () => {
    const run = await runAgainst(
      sim(),
      { operation: 'create', 'site-id': '1001' },
      { env: { RUNNER_DEBUG: '1' } },
    )
    expect(run.code).toBe(0)
    expect(run.outputs.result).toBe('succeeded')
    expectAllOutputs(run.outputs)
    expect(run.summary).toContain('| Result | ✅ succeeded |')
    expect(run.stdout.split('\n')[0]).toBe(`::add-mask::${RW}`)
    expect(run.stdout).toContain('::debug::')
    expect(leaks(run.everything, RW)).toEqual([])
    expect(sentTo(sim(), 'POST', '/sites/1001/staging')).toHaveLength(1)
  })

  it('a bad input fails before any request, naming the input, with every output set, exit 1', async () => {
    const run = await runAgainst(sim(), { operation: 'create', 'site-id': '../../admin' })
    expect(run.code).toBe(1)
    expectAllOutputs(run.outputs)
    expect(run.outputs.result).toBe('failed')
    expect(run.outputs.message).toMatch(/Input "site-id"/)
    expect(run.summary).toMatch(/No request was sent/)
    expect(run.stdout.split('\n')[0]).toBe(`::add-mask::${RW}`)
    expect(leaks(run.everything, RW)).toEqual([])
    expect(sim().requests).toHaveLength(0)
  })
})
