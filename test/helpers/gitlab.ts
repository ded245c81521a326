/**
 * Running GitLab pipelines here with gitlab-ci-local (a devDependency), the way a GitLab project
 * would include this repository's CI/CD components.
 *
 * gitlab-ci-local treats `include: - component: <host>/<group>/<project>/<name>@<ref>` as local when
 * <group>/<project> is the git remote of the working directory and <ref> is its HEAD commit. So a
 * pipeline runs in a temporary git repository that holds a copy of templates/, with a GitLab-like
 * remote (never contacted), and includes `$CI_SERVER_FQDN/acme/site-staging/<name>@<sha>`. The CLI
 * comes from the `npm pack` tarball of this repository (the component's `cli-package` input), so
 * nothing is downloaded. Jobs run with the shell executor (`--force-shell-executor`: no Docker).
 * gitlab-ci-local copies files with rsync; its PATH here has a pure-Node stand-in first
 * (test/helpers/rsync.mjs), so the tests need no system package and run the same everywhere.
 */
import { execFile, spawn } from 'node:child_process'
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { parse, stringify } from 'yaml'
import { OWNER } from './owner.js'
import { ROOT } from './run-action.js'

const run = promisify(execFile)

export const GITLAB_CI_LOCAL = path.join(ROOT, 'node_modules', 'gitlab-ci-local', 'dist', 'index.js')
/** The project path the temporary repositories claim to be (their `origin`). */
export const PROJECT_PATH = 'acme/site-staging'

/** Packs this repository (`npm pack`) into `dir`; returns the tarball's path. */
export async function packTarball(dir: string): Promise<string> {
  const { stdout } = await run(
    'npm',
    ['pack', '--json', '--pack-destination', dir, '--cache', path.join(dir, 'npm-cache')],
    { cwd: ROOT, env: { ...process.env, npm_config_loglevel: 'error' }, maxBuffer: 20 * 1024 * 1024 },
  )
  return path.join(dir, (JSON.parse(stdout) as { filename: string }[])[0]!.filename)
}

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
 * GitLab's JSON schema check, made once per pipeline in a test file. gitlab-ci-local checks the
 * expanded configuration, which it writes to .gitlab-ci-local/expanded-gitlab-ci.yml; it depends on
 * the pipeline's text, the project variables and the `--variable` values (the jobs whose rules
 * keep them). The check is about a third of the CPU of a run (half of a `--list`). The first run of
 * a pipeline with those three checks it; a later run of the same (a manual job started after its
 * pipeline, a second merge request pipeline) skips the check (`--json-schema-validation=false`)
 * and then must have expanded to a document an earlier run checked, or the helper throws: no
 * pipeline runs on a document that was never checked.
 */
const firstRuns = new Map<string, Promise<void>>()
const checkedDocuments = new Set<string>()

export interface PipelineOptions {
  /** Check the schema even if this text was checked already (a test that asserts the check). */
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
  const pipelineVariables = args.flatMap((a, i) => (args[i - 1] === '--variable' ? [a] : []))
  const key = JSON.stringify([pipeline, variables, pipelineVariables])
  const first = options.checkSchema ? undefined : firstRuns.get(key)
  let firstDone = () => {}
  if (first) argv.push('--json-schema-validation=false')
  else firstRuns.set(key, new Promise((resolve) => (firstDone = resolve)))
  const expanded = () => (existsSync(expandedFile) ? readFileSync(expandedFile, 'utf8') : undefined)
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
  }).catch((error: unknown) => {
    firstDone()
    throw error
  })
  const document = expanded()
  if (!first) {
    if (document !== undefined && /json schema validated/.test(run.output)) checkedDocuments.add(document)
    // Only now: a run waiting on this one looks its document up next.
    firstDone()
  } else {
    await first
    if (document !== undefined && !checkedDocuments.has(document))
      throw new Error(
        `gitlab-ci-local ran, without the schema check, a document no earlier run checked:\n${run.output}`,
      )
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
