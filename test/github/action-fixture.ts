import { afterAll, afterEach, beforeAll, beforeEach, expect } from '@jest/globals'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { SIM_TOKENS, type Simulator, type SimulatorOptions } from '../../simulator/server.js'
import { useSimulator } from '../helpers/sim.js'
import { leaks, type RunResult } from '../helpers/run-action.js'
import { runActionVirtually, useVirtualSimulator, type VirtualFaultSim } from '../helpers/virtual-action.js'
import { startFakeGitHub, virtualFakeGitHub, type FakeGitHub } from './fake-github.js'

/**
 * What a whole-action test with GitHub runs against: the simulator (the staging API) as
 * `useSimulator` gives it (one for the file, back to its seeded state and `options` before each
 * test); a fresh fake
 * GitHub API for each test; a folder for event files. After each test, neither `githubToken` nor the
 * staging API token went to GitHub in any request, as they are, URL-encoded or in base64.
 */
export function useActionWithGitHub(
  options: SimulatorOptions,
  { dirPrefix, githubToken }: { dirPrefix: string; githubToken: string },
): { current: () => { sim: Simulator; gh: FakeGitHub; dir: string } } {
  const { sim } = useSimulator(options)
  let gh: FakeGitHub
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), dirPrefix))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  beforeEach(async () => {
    gh = await startFakeGitHub()
  })
  afterEach(async () => {
    const sent = gh.requests.map((r) => `${r.path}\n${r.body}`).join('\n')
    for (const secret of [githubToken, SIM_TOKENS.readWrite])
      for (const form of [secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64')])
        expect(leaks(sent, form)).toEqual([])
    await gh.stop()
  })
  return { current: () => ({ sim: sim(), gh, dir }) }
}

/**
 * The same, in virtual time: the simulator's core on a virtual clock (useVirtualSimulator) and a
 * fresh in-process fake GitHub on that clock for each test; `run` runs the action in this process
 * (runActionVirtually) with an event's context and that GitHub. The same check after each test:
 * neither token went to GitHub in any form.
 */
export function useVirtualActionWithGitHub(
  options: SimulatorOptions,
  { dirPrefix, githubToken }: { dirPrefix: string; githubToken: string },
): {
  current: () => {
    sim: VirtualFaultSim
    gh: FakeGitHub
    dir: string
    run: (inputs: Record<string, string>, env: Record<string, string>) => Promise<RunResult>
  }
} {
  const { sim } = useVirtualSimulator(options)
  let gh: ReturnType<typeof virtualFakeGitHub>
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), dirPrefix))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  beforeEach(() => {
    gh = virtualFakeGitHub(sim().clock)
  })
  afterEach(() => {
    const sent = gh.requests.map((r) => `${r.path}\n${r.body}`).join('\n')
    for (const secret of [githubToken, SIM_TOKENS.readWrite])
      for (const form of [secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64')])
        expect(leaks(sent, form)).toEqual([])
  })
  return {
    current: () => ({
      sim: sim(),
      gh,
      dir,
      run: (inputs, env) => runActionVirtually(sim(), inputs, {}, { env, fetch: gh.fetch }),
    }),
  }
}
