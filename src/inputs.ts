import { z } from 'zod'
import { SERVICE_API_URL, isCredentialQueryParam } from './contract.js'
import { echoed, withoutCredentials } from './secrets/urls.js'
import { httpUrl, isLoopback, secureOrLoopback } from './text.js'
import { OPERATIONS, type Config } from './types.js'
import { TOKEN_SOURCE, inDoorWords, perDoor, setting, type Door } from './words.js'

/**
 * Reading and validating the staging run's inputs (the GitHub side's own inputs are read in
 * src/github/): raw strings (from action inputs or CLI flags) become a typed Config, or an
 * InputError that names the input. Nothing here sends a request.
 */
export class InputError extends Error {
  constructor(
    readonly input: string,
    /** What is wrong with it, with a setting or the token written through src/words.ts. */
    private readonly detail: string,
  ) {
    // No refusal quotes a credential (issue 24 §6): each echo goes through echoed(), and the whole
    // text through withoutCredentials() for any echo that did not.
    super(`Input "${input}": ${withoutCredentials(inDoorWords(detail, 'action'))}`)
    this.name = 'InputError'
  }
  /** What is wrong, without the input's name, in `door`'s words. */
  detailIn(door: Door): string {
    return withoutCredentials(inDoorWords(this.detail, door))
  }
}

/** Raw inputs by their action names (`site-id`, `api-url`...); absent means default. */
export type RawInputs = Partial<Record<InputName, string>>
/**
 * The inputs of the staging run, by their action name, as parseConfig reads them (the action and
 * the CLI). action.yml declares these and the GitHub side's own (github-token, pr-comment,
 * comment-author, deployment-environment), which src/github/ reads.
 */
export const INPUT_NAMES = [
  'operation',
  'site-id',
  'api-token',
  'api-url',
  'wait',
  'timeout',
  'language',
  'max-retries',
  'if-exists',
  'if-missing',
  'if-busy',
  'dry-run',
  'concurrency',
  'fail-fast',
  'task-id',
  'wait-for-url',
  'staging-url',
  'production-url',
  // Issue 27: the checkpoint before a push, rollback, and production guarded during the push.
  'checkpoint',
  'checkpoint-id',
  'rollback-on-failure',
  'keep-checkpoints',
  'maintenance',
  'protect-production',
] as const
export type InputName = (typeof INPUT_NAMES)[number]

/** Defaults, as in action.yml (a test checks they agree). */
export const DEFAULTS = {
  'api-url': SERVICE_API_URL,
  wait: 'true',
  timeout: '30m',
  language: 'en',
  'max-retries': '5',
  'if-exists': 'fail',
  'if-missing': 'fail',
  'if-busy': 'wait',
  'dry-run': 'false',
  concurrency: '100',
  'fail-fast': 'false',
  'task-id': '',
  'wait-for-url': 'false',
  'staging-url': '',
  'production-url': '',
  checkpoint: 'version',
  'checkpoint-id': '',
  'rollback-on-failure': 'false',
  'keep-checkpoints': '3',
  maintenance: 'false',
  'protect-production': 'false',
} as const satisfies RawInputs

/**
 * A production site id: the service numbers its sites (auto-increment row ids, as every id of the
 * service family's answers shows), so digits only, at most 20 (an unsigned 64-bit id). Checked
 * before any request, so `1001;x` or `1001/../1002` can never address another site (docs/assumptions.md).
 */
const SITE_ID = /^\d{1,20}$/
const MAX_TIMEOUT_MS = 6 * 3600_000
/**
 * Site ids one step takes. Under a limit of R calls a minute, N sites need at least 2N/R minutes
 * (a create and a status call each): 1000 sites at 60 a minute take 33 minutes.
 */
export const MAX_SITES = 1000

/** `" Skip "` -> `skip`; an unknown value is refused with the choices and the nearest one. */
const choice = <T extends string>(values: readonly T[], aliases: Record<string, T> = {}) =>
  z.string().transform((v, ctx) => {
    const text = v.trim().toLowerCase()
    const value = aliases[text] ?? text
    if ((values as readonly string[]).includes(value)) return value as T
    ctx.addIssue({
      code: 'custom',
      message: `"${echoed(text, 40)}" is not one of ${values.join(', ')}${didYouMean(text, [...values, ...Object.keys(aliases)])}`,
    })
    return z.NEVER
  })

/** ` (did you mean "pull"?)` when one choice is close to what was typed, else ''. */
export function didYouMean(typed: string, choices: readonly string[]): string {
  const t = typed.trim().toLowerCase()
  if (t === '') return ''
  let best: { choice: string; distance: number } | null = null
  for (const choice of choices) {
    const distance = editDistance(t, choice.toLowerCase())
    if (!best || distance < best.distance) best = { choice, distance }
  }
  const near =
    best && (best.distance <= Math.max(1, Math.floor(best.choice.length / 3)) || best.choice.startsWith(t))
  return near ? ` (did you mean "${best!.choice}"?)` : ''
}

/** Edits (insert, delete, replace, swap two neighbours) from `a` to `b`. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  )
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1)
      d[i]![j] = best
    }
  return d[a.length]![b.length]!
}

const boolean = z
  .string()
  .transform((v) => v.trim().toLowerCase())
  .pipe(z.enum(['true', 'false'], { error: () => 'must be true or false' }))
  .transform((v) => v === 'true')

const integer = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, { error: `must be a whole number from ${min} to ${max}` })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, { error: `must be at least ${min}` })
        .max(max, { error: `must be at most ${max}` }),
    )

/** `reset` is another name for `pull` (the endpoint's own name). */
const operation = choice(OPERATIONS, { reset: 'pull' })

/** How the server reads a site id: a numeric id with leading zeros is the same site (`01001` is `1001`). */
function canonicalSiteId(id: string): string {
  return id.replace(/^0+(?=\d)/, '')
}

const siteIds = z.string().transform((v, ctx) => {
  const ids = v
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter(Boolean)
  if (ids.length === 0) ctx.addIssue({ code: 'custom', message: 'is required (the PRODUCTION site id)' })
  if (ids.length > MAX_SITES)
    ctx.addIssue({ code: 'custom', message: `lists ${ids.length} sites; at most ${MAX_SITES}` })
  // A URL here is quoted by nothing: split on its spaces, its parts could carry a password.
  if (/:\/\/|@/.test(v)) {
    ctx.addIssue({
      code: 'custom',
      message: `looks like a URL or an address, not a site id: a site id is the production site's number (digits only, at most 20)`,
    })
    return ids
  }
  for (const id of ids) {
    if (!SITE_ID.test(id)) {
      ctx.addIssue({
        code: 'custom',
        message: `"${echoed(id)}" is not a site id: a site id is the production site's number (digits only, at most 20); several are separated by commas, semicolons, spaces or new lines`,
      })
    }
  }
  const seen = new Map<string, string>()
  for (const id of ids) {
    const first = seen.get(canonicalSiteId(id))
    if (first !== undefined) {
      const same = first === id ? '' : ` (${first} and ${id} are the same site to the server)`
      ctx.addIssue({ code: 'custom', message: `lists site ${id} more than once${same}` })
      break
    }
    seen.set(canonicalSiteId(id), id)
  }
  return ids
})

const token = z.string().transform((v, ctx) => {
  const t = v.trim()
  if (t === '') ctx.addIssue({ code: 'custom', message: 'is required (store it as a secret)' })
  else if (/^bearer\s/i.test(t))
    ctx.addIssue({
      code: 'custom',
      message: `starts with "Bearer ": drop the Bearer prefix, it is added for you (store the bare token in ${TOKEN_SOURCE})`,
    })
  else if (/\s/.test(t) || /[^\x21-\x7e]/.test(t))
    ctx.addIssue({ code: 'custom', message: 'contains spaces or characters a token cannot have' })
  return t
})

/** `https://api.example.com/` -> `https://api.example.com/v2`; `.../v2/` -> `.../v2`. */
export function normaliseApiUrl(raw: string): string {
  let text = raw.trim()
  // `user:pass@host`, with a scheme or not: refused before anything reads it as a scheme or a host.
  if (/^([a-z][a-z0-9+.-]*:\/\/)?[^/?#]*@/i.test(text))
    throw new Error(`must not contain credentials (the token goes in ${TOKEN_SOURCE})`)
  // `localhost:8099` or `app.instawp.io/api`: no scheme. Loopback is understood as http, anything
  // else gets the https:// it needs suggested (a token is never sent to a guessed address).
  const bare = /^([a-z0-9.-]+|\[[0-9a-f:]+\])(:\d+)?(\/.*)?$/i.exec(text)
  if (bare && !/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    if (isLoopback(bare[1]!)) text = `http://${text}`
    else throw new Error(`"${echoed(text)}" has no scheme: did you mean https://${echoed(text)} ?`)
  }
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new Error(`is not a URL (expected the API root, e.g. ${SERVICE_API_URL})`)
  }
  if (!secureOrLoopback(url))
    throw new Error(
      `must use https (plain http is allowed only for loopback hosts), got ${url.protocol}//${url.host}`,
    )
  if (url.username || url.password)
    throw new Error(`must not contain credentials (the token goes in ${TOKEN_SOURCE})`)
  if (url.search || url.hash) throw new Error('must not have a query or a fragment')
  const path = url.pathname.replace(/\/+$/, '')
  return `${url.origin}${path.endsWith('/v2') ? path : `${path}/v2`}`
}

const apiUrl = z.string().transform((v, ctx) => {
  try {
    return normaliseApiUrl(v)
  } catch (e) {
    ctx.addIssue({ code: 'custom', message: (e as Error).message })
    return z.NEVER
  }
})

const UNITS: Record<string, number> = {
  ms: 1,
  s: 1000,
  sec: 1000,
  secs: 1000,
  second: 1000,
  seconds: 1000,
  m: 60_000,
  min: 60_000,
  mins: 60_000,
  minute: 60_000,
  minutes: 60_000,
  h: 3_600_000,
  hr: 3_600_000,
  hrs: 3_600_000,
  hour: 3_600_000,
  hours: 3_600_000,
}

/** `90s`, `20m`, `30min`, `30 min`, `2 hours`, `1h30m`, `1 h 30 min`, `1500ms` or plain seconds. */
export function parseDuration(text: string): number {
  const t = text.trim().toLowerCase()
  if (/^\d+(\.\d+)?$/.test(t)) return Math.round(parseFloat(t) * 1000)
  const parts = [...t.matchAll(/(\d+(?:\.\d+)?)\s*([a-z]+)\s*/g)]
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== t) throw new Error('bad duration')
  let ms = 0
  for (const [, value, unit] of parts) {
    const factor = UNITS[unit!]
    if (factor === undefined) throw new Error('bad duration')
    ms += parseFloat(value!) * factor
  }
  return Math.round(ms)
}

const duration = z.string().transform((v, ctx) => {
  let ms: number
  try {
    ms = parseDuration(v)
  } catch {
    ctx.addIssue({
      code: 'custom',
      message: `"${echoed(v, 40)}" is not a duration (e.g. 90s, 20m, 30 min, 1h30m, 2 hours, or seconds)`,
    })
    return z.NEVER
  }
  if (ms < 1000 || ms > MAX_TIMEOUT_MS) ctx.addIssue({ code: 'custom', message: 'must be from 1s to 6h' })
  return ms
})

/** `es`, `es-ES`, `ES_mx`, `en-US`... -> `es` or `en` (the header takes the language alone). */
const language = z.string().transform((v, ctx) => {
  const code = v.trim().toLowerCase().split(/[-_]/)[0]!
  if (code === 'en' || code === 'es') return code
  ctx.addIssue({
    code: 'custom',
    message: `must be one of en, es (a locale such as es-ES works too)${didYouMean(code, ['en', 'es'])}`,
  })
  return z.NEVER
})

/** A task id as the status endpoint takes it in its path (contract §2). */
const taskId = z.string().transform((v, ctx) => {
  const t = v.trim()
  if (t === '') return null
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(t)) {
    ctx.addIssue({
      code: 'custom',
      message: `is not a task id (letters, digits, - and _: ${perDoor('the task-id output of an earlier run', 'the task id an earlier run printed')})`,
    })
    return z.NEVER
  }
  return t
})

/** An http(s) URL a user gives (staging-url, production-url): no credentials in it; '' is none. */
const userUrl = z.string().transform((v, ctx) => {
  const t = v.trim()
  if (t === '') return null
  const url = httpUrl(t)
  if (!url) {
    ctx.addIssue({ code: 'custom', message: `"${echoed(t)}" is not an http(s) URL` })
    return z.NEVER
  }
  if (url.username || url.password) {
    ctx.addIssue({ code: 'custom', message: 'must not contain credentials (user:password@)' })
    return z.NEVER
  }
  const secret = [...url.searchParams.keys()].find(isCredentialQueryParam)
  if (secret !== undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `must not carry credentials in its query ("${echoed(secret, 40)}=…"): ${perDoor('it is shown in logs, outputs and summaries', 'it is shown on stderr, in --json and in the outputs files')}`,
    })
    return z.NEVER
  }
  return url.href
})

/** A site version's id (contract §13), as the restore path takes it; '' is none. */
const checkpointId = z.string().transform((v, ctx) => {
  const t = v.trim()
  if (t === '') return null
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(t)) {
    ctx.addIssue({
      code: 'custom',
      message: `is not a version id (letters, digits, - and _: ${perDoor('the checkpoint-id output of the push', 'the CHECKPOINT_ID the push printed')})`,
    })
    return z.NEVER
  }
  return t
})

const Schema = z.object({
  operation,
  'site-id': siteIds,
  'api-token': token,
  'api-url': apiUrl,
  wait: boolean,
  timeout: duration,
  language: language,
  'max-retries': integer(0, 20),
  'if-exists': choice(['fail', 'skip', 'recreate'] as const),
  'if-missing': choice(['fail', 'skip'] as const),
  'if-busy': choice(['wait', 'fail'] as const),
  'dry-run': boolean,
  concurrency: integer(1, MAX_SITES),
  'fail-fast': boolean,
  'task-id': taskId,
  'wait-for-url': boolean,
  'staging-url': userUrl,
  'production-url': userUrl,
  checkpoint: choice(['version', 'none'] as const),
  'checkpoint-id': checkpointId,
  'rollback-on-failure': boolean,
  'keep-checkpoints': integer(1, 100),
  maintenance: boolean,
  'protect-production': boolean,
})

/** The site-id input alone, checked as parseConfig checks it (the action's release reads only this). */
export function parseSiteIds(raw: string): string[] {
  const parsed = siteIds.safeParse(raw)
  if (!parsed.success) throw new InputError('site-id', parsed.error.issues[0]!.message)
  return parsed.data
}

/** Raw inputs -> Config, or InputError naming the first input that is wrong. */
export function parseConfig(raw: RawInputs): Config {
  const filled: Record<string, string> = { ...DEFAULTS }
  for (const [k, v] of Object.entries(raw)) if (v !== undefined && v.trim() !== '') filled[k] = v
  for (const required of ['operation', 'site-id', 'api-token']) filled[required] ??= ''
  const parsed = Schema.safeParse(filled)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    const input = String(issue.path[0] ?? 'input')
    const message =
      filled[input] === '' && input !== 'api-token' && issue.code !== 'custom' ? 'is required' : issue.message
    throw new InputError(input, message)
  }
  const c = parsed.data
  if (c['task-id'] && c.operation !== 'status')
    throw new InputError(
      'task-id',
      `is for ${perDoor('operation: status', 'the status operation')} (it follows an earlier job), not for ${c.operation}`,
    )
  if (c['production-url'] && c.operation !== 'push' && c.operation !== 'rollback')
    throw new InputError('production-url', `is checked after a push or a rollback, not after ${c.operation}`)
  if (c['checkpoint-id'] && c.operation !== 'rollback')
    throw new InputError('checkpoint-id', `names the version a rollback restores, not one for ${c.operation}`)
  // They act when the push's job has ended: a push not waited for has not.
  for (const name of ['maintenance', 'protect-production', 'rollback-on-failure'] as const)
    if (c[name] && c.operation === 'push' && !c.wait)
      throw new InputError(name, `acts when the push has ended: it needs ${setting('wait', 'true')}`)
  if (c['checkpoint-id'] && c['site-id'].length > 1)
    throw new InputError('checkpoint-id', `is one site's version: give one ${setting('site-id')} with it`)
  if (c['staging-url'] && c['site-id'].length > 1)
    throw new InputError('staging-url', 'names one staging site: give one site-id with it')
  if (c['task-id'] && c['site-id'].length > 1)
    throw new InputError('task-id', `follows one job: give one ${setting('site-id')} with it`)
  return {
    operation: c.operation,
    siteIds: c['site-id'],
    apiToken: c['api-token'],
    apiUrl: c['api-url'],
    wait: c.wait,
    timeoutMs: c.timeout,
    language: c.language,
    maxRetries: c['max-retries'],
    ifExists: c['if-exists'],
    ifMissing: c['if-missing'],
    ifBusy: c['if-busy'],
    dryRun: c['dry-run'],
    concurrency: c.concurrency,
    failFast: c['fail-fast'],
    taskId: c['task-id'],
    waitForUrl: c['wait-for-url'],
    stagingUrl: c['staging-url'],
    productionUrl: c['production-url'],
    checkpoint: c.checkpoint,
    checkpointId: c['checkpoint-id'],
    rollbackOnFailure: c['rollback-on-failure'],
    keepCheckpoints: c['keep-checkpoints'],
    maintenance: c.maintenance,
    protectProduction: c['protect-production'],
  }
}

// ---- The action's GitHub inputs and `operation: release` (issue 25 §1): the same schema, read
// ---- with the rest before any request; a wrong value fails the step, nothing sent anywhere.

/** The action's inputs for GitHub, with their action.yml defaults (action.yml lists them last). */
export const GITHUB_INPUT_DEFAULTS = {
  'github-token': '${{ github.token }}',
  'pr-comment': 'false',
  'comment-author': 'github-actions[bot]',
  'deployment-environment': '',
  'if-staging-taken': 'take',
} as const
export type GitHubInputName = keyof typeof GITHUB_INPUT_DEFAULTS
export const GITHUB_INPUT_NAMES = Object.keys(GITHUB_INPUT_DEFAULTS) as GitHubInputName[]
/** Who posts comments and deployments when the github-token is the workflow's GITHUB_TOKEN. */
export const DEFAULT_COMMENT_AUTHOR = GITHUB_INPUT_DEFAULTS['comment-author']
/** `if-staging-taken`: what a create or pull does when staging shows another open pull request. */
export const IF_TAKEN = ['take', 'wait', 'fail'] as const
export type IfTaken = (typeof IF_TAKEN)[number]

/** What the GitHub inputs ask: a comment, deployments, and who may take staging from whom. */
export interface GitHubSettings {
  token: string
  /** The comment author's login when pr-comment is true, else null. */
  commentAuthor: string | null
  /** comment-author, whether or not a comment is wanted: who writes our deployments too. */
  author: string
  environment: string | null
  ifTaken: IfTaken
}

/** A GitHub login, or an app's bot login (`name[bot]`). */
const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?$/

/** comment-author: a login; '' is the default. */
export function parseCommentAuthor(raw: string): string | null {
  const login = raw.trim() === '' ? DEFAULT_COMMENT_AUTHOR : raw.trim()
  return LOGIN.test(login) ? login : null
}

const GitHubSchema = z.object({
  'github-token': z.string().transform((v) => v.trim()),
  'pr-comment': boolean,
  'comment-author': z.string().transform((v, ctx) => {
    const login = parseCommentAuthor(v)
    if (login) return login
    ctx.addIssue({
      code: 'custom',
      message: "must be a GitHub login (letters, digits and -, or an app's name[bot])",
    })
    return z.NEVER
  }),
  'deployment-environment': z.string().transform((v, ctx) => {
    const name = v.trim()
    // eslint-disable-next-line no-control-regex -- refusing control characters is the point
    if (/[\u0000-\u001f\u007f-\u009f]/.test(name))
      ctx.addIssue({ code: 'custom', message: 'contains control characters or new lines' })
    else if (name.length > 255) ctx.addIssue({ code: 'custom', message: 'is longer than 255 characters' })
    return name === '' ? null : name
  }),
  'if-staging-taken': choice(IF_TAKEN),
})

/** The operations that take staging for their pull request (and so read `if-staging-taken`). */
export const CLAIMING_OPERATIONS: readonly string[] = ['create', 'pull']

/**
 * The GitHub inputs -> GitHubSettings, or InputError naming the input. `run`: what the step does
 * (`release` needs a token; `if-staging-taken` other than take needs to know who staging shows).
 */
export function parseGitHubInputs(
  raw: Partial<Record<GitHubInputName, string>>,
  run: { operation: string; siteIds: string[]; dryRun: boolean },
): GitHubSettings {
  const filled: Record<string, string> = { 'github-token': '' }
  for (const [k, v] of Object.entries(GITHUB_INPUT_DEFAULTS)) if (k !== 'github-token') filled[k] = v
  for (const [k, v] of Object.entries(raw)) if (v !== undefined && v.trim() !== '') filled[k] = v
  const parsed = GitHubSchema.safeParse(filled)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new InputError(String(issue.path[0] ?? 'input'), issue.message)
  }
  const g = parsed.data
  const settings: GitHubSettings = {
    token: g['github-token'],
    commentAuthor: g['pr-comment'] ? g['comment-author'] : null,
    author: g['comment-author'],
    environment: g['deployment-environment'],
    ifTaken: g['if-staging-taken'],
  }
  if (run.operation === 'release' && settings.token === '')
    throw new InputError('github-token', 'is empty: release needs a token that may write deployments')
  if ((settings.commentAuthor || settings.environment) && settings.token === '') {
    const why = [
      settings.commentAuthor && 'pr-comment is true',
      settings.environment && 'deployment-environment is set',
    ]
    throw new InputError(
      'github-token',
      `is empty, but ${why.filter(Boolean).join(' and ')}: give a token (the default is the workflow's own)`,
    )
  }
  const claims = CLAIMING_OPERATIONS.includes(run.operation) && !run.dryRun
  if (claims && settings.ifTaken !== 'take' && (!settings.environment || run.siteIds.length !== 1))
    throw new InputError(
      'if-staging-taken',
      `is ${settings.ifTaken}, which needs to know who staging shows: set deployment-environment (and a github-token that may write deployments) and give one site-id`,
    )
  return settings
}

/** Every input of the action, checked: a staging run, or `release` (which sends nothing to the service). */
export type ActionInputs =
  | { operation: 'release'; siteIds: string[]; github: GitHubSettings }
  | { operation: Config['operation']; config: Config; github: GitHubSettings }

const actionOperation = choice([...OPERATIONS, 'release'] as const, { reset: 'pull' })

/** The action's raw inputs: the staging run's and GitHub's, by their action.yml names. */
export type ActionRawInputs = RawInputs & Partial<Record<GitHubInputName, string>>

/** The action's `operation` input alone (an operation, or `release`), or InputError. */
export function parseActionOperation(raw: string | undefined): (typeof OPERATIONS)[number] | 'release' {
  const op = actionOperation.safeParse(raw ?? '')
  if (op.success) return op.data
  throw new InputError('operation', (raw ?? '').trim() === '' ? 'is required' : op.error.issues[0]!.message)
}

/** The action's raw inputs -> ActionInputs, or InputError naming the first input that is wrong. */
export function parseActionInputs(raw: ActionRawInputs): ActionInputs {
  if (parseActionOperation(raw.operation) === 'release') {
    const siteIds = parseSiteIds(raw['site-id'] ?? '')
    return {
      operation: 'release',
      siteIds,
      github: parseGitHubInputs(raw, { operation: 'release', siteIds, dryRun: false }),
    }
  }
  const config = parseConfig(raw)
  return { operation: config.operation, config, github: parseGitHubInputs(raw, config) }
}
