#!/usr/bin/env node
// The Bitbucket pipe's entry (docs/bitbucket.md): the pipe's variables -> the `site-staging`
// command (the published CLI, installed in the image) -> its outputs as a file later commands
// `source`. The CLI does the work, the masking and the messages; this file only maps, quotes and
// passes signals on. Exit codes are the CLI's: 0 succeeded/skipped/accepted/dry-run, 1 failed,
// timed out or cancelled, 2 bad usage or input (nothing sent).
//
// Plain JavaScript on purpose: the image runs it with its Node, with nothing to build.
import { spawn } from 'node:child_process'
import {
  mkdirSync,
  mkdtempSync,
  openSync,
  closeSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

const EXIT = { ok: 0, failed: 1, usage: 2 }

/**
 * The outputs the pipe writes itself when it stops before the CLI runs (bad variables): the CLI's
 * first --dotenv keys. After a run, every key the CLI wrote is passed on, whatever it is.
 */
export const OUTPUT_KEYS = ['RESULT', 'HTTP_STATUS', 'MESSAGE', 'TASK_ID', 'STAGING_SITE_ID', 'STAGING_URL']

/** Pipe variables passed on as `--flag=value` (empty: the CLI's default). */
const VALUE_FLAGS = {
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
/**
 * Pipe variables that are true/false switches: the CLI's flag for true and for false. The `--no-`
 * forms --help does not list are left out: false is those switches' default.
 */
const SWITCHES = {
  WAIT: ['--wait', '--no-wait'],
  WAIT_FOR_URL: ['--wait-for-url', null],
  FAIL_FAST: ['--fail-fast', null],
  DRY_RUN: ['--dry-run', null],
  DEBUG: ['--verbose', null],
  ROLLBACK_ON_FAILURE: ['--rollback-on-failure', null],
  MAINTENANCE: ['--maintenance', null],
  PROTECT_PRODUCTION: ['--protect-production', null],
}

/** Where the outputs go inside the shared pipe storage: $BITBUCKET_PIPE_SHARED_STORAGE_DIR/site-staging/. */
export const STORAGE_SUBDIR = 'site-staging'

class UsageError extends Error {}

/** Our own words about a variable's value: one short line, no control characters. */
const shown = (value) =>
  JSON.stringify(
    String(value)
      // eslint-disable-next-line no-control-regex -- removing control characters is the point
      .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ')
      .slice(0, 40),
  )

const say = (line) => process.stderr.write(`site-staging pipe: ${line}\n`)

/** `$NAME` or `${NAME}` left as text: Bitbucket found no variable of that name to put in. */
const unexpanded = (value) => /^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$/.test(value.trim())

function bool(name, value) {
  const v = value.trim().toLowerCase()
  if (['true', 'yes', '1'].includes(v)) return true
  if (['false', 'no', '0'].includes(v)) return false
  throw new UsageError(`${name}: ${shown(value)} is not true or false.`)
}

/** The command line for the CLI, from the pipe's variables; UsageError when one is wrong. */
export function argsFrom(env) {
  const get = (name) => (env[name] ?? '').trim()
  const token = env.STAGING_API_TOKEN ?? ''
  if (token.trim() === '')
    throw new UsageError(
      'STAGING_API_TOKEN is not set. Add the API token as a secured repository or deployment variable ' +
        '(Repository settings > Repository variables, "Secured" ticked) and pass it to the pipe: ' +
        'STAGING_API_TOKEN: $STAGING_API_TOKEN. Nothing was sent.',
    )
  if (unexpanded(token))
    throw new UsageError(
      `STAGING_API_TOKEN is the text ${shown(token.trim())}: no variable of that name is defined for this step. ` +
        'Add it as a secured repository or deployment variable (and give the step its deployment). Nothing was sent.',
    )
  const operation = get('OPERATION')
  if (operation === '')
    throw new UsageError('OPERATION is not set: create, pull, push, delete or status. Nothing was sent.')
  if (get('SITE_ID') === '')
    throw new UsageError('SITE_ID is not set: the PRODUCTION site id. Nothing was sent.')
  for (const name of ['OPERATION', 'SITE_ID', 'STAGING_API_URL', ...Object.keys(VALUE_FLAGS)])
    if (unexpanded(get(name)))
      throw new UsageError(
        `${name} is the text ${shown(get(name))}: no variable of that name is defined for this step.`,
      )
  // The operation is one word: a value such as "--help" or "pull --dry-run" is not an operation.
  if (!/^[A-Za-z-]+$/.test(operation) || operation.startsWith('-'))
    throw new UsageError(
      `OPERATION: ${shown(operation)} is not an operation: create, pull, push, delete or status.`,
    )
  const args = [operation, `--site-id=${get('SITE_ID')}`]
  for (const [name, flag] of Object.entries(VALUE_FLAGS))
    if (get(name) !== '') args.push(`${flag}=${get(name)}`)
  for (const [name, [on, off]] of Object.entries(SWITCHES)) {
    if (get(name) === '') continue
    const flag = bool(name, get(name)) ? on : off
    if (flag) args.push(flag)
  }
  return args
}

/** A value as a POSIX shell word that stands for itself: single quotes, `'` written as '\''. */
export function shellQuote(value) {
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  const text = String(value).replace(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/g, ' ')
  return `'${text.replace(/'/g, `'\\''`)}'`
}

/** The CLI's KEY=value lines -> a file a shell can `source`: every value single-quoted, nothing runs. */
export function sourceable(dotenv) {
  const lines = []
  for (const line of dotenv.split('\n')) {
    const eq = line.indexOf('=')
    const key = line.slice(0, eq)
    // Only names a shell takes as a variable (the CLI's are upper snake case).
    if (eq > 0 && /^[A-Z][A-Z0-9_]*$/.test(key)) lines.push(`${key}=${shellQuote(line.slice(eq + 1))}`)
  }
  return (
    '# Outputs of the site-staging pipe. `source` this file: every value is single-quoted text.\n' +
    lines.join('\n') +
    '\n'
  )
}

/** The outputs of a run that stopped before the CLI could write any. */
const failedDotenv = (message) =>
  OUTPUT_KEYS.map((k) => `${k}=${k === 'RESULT' ? 'failed' : k === 'MESSAGE' ? message : ''}`).join('\n') +
  '\n'

/** Where the outputs go: the shared pipe storage (if Bitbucket gave one) and OUTPUT_FILE (if set). */
function destinations(env) {
  const out = []
  const shared = (env.BITBUCKET_PIPE_SHARED_STORAGE_DIR ?? '').trim()
  if (shared) out.push(path.join(shared, STORAGE_SUBDIR, 'staging.env'))
  const own = (env.OUTPUT_FILE ?? '').trim()
  if (own) out.push(path.resolve(own))
  return out
}

function writeAtomically(file, text) {
  mkdirSync(path.dirname(file), { recursive: true })
  const tmp = `${file}.${process.pid}.tmp`
  // 0644: the step's own user may differ from the pipe container's (root); nothing secret is in it
  // (the CLI removed the token and every credential before writing).
  writeFileSync(tmp, text, { mode: 0o644 })
  renameSync(tmp, file)
}

function writeOutputs(env, dotenv, json) {
  const files = destinations(env)
  if (files.length === 0) {
    say('no BITBUCKET_PIPE_SHARED_STORAGE_DIR and no OUTPUT_FILE: the outputs are not written to a file.')
    return true
  }
  let ok = true
  for (const file of files) {
    try {
      writeAtomically(file, sourceable(dotenv))
      if (json !== null) writeAtomically(file.replace(/(\.env)?$/, '.json'), json)
      say(`outputs: source "${file}"`)
    } catch (e) {
      say(`could not write the outputs to ${file}: ${e.message}`)
      ok = false
    }
  }
  return ok
}

/** The CLI to run: the installed `site-staging`, or (tests only) SITE_STAGING_PIPE_CLI run by this Node. */
function cliCommand(env) {
  const bundle = (env.SITE_STAGING_PIPE_CLI ?? '').trim()
  return bundle ? [process.execPath, [bundle]] : ['site-staging', []]
}

async function main() {
  const env = process.env
  let args
  try {
    args = argsFrom(env)
  } catch (e) {
    if (!(e instanceof UsageError)) throw e
    say(e.message)
    writeOutputs(env, failedDotenv(e.message), null)
    return EXIT.usage
  }

  const work = mkdtempSync(path.join(tmpdir(), 'site-staging-pipe-'))
  const dotenvFile = path.join(work, 'outputs.env')
  const jsonFile = path.join(work, 'result.json')
  const jsonFd = openSync(jsonFile, 'w', 0o600)
  const [command, prefix] = cliCommand(env)
  // Only what the CLI needs: the token and API root by their CLI names, CI, PATH and the proxies.
  const childEnv = {}
  for (const [k, v] of Object.entries(env))
    if (
      /^(PATH|HOME|CI|TERM|LANG|LC_\w+|TZ|NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|(https?|no|all)_proxy|(HTTPS?|NO|ALL)_PROXY|STAGING_API_TOKEN|STAGING_API_URL)$/.test(
        k,
      )
    )
      childEnv[k] = v
  childEnv.CI ??= 'true'

  let signalled = null
  let child = null
  let killer
  const onSignal = (name) => {
    if (signalled === null) {
      say(`received ${name}: passing it to site-staging, which stops waiting and reports the state it left.`)
      // The CLI reports and exits within 5 s; a CLI that has not after 8 s is ended.
      killer = setTimeout(() => child?.kill('SIGKILL'), 8000)
      killer.unref()
    }
    signalled = name
    if (child && child.exitCode === null && child.signalCode === null) child.kill(name)
  }
  process.on('SIGINT', () => onSignal('SIGINT'))
  process.on('SIGTERM', () => onSignal('SIGTERM'))

  const code = await new Promise((resolve) => {
    child = spawn(command, [...prefix, ...args, `--dotenv=${dotenvFile}`, '--json'], {
      env: childEnv,
      stdio: ['ignore', jsonFd, 'inherit'],
    })
    child.on('error', (e) => {
      say(`could not start site-staging: ${e.message}`)
      resolve(null)
    })
    child.on('exit', (c) => {
      clearTimeout(killer)
      resolve(c)
    })
    // A signal that came before the child existed.
    if (signalled) child.kill(signalled)
  })
  closeSync(jsonFd)

  let dotenv = ''
  try {
    dotenv = readFileSync(dotenvFile, 'utf8')
  } catch {
    // no file: the CLI did not start, or stopped before writing
  }
  if (!/^RESULT=\S/m.test(dotenv))
    dotenv = failedDotenv(
      signalled ? `cancelled (${signalled}) before site-staging reported` : 'site-staging wrote no outputs',
    )
  let json = null
  try {
    json = readFileSync(jsonFile, 'utf8')
    if (json.trim() === '') json = null
  } catch {
    json = null
  }
  const written = writeOutputs(env, dotenv, json)
  rmSync(work, { recursive: true, force: true })
  // The CLI's own exit code; a CLI killed by a signal counts as cancelled (1). As the CLI does with
  // its --dotenv file: outputs that could not be written turn a success into 1.
  if (code === EXIT.ok) return written ? EXIT.ok : EXIT.failed
  return code === EXIT.failed || code === EXIT.usage ? code : EXIT.failed
}

// Run when executed, not when imported (the tests import the pure functions above).
if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  main().then(
    (code) => process.exit(code),
    (e) => {
      say(`unexpected error: ${e?.message ?? e}`)
      process.exit(EXIT.failed)
    },
  )
}
