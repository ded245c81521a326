// The CLI's command line: usage text, flags, and what they mean as the action's inputs.
import { parseArgs } from 'node:util'
import { SERVICE_API_URL } from '../contract.js'
import {
  INPUTS,
  INPUT_NAMES,
  InputError,
  didYouMean,
  type InputName,
  type RawInputs,
} from '../inputs/index.js'
import { SWITCH_INPUTS, cliEnv, cliFlag, usageLines } from '../inputs/table.js'
import { echoed, withoutCredentials } from '../secrets/urls.js'
import { inDoorWords, setting, type Door } from '../words.js'

/** Exit codes (documented in README.md and in --help). */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const

export const USAGE = `Usage: site-staging <create|pull|push|delete|status|rollback> --site-id ID [options]

Creates, pulls (refreshes from production; "reset" is another name), pushes
(staging to production) or deletes the staging environment of a hosted site,
or reads it (status), through the service's v2 staging API. --site-id is always
the PRODUCTION site's id. The same core, inputs and messages as the GitHub
Action site-staging-action, for every other CI system and any shell.

Environment:
  STAGING_API_TOKEN        API token (required). Never taken from a flag.
  STAGING_API_URL          API root of another deployment of the same API
                           (or --api-url; default: ${SERVICE_API_URL})
  --token-variable NAME    read the API token from the variable NAME instead, and
                           refuse a value GitLab could not mask in a job's log

Options:
${usageLines().join('\n')}
  --json                   print the result as JSON on stdout
  --dotenv FILE            write the outputs as KEY=value lines, raw, for GitLab's
                           dotenv report (never \`source\` it: use --shell-env)
  --shell-env FILE         write the outputs as export KEY='value' lines, safe to
                           \`source\` in bash or sh (CircleCI, Jenkins, any shell)
  --verbose                also print debug lines
  -h, --help               show this help
  -V, --version            print the version

A switch also takes a value: --wait=false is --no-wait, --dry-run=true is --dry-run.

Progress goes to stderr (one live line on a terminal). Exit codes:
  0  succeeded, skipped, accepted (not waited for / not trackable) or dry-run
  1  failed, timed out or cancelled (SIGINT/SIGTERM)
  2  bad usage or input (nothing was sent)
`

/** Bad usage: its text never quotes a credential the user typed (issue 24 §6). */
export class UsageError extends Error {
  constructor(message: string) {
    super(withoutCredentials(message))
  }
}

/**
 * Flags that take no value, each with its `--no-` form; the last one given wins. The `--no-` forms
 * are options of their own rather than parseArgs's `allowNegative`, which needs Node 20.16 or 22.4:
 * this way the bundle runs on every Node 20 and later (package.json `engines`).
 */
export const SWITCHES = [...SWITCH_INPUTS, 'json', 'verbose'] as const
type Switch = (typeof SWITCHES)[number]

/** The inputs' flags (src/inputs/table.ts), then the CLI's own. */
const OPTIONS: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> = {
  ...Object.fromEntries(
    INPUT_NAMES.filter((n) => cliFlag(n) !== null).map((n) => {
      return [n, { type: INPUTS[n].kind === 'switch' ? 'boolean' : 'string', multiple: n === 'site-id' }]
    }),
  ),
  ...Object.fromEntries(SWITCHES.map((n) => [`no-${n}`, { type: 'boolean' }])),
  ...Object.fromEntries(['json', 'verbose'].map((n) => [n, { type: 'boolean' }])),
  dotenv: { type: 'string' },
  'shell-env': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
}

/** The parsed command line, each switch resolved to true or false (its `no-` form gone). */
export interface Parsed {
  values: Record<string, string | boolean | string[] | undefined> &
    Partial<Record<'help' | 'version' | 'json' | 'verbose', boolean> & Record<'dotenv' | 'shell-env', string>>
  positionals: string[]
}

export function parse(argv: string[]): Parsed {
  if (argv.some((a) => /^--?(api-?)?token(=|$)/i.test(a)))
    throw new UsageError(
      'the API token is never taken from a flag (flags show up in process lists and logs): ' +
        'set the STAGING_API_TOKEN environment variable from your CI secret store.',
    )
  // A switch is --wait, --no-wait or --wait=true|false (`--wait=false` is `--no-wait`: a template writes booleans so);
  // `--wait=yes` and `--wait false` are refused in these words.
  const args = argv.map((a, i) => {
    const [, no, name, value] = /^--(no-)?([a-z-]+)(?:=(.*))?$/i.exec(a) ?? []
    if (!SWITCHES.includes(name as Switch)) return a
    const next = argv[i + 1] ?? ''
    if (
      value === undefined ? /^(true|false|yes|no|on|off|[01])$/i.test(next) : !/^(true|false)$/i.test(value)
    )
      throw new UsageError(
        `${echoed(value === undefined ? `${a} ${next}` : a, 40)}: a switch is --${name}=true or --${name}=false (--no-${name} is false).`,
      )
    return value === undefined || no ? a : `--${/^true$/i.test(value) ? '' : 'no-'}${name}`
  })
  let parsed
  try {
    parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true, tokens: true })
  } catch (e) {
    throw new UsageError(describeArgsError(e as Error & { code?: string }))
  }
  const { tokens, positionals } = parsed
  const values = { ...parsed.values } as Parsed['values']
  for (const name of SWITCHES) delete values[`no-${name}`]
  // --wait / --no-wait and the like: the last one on the command line wins.
  for (const token of tokens)
    if (token.kind === 'option' && (SWITCHES as readonly string[]).includes(token.name.replace(/^no-/, '')))
      values[token.name.replace(/^no-/, '') as Switch] = !token.name.startsWith('no-')
  return { values, positionals }
}

/**
 * parseArgs's error, short, with the nearest flag for a mistyped one:
 * `unknown flag --sit-id (did you mean "--site-id"?)`.
 */
function describeArgsError(e: Error & { code?: string }): string {
  const flag = /'(--?[^'\s=]+)/.exec(e.message)?.[1]
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && flag) {
    const near = didYouMean(flag.replace(/^--?/, ''), Object.keys(OPTIONS))
    return `unknown flag ${echoed(flag, 40)}${near.replace(/"([^"]+)"/, '"--$1"')}`
  }
  return e.message
}

export function rawInputs(parsed: Parsed, env: NodeJS.ProcessEnv): RawInputs {
  const { values, positionals } = parsed
  if (positionals.length === 0)
    throw new UsageError('name the operation: create, pull, push, delete, status or rollback.')
  const shown = positionals.slice(0, 5).map((p) => echoed(p, 40))
  if (positionals.length > 1) throw new UsageError(`one operation at a time, got: ${shown.join(' ')}`)
  const raw: RawInputs = { operation: positionals[0]! }
  for (const name of INPUT_NAMES) {
    const [v, from] = [values[name], cliEnv(name)]
    if (v !== undefined) raw[name] = Array.isArray(v) ? v.join(',') : String(v)
    else if (from !== undefined) raw[name] = env[from] ?? ''
  }
  return raw
}

/** `Input "site-id": is required` -> `--site-id: is required`, or as `door` names the input. */
export function describeInputError(e: InputError, door: Door = 'cli'): string {
  const detail = e.detailIn(door)
  if (door === 'cli' && e.input === 'api-token' && detail.startsWith('is required'))
    return 'STAGING_API_TOKEN is not set: export the API token in that environment variable (from your CI secret store).'
  const name =
    e.input === 'operation' ? (door === 'pipe' ? 'OPERATION' : 'operation') : setting(e.input as InputName)
  return `${inDoorWords(name, door)}: ${detail}`
}
