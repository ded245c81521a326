/**
 * The CLI's usage handling (src/cli/run.ts in virtual time, as dist/cli.js runs it): "did you mean"
 * for a mistyped flag or operation, status in --help, and the --no- forms of the switches (the last
 * one given wins). Exit codes through the bundle itself: test/cli/exit-codes.test.ts.
 */
import { beforeEach, describe, expect, test } from '@jest/globals'
import { SIM_SITES, SIM_TOKENS } from '../../simulator/server.js'
import { VirtualFaultSim } from '../helpers/virtual-action.js'
import { runCliVirtually } from '../helpers/virtual-cli.js'

let sim: VirtualFaultSim
beforeEach(() => {
  sim = new VirtualFaultSim({ durationsMs: { create: 300, pull: 300, push: 200, delete: 200 } })
})
const command = (args: string[], options: { env?: Record<string, string> } = {}) =>
  runCliVirtually(sim, args, options)

const env = () => ({ STAGING_API_TOKEN: SIM_TOKENS.readWrite, STAGING_API_URL: sim.apiUrl })
const ELIGIBLE = String(SIM_SITES.eligible)
const WITH_STAGING = String(SIM_SITES.withStaging)

describe('did you mean', () => {
  test.each([
    [['create', '--sit-id', ELIGIBLE], `unknown flag --sit-id (did you mean "--site-id"?)`],
    [['create', '--site-id', ELIGIBLE, '--dryrun'], `unknown flag --dryrun (did you mean "--dry-run"?)`],
    [['pull', '--site-id', WITH_STAGING, '--no-wiat'], `unknown flag --no-wiat (did you mean "--no-wait"?)`],
    [
      ['pul', '--site-id', WITH_STAGING],
      'operation: "pul" is not one of create, pull, push, delete, status, rollback (did you mean "pull"?)',
    ],
    [['stauts', '--site-id', WITH_STAGING], '(did you mean "status"?)'],
  ])('%j: exit 2, the nearest name, nothing sent', async (args, expected) => {
    const r = await command(args, { env: env() })
    expect(r.code).toBe(2)
    const [first] = r.stderr.split('\n')
    expect(first).toMatch(/^site-staging: /)
    expect(first).toContain(expected)
    expect(r.stderr).toContain('Run site-staging --help for usage.')
    expect(sim.requests).toEqual([])
  })

  test('a flag far from every name gets no guess', async () => {
    const r = await command(['create', '--site-id', ELIGIBLE, '--colour'], { env: env() })
    expect(r.code).toBe(2)
    expect(r.stderr.split('\n')[0]).toBe('site-staging: unknown flag --colour')
  })

  test('a switch given a value is refused with its own name, not a guess', async () => {
    const r = await command(['pull', '--site-id', WITH_STAGING, '--no-wait=yes'], { env: env() })
    expect(r.code).toBe(2)
    expect(r.stderr.split('\n')[0]).toBe(
      'site-staging: --no-wait=yes: a switch is --wait=true or --wait=false (--no-wait is false).',
    )
    // Its value as the next word is not read as a second operation.
    const next = await command(['pull', '--site-id', WITH_STAGING, '--wait', 'false'], { env: env() })
    expect(next.code).toBe(2)
    expect(next.stderr).toMatch(/--wait false: a switch is --wait=true or --wait=false/)
  })
})

// Issue 24 §11: the CLI's own words, with nothing a user would have to replace.
test('--help shows no placeholder and no action word', async () => {
  const r = await command(['--help'])
  expect(r.code).toBe(0)
  expect(r.stdout).not.toMatch(
    /\bOWNER\b|\bTODO\b|\bXXX\b|\bYOUR[_-]|<owner>|\bworkflow\b|\bwith:|\bInput "|\bsecret\b: /i,
  )
  expect(r.stdout).toContain('--shell-env FILE')
})

test('--help lists the status operation and its --task-id', async () => {
  const r = await command(['--help'])
  expect(r.code).toBe(0)
  expect(r.stdout).toMatch(/^Usage: site-staging <create\|pull\|push\|delete\|status\|rollback> --site-id ID/)
  expect(r.stdout).toContain('or reads it (status)')
  expect(r.stdout).toMatch(/^ {2}--task-id ID +status: follow that earlier job/m)
})

describe('--wait / --no-wait: the last one wins', () => {
  test('--wait --no-wait: the job is not waited for (accepted, one request)', async () => {
    const r = await command(['pull', '--site-id', WITH_STAGING, '--wait', '--no-wait', '--json'], {
      env: env(),
    })
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ result: 'accepted', requests: 1 })
  })

  test('--no-wait --wait: waited for until it succeeded', async () => {
    const r = await command(['pull', '--site-id', WITH_STAGING, '--no-wait', '--wait', '--json'], {
      env: env(),
    })
    expect(r.code).toBe(0)
    const json = JSON.parse(r.stdout)
    expect(json.result).toBe('succeeded')
    expect(json.requests).toBeGreaterThan(1)
  })

  test('--dry-run --no-dry-run sends the request; --no-dry-run --dry-run sends nothing', async () => {
    const real = await command(
      ['create', '--site-id', ELIGIBLE, '--dry-run', '--no-dry-run', '--no-wait', '--json'],
      {
        env: env(),
      },
    )
    expect(JSON.parse(real.stdout).result).toBe('accepted')
    expect(sim.requests.filter((q) => q.method === 'POST')).toHaveLength(1)
    sim.reset()
    const dry = await command(['create', '--site-id', ELIGIBLE, '--no-dry-run', '--dry-run', '--json'], {
      env: env(),
    })
    expect(JSON.parse(dry.stdout).result).toBe('dry-run')
    expect(sim.requests.filter((q) => q.method !== 'GET')).toEqual([])
  })
})
