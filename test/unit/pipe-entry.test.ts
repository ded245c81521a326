/**
 * The Bitbucket pipe's entry (`site-staging --bitbucket-pipe`, src/cli/pipe.ts's runPipe()) in
 * virtual time against the simulator's API core: the pipe's variables and their refusals, its words,
 * its exit codes, the outputs files later commands `source`, the checkpoint and the rollback. The
 * entry as the image runs it (dist/cli.js, the token in its real output, SIGTERM to PID 1):
 * test/pipe/pipe.test.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { SIM_SITES, SIM_TOKENS } from '../../simulator/server.js'
import { STORAGE_SUBDIR } from '../../src/cli/pipe.js'
import { FAST } from '../helpers/sim.js'
import { VirtualFaultSim } from '../helpers/virtual-action.js'
import { runPipeVirtually } from '../helpers/virtual-cli.js'
import { bitbucketEnv, sourced } from '../pipe/bitbucket-env.js'

const TOKEN = SIM_TOKENS.readWrite

interface PipeRun {
  code: number | null
  stderr: string
  env: string
  json: string
}

let sim: VirtualFaultSim
let root: string
let n = 0
beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'pipe-virtual-'))
})
afterAll(() => rmSync(root, { recursive: true, force: true }))
// The runner's files virtual-action.ts made when it was loaded.
beforeEach(() => {
  sim = new VirtualFaultSim({ ...FAST, siteDelayMs: 100 })
})

/** The entry once, in a clone directory of its own; stdout and stderr together, as a step's log. */
async function runPipe(variables: Record<string, string>): Promise<PipeRun> {
  const dir = path.join(root, `clone-${++n}`)
  mkdirSync(dir)
  const env = bitbucketEnv(dir, variables)
  const outDir = path.join(env.BITBUCKET_PIPE_SHARED_STORAGE_DIR!, STORAGE_SUBDIR)
  const r = await runPipeVirtually(sim, env)
  const read = (f: string) =>
    existsSync(path.join(outDir, f)) ? readFileSync(path.join(outDir, f), 'utf8') : ''
  return { code: r.code, stderr: r.stdout + r.stderr, env: read('staging.env'), json: read('staging.json') }
}

const base = () => ({ STAGING_API_TOKEN: TOKEN, STAGING_API_URL: sim.apiUrl })

describe('the pipe against the simulator, in virtual time', () => {
  test('a push takes its checkpoint (CHECKPOINT_ID in the outputs); RESTORE_CHECKPOINT_ID rolls production back', async () => {
    sim.setOptions({
      durationsMs: { create: 400, pull: 300, push: 300, delete: 200, version: 200, restore: 200 },
    })
    const site = String(SIM_SITES.withStaging)
    const before = { ...sim.state.sites.get(site)!.content }
    const push = await runPipe({ ...base(), OPERATION: 'push', SITE_ID: site })
    expect(push.code).toBe(0)
    const { CHECKPOINT_ID: id } = sourced(push.env, ['CHECKPOINT_ID'])
    expect(id).toMatch(/^[\w-]+$/)
    expect(sim.state.sites.get(site)!.content).not.toEqual(before)
    // The checkpoint: this tool's completed version of production as it was, the push sent after it.
    const [version, ...others] = [...sim.state.siteVersions.values()].filter(
      (v) => String(v.site_id) === site,
    )
    expect(others).toEqual([])
    expect(version).toMatchObject({ status: 'completed', content: before })
    expect(version!.name).toMatch(/^ssa~cp~\S+$/)
    const pushes = sim.requests.filter((q) => q.method === 'POST' && q.path.endsWith('/staging/push'))
    expect(pushes).toHaveLength(1)
    expect(pushes[0]!.at).toBeGreaterThanOrEqual(sim.state.tasks.get(version!.task_id!)!.ends_at)
    const back = await runPipe({
      ...base(),
      OPERATION: 'rollback',
      SITE_ID: site,
      RESTORE_CHECKPOINT_ID: id!,
    })
    expect(back.code).toBe(0)
    expect(back.stderr).toMatch(/Production was restored to version/)
    expect(sim.state.sites.get(site)!.content).toEqual(before)
    expect(
      sim.requests
        .filter((q) => q.method === 'PUT' && q.path.includes('/restore-versions/'))
        .map((q) => q.path.split('/').pop()),
    ).toEqual([id])
  })

  test('a missing token: a clear message, exit 2, failed outputs, nothing sent', async () => {
    const r = await runPipe({ STAGING_API_URL: sim.apiUrl, OPERATION: 'pull', SITE_ID: '1002' })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(
      /STAGING_API_TOKEN is not set\. Add the API token as a secured repository or deployment variable/,
    )
    expect(r.stderr).toMatch(/STAGING_API_TOKEN: \$STAGING_API_TOKEN/)
    const out = sourced(r.env, ['RESULT', 'MESSAGE'])
    expect(out.RESULT).toBe('failed')
    expect(out.MESSAGE).toMatch(/STAGING_API_TOKEN is not set/)
    expect(sim.requests).toEqual([])
  })

  test.each([
    ['a switch', { WAIT: TOKEN }],
    ['the operation, with a word before it', { OPERATION: `pull ${TOKEN}` }],
    ['DEBUG', { DEBUG: TOKEN.toUpperCase() }],
  ])('the token in a refused variable (%s) is masked on the log and in the outputs file', async (_, bad) => {
    const r = await runPipe({ ...base(), OPERATION: 'pull', SITE_ID: '1002', ...bad })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/"(pull )?\*\*\*" is not/)
    const text = `${r.stderr}\n${sourced(r.env, ['MESSAGE']).MESSAGE}`.toLowerCase()
    expect(text).not.toContain(TOKEN.slice(-12).toLowerCase())
    expect(sim.requests).toEqual([])
  })

  test("a refused value in the pipe's words, with no pointer to a command the pipe has not got", async () => {
    const r = await runPipe({ ...base(), OPERATION: 'pull', SITE_ID: '1002', TIMEOUT: 'abc' })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/TIMEOUT: "abc" is not a duration/)
    expect(r.stderr).toMatch(/No request was sent\./)
    expect(r.stderr).not.toMatch(/--help/)
  })

  test('a token variable Bitbucket could not fill ($STAGING_API_TOKEN as text): exit 2, nothing sent', async () => {
    const r = await runPipe({
      ...base(),
      STAGING_API_TOKEN: '$STAGING_API_TOKEN',
      OPERATION: 'pull',
      SITE_ID: '1002',
    })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(
      /STAGING_API_TOKEN is the text "\$STAGING_API_TOKEN": no variable of that name is defined/,
    )
    expect(sim.requests).toEqual([])
  })

  test.each([
    ['a switch that is not true or false', { WAIT: 'maybe' }, /WAIT: "maybe" is not true or false/],
    // One rule for switches on every door: true or false (docs/assumptions.md).
    ['a switch as yes', { DRY_RUN: 'yes' }, /DRY_RUN: "yes" is not true or false/],
    [
      'a known name in another case',
      { if_exists: 'skip' },
      /if_exists is not a variable of this pipe: did you mean IF_EXISTS\?/,
    ],
    [
      'a near miss',
      { IF_EXIST: 'skip' },
      /IF_EXIST is not a variable of this pipe: did you mean IF_EXISTS\?/,
    ],
    [
      "an input's name in capitals, where the pipe's variable is named otherwise (the token must not go to the hosted service)",
      { API_URL: 'http://127.0.0.1:9/api/v2' },
      /API_URL is not a variable of this pipe: did you mean STAGING_API_URL\?/,
    ],
    [
      'an output used as an input',
      { TASK_ID: 'abc' },
      /TASK_ID is an output of this pipe, not one of its variables: did you mean FOLLOW_TASK_ID\?/,
    ],
    [
      'a rollback with CHECKPOINT_ID',
      { OPERATION: 'rollback', CHECKPOINT_ID: 'v1' },
      /CHECKPOINT_ID is an output of this pipe, not one of its variables: did you mean RESTORE_CHECKPOINT_ID\?/,
    ],
    [
      'an output with no input of its name',
      { STAGING_URL: 'https://x.example' },
      /STAGING_URL is an output of this pipe, not one of its variables\. Nothing was sent\./,
    ],
    ['an operation that is a flag', { OPERATION: '--help' }, /OPERATION: "--help" is not an operation/],
    ['no operation', { OPERATION: '' }, /OPERATION is not set/],
    [
      "no site id: told in the pipe's words",
      { SITE_ID: '' },
      /SITE_ID: is required \(the PRODUCTION site id\)/,
    ],
    [
      'a policy value the CLI refuses',
      { IF_MISSING: 'maybe' },
      /IF_MISSING: "maybe" is not one of fail, skip/,
    ],
    [
      'an API URL without its scheme',
      { STAGING_API_URL: 'app.instawp.io/api' },
      /STAGING_API_URL: "app.instawp.io\/api" has no scheme/,
    ],
  ])('bad input, %s: exit 2, nothing sent', async (_name, change, message) => {
    const r = await runPipe({ ...base(), OPERATION: 'pull', SITE_ID: '1002', ...change })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(message)
    expect(sourced(r.env, ['RESULT']).RESULT).toBe('failed')
    expect(sim.requests).toEqual([])
  })

  test("the variables every container has, and a repository's own, are left alone", async () => {
    const ordinary = {
      HTTPS_PROXY: 'http://proxy.example:3128',
      no_proxy: 'localhost',
      NODE_OPTIONS: '--max-old-space-size=512',
      BITBUCKET_DEPLOYMENT_ENVIRONMENT: 'staging',
      SITE_NAME: 'shop',
      SITE_IDS: '',
      RESULT: 'from an earlier step',
      MESSAGE: 'hello',
      SLACK_WEBHOOK: 'https://hooks.example/x',
    }
    const { SITE_IDS: _, ...kept } = ordinary
    const r = await runPipe({
      ...base(),
      ...kept,
      OPERATION: 'status',
      SITE_ID: String(SIM_SITES.withStaging),
    })
    expect([r.code, r.stderr]).toEqual([0, expect.stringMatching(/Staging status/i)])
    // A variable one edit from SITE_ID is refused, even empty: the step meant SITE_ID.
    sim.reset()
    const near = await runPipe({ ...base(), ...ordinary, OPERATION: 'status', SITE_ID: '1002' })
    expect(near.code).toBe(2)
    expect(near.stderr).toMatch(/SITE_IDS is not a variable of this pipe: did you mean SITE_ID\?/)
    expect(sim.requests).toEqual([])
  })

  test("a hint names the pipe's variable: IF_EXISTS: skip, never the CLI's flag", async () => {
    const r = await runPipe({ ...base(), OPERATION: 'create', SITE_ID: String(SIM_SITES.withStaging) })
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('run with IF_EXISTS: skip to keep it, or IF_EXISTS: recreate to replace it')
    expect(r.stderr).not.toMatch(/--if-exists|if-exists: /)
  })

  test('a failed operation exits 1 (pull without staging), a dry run 0 with nothing sent', async () => {
    const failed = await runPipe({ ...base(), OPERATION: 'pull', SITE_ID: String(SIM_SITES.eligible) })
    expect(failed.code).toBe(1)
    expect(sourced(failed.env, ['RESULT']).RESULT).toBe('failed')
    sim.reset()
    const dry = await runPipe({ ...base(), OPERATION: 'push', SITE_ID: '1002', DRY_RUN: 'true' })
    expect(dry.code).toBe(0)
    expect(sourced(dry.env, ['RESULT']).RESULT).toBe('dry-run')
    expect(sim.requests.filter((q) => q.method !== 'GET')).toEqual([])
  })

  test('a server message full of shell syntax stays text in the sourced file: nothing runs', async () => {
    const marker = path.join(root, 'pwned')
    const hostile = `Pull started'; touch "$PWN"; echo ' $(touch "$PWN") \`touch "$PWN"\` && touch "$PWN" | ${'$'}{PWN} \\ ##vso[task.complete result=Succeeded]`
    sim.addFault({ method: 'POST', path: /\/staging\/(pull|reset)$/, patch: { message: hostile } })
    const r = await runPipe({ ...base(), OPERATION: 'pull', SITE_ID: '1002', WAIT: 'false' })
    expect(r.code).toBe(0)
    expect(r.env).toContain('touch') // the message is in the file...
    const out = sourced(r.env, ['RESULT', 'MESSAGE'], { PWN: marker })
    expect(existsSync(marker)).toBe(false) // ...and sourcing it ran none of it
    expect(out.RESULT).toBe('accepted')
    expect(out.MESSAGE).toContain(`'; touch "$PWN"; echo ' $(touch "$PWN")`)
    expect(out.MESSAGE).not.toMatch(/##vso\[/) // the CLI made the logging command inert
    expect(r.stderr).not.toMatch(/##vso\[/)
    // `set -a; . file` (export everything) is just as inert.
    execFileSync('sh', ['-c', `set -a\n${r.env}\nset +a\nenv > /dev/null`], {
      env: { PWN: marker, PATH: process.env.PATH ?? '' },
    })
    expect(existsSync(marker)).toBe(false)
  })

  test('an OUTPUT_FILE that cannot be written turns a success into exit 1; the shared storage file is still written', async () => {
    const blocker = path.join(root, 'a-file')
    writeFileSync(blocker, 'not a directory')
    const r = await runPipe({
      ...base(),
      OPERATION: 'pull',
      SITE_ID: String(SIM_SITES.withStaging),
      OUTPUT_FILE: path.join(blocker, 'staging.env'),
    })
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/Staging pull succeeded/)
    expect(r.stderr).toMatch(/could not write the outputs to .*a-file\/staging\.env: /)
    expect(sourced(r.env, ['RESULT']).RESULT).toBe('succeeded')
    // The pull was sent once: an outputs file is not a reason to send it again.
    expect(sim.requests.filter((q) => q.method === 'POST')).toHaveLength(1)
  })

  test("no shared storage and no OUTPUT_FILE: the pipe says the outputs are not written, and its exit is the operation's", async () => {
    const dir = path.join(root, `clone-${++n}`)
    mkdirSync(dir)
    const env = bitbucketEnv(dir, { ...base(), OPERATION: 'pull', SITE_ID: String(SIM_SITES.withStaging) })
    delete env.BITBUCKET_PIPE_SHARED_STORAGE_DIR
    const r = await runPipeVirtually(sim, env)
    expect(r.code).toBe(0)
    expect(r.stderr).toMatch(
      /no BITBUCKET_PIPE_SHARED_STORAGE_DIR and no OUTPUT_FILE: the outputs are not written to a file\./,
    )
    expect(r.stderr).toMatch(/Staging pull succeeded/)
  })
})
