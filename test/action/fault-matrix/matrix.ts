/**
 * How a fault-matrix row is run and checked (the same checks for every row), and how the table of
 * docs/reliability.md is rendered from the rows. A row runs in virtual time, in this process
 * (test/helpers/virtual-action.ts: the action's own entry, writer and files against the simulator's
 * API core and its fault injection), unless it needs the bundle (runsWhole): then it is a run of
 * dist/index.js in a child process against the HTTP simulator, in one of the shards.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { runCli } from '../../helpers/run-cli.js'
import type { Simulator } from '../../../simulator/server.js'
import { leaks, type RunResult } from '../../helpers/run-action.js'
import { RW, runAgainst, useSimulator } from '../../helpers/sim.js'
import { VirtualFaultSim, runActionVirtually } from '../../helpers/virtual-action.js'
import {
  ROWS,
  defaultSite,
  delivered,
  processed,
  resetFixtures,
  startFixtures,
  stopFixtures,
  type Row,
  type RowSim,
} from './rows.js'

/**
 * How many shard files run the whole-action rows: shard k (1-based) is `shard-k.test.ts` and runs
 * the j-th such row (in ROWS order) when j % SHARD_COUNT === k - 1. Each shard is its own Jest file,
 * so the shards run in parallel workers; those rows spend most of their time waiting on real clocks.
 * Changing it means adding or removing shard files (reliability-table.test.ts checks they match).
 */
export const SHARD_COUNT = 3

/**
 * Why `row` needs dist/index.js in a child process, or null: then it runs in virtual time. A signal
 * or an environment of its own need the process; `bundle` names any other reason. (A row's CLI run,
 * `cli`, is dist/cli.js in a child process either way, in a shard.)
 */
export function runsWhole(row: Row): string | null {
  if (row.options?.signal) return "the runner's signal"
  if (row.options?.env) return 'an environment of its own'
  return row.bundle ?? null
}

/**
 * What shard `k` runs, with each row's index in ROWS: the j-th row (in ROWS order) that runs whole or
 * has a CLI run, when j % SHARD_COUNT === k - 1.
 */
export function rowsOfShard(k: number): [number, Row][] {
  return ROWS.map((row, i) => [i, row] as [number, Row])
    .filter(([, row]) => runsWhole(row) !== null || row.cli)
    .filter((_, j) => j % SHARD_COUNT === k - 1)
}

/** The rows that run in virtual time, with their index in ROWS. */
export function virtualRows(): [number, Row][] {
  return ROWS.map((row, i) => [i, row] as [number, Row]).filter(([, row]) => runsWhole(row) === null)
}

const OK_RESULTS = ['succeeded', 'skipped', 'accepted', 'dry-run']

/** The same scenario through the CLI: the same result, nothing leaked, stderr inert. */
async function cliRun(row: Row, s: Simulator, site: string) {
  s.reset()
  for (const f of row.faults ?? []) s.addFault(f)
  await row.setup?.(s)
  const inputs = { ...row.inputs }
  const args = [
    row.operation,
    '--site-id',
    inputs['site-id'] ?? site,
    '--json',
    '--timeout',
    inputs.timeout ?? '60s',
  ]
  if (inputs['max-retries']) args.push('--max-retries', inputs['max-retries'])
  const r = await runCli(args, {
    env: { STAGING_API_TOKEN: RW, STAGING_API_URL: inputs['api-url'] ?? s.apiUrl },
  })
  expect((JSON.parse(r.stdout) as { result: string }).result).toBe(row.result)
  expect(r.code).toBe(OK_RESULTS.includes(row.result) ? 0 : 1)
  const all = `${r.stdout}\n${r.stderr}`
  expect(leaks(all, RW)).toEqual([])
  // eslint-disable-next-line no-control-regex -- looking for control characters is the point
  expect(r.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/)
  expect(r.stderr.split('\n').some((l) => l.trimStart().startsWith('::'))).toBe(false)
}

/** The checks every row gets, then the row's own. */
async function checkRow(row: Row, run: RunResult, s: RowSim, site: string) {
  expect(run.outputs.result).toBe(row.result)
  expect(run.code).toBe(OK_RESULTS.includes(row.result) ? 0 : 1)
  // Nothing leaks, whatever happened.
  expect(leaks(run.everything, RW)).toEqual([])
  // A destructive request is never processed twice, and never re-sent after an unknown outcome.
  if (row.operation === 'push' || row.operation === 'delete') {
    expect(processed(s, row.operation, site).length).toBeLessThanOrEqual(1)
    const unknown = delivered(s, row.operation, site).findIndex(
      (r) =>
        r.status === 'dropped' ||
        r.status === 'hung' ||
        r.status === 'pending' ||
        (typeof r.status === 'number' && [500, 502, 504].includes(r.status)),
    )
    if (unknown >= 0) expect(delivered(s, row.operation, site)).toHaveLength(unknown + 1)
  }
  if (row.result === 'cancelled') {
    expect(run.exitAfterSignalMs).not.toBeNull()
    // Within the runner's grace: on cancel it sends SIGINT, then SIGTERM 7.5 s later, then SIGKILL.
    // (A tighter bound would count on the machine's speed: a loaded one stretches the exit too.)
    expect(run.exitAfterSignalMs!).toBeLessThan(7500)
    expect(run.summary).toMatch(/cancelled/)
  }
  if (row.result === 'failed') expect(run.stdout).toMatch(/::error/)
  // Whatever the server sent, the log is inert: no escape sequence, no legacy command.
  // eslint-disable-next-line no-control-regex -- looking for control characters is the point
  expect(run.everything).not.toMatch(/\u001b/)
  expect(run.stdout).not.toContain('##[')
  await row.check?.(run, s)
}

/** One whole-action run of `row` (dist/index.js in a child process), its checks, and its CLI run. */
async function runWholeRow(s: Simulator, row: Row) {
  if (row.github) throw new Error(`${row.scenario}: its GitHub is in this process; it runs in virtual time`)
  resetFixtures()
  for (const f of row.faults ?? []) s.addFault(f)
  await row.setup?.(s)
  const site = row.site ?? defaultSite(row.operation)
  const run = await runAgainst(s, { operation: row.operation, 'site-id': site, ...row.inputs }, row.options)
  await checkRow(row, run, s, site)
  if (row.cli) await cliRun(row, s, site)
}

/** One run of `row` in virtual time (a fresh simulator core), and its checks. */
async function runVirtualRow(row: Row) {
  const s = new VirtualFaultSim()
  for (const f of row.faults ?? []) s.addFault(f)
  await row.setup?.(s)
  const site = row.site ?? defaultSite(row.operation)
  const run = await runActionVirtually(
    s,
    { operation: row.operation, 'site-id': site, ...row.inputs },
    row.options,
    row.github?.(s),
  )
  await checkRow(row, run, s, site)
}

/**
 * The body of `shard-k.test.ts`: its rows, each a test named `#<table number> <scenario>`: a
 * whole-action run (and its CLI run), or only the CLI run of a row whose action run is in virtual time.
 */
export function runShard(k: number): void {
  const { sim } = useSimulator()
  beforeAll(startFixtures)
  afterAll(stopFixtures)
  describe(`fault matrix, shard ${k} of ${SHARD_COUNT}`, () => {
    it.each(
      rowsOfShard(k).map(([i, row]) => {
        const whole = runsWhole(row) !== null
        return [i + 1, whole ? row.scenario : `${row.scenario} (dist/cli.js only)`, row, whole] as const
      }),
    )('#%i %s', async (_n, _scenario, row, whole) => {
      if (whole) return runWholeRow(sim(), row)
      resetFixtures()
      await cliRun(row, sim(), row.site ?? defaultSite(row.operation))
    })
  })
}

/** The body of `virtual.test.ts`: every row that does not need the bundle, in virtual time. */
export function runVirtualRows(): void {
  describe('fault matrix, in virtual time', () => {
    it.each(virtualRows().map(([i, row]) => [i + 1, row.scenario, row] as const))(
      '#%i %s',
      async (_n, _scenario, row) => runVirtualRow(row),
    )
  })
}

/**
 * The table of docs/reliability.md. Every row is marked passed: the table is only written by
 * `npm run reliability:update` after every shard passed, and `npm test` fails when any row fails.
 */
export function renderTable(rows: Row[]): string {
  const lines = [
    `**${rows.length} scenarios tried, ${rows.length} passed** (each one a run of the action against the simulator's fault injection, in \`test/action/fault-matrix/\`: in virtual time, or as \`dist/index.js\` in a process of its own where only the bundle shows it; every row also checks that the token leaked nowhere and that no push or delete was processed twice or sent again after an unknown outcome).`,
    '',
    '| # | Scenario | Operation | Result | What the action does | Passed |',
    '|---|---|---|---|---|---|',
    ...rows.map((r, i) => `| ${i + 1} | ${r.scenario} | ${r.operation} | \`${r.result}\` | ${r.does} | ✅ |`),
  ]
  return lines.join('\n')
}
