import {
  BUSY_STATUSES,
  EXISTS_STATUS,
  MISSING_STATUS,
  SERVICE_API_URL,
  isRouteMiss,
  saysBusy,
  saysPlan,
  type BodyKind,
} from '../contract.js'
import { RUNNER, SETTINGS, TOKEN_SOURCE, type Door } from '../words.js'
import { inDoorWords, perDoor, setting, statusCommand } from '../words.js'
import type { SendPhase } from './transport.js'

/**
 * What to do, per kind, for every front door: settings, the token and the status command are written through
 * src/words.ts (`if-missing: skip` for the action, `--if-missing skip` for the CLI). `{site}`, `{api}` and
 * `{hosted}` are filled where the Result is written (`filledHint`).
 */
const HINTS = {
  auth: `The API token was refused: check that ${TOKEN_SOURCE} is current and belongs to the account that owns the site.`,
  forbidden:
    "Refused: the site's plan may not include staging, the site may not be eligible (a WaaS site or a site in a client portal), or the token may be read-only.",
  'not-found': `No such site or staging environment: check that ${setting('site-id')} is the PRODUCTION site's id; for pull, push or delete, create staging first, or run with ${setting('if-missing', 'skip')}.`,
  busy: `Another job (a creation, pull or push) is running on this site: run with ${setting('if-busy', 'wait')} to wait for it, or run again when it has finished.`,
  exists: `The site already has a staging environment (one per site): run with ${setting('if-exists', 'skip')} to keep it, or ${setting('if-exists', 'recreate')} to replace it.`,
  validation: `The service refused the request as malformed: check ${SETTINGS}; if they are right, report it with the message above.`,
  // GitLab's components take no max-retries.
  'rate-limited': `The account is rate limited: raise ${perDoor({ action: 'max-retries or timeout', gitlab: 'timeout', pipe: 'MAX_RETRIES or TIMEOUT', cli: '--max-retries or --timeout' })}, or run fewer jobs at once (${perDoor({ action: 'max-parallel in a matrix', gitlab: 'fewer jobs at the same time', pipe: 'fewer steps at the same time', cli: 'fewer CI jobs at the same time' })}, ${setting('concurrency')} for several sites).`,
  server: 'The service failed on its side: try again later, and check the service status if it persists.',
  network: `The API could not be reached: check ${setting('api-url')}, DNS, and the proxy settings (https_proxy, no_proxy) of ${RUNNER}.`,
  timeout: `The API did not answer in time: try again later, or raise ${setting('timeout')}.`,
  redirect: `The API answered with a redirect. The token is never sent on to another address: set ${setting('api-url')} to the final address instead.`,
  'api-url': `The API root {api} did not answer as the staging API: a web server in front of it answered instead (an HTML page, or "route could not be found"), so the request did not reach the API. Set ${setting('api-url')} to the API root (/v2 is appended){hosted}.`,
  'bad-response': `The API answered with something other than its JSON (often a proxy or maintenance page): check ${setting('api-url')}, and try again later.`,
  'unknown-outcome': `The request may or may not have been carried out, and it is not sent again automatically. Before running it again, check: ${statusCommand('{site}', null)}, or look at the staging page in the dashboard.`,
  'task-failed': 'The background job failed on the server, for the reason it gave: fix that and run again.',
}

export type ErrorKind = keyof typeof HINTS

/**
 * A refused token is refused everywhere (contract §15 r4): a 401 is the account's answer, not one site's.
 * After the run's first 401, a client that has sent nothing sends nothing, and the batch starts no site.
 */
export class TokenVerdict {
  /** The request that was answered 401 first (`POST /v2/sites/1001/staging`), or null. */
  refusedAt: string | null = null
}

/** The error of a site that sends nothing because the run's token was refused at `refusedAt`. */
export function notStartedAfter401(refusedAt: string): ApiError {
  return new ApiError({
    kind: 'auth',
    processing: 'not-processed',
    message: `Not started: the token was refused (${refusedAt} was answered HTTP 401 earlier in this run), so no request was sent for this site.`,
  })
}

/** Whether the server can have acted on the request (see retry.ts for what may be sent again). */
export type Processing = 'not-processed' | 'unknown' | 'processed'

export interface ApiErrorInit {
  kind: ErrorKind
  /** Ours: what happened, for the log and the summary (may quote the server). */
  message: string
  /** The server's own words (inert and bounded), when it said something. */
  serverMessage?: string
  httpStatus?: number | null
  processing: Processing
  retryAfterMs?: number | null
  /** ISO time the server said it accepts requests again, when that is after the run's timeout. */
  acceptsAgainAt?: string | null
  hint?: string
}

/** Everything that can go wrong talking to the API: a `kind` per meaning, a hint for what to do next, and a
 * message scrubbed by the client before it is built (safe to print). */
export class ApiError extends Error {
  readonly kind: ErrorKind
  readonly serverMessage: string
  readonly httpStatus: number | null
  readonly processing: Processing
  readonly retryAfterMs: number | null
  readonly acceptsAgainAt: string | null
  readonly hint: string
  /** Set by the client when this came to a request sent again after an attempt of unknown outcome. */
  afterUnknown = false
  constructor(init: ApiErrorInit) {
    super(init.message)
    this.name = 'ApiError'
    this.kind = init.kind
    this.serverMessage = init.serverMessage ?? ''
    this.httpStatus = init.httpStatus ?? null
    this.processing = init.processing
    this.retryAfterMs = init.retryAfterMs ?? null
    this.acceptsAgainAt = init.acceptsAgainAt ?? null
    this.hint = init.hint ?? HINTS[init.kind]
  }

  /** This error said again in other words: its kind, status, processing and server words unless `init` sets them. */
  retold(init: Partial<ApiErrorInit> & Pick<ApiErrorInit, 'message'>): ApiError {
    const { kind, httpStatus, processing, serverMessage } = this
    return new ApiError({ kind, httpStatus, processing, serverMessage, ...init })
  }
}

/** Every kind of error, for the README's troubleshooting table (a test keeps the two in step). */
export const ERROR_KINDS = Object.keys(HINTS) as ErrorKind[]

/** The hint of `kind` in `door`'s words (its placeholders are filled by `filledHint`). */
export function hintFor(kind: ErrorKind, door: Door = 'action'): string {
  return inDoorWords(HINTS[kind], door)
}

/** A hint's placeholders filled for the run. The hosted service's root is suggested only when the run's API is
 * on its host: a user of another deployment is never sent to the hosted service. */
export function filledHint(text: string, siteId: string, apiUrl: string): string {
  // apiUrl is the run's api-url as parseConfig made it (a parsed URL's origin): it always parses.
  const hosted = new URL(apiUrl).host === new URL(SERVICE_API_URL).host
  return text
    .replaceAll('{site}', siteId)
    .replaceAll('{api}', apiUrl)
    .replaceAll(
      '{hosted}',
      hosted
        ? `; for the hosted service it is ${SERVICE_API_URL}`
        : ', the address your deployment of the API answers on',
    )
}

/**
 * What a request does, for deciding whether sending it again can do harm. Contract §13: a `version` (a
 * second one only costs quota, but is never made on a guess); a `restore` overwrites production, as a push
 * does. Contract §13-14: a `setting` (a version's name, a tool's on/off) sent twice does the same thing.
 */
export type RequestKind = 'read' | 'create' | 'pull' | 'push' | 'delete' | 'version' | 'restore' | 'setting'

/** What `kindOf` reads of an answer (reply.ts's Reply). */
type ReplyWords = { kind: BodyKind; message: string; details: string[] }

/** The kind of error an answer means: from its status, else from what it said (contract §4 and §9). */
export function kindOf(status: number, reply: ReplyWords, request: RequestKind): ErrorKind {
  const said = [reply.message, ...reply.details].join(' ')
  if (status >= 300 && status < 400) return 'redirect'
  if (BUSY_STATUSES.includes(status)) return 'busy'
  switch (status) {
    case 401:
      return 'auth'
    case 403:
      return 'forbidden'
    case MISSING_STATUS:
    case 410:
      return isRouteMiss(reply.kind, reply.message) ? 'api-url' : 'not-found'
    case 405:
      return 'api-url'
    case EXISTS_STATUS:
      // Also the status of a busy refusal (§4 r2), a missing plan feature, or a validation error.
      if (saysBusy(said)) return 'busy'
      if (request === 'create') return saysPlan(said) ? 'forbidden' : 'exists'
      return 'validation'
    case 429:
      return 'rate-limited'
  }
  if (status >= 500) return 'server'
  return 'validation'
}

/**
 * The one place that says what the server can have done with a request (issue 4's table): not processed
 * (429, 503, busy, no connection: nothing was sent), unknown (no answer on a connection that stood, a 5xx),
 * processed (every other answer).
 */
export function processingOf(failure: {
  httpStatus?: number | null
  phase?: SendPhase | null
  kind?: ErrorKind
}): Processing {
  // A busy refusal (409, 423, or a 422 that says a job runs) did not start anything (contract §4).
  if (failure.kind === 'busy') return 'not-processed'
  const status = failure.httpStatus ?? null
  if (status !== null) {
    if (status === 429 || status === 503 || BUSY_STATUSES.includes(status)) return 'not-processed'
    if (status >= 500) return 'unknown'
    return 'processed'
  }
  return failure.phase === 'connecting' ? 'not-processed' : 'unknown'
}
