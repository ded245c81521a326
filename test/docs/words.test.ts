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
import {
  DOORS,
  hasDoorPieces,
  inDoorWords,
  perDoor,
  rollbackCommand,
  setting,
  statusCommand,
} from '../../src/words.js'
import { InputError, parseConfig } from '../../src/inputs/index.js'
import { INPUTS } from '../../src/inputs/table.js'
import { describeInputError } from '../../src/cli/args.js'
import { ROOT } from '../helpers/run-action.js'
import { ACTION_WORDS, FOREIGN_WORDS, internalWords } from '../helpers/words.js'

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
  test.each(ERROR_KINDS)("%s: each door in its own words, none in another door's", (kind) => {
    for (const door of DOORS) {
      const text = hintFor(kind, door)
      expect(hasDoorPieces(text)).toBe(false)
      expect(internalWords(text)).toEqual([])
      for (const foreign of FOREIGN_WORDS[door])
        expect([door, text]).not.toEqual([door, expect.stringMatching(foreign)])
    }
  })
  test('a GitLab hint names only inputs the components have', () => {
    const absent = Object.entries(INPUTS)
      .filter(([, spec]) => !('gitlab' in spec))
      .map(([name]) => name)
    expect(absent).toContain('max-retries')
    for (const kind of ERROR_KINDS)
      for (const name of absent)
        expect([kind, hintFor(kind, 'gitlab')]).not.toEqual([
          kind,
          expect.stringMatching(new RegExp(`\\b${name}\\b`)),
        ])
  })
  test("the steps and the refused inputs, on each door, in no other door's words", () => {
    const refusals = [
      { operation: 'pull', 'task-id': 'abc' },
      { operation: 'push', wait: 'false', maintenance: 'true' },
      { operation: 'rollback', 'checkpoint-id': 'a b' },
      { operation: 'status', 'task-id': 'a/b' },
      { operation: 'push', 'production-expect': 'Welcome' },
      { operation: 'creat' },
    ].map((raw) => {
      try {
        parseConfig({ 'site-id': '1001', 'api-token': 'tok', ...raw })
      } catch (e) {
        return e as InputError
      }
      throw new Error(`not refused: ${JSON.stringify(raw)}`)
    })
    for (const door of DOORS) {
      const texts = [
        inDoorWords(rollbackCommand('1001', 'v9'), door),
        inDoorWords(statusCommand('1001', 't7'), door),
        ...refusals.map((e) => describeInputError(e, door)),
      ]
      for (const text of texts)
        for (const foreign of FOREIGN_WORDS[door])
          expect([door, text]).not.toEqual([door, expect.stringMatching(foreign)])
    }
    // The check can fail: the CLI's words on the pipe's door are caught.
    expect('run with --if-exists skip').toMatch(FOREIGN_WORDS.pipe[0])
    expect('run with IF_EXISTS: skip').toMatch(FOREIGN_WORDS.gitlab[1])
    expect('run the staging:rollback job').toMatch(FOREIGN_WORDS.cli[1])
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
  test('settings: inputs for the action and GitLab, variables for the pipe, flags for the CLI', () => {
    const each = (text: string) => DOORS.map((d) => inDoorWords(text, d))
    expect(each(setting('wait', 'false'))).toEqual(['wait: false', 'wait: false', 'WAIT: false', '--no-wait'])
    expect(each(setting('if-exists', 'skip'))).toEqual([
      'if-exists: skip',
      'if-exists: skip',
      'IF_EXISTS: skip',
      '--if-exists skip',
    ])
    expect(each(setting('task-id'))).toEqual(['task-id', 'task-id', 'FOLLOW_TASK_ID', '--task-id'])
    expect(each(setting('checkpoint-id', 'v1'))).toEqual([
      'checkpoint-id: v1',
      'checkpoint-id: v1',
      'RESTORE_CHECKPOINT_ID: v1',
      '--checkpoint-id v1',
    ])
    expect(each(setting('api-url'))).toEqual([
      'api-url',
      'api-url',
      'STAGING_API_URL',
      '--api-url (or STAGING_API_URL)',
    ])
    expect(each(setting('api-token'))).toEqual([
      'api-token',
      'the masked variable token-variable names',
      'STAGING_API_TOKEN',
      'STAGING_API_TOKEN',
    ])
    expect(each(statusCommand('1001', 't7'))).toEqual([
      'run this action with operation: status, site-id: 1001, task-id: t7',
      'run the job staging:status (operation: status, site-id: 1001, task-id: t7)',
      'run the pipe with OPERATION: status, SITE_ID: 1001, FOLLOW_TASK_ID: t7',
      'run site-staging status --site-id 1001 --task-id t7',
    ])
    expect(each(rollbackCommand('1001', 'v9'))).toEqual([
      'run this action with operation: rollback, site-id: 1001, checkpoint-id: v9',
      'run the job staging:rollback (operation: rollback, site-id: 1001, checkpoint-id: v9)',
      'run the pipe with OPERATION: rollback, SITE_ID: 1001, RESTORE_CHECKPOINT_ID: v9',
      'run site-staging rollback --site-id 1001 --checkpoint-id v9',
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
    const half = `said: ${perDoor({ action: 'A', gitlab: 'G', pipe: 'P', cli: 'B' }).replace('\u0001', '')}`
    expect(inDoorWords(half, 'cli')).toBe(half)
    expect(hasDoorPieces(half)).toBe(true)
    expect(
      inDoorWords(
        `x ${perDoor({ action: 'a\u0001b', gitlab: 'g', pipe: 'p', cli: 'c\u0002d' })} y`,
        'action',
      ),
    ).toBe('x ab y')
    expect(
      inDoorWords(`x ${perDoor({ action: 'a', gitlab: 'g', pipe: 'p\u0003q', cli: 'c' })} y`, 'pipe'),
    ).toBe('x pq y')
  })
})
