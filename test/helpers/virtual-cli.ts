/**
 * The `site-staging` command in virtual time: src/cli/run.ts's run() (its arguments and environment,
 * its one writer, --json, --dotenv, its exit code) in this process against the simulator's API core
 * (test/helpers/virtual-action.ts), the sites' own GETs (--wait-for-url) served by the same server.
 * What only dist/cli.js shows (signals, the process's exit after stdout drained, a real socket, the
 * live line on a terminal) stays in whole-process runs (test/helpers/run-cli.ts).
 */
import { PassThrough } from 'node:stream'
import { run } from '../../src/cli/run.js'
import type { CliResult } from './run-cli.js'
import type { VirtualFaultSim } from './virtual-action.js'

/** Runs `site-staging ...args` once with `options.env` as its whole environment besides PATH and HOME. */
export async function runCliVirtually(
  sim: VirtualFaultSim,
  args: string[],
  options: { env?: Record<string, string> } = {},
): Promise<CliResult> {
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...options.env }
  let stdout = ''
  let stderr = ''
  const err = new PassThrough()
  err.on('data', (d: Buffer) => (stderr += d.toString()))
  const started = sim.clock.now()
  const code = await sim.clock.run(
    run(
      args,
      env,
      {
        stdout: { write: (text: string) => (stdout += text) },
        stderr: err as unknown as NodeJS.WriteStream,
        cancelOn: () => new AbortController().signal,
      },
      { clock: sim.clock, transport: sim.transport(), siteGet: sim.siteGet },
    ),
  )
  // The stream hands its data on in a later turn.
  await new Promise((resolve) => setImmediate(resolve))
  return { code, stdout, stderr, elapsedMs: sim.clock.now() - started, exitAfterSignalMs: null }
}
