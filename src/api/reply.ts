import {
  ERROR_DETAIL_FIELDS,
  TOKEN_REFUSED_STATUS,
  UNKNOWN_WHEN_2XX,
  field,
  isAccepted,
  type BodyKind,
} from '../contract.js'
import type { Redactor } from '../secrets/redactor.js'
import type { Clock } from '../types.js'
import { ApiError, kindOf, processingOf, type TokenVerdict } from './errors.js'
import { parseRetryAfter, type RequestKind } from './retry.js'
import type { TransportResponse } from './transport.js'

/**
 * What a server's answer said, made safe before anything reads it: credentials removed (contract §5), every
 * text inert and bounded (contract §7). Every body shape of §1 and §7 is read.
 */
export interface Reply {
  kind: BodyKind
  /** The envelope's boolean `status` (or `"false"`, `success: false`); null for any other shape. */
  envelopeStatus: boolean | null
  /** `status` or `success` a word of failure ("error", "failed"): a refusal of a change, a state in a read. */
  failedInWords?: boolean
  /** The server's own message, inert and bounded; '' when it gave none. */
  message: string
  /** Extra error text (`errors`, `error`, `exception`), inert and bounded; never a trace or a file. */
  details: string[]
  /** `data` (or, when a JSON object has none, the object itself), credentials removed. */
  data: unknown
  /** The body's `meta` (a list's paginator, contract r4 §12), credentials removed; undefined when absent. */
  meta?: unknown
}

const MAX_DETAILS = 5
const MAX_DETAIL_CHARS = 300

function readReply(raw: TransportResponse, redactor: Redactor): Reply {
  const empty = { envelopeStatus: null, message: '', details: [], data: null }
  if (raw.truncated) return { kind: 'truncated', ...empty }
  const text = raw.body.trim()
  if (text === '') return { kind: 'empty', ...empty }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return { kind: /^</.test(text) ? 'html' : 'text', ...empty }
  }
  // Credentials go first: what they held is then known to every scrub of the texts below.
  const clean = redactor.stripCredentials(json)
  if (clean === null || typeof clean !== 'object' || Array.isArray(clean))
    return { kind: 'json', ...empty, data: Array.isArray(clean) ? clean : null }
  const body = clean as Record<string, unknown>
  // The envelope's flag, or written as text ("false"); `success` false says the same. Not 0: a record's status.
  const envelopeStatus =
    typeof body.status === 'boolean'
      ? body.status
      : body.status === 'false' || body.success === false || body.success === 'false'
        ? false
        : null
  const failedInWords = saysFailed(body.status) || saysFailed(body.success)
  const message = typeof body.message === 'string' ? redactor.server(body.message) : ''
  const kind: BodyKind =
    envelopeStatus !== null ? 'envelope' : typeof body.message === 'string' ? 'framework' : 'json'
  let data: unknown = null
  if ('data' in body) data = body.data
  else if (kind !== 'envelope') {
    // A word beside a record's other fields is its state (a task "failed"); alone beside a message, a refusal.
    const { message: _m, status, ...rest } = body
    if (typeof status === 'string' && Object.keys(rest).length > 0) rest.status = status
    if (Object.keys(rest).length > 0) data = rest
  }
  const details = detailsOf(body, message, redactor)
  return { kind, envelopeStatus, failedInWords, message, details, data, meta: body.meta }
}

/** `errors: {field: [msg]}`, `error: "..."` or `{message}`, `exception: "..."`, as short lines. */
function detailsOf(body: Record<string, unknown>, message: string, redactor: Redactor): string[] {
  const out: string[] = []
  const add = (text: unknown) => {
    const line = redactor.server(text, MAX_DETAIL_CHARS)
    if (line && line !== message && !out.includes(line)) out.push(line)
  }
  for (const name of ERROR_DETAIL_FIELDS) {
    const value = body[name]
    if (typeof value === 'string') add(value)
    else if (Array.isArray(value))
      value.slice(0, MAX_DETAILS).forEach((v) => add(typeof v === 'string' ? v : ''))
    else if (value && typeof value === 'object') {
      const inner = value as Record<string, unknown>
      if (typeof inner.message === 'string') add(inner.message)
      else
        for (const [key, v] of Object.entries(inner).slice(0, MAX_DETAILS)) {
          const first = Array.isArray(v) ? v.find((x) => typeof x === 'string') : v
          if (typeof first === 'string') add(`${key}: ${first}`)
        }
    }
  }
  return out.slice(0, MAX_DETAILS)
}

const BODY_WORDS: Partial<Record<BodyKind, string>> = {
  empty: 'an empty body',
  html: 'an HTML page',
  text: 'a body that is not JSON',
  truncated: 'a body too long to read',
}
/** How a body is described when it carried no message (a JSON body is never called "not JSON"). */
export const describeBody = (kind: BodyKind): string => BODY_WORDS[kind] ?? 'a JSON body without a message'

export interface ApiResponse {
  status: number
  /** What the body said, credentials removed and texts made inert. */
  reply: Reply
}

/** What an answer means: a 2xx whose body confirms it, or its ApiError. A redirect is never followed (the token
 * must not leave the API's origin); a 401 records the run's token verdict. */
export function answerOf(
  request: { method: string; shown: string; url: string; kind: RequestKind },
  raw: TransportResponse,
  deps: { redactor: Redactor; clock: Clock; token?: TokenVerdict },
): ApiResponse {
  const { redactor, clock } = deps
  const { method, shown, url, kind } = request
  const { status, headers } = raw
  if (status >= 300 && status < 400) {
    const target = redactor.server(locationOf(headers.location, url), 300)
    throw new ApiError({
      kind: 'redirect',
      httpStatus: status,
      processing: 'processed',
      message: `The API answered ${status} with a redirect to ${target}; it was not followed, so the token did not leave ${new URL(url).origin}.`,
    })
  }
  const reply = readReply(raw, redactor)
  const said = reply.message ? `: "${reply.message}"` : ''
  const details = reply.details.length > 0 ? ` (${reply.details.join('; ')})` : ''
  if (isAccepted(status)) {
    // A change refused in words; in a read the word may be the state read (a task "failed"), left to its reader.
    const readFailed =
      method === 'GET' && saysFailed(field(reply.data, 'status')) && Object.keys(reply.data!).length > 1
    if ((reply.envelopeStatus === false && !readFailed) || (reply.failedInWords && method !== 'GET'))
      throw new ApiError({
        kind: 'server',
        httpStatus: status,
        processing: 'processed',
        serverMessage: reply.message,
        message: `${method} ${shown} answered ${status}, but its body says it failed ("status": false)${said}${details}`,
        hint: 'The service reported a failure: read its message above.',
      })
    if (UNKNOWN_WHEN_2XX.includes(reply.kind))
      throw new ApiError({
        kind: 'bad-response',
        httpStatus: status,
        processing: 'unknown',
        message: `${method} ${shown} answered ${status} with ${describeBody(reply.kind)} instead of the API's JSON, so whether it was carried out is unknown.`,
      })
    return { status, reply }
  }
  const errorKind = kindOf(status, reply, kind)
  if (status === TOKEN_REFUSED_STATUS && deps.token) deps.token.refusedAt ??= `${method} ${shown}`
  throw new ApiError({
    kind: errorKind,
    httpStatus: status,
    processing: processingOf({ httpStatus: status, kind: errorKind }),
    retryAfterMs:
      status === 429 || status === 503
        ? parseRetryAfter(headers['retry-after'], clock.wallNow(), headers.date)
        : null,
    serverMessage: reply.message,
    message: reply.message
      ? `${method} ${shown} was answered HTTP ${status}${said}${details}`
      : `${method} ${shown} was answered HTTP ${status} with ${describeBody(reply.kind)}${details}.`,
  })
}

function locationOf(location: string | undefined, base: string): string {
  if (!location) return '(no Location header)'
  try {
    const u = new URL(location, base)
    return `${u.origin}${u.pathname}`
  } catch {
    return '(an unreadable Location header)'
  }
}

/** A body's `status` or `success` in words that say the request failed. */
const FAILED_WORDS = ['false', 'error', 'failed', 'failure', 'fail']
const saysFailed = (v: unknown) => typeof v === 'string' && FAILED_WORDS.includes(v.trim().toLowerCase())
