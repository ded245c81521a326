/**
 * The Bitbucket pipe (pipe/, src/cli/pipe.ts). No Docker engine runs here, so the image itself is
 * not built in these tests: its entry runs as the image runs it (`site-staging --bitbucket-pipe`,
 * here dist/cli.js), with the variables Bitbucket passes to a pipe's container, against the
 * simulator: a pull that succeeds (its outputs files, the token in none of its real output) and
 * SIGTERM to PID 1. The pipe's variables, their refusals, its words, exit codes and outputs for the
 * other cases run the same entry in virtual time: test/unit/pipe-entry.test.ts. pipe.yml is checked
 * against a schema written from Bitbucket's documentation (pipe/pipe.schema.json) and against the CLI.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { validate as lintDockerfile } from 'dockerfile-utils'
import { parse } from 'yaml'
import { DEFAULTS } from '../../src/inputs/index.js'
import { SIM_SITES, SIM_TOKENS, start, type Simulator } from '../../simulator/server.js'
import { cliReference } from '../helpers/cli-commands.js'
import { OWNER } from '../helpers/owner.js'
import { ROOT } from '../helpers/run-action.js'
import { CLI_BUNDLE } from '../helpers/run-cli.js'
import { VirtualFaultSim } from '../helpers/virtual-action.js'
import { runCliVirtually } from '../helpers/virtual-cli.js'
import { bitbucketEnv, sourced } from './bitbucket-env.js'

const PIPE = path.join(ROOT, 'pipe')
const TOKEN = SIM_TOKENS.readWrite
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const pipeYml: any = parse(readFileSync(path.join(PIPE, 'pipe.yml'), 'utf8'))
const schema = JSON.parse(readFileSync(path.join(PIPE, 'pipe.schema.json'), 'utf8'))
const entry = await import('../../src/cli/pipe.js')

describe('pipe.yml', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true })
  const validate = ajv.compile(schema)
  const errors = (doc: unknown) =>
    validate(doc) ? [] : validate.errors!.map((e) => `${e.instancePath} ${e.message}`)

  test("is valid against the schema written from Bitbucket's documentation, which names its sources", () => {
    expect(errors(pipeYml)).toEqual([])
    expect(schema.description).toMatch(
      /https:\/\/support\.atlassian\.com\/bitbucket-cloud\/docs\/write-a-pipe-for-bitbucket-pipelines\//,
    )
    expect(schema.description).toMatch(/advanced-techniques-for-writing-pipes/)
  })

  test.each([
    ['a misspelt key', { respository: 'https://x.example/y' }, /must NOT have additional properties/],
    ['an unknown category', { category: 'Deploy' }, /\/category must match pattern/],
    ['an image without a tag', { image: 'owner/site-staging-pipe' }, /must match pattern/],
    ['a lower-case variable', { variables: [{ name: 'site_id' }] }, /must match pattern/],
    ['a variable without a name', { variables: [{ default: 'x' }] }, /must have required property 'name'/],
    ['no description', { description: undefined }, /must have required property 'description'/],
  ])('the schema refuses %s', (_name, change, message) => {
    const doc = { ...pipeYml, ...change }
    for (const [k, v] of Object.entries(change)) if (v === undefined) delete doc[k]
    expect(errors(doc).join('\n')).toMatch(message)
  })

  test('the schema takes the shapes published pipes use: maintainer as an e-mail or an object, Code Quality', () => {
    expect(errors({ ...pipeYml, maintainer: 'someone@example.com', category: 'Code Quality' })).toEqual([])
    expect(
      errors({ ...pipeYml, vendor: { name: 'V', website: 'https://v.example', email: 'a@v.example' } }),
    ).toEqual([])
    expect(errors({ ...pipeYml, variables: [{ name: 'X', default: false }] })).toEqual([])
  })

  test('names the image users write (site-staging-pipe, this full version, as Atlassian pipes do), category Deployment', () => {
    const version = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version
    expect(pipeYml.image).toBe(`${OWNER}/site-staging-pipe:${version}`)
    expect(pipeYml.category).toBe('Deployment')
  })

  test("every variable has a description; the defaults are the CLI's", () => {
    const vars = pipeYml.variables as {
      name: string
      default?: string
      description?: string
      required?: boolean
    }[]
    for (const v of vars) expect(v.description?.length ?? 0).toBeGreaterThan(10)
    const byName = new Map(vars.map((v) => [v.name, v]))
    const asInput: Record<string, keyof typeof DEFAULTS> = {
      WAIT: 'wait',
      TIMEOUT: 'timeout',
      WAIT_FOR_URL: 'wait-for-url',
      LANGUAGE: 'language',
      IF_EXISTS: 'if-exists',
      IF_MISSING: 'if-missing',
      IF_BUSY: 'if-busy',
      MAX_RETRIES: 'max-retries',
      CONCURRENCY: 'concurrency',
      FAIL_FAST: 'fail-fast',
      DRY_RUN: 'dry-run',
      FOLLOW_TASK_ID: 'task-id',
    }
    for (const [name, input] of Object.entries(asInput))
      expect([name, byName.get(name)?.default]).toEqual([name, DEFAULTS[input]])
    for (const name of ['STAGING_API_TOKEN', 'OPERATION', 'SITE_ID'])
      expect(byName.get(name)?.required).toBe(true)
    // The CLI defaults to the hosted service's API root: only another root needs the variable.
    expect(byName.get('STAGING_API_URL')?.required).toBe(false)
  })
})

describe('the entry maps the variables to real CLI flags', () => {
  let help = ''
  beforeAll(async () => {
    help = (await runCliVirtually(new VirtualFaultSim(), ['--help'])).stdout
  })

  test('every pipe.yml variable is read, and every flag it can produce is in --help', () => {
    const ref = cliReference(help)
    const all: Record<string, string> = { STAGING_API_TOKEN: 't', OPERATION: 'pull', SITE_ID: '1' }
    for (const v of pipeYml.variables as { name: string; default?: string }[])
      all[v.name] ??=
        /^(WAIT|WAIT_FOR_URL|FAIL_FAST|DRY_RUN|DEBUG|ROLLBACK_ON_FAILURE|MAINTENANCE|PROTECT_PRODUCTION)$/.test(
          v.name,
        )
          ? 'true'
          : 'x'
    const args = entry.argsFrom(all)
    for (const a of args.slice(1)) expect(ref.flags).toContain(a.split('=')[0])
    const off = entry.argsFrom({ ...all, WAIT: 'false', DRY_RUN: 'FALSE' })
    expect(off).toContain('--no-wait')
    expect(off).toContain('--no-dry-run')
    // A switch's --no- form is the switch --help lists, turned off (src/cli/args.ts).
    for (const a of off.slice(1)) expect(ref.flags).toContain(a.split('=')[0]!.replace(/^--no-/, '--'))
    // Each variable is one the entry reads (made from the table of inputs, src/inputs/table.ts).
    expect((pipeYml.variables as { name: string }[]).map((v) => v.name).sort()).toEqual(
      [...entry.PIPE_VARIABLES].sort(),
    )
  })

  test("no pipe variable is named like one of the CLI's --dotenv keys (sourcing outputs must not change the next pipe)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pipe-keys-'))
    try {
      // No token: exit 2, failed outputs.
      const r = await runCliVirtually(new VirtualFaultSim(), [
        'pull',
        '--site-id',
        '1',
        `--dotenv=${dir}/o.env`,
      ])
      expect(r.code).toBe(2)
      const keys = readFileSync(`${dir}/o.env`, 'utf8')
        .trim()
        .split('\n')
        .map((l) => l.slice(0, l.indexOf('=')))
      expect(keys).toContain('RESULT')
      for (const v of pipeYml.variables as { name: string }[]) expect(keys).not.toContain(v.name)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

// --- the entry, run as the container runs it --------------------------------------------------

interface PipeRun {
  code: number | null
  stderr: string
  env: string
  json: string
  exitAfterSignalMs: number | null
}

let sim: Simulator
let root: string
let n = 0
beforeAll(async () => {
  sim = await start({
    port: 0,
    durationsMs: { create: 400, pull: 300, push: 300, delete: 200 },
    siteDelayMs: 100,
  })
  root = mkdtempSync(path.join(tmpdir(), 'pipe-'))
})
afterAll(async () => {
  await sim.stop()
  rmSync(root, { recursive: true, force: true })
})
beforeEach(() => {
  sim.reset()
  sim.setOptions({ durationsMs: { create: 400, pull: 300, push: 300, delete: 200 } })
})

function runPipe(
  variables: Record<string, string>,
  options: { signalWhen?: { name: NodeJS.Signals; stderr: RegExp } } = {},
): Promise<PipeRun> {
  const dir = path.join(root, `clone-${++n}`)
  mkdirSync(dir)
  const env = bitbucketEnv(dir, variables)
  const outDir = path.join(env.BITBUCKET_PIPE_SHARED_STORAGE_DIR!, entry.STORAGE_SUBDIR)
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BUNDLE, '--bitbucket-pipe'], {
      cwd: dir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    let signalledAt: number | null = null
    child.stdout.on('data', (d: Buffer) => (stderr += d.toString()))
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString()
      if (options.signalWhen && signalledAt === null && options.signalWhen.stderr.test(stderr)) {
        signalledAt = Date.now()
        child.kill(options.signalWhen.name)
      }
    })
    const killer = setTimeout(() => child.kill('SIGKILL'), 60_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(killer)
      const read = (f: string) =>
        existsSync(path.join(outDir, f)) ? readFileSync(path.join(outDir, f), 'utf8') : ''
      resolve({
        code,
        stderr,
        env: read('staging.env'),
        json: read('staging.json'),
        exitAfterSignalMs: signalledAt === null ? null : Date.now() - signalledAt,
      })
    })
  })
}

const base = () => ({ STAGING_API_TOKEN: TOKEN, STAGING_API_URL: sim.apiUrl })

describe('the pipe against the simulator', () => {
  test('a pull that succeeds: exit 0, the outputs in a file later commands source, and as JSON', async () => {
    const r = await runPipe({
      ...base(),
      OPERATION: 'pull',
      SITE_ID: String(SIM_SITES.withStaging),
      OUTPUT_FILE: 'staging.env',
    })
    expect(r.code).toBe(0)
    // The CLI's --shell-env file (every value single-quoted: test/unit/shell-env.test.ts) under one comment.
    expect(r.env).toMatch(/^# Outputs of the site-staging pipe\.[^\n]*\n(export [A-Z_]+='[^\n]*\n)+$/)
    const out = sourced(r.env, ['RESULT', 'TASK_ID', 'STAGING_SITE_ID', 'HTTP_STATUS', 'RESULTS'])
    expect(out.RESULT).toBe('succeeded')
    expect(out.TASK_ID).toMatch(/^[\w-]+$/)
    expect(out.HTTP_STATUS).toBe('202')
    expect(JSON.parse(out.RESULTS!)[0]).toMatchObject({ operation: 'pull', result: 'succeeded' })
    expect(JSON.parse(r.json)).toMatchObject({ operation: 'pull', siteId: '1002', result: 'succeeded' })
    expect(r.stderr).toMatch(/Staging pull succeeded/)
    expect(r.stderr).toMatch(/outputs: source ".*site-staging\/staging\.env"/)
    // OUTPUT_FILE: the same file in the clone directory, for an artifact.
    const own = readFileSync(path.join(root, `clone-${n}`, 'staging.env'), 'utf8')
    expect(own).toBe(r.env)
    // One pull sent, with the token; the token is nowhere in what the pipe wrote.
    expect(sim.requests.filter((q) => q.method === 'POST').map((q) => q.path)).toEqual([
      expect.stringMatching(/\/sites\/1002\/staging\/(pull|reset)$/),
    ])
    for (const text of [r.stderr, r.env, r.json, own]) {
      expect(text).not.toContain(TOKEN)
      expect(text).not.toContain(Buffer.from(TOKEN).toString('base64'))
      expect(text).not.toContain(Buffer.from(TOKEN).toString('hex'))
    }
  })

  test('SIGTERM (a stopped pipeline) reaches the CLI, PID 1 of the image: it stops waiting, says what it left, outputs cancelled, exit 1', async () => {
    sim.setOptions({ durationsMs: { pull: 30_000 } })
    const r = await runPipe(
      { ...base(), OPERATION: 'pull', SITE_ID: '1002' },
      { signalWhen: { name: 'SIGTERM', stderr: /Waiting for the pull job/ } },
    )
    expect(r.code).toBe(1)
    expect(r.exitAfterSignalMs).not.toBeNull()
    expect(r.stderr).toMatch(
      /^Received SIGTERM: stopping\. A job the server already accepted keeps running there\./m,
    )
    expect(r.stderr).toMatch(/Staging pull cancelled/)
    const out = sourced(r.env, ['RESULT', 'TASK_ID'])
    expect(out.RESULT).toBe('cancelled')
    expect(out.TASK_ID).toMatch(/^[\w-]+$/) // the job it left running can be followed later
    expect(JSON.parse(r.json)).toMatchObject({ result: 'cancelled' })
    // The pull was sent once, not again.
    expect(sim.requests.filter((q) => q.method === 'POST')).toHaveLength(1)
  })
})

describe('the release builds the image, tries it, then pushes it (.github/workflows/release.yml)', () => {
  type Step = { name?: string; uses?: string; run?: string; env?: Record<string, string> }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const release: any = parse(readFileSync(path.join(ROOT, '.github/workflows/release.yml'), 'utf8'))
  const job = release.jobs['pipe-image']
  const steps = job.steps as Step[]
  const at = (re: RegExp) => steps.findIndex((s) => re.test(s.run ?? ''))

  test("after verify and npm, with the workflow's read-only token; build, run against the simulator, stop, then push", () => {
    expect(job.needs).toEqual(['verify', 'npm']) // the package it installs is published by the npm job
    expect(job.permissions).toBeUndefined()
    const order = [
      at(/npm view "site-staging@\$version" version/),
      at(/docker build --pull --build-arg "SITE_STAGING_VERSION=\$version" --tag "\$IMAGE:\$version" pipe$/m),
      at(/node dist\/simulator\.js --port 8787/),
      at(/--env OPERATION=pull --env SITE_ID=1002[\s\S]*test "\$RESULT" = succeeded/),
      at(/docker stop --time 10[\s\S]*test "\$code" = 1[\s\S]*test "\$RESULT" = cancelled/),
      at(/docker push/),
    ]
    expect(order.every((i) => i >= 0)).toBe(true)
    expect([...order].sort((a, b) => a - b)).toEqual(order)
    // The Docker Hub token is in the push step only, and goes through stdin.
    const withSecret = steps.filter((s) => JSON.stringify(s).includes('secrets.'))
    expect(withSecret).toEqual([steps[at(/docker push/)]])
    expect(steps[at(/docker push/)]!.run).toMatch(/--password-stdin/)
  })

  test('v1.2.3 is pushed as 1.2.3, 1.2 and 1 (the shell expansions the job uses)', () => {
    const run = steps[at(/docker push/)]!.run!
    const version = /^version=.*$/m.exec(run)![0]
    const tags = /^for tag in (.*); do$/m.exec(run)![1]!
    const out = execFileSync('bash', ['-c', `${version}; for t in ${tags}; do printf '%s ' "$t"; done`], {
      env: { TAG: 'v1.2.3' },
    }).toString()
    expect(out.trim()).toBe('1.2.3 1.2 1')
  })

  test("the Dockerfile passes dockerfile-utils' checks (VS Code's Docker language server; no Docker engine here)", () => {
    const findings = (text: string) =>
      lintDockerfile(text).map((d) => `${d.range.start.line + 1}: ${d.message}`)
    expect(findings(readFileSync(path.join(PIPE, 'Dockerfile'), 'utf8'))).toEqual([])
    // The checks can fail.
    expect(findings('FROM node:24-alpine\nRUNN npm install\nCOPY pipe.mjs\n')).toEqual([
      '2: Unknown instruction: RUNN',
      '3: COPY requires at least two arguments',
    ])
  })

  test("the Dockerfile: Node 24, the CLI at exactly the build argument's version, the CLI as PID 1", () => {
    const dockerfile = readFileSync(path.join(PIPE, 'Dockerfile'), 'utf8')
    expect(dockerfile).toMatch(/^FROM node:24-alpine$/m)
    expect(dockerfile).toMatch(
      /npm install --global .*"\$\{SITE_STAGING_PACKAGE:-site-staging@\$\{SITE_STAGING_VERSION\}\}"/,
    )
    expect(dockerfile).toMatch(/test "\$\(site-staging --version\)" = "\$SITE_STAGING_VERSION"/)
    expect(dockerfile).not.toMatch(/^COPY /m) // nothing but the published CLI
    expect(dockerfile).toMatch(/^ENTRYPOINT \["site-staging", "--bitbucket-pipe"\]$/m)
  })
})

describe('the pipe steps users copy (docs/bitbucket.md, docs/cli.md)', () => {
  const blocks = ['docs/bitbucket.md', 'docs/cli.md'].flatMap((f) =>
    [...readFileSync(path.join(ROOT, f), 'utf8').matchAll(/```yaml\n([\s\S]*?)```/g)].map(
      (m) => [f, m[1]!] as const,
    ),
  )
  /** Every `- pipe:` item in a parsed YAML tree. */
  const pipeSteps = (node: unknown): { pipe: string; variables: Record<string, unknown> }[] => {
    if (Array.isArray(node)) return node.flatMap(pipeSteps)
    if (node && typeof node === 'object') {
      const o = node as Record<string, unknown>
      if (typeof o.pipe === 'string') return [o as { pipe: string; variables: Record<string, unknown> }]
      return Object.values(o).flatMap(pipeSteps)
    }
    return []
  }
  const steps = blocks.flatMap(([, text]) => pipeSteps(parse(text)))

  test('each uses the image, the declared variables only, all required ones, a real operation, the token by reference', async () => {
    expect(steps.length).toBeGreaterThanOrEqual(5)
    const ref = cliReference((await runCliVirtually(new VirtualFaultSim(), ['--help'])).stdout)
    const declared = new Map(
      (pipeYml.variables as { name: string; required?: boolean }[]).map((v) => [v.name, v]),
    )
    for (const step of steps) {
      expect(step.pipe).toBe(`docker://${OWNER}/site-staging-pipe:${pipeYml.image.split(':')[1]}`)
      for (const name of Object.keys(step.variables))
        expect(declared.has(name) ? name : `undeclared ${name}`).toBe(name)
      for (const [name, v] of declared) if (v.required) expect(Object.keys(step.variables)).toContain(name)
      expect(ref.operations).toContain(step.variables.OPERATION)
      expect(step.variables.STAGING_API_TOKEN).toBe('$STAGING_API_TOKEN')
      // Every value the entry accepts (it would stop with exit 2 otherwise), once Bitbucket has put in
      // the $NAME references.
      const expanded = Object.fromEntries(
        Object.entries(step.variables).map(([k, v]) => [k, String(v).replace(/^\$\w+$/, 'value-of-' + k)]),
      )
      expect(() => entry.argsFrom(expanded)).not.toThrow()
    }
  })
})
