// The Bitbucket pipe (docs/bitbucket.md): `site-staging --bitbucket-pipe` is the image's entry. The
// pipe's variables (OPERATION, SITE_ID, WAIT...) -> the CLI's command line -> run() in this process
// (PID 1 in the container: SIGTERM from a stopped pipeline reaches the CLI's own handler) -> the
// outputs as a file later commands `source` (the CLI's --shell-env file): $BITBUCKET_PIPE_SHARED_STORAGE_DIR/site-staging/
// staging.env and OUTPUT_FILE, each with its .json. Exit codes are the CLI's.
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { envFileText } from './dotenv.js'
import { EXIT } from './args.js'
import { run, type CliIo } from './run.js'
import { failedOutputs } from '../report/outputs.js'
import { echoed } from '../secrets/urls.js'

/** Where the outputs go inside the shared pipe storage. */
export const STORAGE_SUBDIR = 'site-staging'

/** Pipe variables passed on as `--flag=value` (empty: the CLI's default). */
const VALUE_FLAGS: Record<string, string> = {
  TIMEOUT: '--timeout',
  LANGUAGE: '--language',
  IF_EXISTS: '--if-exists',
  IF_MISSING: '--if-missing',
  IF_BUSY: '--if-busy',
  MAX_RETRIES: '--max-retries',
  CONCURRENCY: '--concurrency',
  FOLLOW_TASK_ID: '--task-id',
  CHECKPOINT: '--checkpoint',
  RESTORE_CHECKPOINT_ID: '--checkpoint-id',
  KEEP_CHECKPOINTS: '--keep-checkpoints',
}
/** Pipe variables that are true/false switches, and their CLI switch. */
const SWITCHES: Record<string, string> = {
  WAIT: 'wait',
  WAIT_FOR_URL: 'wait-for-url',
  FAIL_FAST: 'fail-fast',
  DRY_RUN: 'dry-run',
  DEBUG: 'verbose',
  ROLLBACK_ON_FAILURE: 'rollback-on-failure',
  MAINTENANCE: 'maintenance',
  PROTECT_PRODUCTION: 'protect-production',
}

export class PipeVariableError extends Error {}

/** Our own words about a variable's value: one short line, no control characters, no credentials (issue 24 §6). */
const shown = (value: string): string => JSON.stringify(echoed(value, 40))

/** `$NAME` or `${NAME}` left as text: Bitbucket found no variable of that name to put in. */
const unexpanded = (value: string): boolean => /^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$/.test(value.trim())

/** The CLI's command line from the pipe's variables; PipeVariableError when one is wrong. */
export function argsFrom(env: NodeJS.ProcessEnv): string[] {
  const get = (name: string): string => (env[name] ?? '').trim()
  const token = env.STAGING_API_TOKEN ?? ''
  if (token.trim() === '')
    throw new PipeVariableError(
      'STAGING_API_TOKEN is not set. Add the API token as a secured repository or deployment variable ' +
        '(Repository settings > Repository variables, "Secured" ticked) and pass it to the pipe: ' +
        'STAGING_API_TOKEN: $STAGING_API_TOKEN. Nothing was sent.',
    )
  if (unexpanded(token))
    throw new PipeVariableError(
      `STAGING_API_TOKEN is the text ${shown(token.trim())}: no variable of that name is defined for this step. ` +
        'Add it as a secured repository or deployment variable (and give the step its deployment). Nothing was sent.',
    )
  const operation = get('OPERATION')
  if (operation === '')
    throw new PipeVariableError(
      'OPERATION is not set: create, pull, push, delete or status. Nothing was sent.',
    )
  if (get('SITE_ID') === '')
    throw new PipeVariableError('SITE_ID is not set: the PRODUCTION site id. Nothing was sent.')
  for (const name of ['OPERATION', 'SITE_ID', 'STAGING_API_URL', ...Object.keys(VALUE_FLAGS)])
    if (unexpanded(get(name)))
      throw new PipeVariableError(
        `${name} is the text ${shown(get(name))}: no variable of that name is defined for this step.`,
      )
  // The operation is one word: a value such as "--help" or "pull --dry-run" is not an operation.
  if (!/^[A-Za-z-]+$/.test(operation) || operation.startsWith('-'))
    throw new PipeVariableError(
      `OPERATION: ${shown(operation)} is not an operation: create, pull, push, delete or status.`,
    )
  const args = [operation, `--site-id=${get('SITE_ID')}`]
  for (const [name, flag] of Object.entries(VALUE_FLAGS))
    if (get(name) !== '') args.push(`${flag}=${get(name)}`)
  for (const [name, flag] of Object.entries(SWITCHES)) {
    const v = get(name).toLowerCase()
    if (v === '') continue
    if (['true', 'yes', '1'].includes(v)) args.push(`--${flag}`)
    else if (['false', 'no', '0'].includes(v)) args.push(`--no-${flag}`)
    else throw new PipeVariableError(`${name}: ${shown(get(name))} is not true or false.`)
  }
  return args
}

/** The first line of the outputs file: how to use it. */
const HEADER = '# Outputs of the site-staging pipe. `source` this file: every value is single-quoted text.\n'

/** Where the outputs go: the shared pipe storage (if Bitbucket gave one) and OUTPUT_FILE (if set). */
function destinations(env: NodeJS.ProcessEnv): string[] {
  const out: string[] = []
  const shared = (env.BITBUCKET_PIPE_SHARED_STORAGE_DIR ?? '').trim()
  if (shared) out.push(path.join(shared, STORAGE_SUBDIR, 'staging.env'))
  const own = (env.OUTPUT_FILE ?? '').trim()
  if (own) out.push(path.resolve(own))
  return out
}

function writeAtomically(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true })
  const tmp = `${file}.${process.pid}.tmp`
  // 0644: the step's own user may differ from the pipe container's (root); nothing secret is in it
  // (the CLI removed the token and every credential before writing).
  writeFileSync(tmp, text, { mode: 0o644 })
  renameSync(tmp, file)
}

/** Writes the outputs everywhere they go; false when one could not be written. */
function writeOutputs(
  env: NodeJS.ProcessEnv,
  envText: string,
  json: string | null,
  say: (l: string) => void,
): boolean {
  const files = destinations(env)
  if (files.length === 0)
    say('no BITBUCKET_PIPE_SHARED_STORAGE_DIR and no OUTPUT_FILE: the outputs are not written to a file.')
  let ok = true
  for (const file of files) {
    try {
      writeAtomically(file, HEADER + envText)
      if (json !== null) writeAtomically(file.replace(/(\.env)?$/, '.json'), json)
      say(`outputs: source "${file}"`)
    } catch (e) {
      say(`could not write the outputs to ${file}: ${(e as Error).message}`)
      ok = false
    }
  }
  return ok
}

/**
 * Runs the pipe once: the variables in `env`, the log on io.stderr; resolves with the exit code.
 * `seams`: run()'s own (tests run the same pipe in virtual time); the defaults are the real ones.
 */
export async function runPipe(
  env: NodeJS.ProcessEnv,
  io: CliIo,
  seams: Parameters<typeof run>[3] = {},
): Promise<number> {
  const say = (line: string): void => void io.stderr.write(`site-staging pipe: ${line}\n`)
  let args: string[]
  try {
    args = argsFrom(env)
  } catch (e) {
    if (!(e instanceof PipeVariableError)) throw e
    say(e.message)
    writeOutputs(env, envFileText(failedOutputs(e.message)), null, say)
    return EXIT.usage
  }
  const work = mkdtempSync(path.join(tmpdir(), 'site-staging-pipe-'))
  const envFile = path.join(work, 'outputs.env')
  let json = ''
  const code = await run(
    [...args, `--shell-env=${envFile}`, '--json'],
    { ...env, CI: env.CI ?? 'true' },
    { ...io, stdout: { write: (text: string) => (json += text) } },
    seams,
  )
  let envText = ''
  try {
    envText = readFileSync(envFile, 'utf8')
  } catch {
    // no file: the CLI stopped before writing (bad usage)
  }
  rmSync(work, { recursive: true, force: true })
  if (!/^export RESULT='\S/m.test(envText))
    envText = envFileText(failedOutputs('site-staging wrote no outputs'))
  const written = writeOutputs(env, envText, json.trim() === '' ? null : json, say)
  // As with the CLI's own outputs files: outputs that could not be written turn a success into 1.
  return code === EXIT.ok && !written ? EXIT.failed : code
}
