/**
 * The `site-staging` command (src/cli/run.ts, as dist/cli.js runs it) against the simulator's API core
 * in virtual time: each operation, --json, --dotenv, several sites, environment variables. The
 * bundle itself is run by test/cli/ (exit codes, usage, secrets, the live line, a wrong api-url).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { SIM_SITES, SIM_TOKENS } from '../../simulator/server.js'
import { EACH_PROFILE } from '../helpers/sim.js'
import { VirtualFaultSim } from '../helpers/virtual-action.js'
import { runCliVirtually } from '../helpers/virtual-cli.js'

const TOKEN = SIM_TOKENS.readWrite
const ELIGIBLE = String(SIM_SITES.eligible)
const WITH_STAGING = String(SIM_SITES.withStaging)

// Every test runs against both simulator profiles (contract §10); PROFILES says how they differ.
describe.each(EACH_PROFILE)('profile %s', (profile, p) => {
  let sim: VirtualFaultSim
  let dir: string
  const command = (args: string[], options: { env?: Record<string, string> } = {}) =>
    runCliVirtually(sim, args, options)

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cli-test-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  beforeEach(() => {
    sim = new VirtualFaultSim({ profile, durationsMs: { create: 300, pull: 200, push: 200, delete: 200 } })
  })

  const env = (extra: Record<string, string> = {}) => ({
    STAGING_API_TOKEN: TOKEN,
    STAGING_API_URL: sim.apiUrl,
    ...extra,
  })
  const changes = () => sim.requests.filter((r) => r.method !== 'GET')

  function parseDotenv(text: string): Record<string, string> {
    const out: Record<string, string> = {}
    for (const line of text.split('\n').filter(Boolean)) {
      const i = line.indexOf('=')
      expect(i).toBeGreaterThan(0)
      out[line.slice(0, i)] = line.slice(i + 1)
    }
    return out
  }

  test("a skipped pull says so in the CLI's words", async () => {
    const run = await command(['pull', '--site-id', ELIGIBLE, '--if-missing', 'skip', '--json'], {
      env: env(),
    })
    expect(JSON.parse(run.stdout).summary).toMatch(/\(HTTP 404; --if-missing skip\)\.$/)
  })

  test('a refusal until after the timeout, after a try that got no answer: the pull may be running (not "rate limited")', async () => {
    sim.addFault({ method: 'POST', path: '/staging/reset', drop: 'after' })
    sim.addFault({ method: 'POST', path: '/staging/reset', status: 429, retryAfter: '3600' })
    const run = await command(['pull', '--site-id', WITH_STAGING, '--timeout', '30s', '--json'], {
      env: env(),
    })
    const result = JSON.parse(run.stdout)
    expect([result.result, result.error.kind]).toEqual(['failed', 'unknown-outcome'])
    expect(result.summary).toMatch(
      /Staging may or may not be being overwritten with production\. An earlier try got no answer\./,
    )
    expect(result.error.hint).toMatch(/status --site-id/)
    expect(changes()).toHaveLength(2)
  })

  test("a warning the log printed is not printed again with the report; rollback-on-failure in the pipe's words", async () => {
    sim.setOptions({ versions: 'oldest-first' })
    for (const _ of [1, 2])
      expect((await command(['push', '--site-id', WITH_STAGING], { env: env() })).code).toBe(0)
    const pipe = { env: env({ SITE_STAGING_DOOR: 'pipe' }) }
    const back = await command(['rollback', '--site-id', WITH_STAGING], pipe)
    const lines = (text: string, re: RegExp) => text.split('\n').filter((l) => re.test(l))
    expect(lines(back.stderr, /^warning: Site \d+'s versions were not listed newest first/)).toHaveLength(1)
    sim.setOptions({ livePage: 'down' })
    const live = `${new URL(sim.apiUrl).origin}/production-sites/${WITH_STAGING}/`
    const args = ['push', '--site-id', WITH_STAGING, '--production-url', live, '--rollback-on-failure']
    const r = await command([...args, '--verify-timeout', '5s'], pipe)
    expect(
      lines(r.stderr, /^warning: Restoring production to checkpoint \S+ \(ROLLBACK_ON_FAILURE\)\.$/),
    ).toHaveLength(1)
  })

  describe('each operation against the simulator', () => {
    test('create: waits, progress on stderr, nothing on stdout, exit 0', async () => {
      const r = await command(['create', '--site-id', ELIGIBLE], { env: env() })
      expect(r.stderr).toContain('Waiting for the create job')
      expect(r.stderr.split('\n')).toContain(`Staging URL: ${sim.url}/staging-sites/s-1001/`)
      expect(r.stderr).toMatch(
        /^Staging create succeeded \(site 1001\)\. The server said when it accepted the job: "Staging site creation started.*" Staging created in \d+s\.$/m,
      )
      expect(r.stdout).toBe('')
      expect(r.code).toBe(0)
      expect(changes().map((q) => `${q.method} ${q.path}`)).toEqual([`POST ${p.prefix}/sites/1001/staging`])
    })

    test('create --wait-for-url: the site asked until it answers, with nothing of ours but the User-Agent', async () => {
      sim.setOptions({ siteDelayMs: 5000 })
      const r = await command(['create', '--site-id', ELIGIBLE, '--wait-for-url', '--json'], { env: env() })
      expect(r.code).toBe(0)
      const json = JSON.parse(r.stdout)
      expect(json).toMatchObject({ result: 'succeeded', urlReady: true })
      const visits = sim.siteRequests
      expect(visits.at(0)!.status).toBe(404)
      expect(visits.at(-1)!.status).toBe(200)
      for (const v of visits) {
        expect(v.path).toBe(new URL(json.stagingUrl).pathname)
        expect(v.authorization).toBeUndefined()
      }
    })
    test('create --json: the one Result object on stdout', async () => {
      const r = await command(['create', '--site-id', ELIGIBLE, '--json'], { env: env() })
      expect(r.code).toBe(0)
      const json = JSON.parse(r.stdout)
      expect(json).toMatchObject({
        operation: 'create',
        siteId: '1001',
        result: 'succeeded',
        httpStatus: expect.any(Number),
        stagingUrl: `${sim.url}/staging-sites/s-1001/`,
        sent: [`POST ${p.prefix}/sites/1001/staging -> ${p.accepted}`],
        error: null,
      })
      expect(Array.isArray(json)).toBe(false)
    })

    test('pull --dotenv: the outputs as KEY=value lines', async () => {
      const file = path.join(dir, 'pull.env')
      const r = await command(['pull', '--site-id', WITH_STAGING, '--dotenv', file], { env: env() })
      expect(r.code).toBe(0)
      const text = readFileSync(file, 'utf8')
      const vars = parseDotenv(text)
      expect(Object.keys(vars)).toEqual([
        'RESULT',
        'HTTP_STATUS',
        'MESSAGE',
        'TASK_ID',
        'STAGING_SITE_ID',
        'STAGING_URL',
        'STAGING_STATE',
        'URL_READY',
        'DURATION_SECONDS',
        'REQUESTS',
        'RETRIES',
        'RESULTS',
        'CHECKPOINT_ID',
        'PRODUCTION_CHECK',
      ])
      expect(vars.CHECKPOINT_ID).toBe('')
      expect(vars.RESULT).toBe('succeeded')
      expect(vars.HTTP_STATUS).toMatch(/^2\d\d$/)
      expect(vars.TASK_ID).not.toBe('')
      expect(JSON.parse(vars.RESULTS!)).toEqual([
        expect.objectContaining({ siteId: '1002', result: 'succeeded' }),
      ])
      expect(changes().map((q) => `${q.method} ${q.path}`)).toEqual([
        `POST ${p.prefix}/sites/1002/staging/reset`,
      ])
    })

    test('push: the push warnings reach stderr', async () => {
      const r = await command(['push', '--site-id', WITH_STAGING, '--checkpoint', 'none'], { env: env() })
      expect(r.code).toBe(0)
      expect(r.stderr).toMatch(/^warning: No backup of production was taken/m)
      expect(r.stderr).toMatch(/^Staging push succeeded/m)
    })

    test('push with its checkpoint, then rollback: CHECKPOINT_ID in the dotenv, and the step that restores it', async () => {
      const file = path.join(dir, 'push.env')
      const r = await command(['push', '--site-id', WITH_STAGING, '--dotenv', file], { env: env() })
      expect(r.code).toBe(0)
      const id = parseDotenv(readFileSync(file, 'utf8')).CHECKPOINT_ID!
      expect(id).not.toBe('')
      expect(r.stderr).toContain(`run site-staging rollback --site-id ${WITH_STAGING} --checkpoint-id ${id}`)
      expect(r.stderr).not.toMatch(/No backup of production/)
      const back = await command(['rollback', '--site-id', WITH_STAGING, '--checkpoint-id', id], {
        env: env(),
      })
      expect(back.code).toBe(0)
      expect(back.stderr).toMatch(/Production was restored to version/)
    })

    test('delete, then delete again with --if-missing skip: exit 0 both times', async () => {
      const first = await command(['delete', '--site-id', WITH_STAGING, '--json'], { env: env() })
      expect(first.code).toBe(0)
      expect(JSON.parse(first.stdout).result).toBe('succeeded')
      const again = await command(['delete', '--site-id', WITH_STAGING, '--json', '--if-missing', 'skip'], {
        env: env(),
      })
      expect(again.code).toBe(0)
      expect(JSON.parse(again.stdout).result).toBe('skipped')
    })

    test('"reset" is another name for pull', async () => {
      const r = await command(['reset', '--site-id', WITH_STAGING, '--json'], { env: env() })
      expect(r.code).toBe(0)
      expect(JSON.parse(r.stdout).operation).toBe('pull')
    })
  })

  describe('policies and modes: the same core as the action', () => {
    test('create on a site with staging: fails by default (exit 1), --if-exists skip exits 0', async () => {
      const failed = await command(['create', '--site-id', WITH_STAGING, '--json'], { env: env() })
      expect(failed.code).toBe(1)
      expect(JSON.parse(failed.stdout)).toMatchObject({ result: 'failed', httpStatus: 422 })
      expect(failed.stderr).toMatch(/^error: Staging create failed \(site 1002\): /m)
      const skipped = await command(['create', '--site-id', WITH_STAGING, '--if-exists', 'skip', '--json'], {
        env: env(),
      })
      expect(skipped.code).toBe(0)
      expect(JSON.parse(skipped.stdout)).toMatchObject({
        result: 'skipped',
        // Read from the probe where the service offers one, else from the site list (issue 20 §1).
        stagingUrl: `${sim.url}/staging-sites/s-1002/`,
        stagingSiteId: p.stagingId(WITH_STAGING),
        stagingFrom: {
          url: p.probe ? 'the staging environment' : 'the site list, GET /v2/sites (field parent_id)',
        },
      })
    })

    test('--dry-run: exit 0, result dry-run, nothing that changes anything is sent', async () => {
      const r = await command(['push', '--site-id', WITH_STAGING, '--dry-run', '--json'], { env: env() })
      expect(r.code).toBe(0)
      expect(JSON.parse(r.stdout).result).toBe('dry-run')
      expect(changes()).toEqual([])
    })

    test('--no-wait: accepted, exit 0', async () => {
      const r = await command(['create', '--site-id', ELIGIBLE, '--no-wait', '--json'], { env: env() })
      expect(r.code).toBe(0)
      expect(JSON.parse(r.stdout).result).toBe('accepted')
    })

    test('--language es: the server message in Spanish', async () => {
      const r = await command(['create', '--site-id', WITH_STAGING, '--language', 'es', '--json'], {
        env: env(),
      })
      expect(r.code).toBe(1)
      expect(JSON.parse(r.stdout).message).toMatch(/Este sitio ya tiene un (entorno|sitio) de staging/)
    })

    test('--api-url wins over STAGING_API_URL', async () => {
      const r = await command(['pull', '--site-id', WITH_STAGING, '--api-url', sim.apiUrl], {
        env: env({ STAGING_API_URL: 'http://127.0.0.1:9/nothing-here' }),
      })
      expect(r.code).toBe(0)
    })
  })

  describe('several sites', () => {
    test('repeated and comma-separated --site-id; --json prints an array in the given order', async () => {
      const file = path.join(dir, 'many.env')
      const r = await command(
        [
          'delete',
          '--site-id',
          `${WITH_STAGING},${ELIGIBLE}`,
          '--site-id',
          String(SIM_SITES.passwordProtected),
          '--json',
          '--concurrency',
          '2',
          '--if-missing',
          'skip',
          '--dotenv',
          file,
        ],
        { env: env() },
      )
      expect(r.code).toBe(0)
      const json = JSON.parse(r.stdout) as { siteId: string; result: string }[]
      expect(json.map((x) => [x.siteId, x.result])).toEqual([
        ['1002', 'succeeded'],
        ['1001', 'skipped'],
        ['1003', 'skipped'],
      ])
      expect(r.stderr).toContain('Running delete on 3 sites, 2 at a time.')
      const vars = parseDotenv(readFileSync(file, 'utf8'))
      expect(vars.RESULT).toBe('succeeded')
      expect(vars.MESSAGE).toBe('1 of 3 sites succeeded; skipped: 1001, 1003')
      expect(JSON.parse(vars.RESULTS!)).toHaveLength(3)
    })

    test('each staging URL on stderr, named by its site', async () => {
      const sites = `${ELIGIBLE},${SIM_SITES.passwordProtected}`
      const r = await command(['create', '--site-id', sites, '--concurrency', '2'], { env: env() })
      expect(r.code).toBe(0)
      const lines = r.stderr.split('\n')
      expect(lines).toContain(`Staging URL (site 1001): ${sim.url}/staging-sites/s-1001/`)
      expect(lines).toContain(`Staging URL (site 1003): ${sim.url}/staging-sites/s-1003/`)
    })

    test("--dotenv stays under GitLab's 5 KB limit: RESULTS compacted, then emptied, with a warning", async () => {
      const ids = (n: number) => Array.from({ length: n }, (_, i) => String(1001 + i)).join(',')
      const file = path.join(dir, 'limit.env')
      const twenty = await command(['delete', '--site-id', ids(20), '--dry-run', '--dotenv', file], {
        env: env(),
      })
      expect(twenty.code).toBe(0)
      let text = readFileSync(file, 'utf8')
      expect(Buffer.byteLength(text)).toBeLessThan(5000)
      const compact = JSON.parse(parseDotenv(text).RESULTS!) as object[]
      expect(compact).toHaveLength(20)
      expect(Object.keys(compact[0]!)).toEqual(['siteId', 'result', 'stagingSiteId', 'stagingUrl'])
      expect(twenty.stderr).toMatch(/^warning: RESULTS in the dotenv file keeps only siteId/m)

      const many = await command(
        ['delete', '--site-id', ids(150), '--dry-run', '--concurrency', '20', '--dotenv', file],
        {
          env: env(),
        },
      )
      expect(many.code).toBe(0)
      text = readFileSync(file, 'utf8')
      expect(Buffer.byteLength(text)).toBeLessThan(5000)
      expect(parseDotenv(text).RESULTS).toBe('')
      expect(parseDotenv(text).RESULT).toBe('dry-run')
      expect(many.stderr).toMatch(/^warning: RESULTS in the dotenv file is empty/m)
    })

    test('--fail-fast: after a failure no new site starts (exit 1)', async () => {
      const r = await command(
        [
          'create',
          '--site-id',
          `${SIM_SITES.planWithoutStaging},${ELIGIBLE}`,
          '--concurrency',
          '1',
          '--fail-fast',
          '--json',
        ],
        { env: env() },
      )
      expect(r.code).toBe(1)
      const json = JSON.parse(r.stdout) as { siteId: string; result: string; summary: string }[]
      expect(json.map((x) => x.result)).toEqual(['failed', 'skipped'])
      expect(json[1]!.summary).toMatch(/fail-fast/)
      expect(changes().map((q) => q.path)).toEqual([`${p.prefix}/sites/2001/staging`])
    })
  })

  describe('status (issue 11)', () => {
    test('status reads the staging environment (or the site list names it): staging-state in --json', async () => {
      const r = await command(['status', '--site-id', WITH_STAGING, '--json'], { env: env() })
      const json = JSON.parse(r.stdout) as { result: string; stagingState: string }
      // Where the service has no staging read, the site list names the staging site (issue 20 §1).
      expect(r.code).toBe(0)
      expect(json).toMatchObject({ result: 'succeeded', stagingState: 'ready' })
      if (!p.probe) {
        const unknown = await command(['status', '--site-id', ELIGIBLE, '--json'], { env: env() })
        expect(unknown.code).toBe(1)
        expect(JSON.parse(unknown.stdout)).toMatchObject({ result: 'failed', stagingState: 'unknown' })
        expect(unknown.stderr).toMatch(/task-id/)
      }
      expect(changes()).toEqual([])
    })
    test('--no-wait, then status --task-id follows the job to its end', async () => {
      sim.setOptions({ durationsMs: { create: 1200 } })
      const first = await command(['create', '--site-id', ELIGIBLE, '--no-wait', '--json'], { env: env() })
      expect(first.code).toBe(0)
      const { taskId } = JSON.parse(first.stdout) as { taskId: string }
      expect(first.stderr).toContain(`site-staging status --site-id ${ELIGIBLE} --task-id ${taskId}`)
      const r = await command(['status', '--site-id', ELIGIBLE, '--task-id', taskId], { env: env() })
      expect(r.code).toBe(0)
      expect(r.stderr).toMatch(/Staging status succeeded \(site 1001\)/)
      expect(sim.state.staging.get(ELIGIBLE)?.status).toBe('ready')
    })
  })
})
