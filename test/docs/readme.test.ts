/**
 * The README says true things: each line of its "common mistakes" table is what the action prints for
 * that mistake (run for real: dist/index.js against the simulator's service profile), and its
 * troubleshooting table has a row for every kind of error the action can report.
 */
import { describe, expect, test } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { parse } from 'yaml'
import { ERROR_KINDS, hintFor } from '../../src/api/errors.js'
import { SERVICE_API_URL } from '../../src/contract.js'
import { ROOT } from '../helpers/run-action.js'
import { FAST, RO, RW, runAgainst, useSimulator } from '../helpers/sim.js'

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

/**
 * Issue 34 §1 and §5: a newcomer's first contact. The README says early what is published, keeps
 * its promises (the demo's operations, offline after `npm ci`, the EBADENGINE note), stays short,
 * and its Quick start is a first run from a fork that the bundled action runs as written.
 */
describe('first contact', () => {
  const lines = README.split('\n')
  test('at most 600 lines; what is published is said in the first 30', () => {
    expect(lines.length).toBeLessThanOrEqual(600)
    expect(lines.slice(0, 30).join('\n')).toMatch(/\*\*Published: nothing yet\*\*.*\n.*fork or a clone/)
  })

  test("the demo's operations, as the README names them, are the ones scripts/demo.mjs runs", () => {
    const named = /<!-- demo:begin -->([\s\S]*?)<!-- demo:end -->/
      .exec(README)![1]!
      .split(/,|\band\b/)
      .map((w) => w.trim())
      .filter(Boolean)
    const demo = readFileSync(path.join(ROOT, 'scripts/demo.mjs'), 'utf8')
    const run = [...new Set([...demo.matchAll(/\bop: '(\w+)'/g)].map((m) => m[1]!))]
    expect(run.length).toBeGreaterThanOrEqual(4)
    expect(named).toEqual(run)
  })

  test('"offline" is not promised of npm ci; the EBADENGINE note is true: only tools Node 24 runs', async () => {
    const tryIt = README.slice(
      README.indexOf('## Try it without an account'),
      README.indexOf('## Quick start'),
    )
    expect(tryIt).toMatch(/`npm ci` downloads the tools once; the demo\s+itself runs offline/)
    expect(tryIt).toMatch(/EBADENGINE/)
    // Every installed package whose engines refuse Node 20 is a development tool (never in what
    // users run), and the Node the scripts run on is the node devDependency, 24.
    // semver (npm's own range rules; installed with the toolchain) ships no types.
    // @ts-expect-error -- untyped, used as semver.satisfies and semver.major
    const semver = (await import('semver')).default
    const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean; engines?: { node?: string } | string[] }>
    }
    const refusing = Object.entries(lock.packages).filter(([name, p]) => {
      const range = !Array.isArray(p.engines) ? p.engines?.node : undefined
      return name && range && !semver.satisfies('20.19.0', range)
    })
    expect(refusing.length).toBeGreaterThan(0) // what the note is about
    for (const [name, p] of refusing) expect(`${name}: ${p.dev}`).toBe(`${name}: true`)
    const node = JSON.parse(readFileSync(path.join(ROOT, 'node_modules/node/package.json'), 'utf8'))
    expect(semver.major(node.version as string)).toBe(24)
  })
})

describe('Quick start: the first run from a fork', () => {
  const { sim } = useSimulator(FAST)
  test('the fork block pushes the tag the workflow pins, and the step runs as written: staging created', async () => {
    const fork = /<!-- github-first-run:begin -->\n```sh\n([\s\S]*?)```\n<!-- github-first-run:end -->/.exec(
      README,
    )?.[1]
    expect(fork).toMatch(/^git tag v1 && git push origin v1\b/m)
    const quick = README.slice(README.indexOf('## Quick start'))
    const yaml = /```yaml\n([\s\S]*?)```/.exec(quick)![1]!
    const step = (
      parse(yaml) as { jobs: { staging: { steps: { uses: string; with: Record<string, string> }[] } } }
    ).jobs.staging.steps[0]!
    expect(step.uses).toMatch(/\/site-staging-action@v1$/)
    expect(step.with['site-id']).toBe('${{ vars.SITE_ID }}')
    expect(step.with['api-token']).toBe('${{ secrets.STAGING_API_TOKEN }}')
    // What GitHub gives the step: the variable and the secret, the rest as written.
    const run = await runAgainst(sim(), {
      ...Object.fromEntries(Object.entries(step.with).map(([k, v]) => [k, String(v)])),
      'site-id': '1001',
      'api-token': RW,
      timeout: '60s',
    })
    expect(run.outputs.result).toBe('succeeded')
    expect(run.code).toBe(0)
    expect(run.outputs['url-ready']).toBe('true')
  })
})
