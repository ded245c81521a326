/**
 * Words the user can act on (issue 20 §4): nothing a user reads holds this team's own words (the
 * contract and its §s and revisions, the "probe", "the spec"...), and each front door speaks its
 * own language: the action names inputs and secrets, the CLI flags and environment variables.
 *
 * Read here: action.yml, README.md, the user docs, the CLI's --help, every string literal of src/
 * outside the simulator (our messages), and what the action and the CLI really print (log, summary,
 * outputs; stderr, --json, --dotenv) in a spread of runs against the simulator, both profiles.
 * Code comments may keep the team's words; the developers' docs (development.md, assumptions.md,
 * benchmarks.md, simulator.md, reliability.md) too.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals'
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import ts from 'typescript'
import { ERROR_KINDS, hintFor } from '../../src/api/errors.js'
import { USAGE } from '../../src/cli-args.js'
import { run as runCliInProcess } from '../../src/cli-run.js'
import { SIM_TOKENS, start, type Simulator } from '../../src/simulator/server.js'
import { hasDoorPieces, inDoorWords, perDoor, setting, statusCommand } from '../../src/words.js'
import { ROOT } from '../helpers/run-action.js'
import { FAST, runAgainst } from '../helpers/sim.js'

/** This team's words, which mean nothing to a user. */
const INTERNAL: [RegExp, string][] = [
  [/\bcontract\b/i, '"contract"'],
  [/§/, '"§"'],
  [/\(r\d\)|\br\d\b/, 'a revision such as "r2"'],
  [/\bprob(e|es|ed|ing)\b/i, '"probe"'],
  [/spec describes|\bthe spec\b|\bspec's\b|\bper (the )?spec\b/i, '"the spec"'],
  [/\bissue \d+|\bissue #\d+/i, 'an issue number'],
  [/\benvelope\b/i, '"envelope"'],
  [/routing layer/i, '"routing layer"'],
  [/service family/i, '"service family"'],
]

/** The internal words `text` holds, each with the line it is on. */
function internalWords(text: string): string[] {
  const found: string[] = []
  for (const line of text.split('\n'))
    for (const [pattern, name] of INTERNAL)
      if (pattern.test(line)) found.push(`${name}: ${line.trim().slice(0, 200)}`)
  return found
}

/** The action's words, which a CLI user cannot act on. */
const ACTION_WORDS =
  /\b(if-missing|if-exists|if-busy|wait|wait-for-url|timeout|max-retries|concurrency|task-id|site-id|api-url|dry-run|fail-fast): |this action|api-token secret|\bmax-parallel\b|\bthe runner\b/
/** The CLI's words, which an action user cannot act on. */
const CLI_WORDS = /(^|[\s(])--[a-z]|STAGING_API_TOKEN|\bsite-staging (create|pull|push|delete|status)\b/m

const USER_DOCS = ['cli.md', 'github.md', 'workflows.md', 'gitlab.md', 'bitbucket.md', 'behaviour.md']
const DEVELOPER_DOCS = ['development.md', 'assumptions.md', 'benchmarks.md', 'simulator.md', 'reliability.md']
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8')

describe('what a user reads before running anything', () => {
  test('every page of docs/ is known as a user page or a developer page', () => {
    expect(readdirSync(path.join(ROOT, 'docs')).sort()).toEqual([...USER_DOCS, ...DEVELOPER_DOCS].sort())
  })
  test.each(['action.yml', 'README.md', ...USER_DOCS.map((f) => `docs/${f}`)])('%s', (file) => {
    expect(internalWords(read(file))).toEqual([])
  })
  test("the CLI's --help, in the CLI's words", () => {
    expect(internalWords(USAGE)).toEqual([])
    expect(USAGE).not.toMatch(ACTION_WORDS)
  })
  test("the check can fail: a sentence with the team's words is caught", () => {
    expect(
      internalWords('the staging probe (contract §10, r2) says: for the service the spec describes'),
    ).toHaveLength(5)
  })
})

/** Every string literal of a file, and each piece of text of its template literals (import paths aside). */
function literals(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
  const out: string[] = []
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node) || ts.isImportTypeNode(node)) return
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    )
      out.push(node.text)
    ts.forEachChild(node, visit)
  }
  visit(source)
  return out
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name)
    if (e.isDirectory()) return e.name === 'simulator' ? [] : sourceFiles(full)
    return e.name.endsWith('.ts') ? [full] : []
  })
}

describe('the messages in the code', () => {
  const files = sourceFiles(path.join(ROOT, 'src'))
  test('the sources are read: the files and their messages', () => {
    expect(files.length).toBeGreaterThan(30)
    expect(literals(path.join(ROOT, 'src/api/errors.ts')).join('\n')).toMatch(/The API token was refused/)
  })
  test.each(files.map((f) => [path.relative(ROOT, f), f]))(
    "%s: no message in the team's words",
    (_name, file) => {
      // Prose only: a literal with a space in it (identifiers, paths and kinds such as 'probe' are code).
      const prose = literals(file).filter((t) => /\s/.test(t.trim()))
      expect(internalWords(prose.join('\n'))).toEqual([])
    },
  )
})

describe('one table of hints, rendered per front door', () => {
  test.each(ERROR_KINDS)('%s: the action names inputs and secrets, the CLI flags and variables', (kind) => {
    const action = hintFor(kind, 'action')
    const cli = hintFor(kind, 'cli')
    for (const text of [action, cli]) {
      expect(hasDoorPieces(text)).toBe(false)
      expect(internalWords(text)).toEqual([])
    }
    expect(action).not.toMatch(CLI_WORDS)
    expect(cli).not.toMatch(ACTION_WORDS)
  })
  test('the same advice, each in its own words', () => {
    expect(hintFor('not-found', 'action')).toMatch(/check that site-id is .* or run with if-missing: skip\./)
    expect(hintFor('not-found', 'cli')).toMatch(/check that --site-id is .* or run with --if-missing skip\./)
    expect(hintFor('auth', 'action')).toContain('check that the api-token secret is current')
    expect(hintFor('auth', 'cli')).toContain(
      'check that the STAGING_API_TOKEN environment variable is current',
    )
    expect(hintFor('unknown-outcome', 'action')).toContain(
      'run this action with operation: status, site-id: {site},',
    )
    expect(hintFor('unknown-outcome', 'cli')).toContain('run site-staging status --site-id {site},')
    expect(hintFor('network', 'cli')).toContain('check --api-url (or STAGING_API_URL), DNS')
    expect(hintFor('rate-limited', 'action')).toContain(
      'max-parallel in a matrix, concurrency for several sites',
    )
    expect(hintFor('rate-limited', 'cli')).toContain('--concurrency for several sites')
  })
  test('settings: inputs with their values for the action, flags for the CLI', () => {
    const both = (text: string) => [inDoorWords(text, 'action'), inDoorWords(text, 'cli')]
    expect(both(setting('wait', 'false'))).toEqual(['wait: false', '--no-wait'])
    expect(both(setting('wait-for-url', 'true'))).toEqual(['wait-for-url: true', '--wait-for-url'])
    expect(both(setting('if-exists', 'recreate'))).toEqual(['if-exists: recreate', '--if-exists recreate'])
    expect(both(setting('timeout'))).toEqual(['timeout', '--timeout'])
    expect(both(setting('api-url'))).toEqual(['api-url', '--api-url (or STAGING_API_URL)'])
    expect(both(setting('api-token'))).toEqual(['api-token', 'STAGING_API_TOKEN'])
    expect(both(statusCommand('1001', 't7'))).toEqual([
      'run this action with operation: status, site-id: 1001, task-id: t7',
      'run site-staging status --site-id 1001 --task-id t7',
    ])
  })
  test("a server's words are never read as a per-door piece", () => {
    // Text from a server is made inert (no control characters) before it is quoted; even raw, half
    // a piece is left as it is (and inert text loses it), never rendered as one door's words.
    const half = `said: ${perDoor('A', 'B').replace('\u0001', '')}`
    expect(inDoorWords(half, 'cli')).toBe(half)
    expect(hasDoorPieces(half)).toBe(true)
    expect(inDoorWords(`x ${perDoor('a\u0001b', 'c\u0002d')} y`, 'action')).toBe('x ab y')
  })
})

// --- What the action and the CLI print, in a spread of runs ----------------------------------------

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
  { name: 'status without a task id (405 on the service)', operation: 'status', site: '1002' },
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

describe.each(['spec', 'service'] as const)('what the action and the CLI print, %s profile', (profile) => {
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
