/**
 * Exit codes of `site-staging` (dist/cli.js): 0 succeeded/skipped/accepted/dry-run, 1 failed,
 * timed out or cancelled, 2 bad usage or input. Also --help, --version, the token rules and signals.
 * Each refused argument's words, the timeout and a refused token in a large batch run in virtual
 * time: test/unit/cli-exit-codes.test.ts; a missing token, bad input with --dotenv, a refusal by the
 * server, --help, accepted and dry-run too: test/unit/cli-exit-outcomes.test.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { SIM_SITES, SIM_TOKENS, start, type Simulator } from '../../simulator/server.js'
import { ROOT, leaks } from '../helpers/run-action.js'
import { runCli } from '../helpers/run-cli.js'

let sim: Simulator
let dir: string
const TOKEN = SIM_TOKENS.readWrite

beforeAll(async () => {
  // Jobs long enough to time out and to be cancelled while waiting.
  sim = await start({
    port: 0,
    durationsMs: { create: 20_000, pull: 200, push: 200, delete: 200, version: 200 },
  })
  dir = mkdtempSync(path.join(tmpdir(), 'cli-exit-'))
})
afterAll(async () => {
  await sim.stop()
  rmSync(dir, { recursive: true, force: true })
})
beforeEach(() => sim.reset())

const env = (extra: Record<string, string> = {}) => ({
  STAGING_API_TOKEN: TOKEN,
  STAGING_API_URL: sim.apiUrl,
  ...extra,
})

describe('exit 2: a token given as a flag, nothing sent', () => {
  test('a token given as a flag is refused without being echoed', async () => {
    for (const args of [
      ['create', '--site-id', '1001', '--api-token', 'flag-token-value-123'],
      ['create', '--site-id', '1001', '--token=flag-token-value-123'],
    ]) {
      const r = await runCli(args, { env: env() })
      expect(r.code).toBe(2)
      expect(r.stderr).toMatch(/never taken from a flag.*STAGING_API_TOKEN/)
      expect(r.stderr + r.stdout).not.toContain('flag-token-value-123')
    }
    expect(sim.requests).toEqual([])
  })
})

describe('exit 1: the operation failed, timed out or was cancelled', () => {
  test('a server answer that echoes the token: failed, and the token never printed', async () => {
    const wrong = 'wrong-token-abcdef-0123456789'
    sim.addFault({ path: '/staging', status: 500, body: 'echo-token', times: Infinity })
    const r = await runCli(
      ['pull', '--site-id', '1002', '--json', '--max-retries', '0', '--dotenv', path.join(dir, 'w.env')],
      {
        env: env({ STAGING_API_TOKEN: wrong }),
      },
    )
    expect(r.code).toBe(1)
    const dotenv = readFileSync(path.join(dir, 'w.env'), 'utf8')
    // The simulator echoed the Authorization header back: it must arrive masked everywhere.
    expect(r.stdout + r.stderr + dotenv).toContain('Bearer ***')
    expect(leaks(r.stdout + r.stderr + dotenv, wrong)).toEqual([])
  })

  test.each(['SIGINT', 'SIGTERM'] as const)('%s while waiting: cancelled, exit 1, quickly', async (name) => {
    const r = await runCli(['create', '--site-id', '1001', '--json'], {
      env: env(),
      signalWhen: { name, stderr: /Waiting for the create job/ },
    })
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(`Received ${name}: stopping.`)
    expect(JSON.parse(r.stdout)).toMatchObject({
      result: 'cancelled',
      sent: ['POST /v2/sites/1001/staging -> 202'],
    })
    expect(r.exitAfterSignalMs).toBeLessThan(3000)
  })

  // Issue 24 §7: a push waiting out a 429 when cancelled was not taken, and says so.
  test('SIGINT while a push waits out a 429: cancelled, and the push was not taken', async () => {
    sim.addFault({ method: 'POST', path: '/staging/push', status: 429, retryAfter: 30, times: Infinity })
    const r = await runCli(['push', '--site-id', String(SIM_SITES.withStaging), '--json'], {
      env: env(),
      signalWhen: { name: 'SIGINT', stderr: /HTTP 429\. Sending it again/ },
    })
    expect(r.code).toBe(1)
    const result = JSON.parse(r.stdout) as { result: string; summary: string }
    expect(result.result).toBe('cancelled')
    expect(result.summary).toMatch(
      /The push request was not taken: the server answered 429 \(not processed\) and it was waiting to be sent again, so nothing was pushed to production\./,
    )
    expect(r.stderr).toContain('nothing was pushed to production')
    expect(result.summary).not.toMatch(/is unknown|still be running there/)
  })
})

test.each(['SIGINT', 'SIGTERM'] as const)(
  '%s while a push runs with --maintenance: maintenance is off again before the exit',
  async (name) => {
    sim.setOptions({ durationsMs: { create: 20_000, pull: 200, push: 20_000, delete: 200 } })
    try {
      const r = await runCli(
        ['push', '--site-id', '1002', '--checkpoint', 'none', '--maintenance', '--json'],
        {
          env: env(),
          signalWhen: { name, stderr: /Waiting for the push job/ },
        },
      )
      expect(r.code).toBe(1)
      expect(JSON.parse(r.stdout)).toMatchObject({ result: 'cancelled' })
      expect(sim.state.sites.get('1002')!.maintenance).toBe(false)
      expect(JSON.parse(r.stdout).sent).toEqual([
        'POST /v2/sites/1002/tools -> 200',
        'POST /v2/sites/1002/staging/push -> 202',
        'POST /v2/sites/1002/tools -> 200',
      ])
      expect(r.exitAfterSignalMs).toBeLessThan(5000)
    } finally {
      sim.setOptions({ durationsMs: { create: 20_000, pull: 200, push: 200, delete: 200 } })
    }
  },
)

describe('exit 0: --version', () => {
  test('--version prints the package version', async () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }
    const r = await runCli(['--version'])
    expect(r.code).toBe(0)
    expect(r.stdout.trim()).toBe(pkg.version)
  })
})
