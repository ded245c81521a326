/**
 * Words the user can act on (issue 20 §4): nothing a user reads holds this team's own words (the
 * contract and its §s and revisions, the "probe", "the spec"...), and each front door speaks its
 * own language: the action names inputs and secrets, the CLI flags and environment variables.
 *
 * Read here: action.yml, README.md, the user docs, the CLI's --help, every string literal of src/
 * outside the simulator (our messages), and the table of hints for each door. What the action and
 * the CLI really print, in a spread of runs against the simulator, is read by words-printed.ts.
 * Code comments may keep the team's words; the developers' docs (development.md, assumptions.md,
 * benchmarks.md, simulator.md, reliability.md) too.
 */
import { describe, expect, test } from '@jest/globals'
import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { ERROR_KINDS, hintFor } from '../../src/api/errors.js'
import { USAGE } from '../../src/cli/args.js'
import { hasDoorPieces, inDoorWords, perDoor, setting, statusCommand } from '../../src/words.js'
import { ROOT } from '../helpers/run-action.js'
import { ACTION_WORDS, CLI_WORDS, internalWords } from '../helpers/words.js'

const USER_DOCS = [
  'cli.md',
  'github.md',
  'workflows.md',
  'gitlab.md',
  'bitbucket.md',
  'behaviour.md',
  'npm-README.md',
]
const DEVELOPER_DOCS = [
  'development.md',
  'assumptions.md',
  'benchmarks.md',
  'simulator.md',
  'reliability.md',
  'releasing.md',
]
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
  test("an input as the action writes it is the action's words; the CLI's flag before a colon is not", () => {
    const hint = `run again later with ${setting('wait-for-url', 'true')}: the staging environment itself is in place.`
    expect(inDoorWords(hint, 'action')).toMatch(ACTION_WORDS)
    expect(inDoorWords(hint, 'cli')).not.toMatch(ACTION_WORDS)
    expect('Raise --timeout, or set --if-missing: create').not.toMatch(ACTION_WORDS)
    expect('Raise timeout, or set if-missing: create').toMatch(ACTION_WORDS)
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
