import { z } from 'zod'
import { OPERATIONS, type Config } from './types.js'

/**
 * All input reading and validation in one place: raw strings (from action inputs or CLI flags)
 * become a typed Config, or an InputError that names the input. Nothing here sends a request.
 */
export class InputError extends Error {
  constructor(
    readonly input: string,
    message: string,
  ) {
    super(`Input "${input}": ${message}`)
    this.name = 'InputError'
  }
}

/** Raw inputs by their action names (`site-id`, `api-url`...); absent means default. */
export type RawInputs = Partial<Record<InputName, string>>
/** Every input this project reads, by its action name (action.yml declares the same). */
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
] as const
export type InputName = (typeof INPUT_NAMES)[number]

/** Defaults, as in action.yml (a test checks they agree). */
export const DEFAULTS = {
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
} as const satisfies RawInputs

const SITE_ID = /^[A-Za-z0-9_-]{1,64}$/
const MAX_TIMEOUT_MS = 6 * 3600_000
/**
 * Site ids one step takes. Under a limit of R calls a minute, N sites need at least 2N/R minutes
 * (a create and a status call each): 1000 sites at 60 a minute take 33 minutes.
 */
export const MAX_SITES = 1000

const choice = <T extends string>(values: readonly T[]) =>
  z
    .string()
    .transform((v) => v.trim().toLowerCase())
    .pipe(z.enum(values as [T, ...T[]], { error: () => `must be one of ${values.join(', ')}` }))

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

const operation = z
  .string()
  .transform((v) => v.trim().toLowerCase())
  .transform((v) => (v === 'reset' ? 'pull' : v))
  .pipe(
    z.enum(OPERATIONS, {
      error: () => `must be one of ${OPERATIONS.join(', ')} (or reset, another name for pull)`,
    }),
  )

const siteIds = z.string().transform((v, ctx) => {
  const ids = v
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean)
  if (ids.length === 0) ctx.addIssue({ code: 'custom', message: 'is required (the PRODUCTION site id)' })
  if (ids.length > MAX_SITES)
    ctx.addIssue({ code: 'custom', message: `lists ${ids.length} sites; at most ${MAX_SITES}` })
  for (const id of ids) {
    if (!SITE_ID.test(id)) {
      ctx.addIssue({
        code: 'custom',
        message: `"${id.slice(0, 80)}" is not a site id (letters, digits, - and _, at most 64 characters; never a path or URL)`,
      })
    }
  }
  const twice = ids.find((id, i) => ids.indexOf(id) !== i)
  if (twice) ctx.addIssue({ code: 'custom', message: `lists site ${twice} more than once` })
  return ids
})

const token = z.string().transform((v, ctx) => {
  const t = v.trim()
  if (t === '') ctx.addIssue({ code: 'custom', message: 'is required (store it as a secret)' })
  else if (/\s/.test(t) || /[^\x21-\x7e]/.test(t))
    ctx.addIssue({ code: 'custom', message: 'contains spaces or characters a token cannot have' })
  return t
})

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i

/** `https://api.example.com/` -> `https://api.example.com/v2`; `.../v2/` -> `.../v2`. */
export function normaliseApiUrl(raw: string): string {
  const text = raw.trim()
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new Error('is not a URL (expected e.g. https://api.example.com)')
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.test(url.hostname)))
    throw new Error(
      `must use https (plain http is allowed only for loopback hosts), got ${url.protocol}//${url.host}`,
    )
  if (url.username || url.password)
    throw new Error('must not contain credentials (the token goes in api-token)')
  if (url.search || url.hash) throw new Error('must not have a query or a fragment')
  const path = url.pathname.replace(/\/+$/, '')
  return `${url.origin}${path.endsWith('/v2') ? path : `${path}/v2`}`
}

const apiUrl = z.string().transform((v, ctx) => {
  if (v.trim() === '') {
    ctx.addIssue({ code: 'custom', message: 'is required (the API root, e.g. https://api.example.com)' })
    return z.NEVER
  }
  try {
    return normaliseApiUrl(v)
  } catch (e) {
    ctx.addIssue({ code: 'custom', message: (e as Error).message })
    return z.NEVER
  }
})

/** `90s`, `20m`, `1h`, `1h30m`, `1500ms` or plain seconds. */
export function parseDuration(text: string): number {
  const t = text.trim().toLowerCase()
  if (/^\d+(\.\d+)?$/.test(t)) return Math.round(parseFloat(t) * 1000)
  const parts = [...t.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)]
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== t) throw new Error('bad duration')
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const
  return Math.round(parts.reduce((sum, p) => sum + parseFloat(p[1]!) * unit[p[2] as keyof typeof unit], 0))
}

const duration = z.string().transform((v, ctx) => {
  let ms: number
  try {
    ms = parseDuration(v)
  } catch {
    ctx.addIssue({
      code: 'custom',
      message: `"${v.slice(0, 40)}" is not a duration (e.g. 90s, 20m, 1h, or seconds)`,
    })
    return z.NEVER
  }
  if (ms < 1000 || ms > MAX_TIMEOUT_MS) ctx.addIssue({ code: 'custom', message: 'must be from 1s to 6h' })
  return ms
})

const Schema = z.object({
  operation,
  'site-id': siteIds,
  'api-token': token,
  'api-url': apiUrl,
  wait: boolean,
  timeout: duration,
  language: choice(['en', 'es'] as const),
  'max-retries': integer(0, 20),
  'if-exists': choice(['fail', 'skip', 'recreate'] as const),
  'if-missing': choice(['fail', 'skip'] as const),
  'if-busy': choice(['wait', 'fail'] as const),
  'dry-run': boolean,
  concurrency: integer(1, MAX_SITES),
  'fail-fast': boolean,
})

/** Raw inputs -> Config, or InputError naming the first input that is wrong. */
export function parseConfig(raw: RawInputs): Config {
  const filled: Record<string, string> = { ...DEFAULTS }
  for (const [k, v] of Object.entries(raw)) if (v !== undefined && v.trim() !== '') filled[k] = v
  for (const required of ['operation', 'site-id', 'api-token', 'api-url']) filled[required] ??= ''
  const parsed = Schema.safeParse(filled)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    const input = String(issue.path[0] ?? 'input')
    const message =
      filled[input] === '' && input !== 'api-token' && issue.code !== 'custom' ? 'is required' : issue.message
    throw new InputError(input, message)
  }
  const c = parsed.data
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
  }
}
