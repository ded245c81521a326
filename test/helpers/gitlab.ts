/**
 * Running GitLab pipelines here with gitlab-ci-local (a devDependency), the way a GitLab project
 * would include this repository's CI/CD components.
 *
 * gitlab-ci-local treats `include: - component: <host>/<group>/<project>/<name>@<ref>` as local when
 * <group>/<project> is the git remote of the working directory and <ref> is its HEAD commit. So a
 * pipeline runs in a temporary git repository that holds a copy of templates/, with a GitLab-like
 * remote (never contacted), and includes `$CI_SERVER_FQDN/acme/site-staging/<name>@<sha>`. The CLI
 * comes from the run's `npm pack` tarball of this repository (`packed()`, test/helpers/pack.ts; the
 * component's `cli-package` input), so nothing is downloaded. Jobs run with the shell executor (`--force-shell-executor`: no Docker).
 * gitlab-ci-local copies files with rsync; its PATH here has a pure-Node stand-in first
 * (test/helpers/rsync.mjs), so the tests need no system package and run the same everywhere.
 */
import { execFile, spawn } from 'node:child_process'
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { promisify } from 'node:util'
import { runInNewContext } from 'node:vm'
import { Ajv, type ValidateFunction } from 'ajv'
import { parse, stringify } from 'yaml'
import { OWNER } from './owner.js'
import { ROOT } from './run-action.js'

const run = promisify(execFile)

export const GITLAB_CI_LOCAL = path.join(ROOT, 'node_modules', 'gitlab-ci-local', 'dist', 'index.js')
/** The project path the temporary repositories claim to be (their `origin`). */
export const PROJECT_PATH = 'acme/site-staging'

export interface Project {
  dir: string
  sha: string
  /** `$CI_SERVER_FQDN/acme/site-staging/<name>@<sha>`: what a pipeline includes. */
  component(name: string): string
}

/** A git repository holding a copy of templates/, committed, with a GitLab remote. */
export async function makeProject(dir: string): Promise<Project> {
  mkdirSync(dir, { recursive: true })
  cpSync(path.join(ROOT, 'templates'), path.join(dir, 'templates'), { recursive: true })
  const git = (...args: string[]) =>
    run('git', ['-c', 'user.email=ci@example.test', '-c', 'user.name=ci', ...args], { cwd: dir })
  await git('init', '-q', '-b', 'main')
  await git('add', 'templates')
  await git('commit', '-q', '-m', 'components')
  await git('remote', 'add', 'origin', `https://gitlab.example.test/${PROJECT_PATH}.git`)
  const sha = (await git('rev-parse', 'HEAD')).stdout.trim()
  return { dir, sha, component: (name) => `$CI_SERVER_FQDN/${PROJECT_PATH}/${name}@${sha}` }
}

/**
 * A copy of `project` (its git repository too, so the same commit) in `dir`: pipelines that run at
 * the same time each need a working directory of their own (gitlab-ci-local writes its state, the
 * jobs their dotenv reports, there). Copying costs no git process.
 */
export function copyProject(project: Project, dir: string): Project {
  cpSync(project.dir, dir, { recursive: true, filter: (src) => !/[\\/]\.gitlab-ci-local$/.test(src) })
  return { ...project, dir }
}

export interface PipelineRun {
  code: number | null
  /** stdout and stderr together, as a person reads gitlab-ci-local's log. */
  output: string
}

/**
 * GitLab's JSON schema check, made once per expanded document in a test file. gitlab-ci-local
 * checks the expanded configuration (what it writes to .gitlab-ci-local/expanded-gitlab-ci.yml)
 * against GitLab's CI schema, which it bundles, with Ajv; compiling that schema is about a third of
 * the CPU of a run (half of a `--list`), and it compiled it again in every run. So the runs here skip
 * it (`--json-schema-validation=false`) and the test file checks each document it has not seen, with
 * the same schema (read from gitlab-ci-local's bundle), the same Ajv options, compiled once per Jest run. A
 * document the schema refuses throws: the test fails, as gitlab-ci-local's refusal would fail it. A
 * run with `checkSchema` lets gitlab-ci-local check too (and refuse), and throws unless both agree.
 */
const checkedDocuments = new Set<string>()
let validate: ValidateFunction | undefined

/** GitLab's CI schema as gitlab-ci-local bundles it: the object literal that starts with its `$id`. */
function gitlabSchema(): object {
  const bundle = readFileSync(GITLAB_CI_LOCAL, 'utf8')
  const start = bundle.indexOf(
    '{$schema:"http://json-schema.org/draft-07/schema#",$id:"https://gitlab.com/.gitlab-ci.yml"',
  )
  if (start < 0) throw new Error(`GitLab's CI schema is not in ${GITLAB_CI_LOCAL}`)
  let depth = 0
  for (let i = start; i < bundle.length; i++) {
    const c = bundle[i]!
    if (c === '"' || c === "'" || c === '`') {
      for (i++; bundle[i] !== c; i++) if (bundle[i] === '\\') i++
    } else if (c === '{' || c === '[') depth++
    else if ((c === '}' || c === ']') && --depth === 0)
      return runInNewContext(`(${bundle.slice(start, i + 1)})`) as object
  }
  throw new Error(`GitLab's CI schema in ${GITLAB_CI_LOCAL} does not end`)
}

/**
 * The compiled check, once per Jest run: the first file that needs it compiles the schema (about
 * 0.7 s of CPU) and leaves Ajv's standalone code of that compilation in the run's shared directory
 * (`SITE_STAGING_TEST_SHARED`, test/jest/global-setup.js); the other files load that code (about
 * 25 ms). The same validator either way: Ajv's own code for the same schema and options.
 */
function compiledSchema(): ValidateFunction {
  const shared = process.env.SITE_STAGING_TEST_SHARED
  const file = shared ? path.join(shared, 'gitlab-ci-schema.cjs') : undefined
  const require = createRequire(path.join(ROOT, 'package.json'))
  if (file && existsSync(file)) {
    const module = { exports: {} as ValidateFunction }
    new Function('module', 'exports', 'require', readFileSync(file, 'utf8'))(module, module.exports, require)
    // What catalog.test.ts's broken pipeline checks of the compiled one: a job's unknown keyword.
    if (module.exports({ job: { script: ['true'], relase: {} } }))
      throw new Error(`${file}: the shared schema check accepts a job with an unknown keyword`)
    return module.exports
  }
  const ajv = new Ajv({
    verbose: true,
    allErrors: true,
    allowUnionTypes: true,
    validateFormats: false,
    strictTypes: false,
    keywords: ['markdownDescription'],
    code: { source: true },
  })
  const compiled = ajv.compile(gitlabSchema())
  if (file) {
    const standalone = (require('ajv/dist/standalone') as typeof import('ajv/dist/standalone/index.js'))
      .default
    writeFileSync(`${file}.${process.pid}`, standalone(ajv, compiled))
    renameSync(`${file}.${process.pid}`, file)
  }
  return compiled
}

/** What GitLab's CI schema says of an expanded document: nothing when it is valid. */
export function schemaErrors(document: string): string[] {
  validate ??= compiledSchema()
  if (validate(parse(document))) return []
  return (validate.errors ?? []).map(
    (e) => `${e.message} ${JSON.stringify(e.params)} at ${e.instancePath || '/'} [${e.schemaPath}]`,
  )
}

export interface PipelineOptions {
  /** gitlab-ci-local checks the schema too (a test that asserts its check). */
  checkSchema?: boolean
}

/**
 * Runs gitlab-ci-local in `project.dir` with `pipeline` as its .gitlab-ci.yml (and `variables` as
 * its project CI/CD variables file, where the token goes, as in Settings > CI/CD > Variables).
 */
export async function gitlabCiLocal(
  project: Project,
  pipeline: string,
  args: string[] = [],
  variables: Record<string, string> = {},
  options: PipelineOptions = {},
): Promise<PipelineRun> {
  writeFileSync(path.join(project.dir, '.gitlab-ci.yml'), pipeline)
  writeFileSync(
    path.join(project.dir, '.gitlab-ci-local-variables.yml'),
    Object.entries(variables)
      .map(([k, v]) => `${k}: ${JSON.stringify(v)}\n`)
      .join(''),
  )
  // gitlab-ci-local's home (and the jobs' npm cache) is the project's own: pipelines of several
  // projects may run at the same time.
  const home = `${project.dir}-gcl-home`
  const bin = standInBin(home)
  const env: NodeJS.ProcessEnv = {
    // The rsync stand-in, then Node 24 (the tests' own): gitlab-ci-local needs 22+, and the jobs'
    // npm and CLI use it.
    PATH: `${bin}:${path.dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: home,
    // The jobs install the packed tarball: offline, from an empty cache of their own.
    npm_config_offline: 'true',
    npm_config_cache: path.join(home, 'npm-cache'),
    npm_config_update_notifier: 'false',
  }
  const argv = [
    GITLAB_CI_LOCAL,
    '--force-shell-executor',
    '--color=false',
    '--home',
    home,
    // The tests set these predefined variables on purpose (a merge request, a schedule, a tag, a
    // branch other than the default one).
    '--ignore-predefined-vars',
    'CI_PIPELINE_SOURCE,CI_COMMIT_TAG,CI_COMMIT_BRANCH',
    ...args,
  ]
  const expandedFile = path.join(project.dir, '.gitlab-ci-local', 'expanded-gitlab-ci.yml')
  rmSync(expandedFile, { force: true })
  if (!options.checkSchema) argv.push('--json-schema-validation=false')
  const run = await new Promise<PipelineRun>((resolve, reject) => {
    const child = spawn(process.execPath, argv, { cwd: project.dir, env, stdio: ['ignore', 'pipe', 'pipe'] })
    // Whole lines only: a chunk of stdout that ends mid-line must not be cut by a chunk of stderr
    // (on a busy machine the two streams' chunks interleave anywhere, and a job's line would be lost).
    let output = ''
    const partial = { stdout: '', stderr: '' }
    const take = (stream: 'stdout' | 'stderr') => (d: string) => {
      const text = partial[stream] + d
      const end = text.lastIndexOf('\n') + 1
      output += text.slice(0, end)
      partial[stream] = text.slice(end)
    }
    child.stdout.setEncoding('utf8')
    child.stderr.setEncoding('utf8')
    child.stdout.on('data', take('stdout'))
    child.stderr.on('data', take('stderr'))
    child.on('error', reject)
    child.on('close', (code) => {
      for (const rest of [partial.stdout, partial.stderr]) if (rest) output += rest + '\n'
      resolve({ code, output })
    })
  })
  const document = existsSync(expandedFile) ? readFileSync(expandedFile, 'utf8') : undefined
  if (document !== undefined && (options.checkSchema || !checkedDocuments.has(document))) {
    const errors = schemaErrors(document)
    if (!options.checkSchema) {
      if (errors.length) throw new Error(`GitLab's CI schema refuses the pipeline: ${errors.join('; ')}`)
    } else if (/json schema validated/.test(run.output) !== (errors.length === 0))
      throw new Error(
        `gitlab-ci-local's schema check and this one differ (${errors.join('; ')}):\n${run.output}`,
      )
    if (!errors.length) checkedDocuments.add(document)
  }
  return run
}

/** A directory with `rsync`, the pure-Node stand-in run by this Node; returns its path. */
export function standInBin(home: string): string {
  const bin = path.join(home, 'bin')
  mkdirSync(bin, { recursive: true })
  const script = path.join(bin, 'rsync')
  const standIn = path.join(ROOT, 'test', 'helpers', 'rsync.mjs')
  writeFileSync(script, `#!/bin/sh\nexec '${process.execPath}' '${standIn}' "$@"\n`)
  chmodSync(script, 0o755)
  return bin
}

/** The lines one job printed (gitlab-ci-local prefixes them with `<job>` padded, then `> `). */
export function jobLog(output: string, job: string): string {
  const prefix = `${job} `
  const lines: string[] = []
  for (const line of output.split('\n')) {
    if (!line.startsWith(prefix)) continue
    const m = /^ *> ?(.*)$/.exec(line.slice(prefix.length))
    if (m) lines.push(m[1]!)
  }
  return lines.join('\n')
}

/**
 * An example pipeline from examples/gitlab/ as a user copies it, with its component includes
 * pointed at `project` and the CLI at `tarball` (the only two changes). Throws on an include that
 * is not this repository's component at @1.
 */
export function examplePipeline(project: Project, tarball: string, name: string): string {
  const doc = parse(readFileSync(path.join(ROOT, 'examples', 'gitlab', `${name}.gitlab-ci.yml`), 'utf8'))
  for (const inc of doc.include as { component: string; inputs: Record<string, unknown> }[]) {
    const m = new RegExp(`^gitlab\\.com/${OWNER}/site-staging-action/([\\w-]+)@1$`).exec(inc.component)
    if (!m)
      throw new Error(`examples/gitlab/${name}: an include that is not the component @1: ${inc.component}`)
    inc.component = project.component(m[1]!)
    inc.inputs = { ...inc.inputs, 'cli-package': tarball }
  }
  return stringify(doc)
}
