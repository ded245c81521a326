/**
 * `site-staging`'s exit codes, words and --dotenv file for outcomes that need no process of its own
 * (src/cli/run.ts in virtual time, as dist/cli.js runs it): a missing token, bad input with --dotenv,
 * a refusal by the server, --help, accepted and dry-run, and refused inputs that carry credentials
 * (issue 24 §6). Through the bundle itself (signals, --version, the token in its real output):
 * test/cli/exit-codes.test.ts and test/cli/secrets.test.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { SIM_SITES, SIM_TOKENS } from '../../simulator/server.js'
import { VirtualFaultSim } from '../helpers/virtual-action.js'
import { runCliVirtually } from '../helpers/virtual-cli.js'

let sim: VirtualFaultSim
let dir: string
const TOKEN = SIM_TOKENS.readWrite

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'cli-outcomes-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))
// The runner's files virtual-action.ts made when it was loaded.
beforeEach(() => {
  sim = new VirtualFaultSim({ durationsMs: { create: 20_000, pull: 200, push: 200, delete: 200 } })
})
const command = (args: string[], options: { env?: Record<string, string> } = {}) =>
  runCliVirtually(sim, args, options)

const env = (extra: Record<string, string> = {}) => ({
  STAGING_API_TOKEN: TOKEN,
  STAGING_API_URL: sim.apiUrl,
  ...extra,
})

describe('exit 2: bad usage or input, nothing sent', () => {
  test('the token missing from the environment', async () => {
    const r = await command(['create', '--site-id', '1001', '--json'], {
      env: { STAGING_API_URL: sim.apiUrl },
    })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/STAGING_API_TOKEN is not set/)
    expect(r.stdout).toBe('')
    expect(sim.requests).toEqual([])
  })

  test('with --dotenv, bad input still writes RESULT=failed (and the old file is replaced)', async () => {
    const file = path.join(dir, 'bad.env')
    writeFileSync(file, 'RESULT=succeeded\nSTAGING_URL=https://stale.example\n')
    const r = await command(['create', '--site-id', '1001', '--timeout', 'x', '--dotenv', file], {
      env: env(),
    })
    expect(r.code).toBe(2)
    const text = readFileSync(file, 'utf8')
    expect(text).toMatch(/^RESULT=failed$/m)
    expect(text).toMatch(/^MESSAGE=--timeout: "x" is not a duration/m)
    expect(text).not.toContain('stale')
  })

  test('a --dotenv file that cannot be written: exit 2 before any request', async () => {
    const r = await command(
      ['pull', '--site-id', '1002', '--dotenv', path.join(dir, 'no-such-dir', 'x.env')],
      { env: env() },
    )
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/--dotenv: cannot write/)
    expect(sim.requests).toEqual([])
  })

  // Issue 24 §6: a refused input carrying credentials is not quoted with them on stderr, in --json's
  // absence, or in the --dotenv file the refusal writes; nothing is sent.
  test.each([
    ['--staging-url', 'https://deploy:Refused-Pa55word@staging.example/'],
    ['--production-url', 'ftp://deploy:Refused-Pa55word@live.example/'],
    ['--api-url', 'deploy:Refused-Pa55word@api.example'],
    ['--site-id', 'https://deploy:Refused-Pa55word@x.example'],
    ['--timeout', 'https://x.example/?token=Refused-Pa55word'],
  ])('a refused %s never shows its credentials', async (flag, value) => {
    const dotenv = path.join(dir, 'refused.env')
    const op = flag === '--production-url' ? 'push' : 'create'
    const args = [op, '--site-id', '1001', flag, value, '--dotenv', dotenv, '--json']
    const r = await command(args, { env: env() })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('No request was sent')
    const file = readFileSync(dotenv, 'utf8')
    expect(file).toMatch(/^RESULT=failed$/m)
    for (const text of [r.stdout, r.stderr, file]) expect(text).not.toMatch(/Refused-Pa55word|Pa55word/)
    expect(sim.requests).toHaveLength(0)
  })
})

describe('exit 1: the operation failed', () => {
  test('refused by the server (plan without staging)', async () => {
    const r = await command(['create', '--site-id', String(SIM_SITES.planWithoutStaging), '--json'], {
      env: env(),
    })
    expect(r.code).toBe(1)
    expect(JSON.parse(r.stdout)).toMatchObject({
      result: 'failed',
      httpStatus: 403,
      error: { kind: expect.any(String) },
    })
  })
})

// Issue 17 §4 in the --dotenv file (stderr and --json through the bundle: test/cli/secrets.test.ts).
test('--dotenv: a repeated SSH key and an upper-cased token echo are scrubbed', async () => {
  const KEY = [
    '-----BEGIN OPENSSH PRIVATE KEY-----',
    'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW',
    'QyNTUxOQAAACDx1fQ7m2vJc9Pj0eXq8Lr3Kw5zT6uH4bN1yA2sD3fG4hAAAAJgq1w2Eq9c',
    '-----END OPENSSH PRIVATE KEY-----',
  ].join('\n')
  const KEY_PARTS = [...KEY.split('\n').slice(1, 3), 'ZW QyNTUxOQAAACDx', 'ZWQyNTUxOQAAACDx']
  sim.addFault({
    method: 'POST',
    path: '/staging/push',
    status: 422,
    json: {
      message: `The key\n${KEY}\nof ${TOKEN.toUpperCase()} was refused`,
      errors: { ssh_private_key: [KEY] },
    },
  })
  const file = path.join(dir, 'out.env')
  const r = await command(['push', '--site-id', '1002', '--dotenv', file], { env: env() })
  expect(r.code).toBe(1)
  const written = [r.stdout, r.stderr, readFileSync(file, 'utf8')].join('\n')
  expect(written).toMatch(/The key \*\*\* of \*\*\* was refused/)
  for (const part of KEY_PARTS) expect(written).not.toContain(part)
  expect(written.toLowerCase()).not.toContain(TOKEN.toLowerCase())
})

describe('exit 0', () => {
  test('--help prints the usage with the exit codes on stdout', async () => {
    const r = await command(['--help'])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^Usage: site-staging <create\|pull\|push\|delete\|status\|rollback>/)
    expect(r.stdout).toMatch(/STAGING_API_TOKEN/)
    expect(r.stdout).toMatch(/^ {2}2 {2}bad usage or input/m)
  })

  test('accepted (not waiting) and dry-run exit 0', async () => {
    expect((await command(['create', '--site-id', '1001', '--no-wait'], { env: env() })).code).toBe(0)
    expect((await command(['delete', '--site-id', '1002', '--dry-run'], { env: env() })).code).toBe(0)
  })
})
