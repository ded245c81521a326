/**
 * Every workflow users copy or this repository runs passes actionlint: examples/*.yml,
 * .github/workflows/*.yml and each ```yaml block of README.md and docs/*.md that is a workflow.
 * Other YAML blocks (GitLab, Bitbucket, CircleCI) must at least parse. The examples also keep
 * the shape the README promises (triggers, policies, environments, concurrency).
 */
import { describe, expect, test } from '@jest/globals'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { parse } from 'yaml'
import { ROOT } from '../helpers/run-action.js'
import { describeFindings, isWorkflow, lint, yamlBlocks, type YamlBlock } from './actionlint.js'

const ymlFiles = (dir: string) =>
  existsSync(path.join(ROOT, dir))
    ? readdirSync(path.join(ROOT, dir))
        .filter((f) => /\.ya?ml$/.test(f))
        .sort()
        .map((f) => `${dir}/${f}`)
    : []

const EXAMPLES = ymlFiles('examples')
const OWN = ymlFiles('.github/workflows')
const MARKDOWN = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).map((f) => `docs/${f}`)].filter(
  (f) => f.endsWith('.md') && existsSync(path.join(ROOT, f)),
)
const BLOCKS: YamlBlock[] = MARKDOWN.flatMap((f) => yamlBlocks(readFileSync(path.join(ROOT, f), 'utf8'), f))
const WORKFLOW_BLOCKS = BLOCKS.filter((b) => isWorkflow(b.text))
const OTHER_BLOCKS = BLOCKS.filter((b) => !isWorkflow(b.text))

const read = (f: string) => readFileSync(path.join(ROOT, f), 'utf8')
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const load = (f: string): any => parse(read(f))

describe('actionlint', () => {
  test('finds the expected files', () => {
    expect(EXAMPLES).toEqual([
      'examples/manual.yml',
      'examples/nightly-refresh.yml',
      'examples/pr-preview.yml',
      'examples/release.yml',
    ])
    expect(OWN).toEqual(
      expect.arrayContaining(['.github/workflows/ci.yml', '.github/workflows/self-test.yml']),
    )
    // README.md shows every example, plus the environment-url snippet.
    expect(WORKFLOW_BLOCKS.filter((b) => b.file === 'README.md').length).toBeGreaterThanOrEqual(5)
  })

  test.each([...EXAMPLES, ...OWN])('%s passes', async (file) => {
    expect(describeFindings(await lint(read(file), file))).toEqual([])
  })

  test.each(WORKFLOW_BLOCKS.map((b) => [`${b.file}:${b.line}`, b] as const))(
    'the workflow in %s passes',
    async (where, block) => {
      expect(describeFindings(await lint(block.text, where))).toEqual([])
    },
  )

  test.each(OTHER_BLOCKS.map((b) => [`${b.file}:${b.line}`, b] as const))(
    'the YAML block in %s parses',
    (_where, block) => {
      expect(() => parse(block.text)).not.toThrow()
    },
  )

  test('README.md shows each example file as it is', () => {
    const doc = read('README.md')
    for (const file of EXAMPLES) {
      const text = read(file)
      expect(BLOCKS.some((b) => b.file === 'README.md' && b.text === text)).toBe(true)
      expect(doc).toContain(file)
    }
  })
})

describe('a broken workflow is reported (the checks above can fail)', () => {
  const good = `name: ok
on: push
jobs:
  a:
    runs-on: ubuntu-latest
    steps:
      - id: s
        run: echo hi
      - run: echo "$X"
        env:
          X: \${{ steps.s.outputs.x }}
`
  test('a good workflow has no findings, with vars and a current runner label too', async () => {
    expect(await lint(good)).toEqual([])
    const modern = good.replace('ubuntu-latest', 'ubuntu-24.04').replace('steps.s.outputs.x', 'vars.SITE')
    expect(await lint(modern)).toEqual([])
  })

  test.each([
    [
      'an unknown job key',
      good.replace('    runs-on:', '    bogus: 1\n    runs-on:'),
      /unexpected key "bogus"/,
    ],
    ['no runs-on', good.replace('    runs-on: ubuntu-latest\n', ''), /"runs-on" section is missing/],
    ['an unknown context', good.replace('steps.s.outputs.x', 'var.SITE'), /undefined variable "var"/],
    [
      'an unknown runner label',
      good.replace('ubuntu-latest', 'ubuntu-lastest'),
      /label "ubuntu-lastest" is unknown/,
    ],
    [
      'an undefined step',
      good.replace('steps.s.outputs.x', 'steps.nope.outputs.x'),
      /property "nope" is not defined/,
    ],
    ['invalid YAML', good.replace('run: echo hi', 'run: echo "a: b" c: d'), /./],
    ['a bad event', good.replace('on: push', 'on: pushed'), /unknown Webhook event "pushed"/],
  ])('%s', async (_name, text, message) => {
    const findings = describeFindings(await lint(text))
    expect(findings.length).toBeGreaterThan(0)
    expect(findings.join('\n')).toMatch(message)
  })

  test('the linter still works after a crash or a YAML error', async () => {
    await lint('on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "a: b"\n')
    expect(await lint(good)).toEqual([])
  })
})

describe('the examples do what the README says', () => {
  const uses = (step: { uses?: string }) => step.uses ?? ''
  const action = (job: { steps: { uses?: string; with?: Record<string, unknown> }[] }) =>
    job.steps.filter((s) => /site-staging-action@|^\.\/$/.test(uses(s)))

  test('pr-preview: create (if-exists skip) then pull on opened/synchronize/reopened; delete (if-missing skip) on closed', () => {
    const wf = load('examples/pr-preview.yml')
    expect(wf.on.pull_request.types).toEqual(['opened', 'synchronize', 'reopened', 'closed'])
    expect(wf.permissions['pull-requests']).toBe('write')
    const preview = action(wf.jobs.preview)
    expect(preview.map((s) => [s.with!.operation, s.with!['if-exists']])).toEqual([
      ['create', 'skip'],
      ['pull', undefined],
    ])
    expect(preview.every((s) => s.with!['pr-comment'] === true)).toBe(true)
    expect(wf.jobs.preview.environment.url).toBe('${{ steps.create.outputs.staging-url }}')
    const cleanup = action(wf.jobs.cleanup)
    expect(cleanup.map((s) => [s.with!.operation, s.with!['if-missing']])).toEqual([['delete', 'skip']])
    // closed means merged or not: the condition must not look at `merged`.
    expect(wf.jobs.cleanup.if).toContain("github.event.action == 'closed'")
    expect(wf.jobs.cleanup.if).not.toContain('merged')
    for (const job of Object.values(wf.jobs) as { concurrency: { group: string } }[])
      expect(job.concurrency.group).toContain('SITE_ID')
  })

  test('release: push on release published, in a protected environment, one concurrency group per site', () => {
    const wf = load('examples/release.yml')
    expect(wf.on.release.types).toEqual(['published'])
    const job = wf.jobs.push
    expect(job.environment.name).toBe('production')
    expect(job.concurrency).toEqual({
      group: 'staging-${{ vars.SITE_ID }}',
      'cancel-in-progress': false,
    })
    expect(action(job).map((s) => s.with!.operation)).toEqual(['push'])
    expect(read('examples/release.yml')).toMatch(/required reviewers/)
  })

  test('nightly: pull on a schedule', () => {
    const wf = load('examples/nightly-refresh.yml')
    expect(wf.on.schedule[0].cron).toMatch(/^\S+ \S+ \S+ \S+ \S+$/)
    expect(action(wf.jobs.pull).map((s) => s.with!.operation)).toEqual(['pull'])
  })

  test('manual: workflow_dispatch with an operation choice', () => {
    const wf = load('examples/manual.yml')
    expect(wf.on.workflow_dispatch.inputs.operation).toMatchObject({
      type: 'choice',
      options: ['create', 'pull', 'push', 'delete'],
    })
    expect(action(wf.jobs.staging)[0]!.with!.operation).toBe('${{ inputs.operation }}')
  })

  test('every example passes the token from a secret, never a literal', () => {
    for (const file of EXAMPLES) {
      const wf = load(file)
      for (const job of Object.values(wf.jobs) as Parameters<typeof action>[0][])
        for (const step of action(job))
          expect(step.with!['api-token']).toBe('${{ secrets.STAGING_API_TOKEN }}')
    }
  })

  test('ci: installs, tests, and fails when dist/ is not current', () => {
    const steps = load('.github/workflows/ci.yml').jobs.test.steps as { run?: string }[]
    const runs = steps.map((s) => s.run ?? '').join('\n')
    expect(runs).toMatch(/npm ci/)
    expect(runs).toMatch(/npm test/)
    expect(runs).toMatch(/git status --porcelain -- dist/)
    expect(runs).toMatch(/exit 1/)
  })

  test('self-test: runs uses: ./ against the simulator started in the background', () => {
    const job = load('.github/workflows/self-test.yml').jobs.action
    const steps = job.steps as { uses?: string; run?: string; with?: Record<string, string> }[]
    expect(steps.map((s) => s.run ?? '').join('\n')).toMatch(/node dist\/simulator\.js --port 8787 .*&/)
    const own = steps.filter((s) => s.uses === './')
    expect(own.map((s) => s.with!.operation)).toEqual(
      expect.arrayContaining(['create', 'pull', 'push', 'delete']),
    )
    expect(own.every((s) => s.with!['api-url'] === '${{ env.SIM_URL }}')).toBe(true)
    expect(job.env.SIM_URL).toBe('http://127.0.0.1:8787')
  })
})
