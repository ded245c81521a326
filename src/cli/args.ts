// The CLI's command line: usage text, flags, and what they mean as the action's inputs.
import { parseArgs } from 'node:util'
import { SERVICE_API_URL } from '../contract.js'
import {
  DEFAULTS,
  InputError,
  MAX_SITES,
  didYouMean,
  type InputName,
  type RawInputs,
} from '../inputs/index.js'
import { echoed, withoutCredentials } from '../secrets/urls.js'

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
  --site-id ID             production site id; repeat it or separate ids with
                           commas or spaces to run several sites (then --json
                           prints an array)
  --api-url URL            API root (/v2 is appended unless present)
  --wait, --no-wait        wait for the background job to finish (default: ${DEFAULTS.wait === 'true' ? 'wait' : 'no-wait'})
  --timeout TIME           overall limit: 90s, 20m, 30 min, 1h, 2 hours or seconds
                           (default: ${DEFAULTS.timeout})
  --task-id ID             status: follow that earlier job (the task-id of the run
                           that started it) to its end
  --wait-for-url           after a create or pull, wait until the staging URL answers
  --staging-url URL        the staging site's URL, if you know it: used when the
                           service's answers do not say it, once it answers
  --production-url URL     push: wait until the live site answers after the push
  --language en|es         language of the server's messages, es-ES works too
                           (default: ${DEFAULTS.language})
  --if-exists fail|skip|recreate   create when staging exists (default: ${DEFAULTS['if-exists']})
  --if-missing fail|skip   pull/push/delete when there is no staging (default: ${DEFAULTS['if-missing']})
  --if-busy wait|fail      when another job runs on the site (default: ${DEFAULTS['if-busy']})
  --max-retries N          retries of one request, 0-20 (default: ${DEFAULTS['max-retries']})
  --concurrency N          sites run at once, 1-${MAX_SITES} (default: ${DEFAULTS.concurrency})
  --fail-fast              start no new site after the first failure
  --dry-run                print what would be sent; change nothing
  --checkpoint version|none   push: first a site version of production (the way
                           back), followed to completed; no version, no push
                           (default: ${DEFAULTS.checkpoint})
  --checkpoint-id ID       rollback: the version to restore (default: the newest
                           checkpoint a push made)
  --rollback-on-failure    push: restore the checkpoint at once if the push fails
  --keep-checkpoints N     push: keep this many of its checkpoints per site,
                           1-100 (default: ${DEFAULTS['keep-checkpoints']})
  --maintenance            push: maintenance mode on during the push, off after
  --protect-production     push: password protection back on after the push
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
export const SWITCHES = [
  'wait',
  'dry-run',
  'fail-fast',
  'wait-for-url',
  'json',
  'verbose',
  'rollback-on-failure',
  'maintenance',
  'protect-production',
] as const
type Switch = (typeof SWITCHES)[number]

const OPTIONS = {
  'site-id': { type: 'string', multiple: true },
  'api-url': { type: 'string' },
  wait: { type: 'boolean' },
  'no-wait': { type: 'boolean' },
  timeout: { type: 'string' },
  language: { type: 'string' },
  'if-exists': { type: 'string' },
  'if-missing': { type: 'string' },
  'if-busy': { type: 'string' },
  'max-retries': { type: 'string' },
  concurrency: { type: 'string' },
  'fail-fast': { type: 'boolean' },
  'no-fail-fast': { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  'no-dry-run': { type: 'boolean' },
  'task-id': { type: 'string' },
  'staging-url': { type: 'string' },
  'production-url': { type: 'string' },
  'wait-for-url': { type: 'boolean' },
  'no-wait-for-url': { type: 'boolean' },
  json: { type: 'boolean' },
  'no-json': { type: 'boolean' },
  dotenv: { type: 'string' },
  'shell-env': { type: 'string' },
  verbose: { type: 'boolean' },
  'no-verbose': { type: 'boolean' },
  checkpoint: { type: 'string' },
  'checkpoint-id': { type: 'string' },
  'keep-checkpoints': { type: 'string' },
  'rollback-on-failure': { type: 'boolean' },
  'no-rollback-on-failure': { type: 'boolean' },
  maintenance: { type: 'boolean' },
  'no-maintenance': { type: 'boolean' },
  'protect-production': { type: 'boolean' },
  'no-protect-production': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
} as const

/** Flags whose value is passed straight to parseConfig under the action's input name. */
const PASSED_THROUGH: InputName[] = [
  'timeout',
  'language',
  'if-exists',
  'if-missing',
  'if-busy',
  'max-retries',
  'concurrency',
  'task-id',
  'staging-url',
  'production-url',
  'checkpoint',
  'checkpoint-id',
  'keep-checkpoints',
]

/** Where each input comes from on the command line, for error messages. */
const SOURCE: Partial<Record<InputName, string>> = {
  'api-token': 'STAGING_API_TOKEN',
  'api-url': '--api-url (or STAGING_API_URL)',
  operation: 'operation',
}

type ParseConfig = { options: typeof OPTIONS; allowPositionals: true; strict: true; tokens: true }
/** The parsed command line, each switch resolved to true or false (its `no-` form gone). */
export interface Parsed {
  values: Omit<ReturnType<typeof parseArgs<ParseConfig>>['values'], `no-${Switch}`>
  positionals: string[]
}

export function parse(argv: string[]): Parsed {
  const tokenFlag = argv.find((a) => /^--?(api-?)?token(=|$)/i.test(a))
  if (tokenFlag !== undefined)
    throw new UsageError(
      'the API token is never taken from a flag (flags show up in process lists and logs): ' +
        'set the STAGING_API_TOKEN environment variable from your CI secret store.',
    )
  let parsed
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true, tokens: true })
  } catch (e) {
    throw new UsageError(describeArgsError(e as Error & { code?: string }))
  }
  const { tokens, positionals } = parsed
  const values: Parsed['values'] & Record<string, unknown> = { ...parsed.values }
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
  if (positionals.length > 1)
    throw new UsageError(
      `one operation at a time, got: ${positionals
        .slice(0, 5)
        .map((p) => echoed(p, 40))
        .join(' ')}`,
    )
  const raw: RawInputs = {
    operation: positionals[0]!,
    'site-id': (values['site-id'] ?? []).join(','),
    'api-token': env.STAGING_API_TOKEN ?? '',
    'api-url': values['api-url'] ?? env.STAGING_API_URL ?? '',
  }
  for (const name of PASSED_THROUGH) {
    const v = values[name as keyof typeof values]
    if (typeof v === 'string') raw[name] = v
  }
  if (values.wait !== undefined) raw.wait = String(values.wait)
  if (values['dry-run'] !== undefined) raw['dry-run'] = String(values['dry-run'])
  if (values['fail-fast'] !== undefined) raw['fail-fast'] = String(values['fail-fast'])
  if (values['wait-for-url'] !== undefined) raw['wait-for-url'] = String(values['wait-for-url'])
  for (const name of ['rollback-on-failure', 'maintenance', 'protect-production'] as const)
    if (values[name] !== undefined) raw[name] = String(values[name])
  return raw
}

/** `Input "site-id": is required` -> `--site-id: is required`; the token names its variable. */
export function describeInputError(e: InputError): string {
  const detail = e.detailIn('cli')
  if (e.input === 'api-token' && detail.startsWith('is required'))
    return 'STAGING_API_TOKEN is not set: export the API token in that environment variable (from your CI secret store).'
  return `${SOURCE[e.input as InputName] ?? `--${e.input}`}: ${detail}`
}
