/**
 * Issue 17 §4 through the CLI's own writers (dist/cli.js): stderr, --json on stdout and the --dotenv
 * file carry no line of a multi-line key a server repeats, and no echo of the token in another case.
 * The --dotenv file (the same writer, no process needed) and a refused input that carries credentials
 * (issue 24 §6) are checked in virtual time: test/unit/cli-exit-outcomes.test.ts.
 */
import { afterAll, beforeAll, beforeEach, expect, test } from '@jest/globals'
import { SIM_TOKENS, start, type Simulator } from '../../simulator/server.js'
import { runCli } from '../helpers/run-cli.js'

const TOKEN = SIM_TOKENS.readWrite
const KEY = [
  '-----BEGIN OPENSSH PRIVATE KEY-----',
  'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW',
  'QyNTUxOQAAACDx1fQ7m2vJc9Pj0eXq8Lr3Kw5zT6uH4bN1yA2sD3fG4hAAAAJgq1w2Eq9c',
  '-----END OPENSSH PRIVATE KEY-----',
].join('\n')
const KEY_PARTS = [...KEY.split('\n').slice(1, 3), 'ZW QyNTUxOQAAACDx', 'ZWQyNTUxOQAAACDx']

let sim: Simulator
beforeAll(async () => {
  sim = await start({
    port: 0,
    durationsMs: { create: 300, pull: 200, push: 200, delete: 200, version: 200 },
  })
})
afterAll(async () => {
  await sim.stop()
})
beforeEach(() => sim.reset())

test.each([
  ['stderr', [] as string[]],
  ['--json', ['--json']],
])('%s: a repeated SSH key and an upper-cased token echo are scrubbed', async (_, extra) => {
  sim.addFault({
    method: 'POST',
    path: '/staging/push',
    status: 422,
    json: {
      message: `The key\n${KEY}\nof ${TOKEN.toUpperCase()} was refused`,
      errors: { ssh_private_key: [KEY] },
    },
  })
  const r = await runCli(['push', '--site-id', '1002', ...extra], {
    env: { STAGING_API_TOKEN: TOKEN, STAGING_API_URL: sim.apiUrl },
  })
  expect(r.code).toBe(1)
  const written = [r.stdout, r.stderr].join('\n')
  expect(written).toMatch(/The key \*\*\* of \*\*\* was refused/)
  for (const part of KEY_PARTS) expect(written).not.toContain(part)
  expect(written.toLowerCase()).not.toContain(TOKEN.toLowerCase())
})
