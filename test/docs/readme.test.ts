/**
 * The README says true things: each line of its "common mistakes" table is what the action prints for
 * that mistake (run for real: dist/index.js against the simulator's service profile), and its
 * troubleshooting table has a row for every kind of error the action can report.
 */
import { describe, expect, test } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { ERROR_KINDS, hintFor } from '../../src/api/errors.js'
import { SERVICE_API_URL } from '../../src/contract.js'
import { ROOT } from '../helpers/run-action.js'
import { FAST, RO, runAgainst, useSimulator } from '../helpers/sim.js'

const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8')
const between = (name: string) =>
  README.slice(README.indexOf(`<!-- ${name}:begin -->`), README.indexOf(`<!-- ${name}:end -->`))
/** The cells of a Markdown table's body rows, `|` inside code spans aside. */
const rows = (table: string) =>
  table
    .split('\n')
    .filter((l) => l.startsWith('|') && !/^\|[-:| ]+\|$/.test(l))
    .slice(1)
    .map((l) =>
      l
        .slice(1, -1)
        .split(' | ')
        .map((c) => c.trim()),
    )

describe('Connecting to your service: the common mistakes, as the action prints them', () => {
  const { sim } = useSimulator({ ...FAST, profile: 'service' })
  const mistakes = rows(between('mistakes'))
  const runs: [RegExp, () => Record<string, string>][] = [
    [/without its `\/api`/, () => ({ operation: 'pull', 'site-id': '1002', 'api-url': sim().url })],
    [
      /without `https:\/\/`/,
      () => ({ operation: 'pull', 'site-id': '1002', 'api-url': 'app.instawp.io/api' }),
    ],
    [/with `Bearer `/, () => ({ operation: 'pull', 'site-id': '1002', 'api-token': `Bearer ${RO}` })],
    [
      /wrong or expired token/,
      () => ({ operation: 'pull', 'site-id': '1002', 'api-token': 'expired-token-0000' }),
    ],
    [/staging site's id/, () => ({ operation: 'pull', 'site-id': '51002' })],
    [/read-only token/, () => ({ operation: 'push', 'site-id': '1002', 'api-token': RO })],
  ]
  test('the table lists each mistake this test runs', () => {
    expect(mistakes.map(([mistake]) => runs.findIndex(([pattern]) => pattern.test(mistake!)))).toEqual(
      runs.map((_, i) => i),
    )
  })
  test.each(runs.map(([pattern, inputs], i) => [pattern.source, inputs, i] as const))(
    '%s',
    async (_, inputs, i) => {
      const run = await runAgainst(sim(), { 'max-retries': '0', ...inputs() })
      expect(run.code).toBe(1)
      // The hint names the API root the run was given: the simulator's here, the hosted service's
      // host in the README, where the hosted root is suggested (only a run on that host is sent
      // there: issue 24 §3).
      const asOnTheHostedHost = run.stdout
        .replaceAll(`${sim().url}/v2`, 'https://app.instawp.io/v2')
        .replaceAll(
          ', the address your deployment of the API answers on',
          `; for the hosted service it is ${SERVICE_API_URL}`,
        )
      expect(asOnTheHostedHost).toContain(mistakes[i]![1]!)
    },
  )
})

describe('Troubleshooting', () => {
  const table = between('troubleshooting')
  const firstColumn = rows(table).map(([says]) => says!)
  test.each(ERROR_KINDS)('%s has its row, starting as the log line starts', (kind) => {
    const opening = hintFor(kind)
      .split('{')[0]!
      .trim()
      .split(/\s+/)
      .slice(0, 4)
      .join(' ')
      .replace(/[:.,]$/, '')
    expect(firstColumn.some((cell) => cell.startsWith(opening))).toBe(true)
  })
})
