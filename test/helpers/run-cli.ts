import { spawn } from 'node:child_process'
import path from 'node:path'
import { ROOT } from './run-action.js'

export const CLI_BUNDLE = path.join(ROOT, 'dist/cli.js')

export interface CliOptions {
  /** The whole environment of the command besides PATH and HOME (nothing else is inherited). */
  env?: Record<string, string>
  cwd?: string
  /** Send this signal once stderr matches, as Ctrl-C or a CI cancel would. */
  signalWhen?: { name: NodeJS.Signals; stderr: RegExp }
  /**
   * Calls `then` once, when stderr first matches `when`: e.g. to end a long simulator job once the
   * CLI has shown what the test waits for (simulator finishNow()), instead of racing a short job.
   */
  onStderr?: { when: RegExp; then: () => void }
  killAfterMs?: number
}

export interface CliResult {
  code: number | null
  stdout: string
  stderr: string
  elapsedMs: number
  exitAfterSignalMs: number | null
}

/** Runs `node dist/cli.js ...args` in a child process, as another CI system would run `site-staging`. */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...options.env }
  const started = Date.now()
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BUNDLE, ...args], {
      env,
      cwd: options.cwd ?? ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    let signalledAt: number | null = null
    let onStderrDone = false
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString()
      if (options.onStderr && !onStderrDone && options.onStderr.when.test(stderr)) {
        onStderrDone = true
        options.onStderr.then()
      }
      if (options.signalWhen && signalledAt === null && options.signalWhen.stderr.test(stderr)) {
        signalledAt = Date.now()
        child.kill(options.signalWhen.name)
      }
    })
    const killer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 60_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(killer)
      resolve({
        code,
        stdout,
        stderr,
        elapsedMs: Date.now() - started,
        exitAfterSignalMs: signalledAt === null ? null : Date.now() - signalledAt,
      })
    })
  })
}
