// Slow (about 55 s): some thirty gitlab-ci-local runs of 1 to 5 s each, up to five tests at once
// (Jest's maxConcurrency), every job installing the CLI from the packed tarball, against the
// simulator in real time.
/**
 * The GitLab CI/CD components (templates/) run by a real GitLab pipeline runner, gitlab-ci-local:
 * it reads GitLab's YAML, resolves `include: - component:` with `inputs`, checks each input against
 * the component's `spec` (type, options, regex, required), validates the result with GitLab's JSON
 * schema, and runs the jobs with a shell executor, here against the simulator, with the CLI from
 * this repository's `npm pack` tarball (installed by the job as the component installs it).
 *
 * What gitlab-ci-local does not do, and so is not checked here: `environment:url` filled from the
 * same job's dotenv report (GitLab does; gitlab-ci-local expands the URL before the job runs, so a
 * later job's view of STAGING_URL is checked instead), masking of variables in the log (the CLI's
 * own redaction is checked), protected environments and approvals, resource_group, and running
 * the stop job when an environment is stopped (it is run here by name, as the Stop button would).
 */
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals'
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, watch } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parse, stringify } from 'yaml'
import { SIM_TOKENS, start, type Simulator } from '../../simulator/server.js'
import {
  copyProject,
  examplePipeline,
  gitlabCiLocal,
  jobLog,
  makeProject,
  type PipelineRun,
  type Project,
} from '../helpers/gitlab.js'
import { packed } from '../helpers/pack.js'
import { sentTo } from '../helpers/sim.js'

// Each test runs real pipelines (1 to 5 s each on an idle machine, several times that under load):
// generous limits, and no test measures how fast anything was.
jest.setTimeout(600_000)

const TOKEN = SIM_TOKENS.readWrite
let dir: string
let tarball: string
/** The components' repository, committed once; each test runs its pipelines in copies of it. */
let base: Project
const sims: Simulator[] = []
/** Every line any pipeline printed: the token must be in none of them. */
const everything: string[] = []

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'gitlab-test-'))
  ;[tarball, base] = await Promise.all([packed().then((p) => p.tarball), makeProject(path.join(dir, 'base'))])
})
const DURATIONS = { create: 300, pull: 200, push: 200, delete: 200 }
afterAll(async () => {
  await Promise.all(sims.map((s) => s.stop()))
  rmSync(dir, { recursive: true, force: true })
})

/**
 * What one test works with. The tests run at the same time (`test.concurrent`: most of a pipeline's
 * time is gitlab-ci-local's start, npm and the simulator's jobs, not this process), so each has its
 * own simulator and its own copy of the project; `list` runs a pipeline in a fresh copy of its own,
 * so that several `--list` runs of one test go at once too.
 */
interface Scenario {
  sim: Simulator
  project: Project
  /** Project CI/CD variables, as in Settings > CI/CD > Variables. */
  variables(): Record<string, string>
  pipeline(yaml: string, args?: string[], vars?: Record<string, string>): ReturnType<typeof gitlabCiLocal>
  list(yaml: string, args: string[], vars?: Record<string, string>): ReturnType<typeof gitlabCiLocal>
  /** `inputs` for the staging component, with the CLI taken from the tarball. */
  staging(inputs: Record<string, unknown>): { component: string; inputs: Record<string, unknown> }
  /**
   * An example pipeline from examples/gitlab/ as a user copies it, with its component include
   * pointed at this checkout and the CLI at the tarball (the only two changes).
   */
  example(name: string): string
}

async function scenario(
  profile: 'spec' | 'service' = 'spec',
  durationsMs: Record<string, number> = DURATIONS,
): Promise<Scenario> {
  const sim = await start({ port: 0, profile, durationsMs, siteDelayMs: 0 })
  sims.push(sim)
  const project = copyProject(base, mkdtempSync(path.join(dir, 'project-')))
  const variables = () => ({ STAGING_API_TOKEN: TOKEN, STAGING_API_URL: sim.apiUrl })
  const runIn = async (p: Project, yaml: string, args: string[], vars: Record<string, string>) => {
    const result = await gitlabCiLocal(p, yaml, args, vars)
    everything.push(result.output)
    return result
  }
  return {
    sim,
    project,
    variables,
    pipeline: (yaml, args = [], vars = variables()) => runIn(project, yaml, args, vars),
    list: (yaml, args, vars = variables()) =>
      runIn(copyProject(base, mkdtempSync(path.join(dir, 'list-'))), yaml, ['--list', ...args], vars),
    staging: (inputs) => ({
      component: project.component('staging'),
      inputs: { 'cli-package': tarball, ...inputs },
    }),
    example: (name) => examplePipeline(project, tarball, name),
  }
}

describe('the staging component, one job per operation', () => {
  test.concurrent(
    'create; a later job reads STAGING_URL from the dotenv report; pull; push waits for a person',
    async () => {
      const { sim, pipeline, staging, project } = await scenario()
      const yaml = stringify({
        stages: ['staging', 'check', 'refresh', 'release'],
        include: [
          staging({ operation: 'create', 'site-id': '1001', stage: 'staging' }),
          staging({ operation: 'pull', 'site-id': '1001', stage: 'refresh' }),
          staging({
            operation: 'push',
            'site-id': '1001',
            stage: 'release',
            environment: 'production',
            rules: [{ when: 'manual' }],
          }),
        ],
        'check-url': {
          stage: 'check',
          needs: ['staging:create'],
          script: ['echo "url=$STAGING_URL result=$RESULT"', 'test -n "$STAGING_URL"'],
        },
      })
      // Where the jobs install the CLI (a pipeline variable, as a person running it may give one),
      // watched: the jobs made it, and each job's after_script removed the CLI it installed (a shell
      // executor's /tmp outlives jobs).
      const prefix = path.join(project.dir, '..', `${path.basename(project.dir)}-cli`)
      const made: string[] = []
      const watcher = watch(path.dirname(prefix), (_event, name) => made.push(String(name)))
      const run = await pipeline(yaml, ['--variable', `SITE_STAGING_PREFIX=${prefix}`]).finally(() =>
        watcher.close(),
      )
      expect(run.code).toBe(0)
      expect(jobLog(run.output, 'staging:create')).toMatch(/^Staging create succeeded \(site 1001\)/m)
      expect(made).toContain(path.basename(prefix))
      expect(existsSync(prefix)).toBe(false)
      expect(jobLog(run.output, 'check-url')).toContain(
        `url=${sim.apiUrl.replace(/\/$/, '')}/staging-sites/s-1001/ result=succeeded`,
      )
      expect(jobLog(run.output, 'staging:pull')).toMatch(/^Staging pull succeeded \(site 1001\)/m)
      // The push is manual: it did not run, and nothing was pushed.
      expect(run.output).not.toContain('staging:push >')
      expect(sentTo(sim, 'POST', '/staging/push')).toEqual([])
      expect(sentTo(sim, 'POST', '/staging')).toHaveLength(1)
      expect(sentTo(sim, 'POST', '/staging/reset')).toHaveLength(1)

      // A person starts it: one push request, no more.
      const push = await pipeline(yaml, ['staging:push'])
      expect(push.code).toBe(0)
      expect(jobLog(push.output, 'staging:push')).toMatch(/^Staging push succeeded \(site 1001\)/m)
      expect(sentTo(sim, 'POST', '/staging/push')).toHaveLength(1)
    },
  )

  test.concurrent(
    'a delete as a stop job: manual by default; started, it deletes staging (environment action stop)',
    async () => {
      const { sim, pipeline, staging } = await scenario()
      const yaml = stringify({
        include: [
          staging({
            operation: 'delete',
            'site-id': '1002',
            'environment-action': 'stop',
            'if-missing': 'skip',
          }),
        ],
      })
      const pipelineRun = await pipeline(yaml)
      expect(pipelineRun.code).toBe(0)
      expect(pipelineRun.output).not.toContain('staging:delete >')
      expect(sim.requests).toEqual([])
      const run = await pipeline(yaml, ['staging:delete'])
      expect(run.code).toBe(0)
      expect(jobLog(run.output, 'staging:delete')).toMatch(/^Staging delete succeeded \(site 1002\)/m)
      expect(sentTo(sim, 'DELETE', '/staging')).toHaveLength(1)
      expect(sim.state.staging.has('1002')).toBe(false)
    },
  )
})

describe("the component's own words", () => {
  test.concurrent("a hint names the component's input (if-exists: skip), never the CLI's flag", async () => {
    const { sim, pipeline, staging } = await scenario()
    const run = await pipeline(stringify({ include: [staging({ operation: 'create', 'site-id': '1002' })] }))
    expect(run.code).not.toBe(0)
    // The job's own lines (its command line, echoed by the runner, names the CLI's flags).
    const said = jobLog(run.output, 'staging:create')
      .split('\n')
      .filter((l) => !l.includes('bin/site-staging'))
      .join('\n')
    expect(said).toContain('run with if-exists: skip to keep it, or if-exists: recreate to replace it')
    expect(said).not.toMatch(/--if-exists|IF_EXISTS/)
    expect(sentTo(sim, 'POST', '/staging')).toHaveLength(1)
  })
})

describe('safe by default: the README snippet with operation push or delete, no rules of its own', () => {
  const snippet = (staging: Scenario['staging'], ...operations: string[]) =>
    stringify({ include: operations.map((operation) => staging({ operation, 'site-id': '$SITE_ID' })) })
  const on = (branch: string) => [
    '--variable',
    `CI_COMMIT_BRANCH=${branch}`,
    '--variable',
    'CI_DEFAULT_BRANCH=main',
  ]

  /**
   * The snippet once per operation, as four includes of one pipeline (each job's rules are its own:
   * they test its SITE_STAGING_OPERATION), listed on a feature branch, on the default branch and on
   * a tag: three `--list` runs at once, which both tests below read.
   */
  let listings: Promise<Record<'feature' | 'main' | 'tag', PipelineRun>> | undefined
  const listed = () =>
    (listings ??= (async () => {
      const t = await scenario()
      const vars = { ...t.variables(), SITE_ID: '1002' }
      const all = snippet(t.staging, 'push', 'delete', 'create', 'pull')
      const [feature, main, tag] = await Promise.all([
        t.list(all, on('feature'), vars),
        t.list(all, on('main'), vars),
        t.list(all, ['--variable', 'CI_COMMIT_TAG=1.4.0'], vars),
      ])
      return { feature, main, tag }
    })())

  test.concurrent(
    'push: not even offered on another branch; manual on the default branch and on a tag; nothing sent',
    async () => {
      const { feature, main, tag } = await listed()
      expect(feature.code).toBe(0)
      expect(feature.output).not.toContain('staging:push')
      expect(main.output).toMatch(/^staging:push\s+deploy\s+manual\s+true/m)
      expect(tag.output).toMatch(/^staging:push\s+deploy\s+manual\s+true/m)
      const t = await scenario()
      const run = await t.pipeline(snippet(t.staging, 'push'), on('main'), {
        ...t.variables(),
        SITE_ID: '1002',
      })
      expect(run.code).toBe(0)
      expect(run.output).not.toContain('staging:push >')
      expect(t.sim.requests).toEqual([])
    },
  )

  test.concurrent('delete: manual on every branch; create and pull still run in every pipeline', async () => {
    const { feature } = await listed()
    expect(feature.output).toMatch(/^staging:delete\s+deploy\s+manual\s+true/m)
    for (const operation of ['create', 'pull'])
      expect(feature.output).toMatch(new RegExp(`^staging:${operation}\\s+deploy\\s+on_success`, 'm'))
  })

  test.concurrent(
    'rules you give replace the default: a push on every pipeline runs when you say so',
    async () => {
      const { sim, pipeline, staging } = await scenario()
      const yaml = stringify({
        include: [staging({ operation: 'push', 'site-id': '1002', rules: [{ when: 'on_success' }] })],
      })
      const run = await pipeline(yaml, on('feature'))
      expect(run.code).toBe(0)
      expect(jobLog(run.output, 'staging:push')).toMatch(/^Staging push succeeded \(site 1002\)/m)
      expect(sentTo(sim, 'POST', '/staging/push')).toHaveLength(1)
    },
  )
})

describe('the ready-made pipelines in examples/gitlab/, as users copy them', () => {
  test.concurrent(
    'review app: create on a merge request, then pull on the next one with the URL in the report; Stop deletes',
    async () => {
      const { sim, project, pipeline, list, example, variables } = await scenario()
      const yaml = example('review-app')
      const mr = ['--variable', 'CI_PIPELINE_SOURCE=merge_request_event']
      const vars = { ...variables(), SITE_ID: '1001' }

      const [branch, listed] = await Promise.all([list(yaml, [], vars), list(yaml, mr, vars)])
      // Outside a merge request pipeline, neither job is there.
      expect(branch.output).not.toMatch(/staging:review|staging:stop/)
      expect(listed.output).toMatch(/staging:review\s+deploy\s+on_success/)
      expect(listed.output).toMatch(/staging:stop\s+deploy\s+manual\s+true/)

      const first = await pipeline(yaml, mr, vars)
      expect(first.code).toBe(0)
      expect(jobLog(first.output, 'staging:review')).toMatch(/^Staging create succeeded \(site 1001\)/m)
      expect(first.output).not.toContain('staging:stop >')
      const url = `${sim.apiUrl.replace(/\/$/, '')}/staging-sites/s-1001/`

      const second = await pipeline(yaml, mr, vars)
      expect(second.code).toBe(0)
      const log = jobLog(second.output, 'staging:review')
      expect(log).toMatch(/^Staging create skipped \(site 1001\)/m)
      expect(log).toMatch(/^Staging pull succeeded \(site 1001\)/m)
      const env = readFileSync(path.join(project.dir, 'site-staging.env'), 'utf8')
      expect(env).toContain(`STAGING_URL=${url}\n`)
      expect(env).toMatch(/^RESULT=succeeded$/m)

      const stop = await pipeline(yaml, [...mr, 'staging:stop'], vars)
      expect(stop.code).toBe(0)
      expect(jobLog(stop.output, 'staging:stop')).toMatch(/^Staging delete succeeded \(site 1001\)/m)
      expect(sentTo(sim, 'DELETE', '/staging')).toHaveLength(1)
    },
  )

  test.concurrent(
    "review app on the service's shapes: the pull's report replaces the skipped create's, one URL line",
    async () => {
      // The service's answers name no staging URL on a skipped create or a pull (only a create's
      // status does), so the job's merge keeps the create's value, here empty: one STAGING_URL line,
      // never two (GitLab would take either).
      const { project, pipeline, example, variables } = await scenario('service')
      const yaml = example('review-app')
      const mr = ['--variable', 'CI_PIPELINE_SOURCE=merge_request_event']
      const vars = { ...variables(), SITE_ID: '1001' }
      const envFile = path.join(project.dir, 'site-staging.env')
      expect((await pipeline(yaml, mr, vars)).code).toBe(0)
      expect(readFileSync(envFile, 'utf8')).toMatch(/^STAGING_URL=http:\/\/\S+$/m)

      const second = await pipeline(yaml, mr, vars)
      expect(second.code).toBe(0)
      const log = jobLog(second.output, 'staging:review')
      expect(log).toMatch(/^Staging create skipped \(site 1001\)/m)
      expect(log).toMatch(/^Staging pull succeeded \(site 1001\)/m)
      const env = readFileSync(envFile, 'utf8')
      expect(env).toMatch(/^RESULT=succeeded$/m)
      expect(env).toMatch(/^MESSAGE=Pull started/m)
      const created = readFileSync(path.join(project.dir, 'site-staging.create.env'), 'utf8')
      expect(env.split('\n').filter((l) => l.startsWith('STAGING_URL='))).toEqual(
        created.split('\n').filter((l) => l.startsWith('STAGING_URL=')),
      )
    },
  )

  test.concurrent(
    'nightly refresh: on a schedule only, several sites, a later job reads the report',
    async () => {
      const { sim, pipeline, list, example, variables } = await scenario()
      const yaml = example('nightly-refresh')
      const vars = { ...variables(), SITE_ID: '1002,1001' }
      const [push, run] = await Promise.all([
        list(yaml, [], vars),
        pipeline(yaml, ['--variable', 'CI_PIPELINE_SOURCE=schedule'], vars),
      ])
      expect(push.output).not.toContain('staging:pull')

      expect(run.code).toBe(0)
      const log = jobLog(run.output, 'staging:pull')
      expect(log).toMatch(/^\[site 1001\] Site 1001: no staging environment .*skipped \(if-missing: skip\)/m)
      expect(log).toMatch(/^Staging pull on 2 sites: 1 succeeded, 1 skipped/m)
      expect(jobLog(run.output, 'staging:report')).toMatch(
        /^Nightly refresh succeeded: 1 of 2 sites succeeded/m,
      )
      // One pull each: 1002's accepted, 1001's answered 404 (no staging) and skipped.
      expect(
        sentTo(sim, 'POST', '/staging/reset')
          .map((r) => `${r.path} ${r.status}`)
          .sort(),
      ).toEqual(['/v2/sites/1001/staging/reset 404', '/v2/sites/1002/staging/reset 202'])
    },
  )

  test.concurrent('release: a manual push on a version tag, in the production environment', async () => {
    const { sim, project, pipeline, list, example, variables } = await scenario()
    const yaml = example('release')
    // Production's own page, which the simulator serves: the push is checked there.
    const live = `${sim.url}/production-sites/1002/`
    const vars = {
      ...variables(),
      SITE_ID: '1002',
      PRODUCTION_URL: live,
      PRODUCTION_EXPECT: 'Production site 1002',
    }
    const tag = ['--variable', 'CI_COMMIT_TAG=v1.4.0']
    const [untagged, listed, pipelineRun] = await Promise.all([
      list(yaml, [], vars),
      list(yaml, tag, vars),
      pipeline(yaml, tag, vars),
    ])
    expect(untagged.output).not.toContain('staging:push')
    expect(listed.output).toMatch(/staging:push\s+deploy\s+manual\s+false\s+production/)
    expect(pipelineRun.output).not.toContain('staging:push >')
    expect(sentTo(sim, 'POST', '/staging/push')).toEqual([])

    const approved = await pipeline(yaml, [...tag, 'staging:push'], vars)
    expect(approved.code).toBe(0)
    expect(jobLog(approved.output, 'staging:push')).toMatch(/^Staging push succeeded \(site 1002\)/m)
    expect(approved.output).toContain(`environment: { name: production, url: ${live} }`)
    expect(sentTo(sim, 'POST', '/staging/push')).toHaveLength(1)
    expect(readFileSync(path.join(project.dir, 'site-staging.env'), 'utf8')).toMatch(
      /^PRODUCTION_CHECK=passed$/m,
    )
  })
})

describe('refused before any request', () => {
  test.concurrent('an operation not in the options: the runner refuses the pipeline', async () => {
    const { sim, pipeline, staging } = await scenario()
    const run = await pipeline(stringify({ include: [staging({ operation: 'deploy', 'site-id': '1001' })] }))
    expect(run.code).not.toBe(0)
    expect(run.output).toMatch(
      /`operation` input: `deploy` cannot be used because it is not in the list of allowed options/,
    )
    expect(sim.requests).toEqual([])
  })

  test.concurrent('a missing required input: the runner refuses the pipeline', async () => {
    const { sim, pipeline, staging } = await scenario()
    const run = await pipeline(stringify({ include: [staging({ operation: 'pull' })] }))
    expect(run.code).not.toBe(0)
    expect(run.output).toMatch(/`site-id` input: required value has not been provided/)
    expect(sim.requests).toEqual([])
  })

  test.concurrent('a site id that is neither ids nor a variable: refused by its regex', async () => {
    const { sim, pipeline, staging } = await scenario()
    const run = await pipeline(
      stringify({ include: [staging({ operation: 'pull', 'site-id': '1001; rm -rf /' })] }),
    )
    expect(run.code).not.toBe(0)
    expect(run.output).toMatch(/`site-id` input: `1001; rm -rf \/` does not match required regex/)
    expect(sim.requests).toEqual([])
  })

  test.concurrent('a site id written as a number (unquoted): GitLab refuses it; quoted it runs', async () => {
    const { sim, pipeline, staging } = await scenario()
    const run = await pipeline(stringify({ include: [staging({ operation: 'status', 'site-id': 1002 })] }))
    expect(run.code).not.toBe(0)
    expect(run.output).toMatch(/`site-id` input: provided value is not a string/)
    expect(sim.requests).toEqual([])
    const quoted = await pipeline(
      stringify({ include: [staging({ operation: 'status', 'site-id': '1002' })] }),
    )
    expect(quoted.code).toBe(0)
  })

  test.concurrent(
    'no token, a token GitLab cannot mask: the CLI refuses with our message, exit 2, nothing sent',
    async () => {
      const { sim, pipeline, staging, variables } = await scenario()
      const yaml = stringify({
        include: [
          staging({
            operation: 'pull',
            'site-id': '1002',
            'job-prefix': 'missing:',
            'token-variable': 'NO_SUCH_TOKEN',
          }),
          staging({
            operation: 'pull',
            'site-id': '1002',
            'job-prefix': 'short:',
            'token-variable': 'SHORT_TOKEN',
          }),
          staging({
            operation: 'pull',
            'site-id': '1002',
            'job-prefix': 'spaced:',
            'token-variable': 'SPACED_TOKEN',
          }),
        ],
      })
      const run = await pipeline(yaml, [], {
        ...variables(),
        SHORT_TOKEN: 'abc123',
        SPACED_TOKEN: `${TOKEN} x`,
      })
      expect(run.code).not.toBe(0)
      expect(jobLog(run.output, 'missing:pull')).toMatch(
        /^site-staging: the CI\/CD variable NO_SUCH_TOKEN is not set in this job\. Add the API token in Settings > CI\/CD > Variables as NO_SUCH_TOKEN, with Masked on/m,
      )
      expect(jobLog(run.output, 'short:pull')).toMatch(
        /^site-staging: the value of SHORT_TOKEN has fewer than 8 characters: GitLab masks only values of 8 characters or more/m,
      )
      expect(jobLog(run.output, 'spaced:pull')).toMatch(
        /^site-staging: the value of SPACED_TOKEN contains a space or a line break: GitLab cannot mask it/m,
      )
      for (const job of ['missing:pull', 'short:pull', 'spaced:pull'])
        expect(run.output).toMatch(new RegExp(`^${job} .*finished .*FAIL 2`, 'm'))
      expect(sim.requests).toEqual([])
      expect(run.output).not.toContain('abc123')
    },
  )

  test.concurrent(
    "a hint names the step as this component's job: its job-prefix, then the operation",
    async () => {
      const { pipeline, staging, variables } = await scenario()
      const yaml = stringify({
        include: [staging({ operation: 'pull', 'site-id': '1002', 'job-prefix': 'site-a:', wait: false })],
      })
      const run = await pipeline(yaml, [], variables())
      expect(run.code).toBe(0)
      expect(jobLog(run.output, 'site-a:pull')).toMatch(
        /To check on it later, run the job site-a:status \(operation: status, site-id: 1002, task-id: \S+\)/,
      )
    },
  )

  test.concurrent(
    'included at a commit (no released version): the job refuses to install the CLI unpinned',
    async () => {
      // GitLab gives $[[ component.version ]] no value then; the job's script runs as GitLab would.
      const t = await scenario()
      const job = await expandedJob(
        t,
        stringify({
          include: [
            { component: t.project.component('staging'), inputs: { operation: 'pull', 'site-id': '1002' } },
          ],
        }),
        'staging:pull',
      )
      const r = await runScript(t, job, { SITE_STAGING_VERSION: '' })
      expect(r.code).not.toBe(0)
      expect(r.log).toMatch(
        /SITE_STAGING_VERSION: is empty: include the component at a released version \(@1\.2\.3, @1\.2 or @1\), or name an exact version in cli-package\. The CLI is never installed unpinned\./,
      )
      expect(existsSync(path.join(r.cwd, 'prefix'))).toBe(false)
      expect(t.sim.requests).toEqual([])
    },
  )
})

/** A job as gitlab-ci-local expands it (`--preview`): its variables and script. */
async function expandedJob(
  t: Scenario,
  yaml: string,
  name: string,
): Promise<{ variables: Record<string, string>; script: string[] }> {
  const preview = await t.pipeline(yaml, ['--preview'])
  expect(preview.code).toBe(0)
  return parse(preview.output.slice(preview.output.indexOf('---')))[name]
}

/**
 * Runs a job's script under sh as a runner does, in a process group of its own; `onLog` may signal
 * it. Resolves when every process of the job has closed its output.
 */
function runScript(
  t: Scenario,
  job: { variables: Record<string, string>; script: string[] },
  extra: Record<string, string> = {},
  onLog?: (log: string, group: number) => void,
): Promise<{ code: number | null; signal: string | null; log: string; cwd: string }> {
  const cwd = mkdtempSync(path.join(dir, 'job-'))
  // The job's variables as GitLab expands them: a `$NAME` value takes that variable's value.
  const project: Record<string, string> = t.variables()
  const jobVariables = Object.fromEntries(
    Object.entries(job.variables).map(([k, v]) => [
      k,
      String(v).replace(/^\$(\w+)$/, (_, n) => project[n] ?? ''),
    ]),
  )
  const env = {
    ...jobVariables,
    ...project,
    SITE_STAGING_PREFIX: path.join(cwd, 'prefix'),
    ...extra,
    PATH: `${path.dirname(process.execPath)}:${process.env.PATH}`,
    HOME: cwd,
    npm_config_offline: 'true',
    npm_config_cache: path.join(cwd, 'npm-cache'),
  }
  const child = spawn('sh', ['-c', job.script.join('\n')], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let log = ''
  const onData = (d: Buffer) => {
    log += d.toString()
    onLog?.(log, child.pid!)
  }
  child.stdout.on('data', onData)
  child.stderr.on('data', onData)
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      everything.push(log)
      resolve({ code, signal, log, cwd })
    })
  })
}

describe("a cancelled job (GitLab Runner sends SIGTERM to the job's process group)", () => {
  test.concurrent(
    'the CLI gets the signal itself, says what it left behind, reports cancelled, and ends',
    async () => {
      const t = await scenario('spec', { ...DURATIONS, create: 600_000 })
      const { sim, staging } = t
      const job = await expandedJob(
        t,
        stringify({ include: [staging({ operation: 'create', 'site-id': '1001' })] }),
        'staging:create',
      )
      let signalled = false
      let jobGroup = 0
      const r = await runScript(t, job, {}, (log, group) => {
        if (!signalled && /Waiting for the create job/.test(log)) {
          signalled = true
          jobGroup = group
          // As GitLab Runner's process killer does (helpers/process/killer_unix.go): kill(-pid).
          process.kill(-group, 'SIGTERM')
        }
      })
      expect(signalled).toBe(true)
      // runScript resolved when every process of the job had closed its output: the CLI ended.
      expect(jobGroup).toBeGreaterThan(0)
      expect(r.log).toMatch(
        /^Received SIGTERM: stopping\. A job the server already accepted keeps running there\./m,
      )
      expect(r.log).toMatch(/^Staging create cancelled \(site 1001\)/m)
      expect(readFileSync(path.join(r.cwd, 'site-staging.env'), 'utf8')).toMatch(/^RESULT=cancelled$/m)
      // The create was sent once, and not again.
      expect(sentTo(sim, 'POST', '/staging')).toHaveLength(1)
    },
  )
})

test('the token appears in no pipeline output or dotenv report, raw or encoded', () => {
  const reports: string[] = []
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true }))
      if (e.isDirectory()) walk(path.join(d, e.name))
      else if (e.name.endsWith('.env')) reports.push(readFileSync(path.join(d, e.name), 'utf8'))
  }
  // Every project the tests ran pipelines in, and every job run by hand.
  walk(dir)
  expect(reports.length).toBeGreaterThan(3)
  const all = [...everything, ...reports].join('\n')
  expect(all.length).toBeGreaterThan(1000)
  for (const form of [
    TOKEN,
    Buffer.from(TOKEN).toString('base64'),
    Buffer.from(TOKEN).toString('hex'),
    encodeURIComponent(TOKEN),
  ])
    expect(all).not.toContain(form)
})
