// The Bitbucket pipe (docs/bitbucket.md): `site-staging --bitbucket-pipe` is the image's entry. The
// pipe's variables (OPERATION, SITE_ID, WAIT...) -> the CLI's command line -> run() in this process
// (PID 1 in the container: SIGTERM from a stopped pipeline reaches the CLI's own handler) -> the
// outputs as a file later commands `source` (the CLI's --shell-env file): $BITBUCKET_PIPE_SHARED_STORAGE_DIR/site-staging/
// staging.env and OUTPUT_FILE, each with its .json. Exit codes are the CLI's.
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { dotenvKey, envFileText } from './dotenv.js'
import { EXIT, SWITCHES } from './args.js'
import { run, type CliIo } from './run.js'
import { OUTPUT_NAMES, failedOutputs } from '../report/outputs.js'
import { echoed } from '../secrets/urls.js'
import { Redactor } from '../secrets/redactor.js'
import { INPUT_NAMES, nearest, type InputName } from '../inputs/index.js'
import { pipeVariable } from '../inputs/table.js'
import { OPERATIONS } from '../types.js'

/** Where the outputs go inside the shared pipe storage. */
export const STORAGE_SUBDIR = 'site-staging'

/** The pipe's variables: each input's (src/inputs/table.ts), by variable name; then the pipe's own. */
const INPUT_OF = new Map(
  INPUT_NAMES.flatMap((n) => (pipeVariable(n) && n !== 'api-token' ? [[pipeVariable(n)!, n] as const] : [])),
)
export const PIPE_VARIABLES = [...INPUT_OF.keys(), 'STAGING_API_TOKEN', 'OUTPUT_FILE', 'DEBUG']
const OPERATION_LIST = `${OPERATIONS.slice(0, -1).join(', ')} or ${OPERATIONS.at(-1)}`

export class PipeVariableError extends Error {}

/** Our own words about a variable's value: one short line, no control characters, no credentials (issue 24 §6). */
const shown = (value: string): string => JSON.stringify(echoed(value, 40))

/** `$NAME` or `${NAME}` left as text: Bitbucket found no variable of that name to put in. */
const unexpanded = (value: string): boolean => /^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$/.test(value.trim())

/** Bitbucket's, the image's, the shell's and a proxy's variables: never a misnamed one of ours. */
const ORDINARY =
  /^(BITBUCKET_\w*|CI|PATH|HOME|HOSTNAME|PWD|OLDPWD|SHLVL|TERM|LANG|LC_\w+|TZ|USER|SHELL|_|NODE_\w*|NPM_\w*|YARN_\w*|DOCKER_\w*|SITE_STAGING_\w*|(HTTPS?|FTP|ALL|NO)_PROXY)$/i
/** Outputs whose names are words anyone might use for a variable of their own. */
const PLAIN_OUTPUTS = ['RESULT', 'RESULTS', 'MESSAGE', 'REQUESTS', 'RETRIES']

/**
 * A variable that looks like one of the pipe's own but is not (`if_exists`, `IF_EXIST`, an output's
 * name such as `TASK_ID`): refused with the nearest known name before anything is sent. Any other
 * variable is left alone (docs/assumptions.md, "The pipe's variables").
 */
export function misnamed(env: NodeJS.ProcessEnv): string | null {
  for (const name of Object.keys(env).sort()) {
    if (PIPE_VARIABLES.includes(name) || ORDINARY.test(name)) continue
    const upper = name.toUpperCase().replace(/-/g, '_')
    const output = OUTPUT_NAMES.find((o) => dotenvKey(o) === upper)
    if (output !== undefined && !PLAIN_OUTPUTS.includes(upper)) {
      const input = INPUT_NAMES.includes(output as InputName) ? pipeVariable(output as InputName) : null
      return `${echoed(name, 60)} is an output of this pipe, not one of its variables${input ? `: did you mean ${input}?` : '.'} Nothing was sent.`
    }
    // An input's name in capitals where the pipe's variable is named otherwise (API_URL: STAGING_API_URL).
    const input = INPUT_NAMES.find((i) => i.toUpperCase().replace(/-/g, '_') === upper)
    const alias = input ? pipeVariable(input) : null
    const best = alias ? { choice: alias, distance: 0 } : nearest(upper, PIPE_VARIABLES)
    if (best && best.distance <= Math.max(1, Math.floor(best.choice.length / 4)))
      return `${echoed(name, 60)} is not a variable of this pipe: did you mean ${best.choice}? Nothing was sent.`
  }
  return null
}

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
  const wrong = misnamed(env)
  if (wrong !== null) throw new PipeVariableError(wrong)
  const operation = get('OPERATION')
  if (operation === '')
    throw new PipeVariableError(`OPERATION is not set: ${OPERATION_LIST}. Nothing was sent.`)
  for (const name of INPUT_OF.keys())
    if (unexpanded(get(name)))
      throw new PipeVariableError(
        `${name} is the text ${shown(get(name))}: no variable of that name is defined for this step.`,
      )
  // The operation is one word: a value such as "--help" or "pull --dry-run" is not an operation.
  if (!/^[A-Za-z-]+$/.test(operation) || operation.startsWith('-'))
    throw new PipeVariableError(`OPERATION: ${shown(operation)} is not an operation: ${OPERATION_LIST}.`)
  const args = [operation]
  for (const [name, flag] of [...INPUT_OF, ['DEBUG', 'verbose']] as [string, string][]) {
    const v = get(name)
    if (flag === 'operation' || v === '') continue
    if (!(SWITCHES as readonly string[]).includes(flag)) args.push(`--${flag}=${v}`)
    // Switches take true or false, as on every door (docs/assumptions.md).
    else if (/^(true|false)$/i.test(v)) args.push(/^true$/i.test(v) ? `--${flag}` : `--no-${flag}`)
    else throw new PipeVariableError(`${name}: ${shown(v)} is not true or false.`)
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
  const redactor = new Redactor() // the token, also in a variable that is refused (not one Bitbucket left as text)
  if (!unexpanded(env.STAGING_API_TOKEN ?? '')) redactor.add(env.STAGING_API_TOKEN)
  const say = (line: string): void => void io.stderr.write(`site-staging pipe: ${redactor.inert(line)}\n`)
  let args: string[]
  try {
    args = argsFrom(env)
  } catch (e) {
    if (!(e instanceof PipeVariableError)) throw e
    say(e.message)
    writeOutputs(env, envFileText(failedOutputs(redactor.scrub(e.message))), null, say)
    return EXIT.usage
  }
  const work = mkdtempSync(path.join(tmpdir(), 'site-staging-pipe-'))
  const envFile = path.join(work, 'outputs.env')
  let json = ''
  const code = await run(
    [...args, `--shell-env=${envFile}`, '--json'],
    { ...env, CI: env.CI ?? 'true', SITE_STAGING_DOOR: 'pipe' },
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
