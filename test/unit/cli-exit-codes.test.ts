/**
 * What `site-staging` says and the code it ends with (src/cli/run.ts in virtual time, as dist/cli.js
 * runs it) for every refused argument, a timeout, and a refused token in a 1000-site batch. The exit
 * codes through the bundle itself, with signals: test/cli/exit-codes.test.ts.
 */
import { beforeEach, describe, expect, test } from '@jest/globals'
import { SIM_TOKENS } from '../../simulator/server.js'
import { VirtualFaultSim } from '../helpers/virtual-action.js'
import { runCliVirtually } from '../helpers/virtual-cli.js'

let sim: VirtualFaultSim
const TOKEN = SIM_TOKENS.readWrite

beforeEach(() => {
  // Jobs long enough to time out while waiting.
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
  const cases: [string, string[], Record<string, string> | undefined, RegExp][] = [
    ['no operation', ['--site-id', '1001'], undefined, /name the operation/],
    [
      'unknown operation',
      ['deploy', '--site-id', '1001'],
      undefined,
      /operation: "[^"]*" is not one of create, pull, push, delete, status/,
    ],
    ['two operations', ['create', 'delete', '--site-id', '1001'], undefined, /one operation at a time/],
    ['unknown flag', ['create', '--site-id', '1001', '--colour'], undefined, /unknown flag --colour/],
    [
      'mistyped flag',
      ['pull', '--sit-id', '1001'],
      undefined,
      /unknown flag --sit-id \(did you mean "--site-id"\?\)/,
    ],
    ['mistyped operation', ['pul', '--site-id', '1001'], undefined, /did you mean "pull"/],
    ['no site id', ['create'], undefined, /--site-id: is required/],
    ['a bad site id', ['create', '--site-id', '../1001'], undefined, /--site-id: .*is not a site id/],
    [
      'a bad timeout',
      ['create', '--site-id', '1001', '--timeout', 'soon'],
      undefined,
      /--timeout: "soon" is not a duration/,
    ],
    [
      'a bad policy',
      ['create', '--site-id', '1001', '--if-exists', 'maybe'],
      undefined,
      /--if-exists: "[^"]*" is not one of fail, skip, recreate/,
    ],
    [
      'plain http to a non-loopback API',
      ['create', '--site-id', '1001', '--api-url', 'http://api.example.com'],
      undefined,
      /--api-url \(or STAGING_API_URL\): must use https/,
    ],
    [
      'an API URL without its scheme (none at all means the hosted service: src/inputs/ DEFAULTS)',
      ['create', '--site-id', '1001'],
      { STAGING_API_TOKEN: TOKEN, STAGING_API_URL: 'app.instawp.io/api' },
      /--api-url \(or STAGING_API_URL\): "app.instawp.io\/api" has no scheme: did you mean https:\/\/app.instawp.io\/api \?/,
    ],
  ]
  test.each(cases)('%s', async (_name, args, environment, message) => {
    const r = await command(args, { env: environment ?? env() })
    expect(r.stderr).toMatch(message)
    expect(r.stderr).toContain('--help')
    expect(r.stdout).toBe('')
    expect(r.code).toBe(2)
    expect(sim.requests).toEqual([])
  })
})

describe('exit 1: the operation timed out, or the token was refused', () => {
  test('--timeout reached while waiting: timed-out, exit 1', async () => {
    const r = await command(['create', '--site-id', '1001', '--timeout', '2s', '--json'], { env: env() })
    expect(r.code).toBe(1)
    expect(JSON.parse(r.stdout)).toMatchObject({ result: 'timed-out', error: { kind: 'timeout' } })
    expect(r.elapsedMs).toBeLessThan(10_000)
  })

  // Contract §15 (r4), issue 24 §4: a revoked token in a 1000-site batch sends no further starts.
  test('a refused token in a 1000-site batch: no further site starts, each reported with the token hint', async () => {
    const ids = Array.from({ length: 1000 }, (_, i) => String(10001 + i)).join(',')
    const r = await command(['pull', '--site-id', ids, '--json'], {
      env: env({ STAGING_API_TOKEN: 'revoked-token-0000000000' }),
    })
    expect(r.code).toBe(1)
    const results = JSON.parse(r.stdout) as {
      result: string
      summary: string
      requests: number
      error: { hint: string } | null
    }[]
    // At most the sites already started (100 at a time) sent their request; no site started after.
    const sent = sim.requests.filter((q) => q.method === 'POST')
    expect(sent.length).toBeGreaterThanOrEqual(1)
    expect(sent.length).toBeLessThanOrEqual(100)
    const notStarted = results.filter((x) => x.summary.startsWith('Not started'))
    expect(notStarted.length).toBe(1000 - sent.length)
    for (const x of notStarted) {
      expect(x.requests).toBe(0)
      expect(x.result).toBe('failed')
      expect(x.summary).toMatch(
        /^Not started: the token was refused \(POST \/v2\/sites\/\d+\/staging\/reset was answered HTTP 401\)\.$/,
      )
      expect(x.error?.hint).toMatch(
        /^The API token was refused: check that the STAGING_API_TOKEN environment variable is current/,
      )
    }
    expect(r.stderr).toContain('The token was refused (HTTP 401): starting no more sites')
  })
})
