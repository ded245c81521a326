/**
 * Issue 17 §2: a wrong api-url (one `/api` too many, as a new user types it) must never read as
 * "no staging environment". The CLI (src/cli/run.ts) and the action (src/action.ts), as their bundles
 * run them, against the simulator's API core in virtual time, both profiles:
 * status fails, pull and delete with if-missing: skip fail with the api-url hint instead of skipping.
 * The right api-url still skips, after one GET /v2/sites.
 */
import { beforeEach, describe, expect, test } from '@jest/globals'
import { SIM_SITES, SIM_TOKENS } from '../../simulator/server.js'
import { EACH_PROFILE } from '../helpers/sim.js'
import { VirtualFaultSim, runActionVirtually } from '../helpers/virtual-action.js'
import { runCliVirtually } from '../helpers/virtual-cli.js'

const ELIGIBLE = String(SIM_SITES.eligible)
const WITH_STAGING = String(SIM_SITES.withStaging)

describe.each(EACH_PROFILE)('profile %s', (profile, p) => {
  let sim: VirtualFaultSim
  beforeEach(() => {
    sim = new VirtualFaultSim({ profile, durationsMs: { create: 300, pull: 200, push: 200, delete: 200 } })
  })

  /** The API root with one `/api` too many (the client appends `/v2`). */
  const wrongUrl = () => `${sim.apiUrl}/api`
  const cli = (args: string[], apiUrl: string) =>
    runCliVirtually(sim, args, { env: { STAGING_API_TOKEN: SIM_TOKENS.readWrite, STAGING_API_URL: apiUrl } })

  test('status on a site that has staging: fails pointing at api-url, never "none"', async () => {
    const r = await cli(['status', '--site-id', WITH_STAGING, '--json'], wrongUrl())
    expect(r.code).toBe(1)
    // The CLI names its flag and its variable, and the root the user gave.
    expect(r.stderr).toContain(`The API root ${wrongUrl()}/v2 did not answer as the staging API`)
    expect(r.stderr).toMatch(/Set --api-url \(or STAGING_API_URL\) to the API root/)
    expect(JSON.parse(r.stdout).stagingState).not.toBe('none')
  })
  test.each(['pull', 'delete'])(
    '%s with --if-missing skip fails with the api-url hint, not skipped',
    async (op) => {
      const r = await cli([op, '--site-id', ELIGIBLE, '--if-missing', 'skip', '--json'], wrongUrl())
      expect(r.code).toBe(1)
      expect(JSON.parse(r.stdout)).toMatchObject({ result: 'failed', error: { kind: 'api-url' } })
      // The CLI names its flag and its variable, and the root the user gave.
      expect(r.stderr).toContain(`The API root ${wrongUrl()}/v2 did not answer as the staging API`)
      expect(r.stderr).toMatch(/Set --api-url \(or STAGING_API_URL\) to the API root/)
      // Nothing reached the API: every request, the POST or DELETE too, met the wrong root's 404.
      expect(sim.requests.length).toBeGreaterThan(0)
      expect(sim.requests.every((q) => q.status === 404)).toBe(true)
    },
  )
  // Issue 24 §3: with the default if-missing, the wrong api-url is named, not the site id, and a
  // root on another host than the hosted service's is not sent there.
  test.each(['pull', 'push', 'delete'])(
    '%s with the default if-missing: points at the API URL, not the site id',
    async (op) => {
      const r = await cli([op, '--site-id', ELIGIBLE, '--json'], wrongUrl())
      expect(r.code).toBe(1)
      const result = JSON.parse(r.stdout) as { error: { kind: string; hint: string } }
      expect(result.error.kind).toBe('api-url')
      expect(result.error.hint).toContain(`The API root ${wrongUrl()}/v2 did not answer as the staging API`)
      expect(result.error.hint).not.toMatch(/PRODUCTION site|app\.instawp\.io/)
      expect(r.stderr).not.toMatch(/check that --site-id is/)
    },
  )
  test('with the right api-url, a site without staging is skipped after one GET /v2/sites', async () => {
    const r = await cli(['pull', '--site-id', ELIGIBLE, '--if-missing', 'skip', '--json'], sim.apiUrl)
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ result: 'skipped', requests: 2 })
    expect(sim.requests.filter((q) => q.path === `${p.prefix}/sites`)).toHaveLength(1)
  })
  test('the action: delete with if-missing: skip fails with the api-url hint', async () => {
    const run = await runActionVirtually(sim, {
      operation: 'delete',
      'site-id': ELIGIBLE,
      'if-missing': 'skip',
      'api-url': wrongUrl(),
    })
    expect(run.outputs.result).toBe('failed')
    expect(run.stdout).toMatch(/Set api-url to the API root/)
    expect(run.stdout).not.toContain('STAGING_API_URL')
  })
})
