import { z } from 'zod'
import { SERVICE_API_URL, fragmentCredentials, isCredentialQueryParam } from '../contract.js'
import { parseDuration } from '../duration.js'
import { echoed, withoutCredentials } from '../secrets/urls.js'
import { hasControl, httpUrl, isLoopback, secureOrLoopback } from '../text.js'
import { OPERATIONS } from '../types.js'
import { didYouMean, type InputKind, type InputSpec } from './table.js'
import { TOKEN_SOURCE, inDoorWords, outputNamed, perDoor, type Door } from '../words.js'

// The refusal every input error is, and the zod fields the inputs are read with (src/inputs/index.ts
// puts them together into the one schema).

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

/**
 * Raw inputs over their `defaults` (an empty value is a value left out), read by `schema`; or an
 * InputError naming the first input that is wrong. A required input left out "is required".
 */
export function readInputs<T>(
  schema: z.ZodType<T>,
  defaults: Record<string, string>,
  raw: Partial<Record<string, string>>,
): T {
  const filled = { ...defaults }
  for (const [k, v] of Object.entries(raw)) if (v !== undefined && v.trim() !== '') filled[k] = v
  const parsed = schema.safeParse(filled)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]!
  const input = String(issue.path[0] ?? 'input')
  const message =
    filled[input] === '' && input !== 'api-token' && issue.code !== 'custom' ? 'is required' : issue.message
  throw new InputError(input, message)
}

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

/** What `read` makes of the text; its error's message (or `refusal`, when given) is the refusal (the first one: a reader refuses by throwing). */
export const readBy = <T>(read: (text: string) => T, refusal?: (text: string) => string) =>
  z.string().transform((v, ctx) => {
    try {
      return read(v)
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: refusal?.(v) ?? (e as Error).message })
      return z.NEVER
    }
  })

/** `" Skip "` -> `skip`; an unknown value is refused with the choices and the nearest one. */
export const choice = <T extends string>(values: readonly T[], aliases: Record<string, T> = {}) =>
  readBy((v) => {
    const text = v.trim().toLowerCase()
    const value = aliases[text] ?? text
    if ((values as readonly string[]).includes(value)) return value as T
    throw new Error(
      `"${echoed(text, 40)}" is not one of ${values.join(', ')}${didYouMean(text, [...values, ...Object.keys(aliases)])}`,
    )
  })

export const boolean = z
  .string()
  .transform((v) => v.trim().toLowerCase())
  .pipe(z.enum(['true', 'false'], { error: () => 'must be true or false' }))
  .transform((v) => v === 'true')

export const integer = (min: number, max: number) =>
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
export const operation = choice(OPERATIONS, { reset: 'pull' })

export const siteIds = readBy((v) => {
  const ids = v.split(/[\s,;]+/).filter(Boolean)
  if (ids.length === 0) throw new Error('is required (the PRODUCTION site id)')
  if (ids.length > MAX_SITES) throw new Error(`lists ${ids.length} sites; at most ${MAX_SITES}`)
  // A URL here is quoted by nothing: split on its spaces, its parts could carry a password.
  if (/:\/\/|@/.test(v))
    throw new Error(
      `looks like a URL or an address, not a site id: a site id is the production site's number (digits only, at most 20)`,
    )
  const bad = ids.find((id) => !SITE_ID.test(id))
  if (bad !== undefined)
    throw new Error(
      `"${echoed(bad)}" is not a site id: a site id is the production site's number (digits only, at most 20); several are separated by commas, semicolons, spaces or new lines`,
    )
  const seen = new Map<string, string>()
  for (const id of ids) {
    // How the server reads a site id: a numeric id with leading zeros is the same site (`01001` is `1001`).
    const key = id.replace(/^0+(?=\d)/, '')
    const first = seen.get(key)
    if (first !== undefined) {
      const same = first === id ? '' : ` (${first} and ${id} are the same site to the server)`
      throw new Error(`lists site ${id} more than once${same}`)
    }
    seen.set(key, id)
  }
  return ids
})

export const token = readBy((v) => {
  const t = v.trim()
  if (t === '') throw new Error('is required (store it as a secret)')
  if (/^bearer\s/i.test(t))
    throw new Error(
      `starts with "Bearer ": drop the Bearer prefix, it is added for you (store the bare token in ${TOKEN_SOURCE})`,
    )
  if (/\s/.test(t) || /[^\x21-\x7e]/.test(t))
    throw new Error('contains spaces or characters a token cannot have')
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

export const apiUrl = readBy(normaliseApiUrl)

export const duration = readBy(
  parseDuration,
  (v) => `"${echoed(v, 40)}" is not a duration (e.g. 90s, 20m, 30 min, 1h30m, 2 hours, or seconds)`,
).superRefine((ms, ctx) => {
  if (ms < 1000 || ms > MAX_TIMEOUT_MS) ctx.addIssue({ code: 'custom', message: 'must be from 1s to 6h' })
})

/** `es`, `es-ES`, `ES_mx`, `en-US`... -> `es` or `en` (the header takes the language alone). */
export const language = readBy((v) => {
  const code = v.trim().toLowerCase().split(/[-_]/)[0]!
  if (code === 'en' || code === 'es') return code
  throw new Error(`must be one of en, es (a locale such as es-ES works too)${didYouMean(code, ['en', 'es'])}`)
})

/** An id as the service's paths take it (a task: contract §2, a site version: §13); '' is none. */
const idOf = (max: number, what: string, where: string) =>
  readBy((v) => {
    const t = v.trim()
    if (t === '' || new RegExp(`^[A-Za-z0-9_-]{1,${max}}$`).test(t)) return t || null
    throw new Error(`is not a ${what} (letters, digits, - and _: ${where})`)
  })
export const taskId = idOf(128, 'task id', `${outputNamed('task-id')} of an earlier run`)

/** An http(s) URL a user gives (staging-url, production-url): no credentials in it; '' is none. */
export const userUrl = readBy((v) => {
  const t = v.trim()
  if (t === '') return null
  const url = httpUrl(t)
  if (!url) throw new Error(`"${echoed(t)}" is not an http(s) URL`)
  if (url.username || url.password) throw new Error('must not contain credentials (user:password@)')
  const inQuery = [...url.searchParams.keys()].find(isCredentialQueryParam)
  const secret = inQuery ?? fragmentCredentials(url)[0]
  if (secret !== undefined)
    throw new Error(
      `must not carry credentials in its ${inQuery ? 'query' : 'fragment'} ("${echoed(secret, 40)}=…"): ${perDoor({ action: 'it is shown in logs, outputs and summaries', gitlab: "it is shown in the job's log and its dotenv report", pipe: "it is shown in the log and the pipe's outputs file", cli: 'it is shown on stderr, in --json and in the outputs files' })}`,
    )
  return url.href
})

/** Text the healthy live page contains (production-expect): one line, at most 200 characters; '' is none. */
export const pageText = readBy((v) => {
  const t = v.trim()
  if (t === '') return null
  if (hasControl(t) || t.length > 200) throw new Error('must be one line of at most 200 characters')
  return t
})

export const checkpointId = idOf(64, 'version id', `${outputNamed('checkpoint-id')} of the push`)

/** One reader per kind of input (src/inputs/table.ts says each input's kind). */
export const READERS = {
  operation: () => operation,
  'site-ids': () => siteIds,
  token: () => token,
  'api-url': () => apiUrl,
  switch: () => boolean,
  duration: () => duration,
  language: () => language,
  count: (s: InputSpec) => integer(s.range![0], s.range![1]),
  choice: (s: InputSpec) => choice(s.values!),
  'task-id': () => taskId,
  url: () => userUrl,
  'checkpoint-id': () => checkpointId,
  text: () => pageText,
} satisfies Record<InputKind, (s: InputSpec) => z.ZodType>
