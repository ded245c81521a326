/**
 * Issue 24 §8 through the CLI's own writer (src/cli/run.ts in virtual time, as dist/cli.js runs it):
 * hostile server text in the answers reaches --shell-env and --dotenv; sourcing the env-file in bash
 * and sh runs none of it, and the dotenv file stays one KEY=value line per output. A refused input
 * writes both files too.
 */
import { afterAll, beforeAll, beforeEach, expect, test } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { SIM_TOKENS } from '../../simulator/server.js'
import { VirtualFaultSim } from '../helpers/virtual-action.js'
import { runCliVirtually } from '../helpers/virtual-cli.js'

let sim: VirtualFaultSim
let dir: string
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'cli-outputs-files-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))
// The runner's files virtual-action.ts made when it was loaded.
beforeEach(() => {
  sim = new VirtualFaultSim({ durationsMs: { create: 300, pull: 200, push: 200, delete: 200 } })
})
const command = (args: string[], options: { env?: Record<string, string> } = {}) =>
  runCliVirtually(sim, args, options)

test('server text with $(...), backticks, quotes and new lines runs nothing when the env-file is sourced', async () => {
  const pwned = path.join(dir, 'pwned')
  const hostile = `Refused $(touch ${pwned}) \`touch ${pwned}\` '; touch ${pwned}; '\ntouch ${pwned}\n"$(touch ${pwned})"`
  sim.addFault({ method: 'POST', path: '/staging/push', status: 422, json: { message: hostile } })
  const envFile = path.join(dir, 'out.sh')
  const dotenv = path.join(dir, 'out.env')
  const r = await command(['push', '--site-id', '1002', '--shell-env', envFile, '--dotenv', dotenv], {
    env: { STAGING_API_TOKEN: SIM_TOKENS.readWrite, STAGING_API_URL: sim.apiUrl },
  })
  expect(r.code).toBe(1)
  for (const shell of ['bash', 'sh']) {
    const message = execFileSync(shell, ['-c', '. "$1" && printf "%s" "$MESSAGE"', 'sh', envFile], {
      encoding: 'utf8',
    })
    expect(existsSync(pwned)).toBe(false)
    // The server's words, read back as text (on one line).
    expect(message).toContain(
      `Refused $(touch ${pwned}) \`touch ${pwned}\` '; touch ${pwned}; ' touch ${pwned}`,
    )
    expect(
      execFileSync(shell, ['-c', '. "$1" && printf "%s" "$RESULT"', 'sh', envFile], { encoding: 'utf8' }),
    ).toBe('failed')
  }
  const lines = readFileSync(dotenv, 'utf8').split('\n')
  expect(lines.pop()).toBe('')
  for (const line of lines) expect(line).toMatch(/^[A-Z0-9_]+=[^\r]*$/)
  expect(lines).toContainEqual(expect.stringMatching(/^MESSAGE=Refused \$\(touch /))
})

test('a refused input writes both files, failed, and nothing is sent', async () => {
  const envFile = path.join(dir, 'refused.sh')
  const dotenv = path.join(dir, 'refused.env')
  const r = await command(
    ['create', '--site-id', '1001', '--timeout', 'soon', '--shell-env', envFile, '--dotenv', dotenv],
    {
      env: { STAGING_API_TOKEN: SIM_TOKENS.readWrite, STAGING_API_URL: sim.apiUrl },
    },
  )
  expect(r.code).toBe(2)
  expect(readFileSync(dotenv, 'utf8')).toMatch(/^RESULT=failed$/m)
  expect(
    execFileSync('sh', ['-c', '. "$1" && printf "%s" "$RESULT"', 'sh', envFile], { encoding: 'utf8' }),
  ).toBe('failed')
  expect(sim.requests).toHaveLength(0)
})

test.each([
  ['an unknown flag', ['--sit-id', '3']],
  ['a switch given a word', ['--wait=yes']],
])("a usage error (%s) writes both files, failed: never the last run's values", async (_, wrong) => {
  const envFile = path.join(dir, 'usage.sh')
  const dotenv = path.join(dir, 'usage.env')
  writeFileSync(dotenv, 'RESULT=succeeded\nSTAGING_URL=https://old.example\n')
  writeFileSync(envFile, "RESULT='succeeded'\n")
  const args = ['pull', '--site-id', '1002', ...wrong, `--dotenv=${dotenv}`, '--shell-env', envFile]
  const r = await command(args, {
    env: { STAGING_API_TOKEN: SIM_TOKENS.readWrite, STAGING_API_URL: sim.apiUrl },
  })
  expect(r.code).toBe(2)
  expect(readFileSync(dotenv, 'utf8')).toMatch(/^RESULT=failed$/m)
  expect(readFileSync(dotenv, 'utf8')).not.toContain('old.example')
  const result = execFileSync('sh', ['-c', '. "$1" && printf "%s" "$RESULT"', 'sh', envFile], {
    encoding: 'utf8',
  })
  expect(result).toBe('failed')
})
