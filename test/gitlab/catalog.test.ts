// Slow (about 10 s): gitlab-ci-local runs of the components and of a broken pipeline.
/**
 * The components as the CI/CD Catalog shows them: the README's inputs tables are generated from the
 * specs (and a drift fails), the specs use only what GitLab's spec allows, every job is a pinned
 * install and `site-staging` commands (the checks that need code are the CLI's, src/cli/ci-env.ts),
 * the docs show the example pipelines as they are, and the release pipeline (.gitlab-ci.yml) passes gitlab-ci-local's validation with
 * GitLab's schema on a semver tag.
 */
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals'
import { execFile } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { parse, parseAllDocuments } from 'yaml'
import { ROOT } from '../helpers/run-action.js'
import { copyProject, gitlabCiLocal, makeProject, type Project } from '../helpers/gitlab.js'

const run = promisify(execFile)
const read = (f: string) => readFileSync(path.join(ROOT, f), 'utf8')
const TEMPLATES = readdirSync(path.join(ROOT, 'templates'))
  .filter((f) => f.endsWith('.yml'))
  .sort()

// gitlab-ci-local runs of a few seconds each: generous limits under load.
jest.setTimeout(300_000)

let dir: string
/** The component project's repository; each gitlab-ci-local run below lists in a copy of its own. */
let project: Project
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'gitlab-catalog-'))
  project = await makeProject(path.join(dir, 'release'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the component specs', () => {
  test('there are the two components the docs describe', () => {
    expect(TEMPLATES).toEqual(['review-app.yml', 'staging.yml'])
  })

  test.each(TEMPLATES)('%s: a spec header, typed inputs each with a description, then the jobs', (file) => {
    const docs = parseAllDocuments(read(`templates/${file}`))
    expect(docs).toHaveLength(2)
    for (const d of docs) expect(d.errors).toEqual([])
    const header = docs[0]!.toJS()
    expect(Object.keys(header)).toEqual(['spec'])
    expect(Object.keys(header.spec).sort()).toEqual(['component', 'inputs'])
    for (const [name, input] of Object.entries(
      header.spec.inputs as Record<string, Record<string, unknown>>,
    )) {
      expect(
        `${name}: ${Object.keys(input).filter((k) => !['description', 'type', 'options', 'regex', 'default'].includes(k))}`,
      ).toBe(`${name}: `)
      expect(typeof input.description).toBe('string')
      if (input.regex) expect(() => new RegExp(input.regex as string)).not.toThrow()
      if (input.options && 'default' in input) expect(input.options).toContain(input.default)
      if (input.regex && 'default' in input)
        expect(String(input.default)).toMatch(new RegExp(input.regex as string))
    }
    // The token never passes through an input; its variable's name does.
    expect(Object.keys(header.spec.inputs)).not.toEqual(expect.arrayContaining(['token']))
    expect(header.spec.inputs['token-variable'].default).toBe('STAGING_API_TOKEN')
    expect(header.spec.inputs['cli-package'].default).toBe('')
    expect(header.spec.component).toEqual(['name', 'version'])
  })

  test('every job is thin: the pinned install, then site-staging commands, then the install removed; no shell prelude', () => {
    for (const file of TEMPLATES) {
      const jobs = parseAllDocuments(read(`templates/${file}`))[1]!.toJS() as Record<
        string,
        { script: string[]; after_script?: string[] }
      >
      for (const [name, job] of Object.entries(jobs)) {
        expect([name, job.script.length <= 4]).toEqual([name, true])
        expect(job.script[0]).toMatch(
          /^npm install --global --prefix "\$SITE_STAGING_PREFIX" --ignore-scripts .*"\$\{SITE_STAGING_PACKAGE:-site-staging@\$\{SITE_STAGING_VERSION:\?/,
        )
        expect(job.script.slice(1).join('\n')).toMatch(/^"\$SITE_STAGING_PREFIX\/bin\/site-staging" /m)
        // The token is the CLI's business: the job names its variable, never reads it.
        expect(job.script.join('\n')).toContain('--token-variable $[[ inputs.token-variable ]]')
        expect(job.script.join('\n')).not.toMatch(/trap |eval |STAGING_API_TOKEN/)
        // Whatever the job's end, the CLI it installed goes (a shell executor's /tmp outlives jobs).
        expect([name, job.after_script]).toEqual([name, ['rm -rf "$SITE_STAGING_PREFIX"']])
      }
    }
  })
})

describe("the README's inputs tables", () => {
  test('match the specs (npm run docs:gitlab regenerates them)', async () => {
    const { stdout } = await run(process.execPath, [path.join(ROOT, 'scripts/gitlab-inputs.mjs'), '--check'])
    expect(stdout).toMatch(/The inputs tables of 2 components and the pipe's variables match their files\./)
    const table = read('README.md')
      .split('<!-- gitlab-inputs:staging:begin -->')[1]!
      .split('<!-- gitlab-inputs:staging:end -->')[0]!
    expect(table).toMatch(
      /^\| `operation` \| string \| \*\*required\*\* \| `create`, `pull`, `reset`, `push`, `delete`, `status`, `rollback` \|/m,
    )
    expect(table).toMatch(/^\| `token-variable` \| string \| `STAGING_API_TOKEN` \|/m)
  })

  test.concurrent('a spec changed without the README fails the check, and --write mends it', async () => {
    const copy = path.join(dir, 'drift')
    cpSync(path.join(ROOT, 'templates'), path.join(copy, 'templates'), { recursive: true })
    cpSync(path.join(ROOT, 'README.md'), path.join(copy, 'README.md'))
    cpSync(path.join(ROOT, 'pipe'), path.join(copy, 'pipe'), { recursive: true })
    cpSync(path.join(ROOT, 'docs/bitbucket.md'), path.join(copy, 'docs/bitbucket.md'))
    const spec = path.join(copy, 'templates', 'staging.yml')
    writeFileSync(spec, readFileSync(spec, 'utf8').replace('      default: 30m\n', '      default: 45m\n'))
    const script = path.join(ROOT, 'scripts/gitlab-inputs.mjs')
    const failed = await run(process.execPath, [script, '--check', '--root', copy]).catch((e) => e)
    expect(failed.code).toBe(1)
    expect(failed.stderr).toContain('README.md: the table of templates/staging.yml differs from it')
    await run(process.execPath, [script, '--write', '--root', copy])
    expect(readFileSync(path.join(copy, 'README.md'), 'utf8')).toContain('| `timeout` | string | `45m` |')
    await run(process.execPath, [script, '--check', '--root', copy])
    // The pipe's variables: pipe.yml changed, docs/bitbucket.md's table is stale until --write.
    const pipe = path.join(copy, 'pipe', 'pipe.yml')
    writeFileSync(pipe, readFileSync(pipe, 'utf8').replace('    default: 30m\n', '    default: 40m\n'))
    const stale = await run(process.execPath, [script, '--check', '--root', copy]).catch((e) => e)
    expect(stale.stderr).toContain('docs/bitbucket.md: the table of pipe/pipe.yml differs from it')
    await run(process.execPath, [script, '--write', '--root', copy])
    expect(readFileSync(path.join(copy, 'docs/bitbucket.md'), 'utf8')).toContain('| `TIMEOUT` | `40m` |')
  })
})

describe('docs/gitlab.md', () => {
  test('shows each example pipeline of examples/gitlab/ as it is', () => {
    const doc = read('docs/gitlab.md')
    const examples = readdirSync(path.join(ROOT, 'examples', 'gitlab')).sort()
    expect(examples).toEqual([
      'nightly-refresh.gitlab-ci.yml',
      'release.gitlab-ci.yml',
      'review-app.gitlab-ci.yml',
    ])
    for (const f of examples) expect(doc).toContain('```yaml\n' + read(`examples/gitlab/${f}`) + '```')
  })

  test('no GitLab recipe downloads the CLI unpinned any more', () => {
    for (const f of ['README.md', 'docs/gitlab.md', 'docs/cli.md']) {
      const gitlab = read(f)
        .split(/^## /m)
        .filter((s) => /^GitLab/.test(s))
      for (const s of gitlab) expect(s).not.toMatch(/curl|raw\/v1\/dist\/cli\.js/)
    }
  })
})

describe('.gitlab-ci.yml, the release pipeline of the component project', () => {
  const pipeline = () => read('.gitlab-ci.yml')
  // The runs go at once (test.concurrent), each in its own copy of the project.
  const list = (yaml: string, args: string[] = [], options = {}) =>
    gitlabCiLocal(
      copyProject(project, mkdtempSync(path.join(dir, 'list-'))),
      yaml,
      ['--list', ...args],
      {},
      options,
    )

  test.concurrent(
    'on a semver tag: tests, the npm check, and a release with the release: keyword',
    async () => {
      const run = await list(pipeline(), ['--variable', 'CI_COMMIT_TAG=1.2.0'], { checkSchema: true })
      expect(run.code).toBe(0)
      expect(run.output).toMatch(/json schema validated/)
      expect(run.output).toMatch(/^test\s+test\s+on_success/m)
      expect(run.output).toMatch(/^npm-package\s+test\s+on_success/m)
      expect(run.output).toMatch(/^release\s+release\s+on_success/m)
      const release = parse(pipeline()).release
      expect(release.release).toMatchObject({ tag_name: '$CI_COMMIT_TAG' })
      expect(release.image).toMatch(/:v\d+\.\d+\.\d+$/)
    },
  )

  test.concurrent("on a branch: the tests only; on a v-prefixed tag (GitHub's), no release", async () => {
    const [branch, vtag] = await Promise.all([
      list(pipeline()),
      list(pipeline(), ['--variable', 'CI_COMMIT_TAG=v1.2.0']),
    ])
    expect(branch.code).toBe(0)
    expect(branch.output).toMatch(/^test\s+test/m)
    expect(branch.output).not.toMatch(/^release\s/m)
    expect(vtag.output).not.toMatch(/^release\s/m)
  })

  test.concurrent('the schema check can fail: a job with an unknown keyword is refused', async () => {
    const broken = pipeline().replace('  stage: release\n', '  stage: release\n  relase: {}\n')
    expect(broken).not.toBe(pipeline())
    // By gitlab-ci-local's own check (the helper throws unless its check refuses it too)...
    const run = await list(broken, ['--variable', 'CI_COMMIT_TAG=1.2.0'], { checkSchema: true })
    expect(run.code).not.toBe(0)
    expect(run.output).toMatch(/relase/)
    // ...and by the helper's, made once per document in place of gitlab-ci-local's in every other run.
    await expect(list(broken, ['--variable', 'CI_COMMIT_TAG=1.2.0'])).rejects.toThrow(
      /GitLab's CI schema refuses the pipeline: .*relase/,
    )
  })
})
