/**
 * Everything this project assumes where the v2 specification is silent, in one place: the contract
 * of ../shared/spec/where-the-spec-is-silent.md, **revision 5** (points marked r2 come from the
 * service's own public clients and its framework's defaults; r3 from a wrong API root and the
 * framework's rate limiter; r4 from the family's CLI beyond the staging endpoints: paged site lists,
 * site versions, site tools, a refused token; r5 from the way back: a version's site, busy is not quota,
 * protection after the push, many runners, production checked). Each export names its §; the same
 * points, with the readings this project chose, are listed in docs/assumptions.md. Code elsewhere
 * imports these; it never re-states them. Every function here takes parsed server data and trusts
 * none of it.
 */

// --- §1 Success codes --------------------------------------------------------------------------

/** §1: any 2xx from a staging endpoint means "accepted" (unless its JSON says `status: false`). */
export const isAccepted = (status: number): boolean => status >= 200 && status < 300

/** §1, §7: what kind of body an answer had. `envelope`: JSON with a boolean `status`; `framework`: JSON
 * with a `message` and no `status` (the framework's `{"message": ...}` shapes, r2); `json`: any other JSON
 * (r2: a 2xx JSON body without `status` is accepted); `empty`; `html` (a proxy's or the framework's page);
 * `text`: anything else; `truncated`: longer than the client reads. */
export type BodyKind = 'envelope' | 'framework' | 'json' | 'empty' | 'html' | 'text' | 'truncated'

/** §1: a 2xx body that leaves the outcome unknown (only one that is not JSON at all). */
export const UNKNOWN_WHEN_2XX: readonly BodyKind[] = ['html', 'text', 'truncated']

// --- §2 Background jobs: task ids --------------------------------------------------------------

/** §2: a task id goes into a URL path: only these characters, and never `.` or `..`. */
const TASK_ID = /^[A-Za-z0-9_-]{1,128}$/

/** §2: the task id of a response that started background work (`data.task_id`, a string or a number):
 * `{ id }` when usable in a path, `{ unusable }` when the server sent one that is not (then the job is
 * followed another way), null when there is none. */
export function taskIdOf(data: unknown): { id: string } | { unusable: string } | null {
  const value = field(data, 'task_id')
  let text: string | null = null
  if (typeof value === 'string' && value.trim() !== '') text = value.trim()
  else if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) text = String(value)
  else if (value !== undefined && value !== null && value !== '') return { unusable: String(value) }
  if (text === null) return null
  return TASK_ID.test(text) ? { id: text } : { unusable: text }
}

/** §2: what a task's `data.status` means. Unknown values keep waiting (and are logged). */
export type TaskState = 'running' | 'completed' | 'failed' | 'unknown'
const RUNNING = ['progress', 'in_progress', 'pending', 'queued', 'running']
const COMPLETED = ['completed', 'success', 'done']
/** §2: the contract's failure words and a few plain synonyms (docs/assumptions.md lists the additions): a
 * status that says failed is never waited on until the timeout. */
const FAILED = 'error failed failure cancelled canceled timeout errored timed_out aborted'.split(' ')
/** §2 (r2): the service family's numeric statuses. */
const NUMERIC: Record<number, TaskState> = { 0: 'completed', 1: 'running', 2: 'failed' }

export function taskState(status: unknown): TaskState {
  if (typeof status === 'number') return NUMERIC[status] ?? 'unknown'
  if (typeof status !== 'string') return 'unknown'
  const s = status
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_')
  if (/^\d+$/.test(s)) return NUMERIC[Number(s)] ?? 'unknown'
  if (RUNNING.includes(s)) return 'running'
  if (COMPLETED.includes(s)) return 'completed'
  if (FAILED.includes(s)) return 'failed'
  return 'unknown'
}

/** §2: a 404 on the task status this soon after the job started means "not visible yet". */
export const TASK_INVISIBLE_GRACE_MS = 30_000

/** §2: the failure reason of a task (`data.comment`), without the conventional "Error:" prefix. */
export function taskComment(comment: unknown): string | null {
  if (typeof comment !== 'string' || comment.trim() === '') return null
  return comment.trim().replace(/^error:\s*/i, '')
}

/** §2 (r2): `percentage_complete`, usually a string (`"45"`, `"45.50"`), sometimes a number; anything else
 * is "no progress information". */
export function percentageOf(value: unknown): number | undefined {
  let n: number
  if (typeof value === 'number') n = value
  else if (typeof value === 'string' && /^\s*\d{1,3}(\.\d+)?\s*%?\s*$/.test(value)) n = parseFloat(value)
  else return undefined
  return Number.isFinite(n) ? Math.min(100, Math.max(0, n)) : undefined
}

/** §2 (r2): the site a task works on, from its data: `resource_id` when `resource_type` names a site (or is
 * absent). Never the task's own `id`, which is its database row. */
export function taskSiteIdOf(data: unknown): string | null {
  const type = field(data, 'resource_type')
  if (type !== undefined && type !== null && !(typeof type === 'string' && /site/i.test(type))) return null
  return idText(field(data, 'resource_id'))
}

// --- §3 Background jobs without a task id: the probe -------------------------------------------

/** §3: `GET /v2/sites/{site}/staging` (REST convention; unverified). */
export const probePath = (siteId: string): string => `/sites/${encodeURIComponent(siteId)}/staging`

/** §3: what the staging probe says of the environment. */
export type ProbeState = 'busy' | 'ready' | 'unknown'
export function probeState(data: unknown): ProbeState {
  if (probeBusyWith(data) !== null) return 'busy'
  const status = field(data, 'status')
  if (status === 0 || status === '0') return 'ready' // site records of the family: 0 = active
  return typeof status === 'string' && READY.includes(status.trim().toLowerCase()) ? 'ready' : 'unknown'
}
const READY = ['ready', 'active', 'idle']
/** §3 (r2): the job the probe says staging is busy with (`any`: a sync it does not name), or null. */
export function probeBusyWith(data: unknown): 'create' | 'pull' | 'push' | 'delete' | 'any' | null {
  const status = field(data, 'status')
  const s = typeof status === 'string' ? status.trim().toLowerCase() : ''
  // The job the status names first; `is_syncing` (PHP's uncast boolean too) names none.
  if (!(s in JOB_WORDS) && [true, 1, '1'].includes(field(data, 'is_syncing') as never)) return 'any'
  return s === 'syncing' ? 'any' : (JOB_WORDS[s as keyof typeof JOB_WORDS] ?? null)
}
const JOB_WORDS = {
  creating: 'create',
  pushing: 'push',
  deleting: 'delete',
  pulling: 'pull',
  resetting: 'pull',
} as const
/**
 * §3: probe answers that mean completion cannot be tracked (the framework's "no such route"), and whether
 * an answer is one. They are the route's answer, the same for every site, so a run hears one once
 * (StagingReadRoute).
 */
export const PROBE_UNSUPPORTED = [405, 501]
export const probeUnsupported = (status: number | null): boolean =>
  status !== null && PROBE_UNSUPPORTED.includes(status)
/** §3 (r2) evidence, not hope: after a pull or push a "ready" probe counts only once this run saw the job
 * busy. A probe that keeps saying "ready" without that is given this long to show the job (started jobs can
 * take a moment to show); then the run ends `accepted`, never `succeeded`. */
export const PROBE_EVIDENCE_WINDOW_MS = 30_000

// --- §4 Refusals while something else runs ------------------------------------------------------

/** §4: statuses that mean "another job runs on this site: not processed, try later". */
export const BUSY_STATUSES = [409, 423]
/** §4 and the spec §7: create when a staging environment exists. */
export const EXISTS_STATUS = 422
/** §4: pull / push / delete on a site without staging (or an unknown site). */
export const MISSING_STATUS = 404
/** §4 (r3): a 404 is read as "no staging environment" only once the API root has answered a route the spec
 * documents, `GET /v2/sites`, in the same run (asked once, shared by every site of it). */
export const ROOT_EVIDENCE_PATH = '/sites'
/** §4 (r3): that answer is the API's own only when it is a 2xx with a JSON body. */
export function answersAsApi(status: number, kind: BodyKind): boolean {
  return isAccepted(status) && (kind === 'envelope' || kind === 'json' || kind === 'framework')
}
/** §4 (r2): a 422 whose message says a job is running is "busy" (English and Spanish). Any other 422 on
 * pull/push/delete is a validation error that fails at once: "running" with software ("currently running
 * PHP 7.2") says what a site runs, not that a job does. */
export function saysBusy(message: string): boolean {
  return /in progress|(already|currently|still) running(?!\s+(php|wordpress|mysql|mariadb|node|apache|nginx|version|v?\d))|please wait|wait until|wait for (it|the) .*(finish|complete)|en curso|en progreso|todav[ií]a|espere/i.test(
    message,
  )
}
/** §4 (r2): features missing from the site's plan come as 403 (spec) or 422. */
export function saysPlan(message: string): boolean {
  return /\bplan\b|upgrade|subscription|not (included|available) (in|on|with) your|su plan|suscripci[oó]n|mejore/i.test(
    message,
  )
}

// --- §5 Fields read from `data` -----------------------------------------------------------------

/** §5: the staging site's id from data that describes the staging site (the create answer, the probe):
 * `staging_site_id`, else `staging_id`, else `id`. (From a task's data: `taskSiteIdOf`.) */
export function stagingSiteIdOf(data: unknown): string | null {
  for (const name of ['staging_site_id', 'staging_id', 'id']) {
    const id = idText(field(data, name))
    if (id) return id
  }
  return null
}
/** §5 (r3): a staging id equal to the production site's id is never the staging site: the record that says
 * so is about the wrong site, so the id is reported as unknown (with a warning) and nothing else in that
 * record is used (no staging URL, no deployment from it). Digits compare as numbers (`01001` is `1001`). */
export function isProductionId(stagingId: string, productionId: string): boolean {
  const a = stagingId.trim()
  const b = productionId.trim()
  if (a === b) return true
  return /^\d+$/.test(a) && /^\d+$/.test(b) && BigInt(a) === BigInt(b)
}
/** §5: the staging URL: `staging_url`, else `wp_url`, else `url` (as text; checked where it is used). */
export function stagingUrlOf(data: unknown): string | null {
  for (const name of ['staging_url', 'wp_url', 'url']) {
    const v = field(data, name)
    if (typeof v === 'string' && v.trim() !== '') return v.trim()
  }
  return null
}

/** §5 (r2, widened): names of fields, at any depth and in error details too, whose values are credentials. */
export function isCredentialField(name: string): boolean {
  const n = name.toLowerCase()
  return n === 's_hash' || /pass|pwd|secret|token|key|hash|credential|auth|private|session/.test(n)
}
/** §5 (r2): query parameters removed from any URL before it is shown (`token`, `autologin`, `login`...). */
export function isCredentialQueryParam(name: string): boolean {
  return /token|auth|login|pass|pwd|^pw$|secret|key|hash|sig|session|code|otp|nonce|jwt|ticket|credential|private|magic|cookie/i.test(
    name,
  )
}

/** The credential parameters a URL's fragment carries (`#access_token=...`, OAuth's implicit flow); a page's
 * own route in it (`#/home?code=1`) is none. */
export function fragmentCredentials(url: URL): string[] {
  const names = url.hash.includes('=') ? [...new URLSearchParams(url.hash.slice(1)).keys()] : []
  return names.filter((name) => !/[/?]/.test(name) && isCredentialQueryParam(name))
}

// --- §6 Rate limiting ---------------------------------------------------------------------------

/** §6: rate-limit headers (none promised; every value is sanity-bounded where it is read). */
export const RATE_LIMIT_HEADERS = {
  limit: 'x-ratelimit-limit',
  remaining: 'x-ratelimit-remaining',
  reset: 'x-ratelimit-reset',
} as const

/**
 * §6 (r2): the rate window when no header says otherwise ("a minute"), and the longest wait any
 * `X-RateLimit-*` value may cause: a reset further ahead is waited for one window at most, then
 * the client looks again with a single request.
 * §6 (r3): the limiter may be a fixed window from a key's first request (the framework's) or a sliding one
 * (gateways), and may state no reset: either way a call the server counted stops counting by a window after
 * its answer, as the rate window (api/rate-window.ts) counts with no reset header; `Remaining` corrects it.
 * §6 (r5): the limit is the account's: a `Remaining` lower than the run's own calls explain counts other
 * runs' calls (RateWindow.sharers), which hold the window too; the run plans from its share of what is left.
 */
export const RATE_WINDOW_MS = 60_000

/**
 * §6 (r3): every call a run will make is counted in its plan (the poll scheduler's, staging/wait/batch.ts):
 * per site, its request and the final status call of its job (the staging read after it, when the answers
 * did not give the URL, is counted as it goes); once per run, the API root check (§4 r3). Not in the plan:
 * the site list (`GET /v2/sites`, staging/site-list.ts), read once per run only when no answer gave the
 * staging id or URL; reserving it always cost the 20-site rows of the benchmark 7 % for a call most runs
 * never make, and the rate window counts it when it goes. Once a site of a run alone on the account will
 * read it, the plan keeps 2 calls for it (SiteList.plan). While jobs still need calls, its pages after the
 * first go only with a call available now (r4 §12); once the run is idle, each waits its turn.
 */
export const CALLS_PER_RUN = 1

/**
 * §6 (r2): sane bounds of the rate-limit headers; a value outside them is ignored, as if absent.
 * - `X-RateLimit-Limit`: a whole number from 1 to RATE_LIMIT_MAX.
 * - `X-RateLimit-Remaining`: a whole number from 0 to the limit (a negative count means nothing).
 * - `X-RateLimit-Reset`: epoch seconds (1e9 to 1e11) or, as some servers send, seconds from now; either way
 *   not in the past and at most RATE_RESET_MAX_AHEAD_MS ahead. Epoch ms, years ahead, 1e300: ignored.
 */
export const RATE_LIMIT_MAX = 1_000_000
export const RATE_RESET_MAX_AHEAD_MS = 3_600_000

/**
 * §6 (r2, r3): a `Retry-After` (delta-seconds or an HTTP date) up to this is the server's word
 * (docs/assumptions.md): the client waits it when it ends before the run's `timeout`, else ends the run at
 * once, saying when the server accepts again. Anything longer (a date years ahead, 1e300), negative, or not
 * a number or an HTTP date is ignored: the client backs off on its own. 0 or a date already past (the
 * server's clock is slow) means "soon": a short pause, longer at each retry, never an immediate resend.
 */
export const RETRY_AFTER_MAX_MS = 7 * 86_400_000
/** §6: the longest the rate window pauses every request of a batch on one 429's `Retry-After` (longer values
 * are ignored there: the client that got the 429 ends its own run instead). */
export const RETRY_AFTER_BUDGET_MAX_MS = 3_600_000

// --- §7 Errors ----------------------------------------------------------------------------------

/** §7: extra error text the service may put beside `message` (a `trace`, `file`, `line` never shown). */
export const ERROR_DETAIL_FIELDS = ['errors', 'error', 'exception'] as const

// --- §8 Localization ----------------------------------------------------------------------------

/** §8: the localization header; `es` gives Spanish messages, anything else English. */
export const LOCALIZATION_HEADER = 'X-localization'

// --- §9 The API root ----------------------------------------------------------------------------

/** §9: what a user of the service the spec describes passes as `api-url` (`/v2` is appended). */
export const SERVICE_API_URL = 'https://app.instawp.io/api'

/** §9: a 404 that comes from the routing layer, not from the API: an HTML, empty or plain-text page, or the
 * framework's "The route ... could not be found." It means the API root is wrong (every route answers it),
 * never that the site is missing. */
export function isRouteMiss(kind: BodyKind, message: string): boolean {
  if (kind === 'html' || kind === 'empty' || kind === 'text' || kind === 'truncated') return true
  if (kind === 'envelope') return false
  return /\broute\b.*\bcould not be found\b/i.test(message) || /^\s*not found\.?\s*$/i.test(message)
}

/** A JSON object (not null, not an array): the only shape of a record in server data. */
export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

export function field(data: unknown, name: string): unknown {
  return isRecord(data) ? data[name] : undefined
}

/** An id from server data as text: a string of id characters or a non-negative integer; else null. */
export function idText(value: unknown): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value)
  if (typeof value === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(value.trim())) return value.trim()
  return null
}

// --- §15 A refused token is refused everywhere (r4) ----------------------------------------------

/** §15 (r4): 401 is the account's answer, not one site's. After it, no further site of a batch starts
 * (TokenVerdict in src/api/errors.ts; docs/assumptions.md 77). */
export const TOKEN_REFUSED_STATUS = 401

// --- §13 Checkpoints: site versions (r4) ----------------------------------------------------------

const enc = encodeURIComponent
/** §13: `POST` starts a version of `{"site_id"}`; `DELETE` with `{"ids": [...]}` removes versions. */
export const VERSIONS_PATH = '/site-versions'
/** §13: the create's body; the site id as the number it is (as the family's CLI sends it) when that is exact. */
export const versionBody = (site: string) => ({ site_id: /^\d{1,15}$/.test(site) ? Number(site) : site })
/** §13: `PUT` with `{"name"}` names a version. */
export const versionPath = (id: string): string => `/site-versions/${enc(id)}`
/** §13 r5: a page of a site's versions, newest first (paged like the site list: `meta.last_page`). */
export const versionListPath = (site: string, page: number, perPage: number): string =>
  `/site-versions?site_id=${enc(site)}&per_page=${perPage}&page=${page}`
/** §2, §13 r5: a version record's `created_at` (the spec's `yyyy-MM-dd HH:mm:ss.SSS`, or ISO 8601 with `Z`
 * or an offset; no zone is UTC), in ms; else NaN. */
export const versionTime = (text: string): number => {
  const m = /^(\d{4}-\d\d-\d\d)[ T]([\d:.]+)(Z|[+-]\d\d:?\d\d)?$/.exec(text)
  return m ? Date.parse(`${m[1]}T${m[2]}${m[3] ?? 'Z'}`) : NaN
}
/** §13 r5: the site a version record names (`site_id`, or a nested `site: {id}`), or null when it names none. */
export const versionSiteOf = (record: unknown): string | null =>
  idText(field(record, 'site_id') ?? field(field(record, 'site'), 'id'))
/** §13: `PUT` restores the site in place to the version, overwriting its files and database. */
export const restorePath = (site: string, id: string): string =>
  `/sites/${enc(site)}/restore-versions/${enc(id)}`
/** §13: names longer than this are refused with 422. */
export const VERSION_NAME_MAX = 25
/** §13 r5: the mark of this tool's checkpoints, so a rollback and the pruning after a push find its own and
 * never a version a person made: `ssa~cp~<run id>` (at most 25 characters). A name is the only mark a version
 * carries, and no person types "ssa~cp~" by accident (docs/assumptions.md); a version named otherwise
 * ("before push redesign") is a person's. */
export const CHECKPOINT_PREFIX = 'ssa~cp~'
/** §13 r5: a whole name this tool gave: the mark, then a run id of letters, digits, `-` and `_`. */
export const CHECKPOINT_NAME = /^ssa~cp~[A-Za-z0-9_-]{1,18}$/
/** §13 r5: a version create's 422 that speaks of a quota ("at most 3 versions per site, plus one in
 * progress") is the quota, even where its words also say "in progress"; only the rest is busy. */
export function saysQuota(message: string): boolean {
  return /at most|\bquota\b|\blimit\b|maximum|delete an old|only (?:have|keep|create) \d+|como m[aá]ximo|l[ií]mite|elimine/i.test(
    message,
  )
}
/** §13: the version route answering these means the service offers no versions. */
export const VERSIONS_NOT_OFFERED = [404, 405]
/** §13: a version's id, from the create answer or a list record (`id`). */
export const versionIdOf = (data: unknown): string | null => idText(field(data, 'id'))
/** §13: a version's state in the list: `completed`, `progress`; anything else is not usable. */
export const versionCompleted = (record: unknown): boolean =>
  taskState(field(record, 'status')) === 'completed'
/** §13: `DELETE /v2/site-versions` answers the ids it removed and those it could not. */
export function deletedIdsOf(data: unknown): { removed: string[]; failed: string[] } {
  const ids = (name: string) => {
    const list = field(data, name)
    return Array.isArray(list) ? list.map(idText).filter((x): x is string => x !== null) : []
  }
  return { removed: ids('success_ids'), failed: ids('failed_ids') }
}

// --- §14 Site tools (r4) ------------------------------------------------------------------------

export type SiteTool = 'maintenance_mode' | 'password_protection'
/** §14: `POST` switches a tool of the site; the body's field names are an assumption. */
export const toolsPath = (site: string): string => `/sites/${enc(site)}/tools`
export const toolBody = (tool: SiteTool, on: boolean) => ({ tool, value: on ? 'on' : 'off' })

// --- §16 Production is checked on the live site (r5) -------------------------------------------

/** §16: a healthy live page answers 2xx or 3xx (a redirect is not followed: it is the site's answer). */
export const healthyStatus = (status: number): boolean => status >= 200 && status < 400
/** §16: the verification window when verify-timeout is not set; always cut at the run's deadline. */
export const VERIFY_TIMEOUT_MS = 300_000
/** §16: the start of the live page read for production-expect; a text further in is not seen. */
export const PAGE_BYTES_MAX = 256 * 1024
