/**
 * Words the user can act on (issue 20 §4), in what the action and the CLI really print: the log, the
 * job summary and the outputs of the bundled action (debug included); stderr (--verbose), --json and
 * the --dotenv file of the CLI. A spread of runs against the simulator: success, failure, 404, a
 * wrong API root, status (405 on the service's staging read), not waited for, a timeout, a dry run. No
 * word of the team's, no per-door piece left unrendered, and each door in its own words.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import { run as runCliInProcess } from '../../src/cli/run.js'
import { SIM_TOKENS, start, type Simulator } from '../../simulator/server.js'
import { hasDoorPieces } from '../../src/words.js'
import { FAST, profileOfThisFile, runAgainst } from '../helpers/sim.js'
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
}

const SCENARIOS: Scenario[] = [
  {
    name: 'a create that succeeds, waiting for the URL',
    operation: 'create',
    site: '1001',
    inputs: { 'wait-for-url': 'true' },
    flags: ['--wait-for-url'],
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

function cliIo() {
  let stdout = ''
  let stderr = ''
  const err = new PassThrough()
  err.on('data', (d: Buffer) => (stderr += d.toString()))
  return {
    io: {
      stdout: { write: (t: string) => (stdout += t) },
      stderr: err as unknown as NodeJS.WriteStream,
      cancelOn: () => new AbortController().signal,
    },
    text: () => `${stderr}\n${stdout}`,
  }
}

describe.each(profileOfThisFile())('what the action and the CLI print, %s profile', (profile) => {
  let sim: Simulator
  let dir: string
  beforeAll(async () => {
    sim = await start({ port: 0, ...FAST, profile })
    dir = mkdtempSync(path.join(tmpdir(), 'words-'))
  })
  afterAll(async () => {
    await sim.stop()
    rmSync(dir, { recursive: true, force: true })
  })
  beforeEach(() => {
    sim.reset()
    sim.setOptions({ profile, durationsMs: { create: 400, pull: 300, push: 300, delete: 200 } })
  })

  const rootFor = (s: Scenario) => (s.wrongRoot ? `${sim.url}/nothing-here` : sim.apiUrl)

  test.each(SCENARIOS.map((s) => [s.name, s] as const))('%s', async (_name, s) => {
    if (s.durationsMs) sim.setOptions({ durationsMs: s.durationsMs })
    const action = await runAgainst(
      sim,
      { operation: s.operation, 'site-id': s.site, 'api-url': rootFor(s), 'max-retries': '0', ...s.inputs },
      { env: { RUNNER_DEBUG: '1' } },
    )
    expect(action.summary.length).toBeGreaterThan(0)

    sim.reset()
    sim.setOptions({
      profile,
      durationsMs: { create: 400, pull: 300, push: 300, delete: 200, ...s.durationsMs },
    })
    const cli = cliIo()
    const dotenv = path.join(dir, `${profile}-${s.operation}.env`)
    await runCliInProcess(
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
      { STAGING_API_TOKEN: SIM_TOKENS.readWrite, STAGING_API_URL: rootFor(s) },
      cli.io,
    )
    const cliText = `${cli.text()}\n${readFileSync(dotenv, 'utf8')}`

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
