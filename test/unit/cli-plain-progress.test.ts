/**
 * The CLI's progress in CI logs (stderr a pipe, not a terminal; no CI variable: the pipe alone turns
 * the live line off): plain lines now and then, with no carriage return or escape sequence at all.
 * src/cli/run.ts in virtual time, so the 15 s between plain lines take no real time. The live line
 * on a real terminal (dist/cli.js on a pseudo-terminal): test/cli/live-line.test.ts.
 */
import { expect, test } from '@jest/globals'
import { SIM_SITES, SIM_TOKENS } from '../../simulator/server.js'
import { VirtualFaultSim } from '../helpers/virtual-action.js'
import { runCliVirtually } from '../helpers/virtual-cli.js'

// The runner's files virtual-action.ts made when it was loaded.

/** Carriage returns and escape characters in a text. */
const terminalCodes = (text: string) => [...text].filter((c) => c === '\r' || c === '\u001b')

test('in CI logs (stderr a pipe): no carriage return or escape sequence at all; plain progress lines instead', async () => {
  // A pull twice as long as it takes for a plain line to be due (one every 15 s, printed at the next answer).
  const sim = new VirtualFaultSim({ durationsMs: { create: 6000, pull: 30_000, push: 200, delete: 200 } })
  const plain = await runCliVirtually(sim, ['pull', '--site-id', String(SIM_SITES.withStaging)], {
    env: { STAGING_API_TOKEN: SIM_TOKENS.readWrite, STAGING_API_URL: sim.apiUrl, TERM: 'xterm-256color' },
  })
  expect(plain.code).toBe(0)
  expect(terminalCodes(plain.stderr)).toEqual([])
  expect(plain.stderr).toMatch(/^… pull on site 1002: \d+%, still running after \d+s$/m)
  expect(plain.stderr).toMatch(/^Staging pull succeeded \(site 1002\)/m)
})
