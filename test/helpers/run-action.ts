import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
export const ACTION_BUNDLE = path.join(ROOT, 'dist/index.js')

export interface RunOptions {
  /** Extra environment (e.g. GITHUB_EVENT_PATH, RUNNER_DEBUG). */
  env?: Record<string, string>
  /**
   * Send this signal, as the runner does on cancel: `afterMs` after the action's first output (its
   * `::add-mask::`, written just before it installs its signal handlers, so a slow start on a busy
   * machine cannot make the signal come before them), or once stdout matches `whenOutput`.
   */
  signal?: { name: NodeJS.Signals; afterMs: number } | { name: NodeJS.Signals; whenOutput: RegExp }
  /** Kill the child if it runs longer (the test then fails on the exit code). */
  killAfterMs?: number
  /**
   * Calls `then` once, when stdout first matches `when`: e.g. to end a simulator job at the moment
   * the action has seen it running, instead of racing a short job (simulator finishNow()).
   */
  onOutput?: { when: RegExp; then: () => void }
}

export interface RunResult {
  code: number | null
  stdout: string
  stderr: string
  outputs: Record<string, string>
  summary: string
  /** Everything the action wrote: stdout, stderr, outputs file, summary file. */
  everything: string
  elapsedMs: number
  /** Time from the signal to the exit, when a signal was sent. */
  exitAfterSignalMs: number | null
}

/** Input defaults as declared in action.yml (the runner fills them in the same way). */
export function actionDefaults(): Record<string, string> {
  const doc = parse(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as {
    inputs: Record<string, { default?: string }>
  }
  const out: Record<string, string> = {}
  for (const [name, spec] of Object.entries(doc.inputs)) {
    if (spec.default === undefined) continue
    out[name] =
      spec.default === '${{ github.token }}' ? 'ghs_fake-github-token-for-tests' : String(spec.default)
  }
  return out
}

/** Parses the GITHUB_OUTPUT file (`name<<delimiter` blocks, as @actions/core writes them). */
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<=]+)<<(.+)$/.exec(lines[i]!)
    if (m) {
      const [, name, delimiter] = m
      const value: string[] = []
      for (i++; i < lines.length && lines[i] !== delimiter; i++) value.push(lines[i]!)
      out[name!] = value.join('\n')
    } else if (lines[i]!.includes('=')) {
      const [name, ...rest] = lines[i]!.split('=')
      out[name!] = rest.join('=')
    }
  }
  return out
}

/**
 * Runs the bundled action as the runner does: `node dist/index.js` in a child process with
 * INPUT_* variables (action.yml defaults filled in), GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files.
 */
export function runBundledAction(
  inputs: Record<string, string>,
  options: RunOptions = {},
  bundle = ACTION_BUNDLE,
): Promise<RunResult> {
  const dir = mkdtempSync(path.join(tmpdir(), 'action-run-'))
  const outputFile = path.join(dir, 'output')
  const summaryFile = path.join(dir, 'summary')
  writeFileSync(outputFile, '')
  writeFileSync(summaryFile, '')
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? dir,
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_ACTIONS: 'true',
    RUNNER_TEMP: dir,
    ...options.env,
  }
  for (const [name, value] of Object.entries({ ...actionDefaults(), ...inputs })) {
    env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value
  }
  const started = Date.now()
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundle], { env, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    let signalledAt: number | null = null
    const sendSignal = () => {
      if (signalledAt !== null || !options.signal) return
      signalledAt = Date.now()
      child.kill(options.signal.name)
    }
    let onOutputDone = false
    const timers: NodeJS.Timeout[] = []
    child.stdout.on('data', (d: Buffer) => {
      if (stdout === '' && options.signal && 'afterMs' in options.signal)
        timers.push(setTimeout(sendSignal, options.signal.afterMs))
      stdout += d.toString()
      if (options.onOutput && !onOutputDone && options.onOutput.when.test(stdout)) {
        onOutputDone = true
        options.onOutput.then()
      }
      if (options.signal && 'whenOutput' in options.signal && options.signal.whenOutput.test(stdout))
        sendSignal()
    })
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    timers.push(setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 60_000))
    child.on('error', reject)
    child.on('close', (code) => {
      timers.forEach(clearTimeout)
      const outputsText = readFileSync(outputFile, 'utf8')
      const summary = readFileSync(summaryFile, 'utf8')
      rmSync(dir, { recursive: true, force: true })
      resolve({
        code,
        stdout,
        stderr,
        outputs: parseOutputFile(outputsText),
        summary,
        everything: [stdout, stderr, outputsText, summary].join('\n'),
        elapsedMs: Date.now() - started,
        exitAfterSignalMs: signalledAt === null ? null : Date.now() - signalledAt,
      })
    })
  })
}

/** Every line that mentions `secret`, other than the runner's own `::add-mask::` command. */
export function leaks(text: string, secret: string): string[] {
  return text.split('\n').filter((line) => line.includes(secret) && !line.startsWith('::add-mask::'))
}
