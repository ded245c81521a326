/**
 * The `site-staging` command in virtual time: src/cli/run.ts's run() (its arguments and environment,
 * its one writer, --json, --dotenv, its exit code) in this process against the simulator's API core
 * (test/helpers/virtual-action.ts), the sites' own GETs (--wait-for-url) served by the same server.
 * What only dist/cli.js shows (signals, the process's exit after stdout drained, a real socket, the
 * live line on a terminal) stays in whole-process runs (test/helpers/run-cli.ts).
 */
import { PassThrough } from 'node:stream'
import { runPipe } from '../../src/cli/pipe.js'
import { run, type CliIo } from '../../src/cli/run.js'
import type { CliResult } from './run-cli.js'
import type { VirtualFaultSim } from './virtual-action.js'

/** Runs `site-staging ...args` once with `options.env` as its whole environment besides PATH and HOME. */
export async function runCliVirtually(
  sim: VirtualFaultSim,
  args: string[],
  options: { env?: Record<string, string> } = {},
): Promise<CliResult> {
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...options.env }
  return inVirtualTime(sim, (io, seams) => run(args, env, io, seams))
}

/**
 * The Bitbucket pipe's entry (`site-staging --bitbucket-pipe`, src/cli/pipe.ts's runPipe()) in
 * virtual time: `env` is the container's whole environment (the pipe's variables and Bitbucket's);
 * the outputs files land where they name. The CLI as PID 1 (a stopped pipeline's SIGTERM) and the
 * image's real stdout stay in whole-process runs (test/pipe/pipe.test.ts).
 */
export function runPipeVirtually(sim: VirtualFaultSim, env: Record<string, string>): Promise<CliResult> {
  return inVirtualTime(sim, (io, seams) => runPipe(env, io, seams))
}

type Seams = Parameters<typeof run>[3]

/** One run on the simulator's clock: stdout and stderr collected, no signal listened for. */
async function inVirtualTime(
  sim: VirtualFaultSim,
  start: (io: CliIo, seams: Seams) => Promise<number>,
): Promise<CliResult> {
  let stdout = ''
  let stderr = ''
  const err = new PassThrough()
  err.on('data', (d: Buffer) => (stderr += d.toString()))
  const started = sim.clock.now()
  const code = await sim.clock.run(
    start(
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
