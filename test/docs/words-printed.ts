/**
 * Words the user can act on (issue 20 §4), in what the action and the CLI really print: the log, the
 * job summary and the outputs of the action (debug included); stderr (--verbose), --json and the
 * --dotenv file of the CLI. Both run their real entries in this process, on the simulator's core in
 * virtual time (test/helpers/virtual-action.ts, virtual-cli.ts): the wording does not depend on the
 * bundle, and test/action/ and test/cli/ run the bundles themselves. A spread of runs against the
 * simulator: success, a staging site that does not answer in time, failure, 404, a wrong API root,
 * status (405 on the service's staging read), not waited for, a timeout, a dry run. No word of the
 * team's, no per-door piece left unrendered, and each door in its own words.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { SIM_TOKENS } from '../../simulator/server.js'
import { hasDoorPieces } from '../../src/words.js'
import { FAST, profileOfThisFile } from '../helpers/sim.js'
import { runActionVirtually, VirtualFaultSim } from '../helpers/virtual-action.js'
import { runCliVirtually } from '../helpers/virtual-cli.js'
import { ACTION_WORDS, CLI_WORDS, internalWords } from '../helpers/words.js'

interface Scenario {
  name: string
  operation: string
  site: string
  /** Action inputs beyond operation and site-id, and the same as CLI flags. */
  inputs?: Record<string, string>
  flags?: string[]
  /** api-url: the profile's root (default), or one that does not reach the API. */
  wrongRoot?: boolean
  /** Job durations for this run (a long one, to time out). */
  durationsMs?: Record<string, number>
  /** How long a staging site takes to answer once its job has completed (FAST's unless given). */
  siteDelayMs?: number
  /** Words each door must print in this run (that the run is the one its name says). */
  shows?: { action: string; cli: string }
}

const SCENARIOS: Scenario[] = [
  {
    name: 'a create that succeeds, waiting for the URL',
    operation: 'create',
    site: '1001',
    inputs: { 'wait-for-url': 'true' },
    flags: ['--wait-for-url'],
  },
  {
    name: 'a create whose staging site does not answer before the timeout',
    operation: 'create',
    site: '1001',
    inputs: { 'wait-for-url': 'true', timeout: '5s' },
    flags: ['--wait-for-url', '--timeout', '5s'],
    siteDelayMs: 60_000,
    shows: {
      action: 'run again later with wait-for-url: true. The staging environment itself is in place',
      cli: 'run again later with --wait-for-url. The staging environment itself is in place',
    },
  },
  { name: 'a pull without staging (404)', operation: 'pull', site: '1001' },
  { name: 'an api-url that is not the API root', operation: 'pull', site: '1002', wrongRoot: true },
  {
    name: 'status of a site with staging (the service: from its site list)',
    operation: 'status',
    site: '1002',
  },
  {
    name: 'status of a site without staging (the service: 405, and no record)',
    operation: 'status',
    site: '1001',
  },
  {
    name: 'a pull not waited for',
    operation: 'pull',
    site: '1002',
    inputs: { wait: 'false' },
    flags: ['--no-wait'],
  },
  {
    name: 'a pull that times out',
    operation: 'pull',
    site: '1002',
    inputs: { timeout: '2s' },
    flags: ['--timeout', '2s'],
    durationsMs: { pull: 60_000 },
  },
  {
    name: 'a push, dry run',
    operation: 'push',
    site: '1002',
    inputs: { 'dry-run': 'true' },
    flags: ['--dry-run'],
  },
]

describe.each(profileOfThisFile())('what the action and the CLI print, %s profile', (profile) => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'words-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  /** A fresh simulator (seeded) on its own virtual clock, with this scenario's job durations. */
  const simFor = (s: Scenario) =>
    new VirtualFaultSim({
      ...FAST,
      profile,
      durationsMs: { create: 400, pull: 300, push: 300, delete: 200, ...s.durationsMs },
      ...(s.siteDelayMs === undefined ? {} : { siteDelayMs: s.siteDelayMs }),
    })
  const rootFor = (sim: VirtualFaultSim, s: Scenario) =>
    s.wrongRoot ? `${sim.url}/nothing-here` : sim.apiUrl

  test.each(SCENARIOS.map((s) => [s.name, s] as const))('%s', async (_name, s) => {
    const actionSim = simFor(s)
    const action = await runActionVirtually(
      actionSim,
      {
        operation: s.operation,
        'site-id': s.site,
        'api-url': rootFor(actionSim, s),
        'max-retries': '0',
        ...s.inputs,
      },
      { env: { RUNNER_DEBUG: '1' } },
    )
    expect(action.summary.length).toBeGreaterThan(0)

    const cliSim = simFor(s)
    const dotenv = path.join(dir, `${profile}-${s.operation}.env`)
    const cli = await runCliVirtually(
      cliSim,
      [
        s.operation,
        '--site-id',
        s.site,
        '--max-retries',
        '0',
        '--verbose',
        '--json',
        '--dotenv',
        dotenv,
        ...(s.flags ?? []),
      ],
      { env: { STAGING_API_TOKEN: SIM_TOKENS.readWrite, STAGING_API_URL: rootFor(cliSim, s) } },
    )
    const cliText = `${cli.stderr}\n${cli.stdout}\n${readFileSync(dotenv, 'utf8')}`

    if (s.shows) {
      expect(action.everything).toContain(s.shows.action)
      expect(cliText).toContain(s.shows.cli)
    }
    for (const text of [action.everything, cliText]) {
      expect(internalWords(text)).toEqual([])
      expect(hasDoorPieces(text)).toBe(false)
    }
    // Each door in its own words; the server's words (quoted) and the action's own input echo aside.
    expect(linesMatching(action.everything, CLI_WORDS)).toEqual([])
    expect(linesMatching(cliText, ACTION_WORDS)).toEqual([])
  })
})

/** Lines of `text` that match `pattern`, the server's quoted words left out. */
function linesMatching(text: string, pattern: RegExp): string[] {
  return text
    .split('\n')
    .map((l) => l.replace(/"[^"]*"/g, '""'))
    .filter((l) => pattern.test(l))
}
