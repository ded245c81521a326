/**
 * Fault-matrix rows of issue 17 §3-§5 (time that steps, a long Retry-After, site ids): one
 * whole-action run (dist/index.js against the simulator) per row, in the row format of
 * fault-matrix.test.ts.
 */
import { describe, expect, it } from '@jest/globals'
import path from 'node:path'
import type { FaultRule, Simulator } from '../../src/simulator/server.js'
import { ROOT, leaks, type RunOptions, type RunResult } from '../helpers/run-action.js'
import { RW, runAgainst, sentTo, useSimulator } from '../helpers/sim.js'

const { sim } = useSimulator()

interface Row {
  scenario: string
  operation: 'create' | 'pull' | 'push' | 'delete'
  result: string
  does: string
  site?: string
  inputs?: Record<string, string>
  faults?: FaultRule[]
  setup?: (sim: Simulator) => Promise<void> | void
  options?: RunOptions
  check?: (run: RunResult, sim: Simulator) => void | Promise<void>
}

/** NODE_OPTIONS for a run whose wall clock steps by `stepMs` `afterMs` after it starts (an NTP correction). */
const wallClockStep = (afterMs: number, stepMs: number): RunOptions => ({
  env: {
    NODE_OPTIONS: `--import ${path.join(ROOT, 'test/helpers/clock-step.mjs')}`,
    CLOCK_STEP_AFTER_MS: String(afterMs),
    CLOCK_STEP_MS: String(stepMs),
  },
  killAfterMs: 40_000,
})
const HOUR = 3_600_000
const pushes = (s: Simulator, site = '1002') => sentTo(s, 'POST', `/sites/${site}/staging/push`)

export const ROWS_R3: Row[] = [
  // §3: the wall clock steps during a wait; durations and deadlines do not.
  {
    scenario: "the runner's wall clock steps back an hour while the job runs",
    operation: 'pull',
    result: 'succeeded',
    does: 'deadlines and durations read a monotonic clock: it ends as usual, with a true duration',
    setup: (s) => s.setOptions({ durationsMs: { pull: 3000 } }),
    options: wallClockStep(1000, -HOUR),
    check: (run) => {
      const seconds = Number(run.outputs['duration-seconds'])
      expect(seconds).toBeGreaterThanOrEqual(2)
      expect(seconds).toBeLessThan(30)
    },
  },
  {
    scenario: "the runner's wall clock steps back an hour during a wait that outlasts the timeout",
    operation: 'pull',
    result: 'timed-out',
    does: 'ends at its timeout, not an hour later',
    inputs: { timeout: '4s' },
    setup: (s) => s.setOptions({ durationsMs: { pull: 120_000 } }),
    options: wallClockStep(1500, -HOUR),
    check: (run) => {
      expect(run.elapsedMs).toBeLessThan(15_000)
      expect(run.summary).toMatch(/timeout/i)
    },
  },
  {
    scenario: "the runner's wall clock jumps an hour ahead while the job runs",
    operation: 'pull',
    result: 'succeeded',
    does: 'no false timeout: the deadline is on the monotonic clock',
    inputs: { timeout: '60s' },
    setup: (s) => s.setOptions({ durationsMs: { pull: 3000 } }),
    options: wallClockStep(1000, HOUR),
    check: (run) => expect(Number(run.outputs['duration-seconds'])).toBeLessThan(30),
  },
  {
    scenario: 'a 429 whose Retry-After date is an hour in the past (the server clock is slow)',
    operation: 'push',
    result: 'succeeded',
    does: "read as 'soon': a 1-2 s pause that grows, not a loop; pushes once",
    inputs: { 'max-retries': '5' },
    faults: [
      {
        method: 'POST',
        path: '/staging/push',
        status: 429,
        times: 3,
        retryAfter: new Date(Date.now() - HOUR).toUTCString(),
      },
    ],
    check: (_run, s) => {
      const at = pushes(s).map((r) => r.at)
      expect(at).toHaveLength(4)
      for (let i = 1; i < at.length; i++) expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(900)
      expect(at[3]! - at[0]!).toBeGreaterThanOrEqual(4000)
    },
  },
  // §5: a server that says it refuses for longer than the run may wait.
  {
    scenario: 'a 429 on a push with Retry-After: 86400 (a day), timeout 30 minutes',
    operation: 'push',
    result: 'failed',
    does: 'ends at once, saying when the server accepts again (in words and ISO); no retry',
    inputs: { timeout: '30m' },
    faults: [{ method: 'POST', path: '/staging/push', status: 429, retryAfter: 86_400, times: Infinity }],
    check: (run, s) => {
      expect(pushes(s)).toHaveLength(1)
      expect(run.elapsedMs).toBeLessThan(15_000)
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
      expect(run.stdout).toMatch(new RegExp(`accepts requests again on \\w+day .* UTC \\(${tomorrow}T`))
      expect(run.summary).toContain(`Run again after ${tomorrow}T`)
      expect(run.outputs.message).toBeDefined()
    },
  },
  {
    scenario: 'a 503 with Retry-After as a date two hours ahead, timeout 1 minute',
    operation: 'create',
    result: 'failed',
    does: 'ends at once, saying when; no retry',
    site: '1001',
    faults: [
      {
        method: 'POST',
        path: '/sites/1001/staging',
        status: 503,
        retryAfter: new Date(Date.now() + 2 * HOUR).toUTCString(),
        times: Infinity,
      },
    ],
    check: (run, s) => {
      expect(sentTo(s, 'POST', '/sites/1001/staging')).toHaveLength(1)
      expect(run.summary).toMatch(/about 2 hours/)
    },
  },
  // §5: every site id is checked before any request.
  {
    scenario: 'site-id "1001;x" (a list with an id that is not a number)',
    operation: 'delete',
    result: 'failed',
    does: 'refused before any request, naming the bad id',
    site: '1001;x',
    check: (run, s) => {
      expect(s.requests).toEqual([])
      expect(run.stdout).toMatch(/::error.*"x" is not a site id/)
    },
  },
  {
    scenario: 'site-id "1001/../1002"',
    operation: 'push',
    result: 'failed',
    does: 'refused before any request, naming it',
    site: '1001/../1002',
    check: (run, s) => {
      expect(s.requests).toEqual([])
      expect(run.stdout).toMatch(/"1001\/\.\.\/1002" is not a site id/)
    },
  },
]

describe('fault matrix (issue 17 §3-§5)', () => {
  it.each(ROWS_R3.map((row) => [row.scenario, row] as const))('%s', async (_, row) => {
    const s = sim()
    for (const f of row.faults ?? []) s.addFault(f)
    await row.setup?.(s)
    const site = row.site ?? (row.operation === 'create' ? '1001' : '1002')
    const run = await runAgainst(s, { operation: row.operation, 'site-id': site, ...row.inputs }, row.options)
    expect(run.outputs.result).toBe(row.result)
    const ok = ['succeeded', 'skipped', 'accepted', 'dry-run'].includes(row.result)
    expect(run.code).toBe(ok ? 0 : 1)
    expect(leaks(run.everything, RW)).toEqual([])
    if (row.result === 'failed') expect(run.stdout).toMatch(/::error/)
    await row.check?.(run, s)
  })
})
