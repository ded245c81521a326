/** Types shared by the simulator's modules. Plain data only: no behaviour here. */

/** Jobs on a staging site. */
export type StagingJobKind = 'create' | 'pull' | 'push' | 'delete'
/** Jobs on a production site itself: making a site version, restoring one (contract §13). */
export type SiteJobKind = 'version' | 'restore'
export type JobKind = StagingJobKind | SiteJobKind
/**
 * How the site-versions routes behave (contract §13): `ok`; `absent-404` / `absent-405`, the service
 * offers no versions (every versions route answers 404, or 405); `plan-403`, a plan without versions;
 * `quota`, every create refused with the quota's 422; `task-fails`, version tasks end in error;
 * `slow`, version tasks take SLOW_VERSION_MS (longer than any client waits); `no-task-id`, a create
 * answers the version's id without its `task_id` (the version's status in the list still changes).
 */
export type VersionsMode =
  | 'ok'
  | 'absent-404'
  | 'absent-405'
  | 'plan-403'
  | 'quota'
  | 'task-fails'
  | 'slow'
  | 'no-task-id'
  | 'unfiltered'
  | 'paged'
  | 'oldest-first'
  | 'busy-once'
  | 'restore-half'
/** How POST /v2/sites/{site}/tools behaves (contract §14): `ok`, `plan-403`, or `absent-404` (no such route). */
export type ToolsMode = 'ok' | 'plan-403' | 'absent-404'
/** Shapes of `percentage_complete` over a job (simulator/progress.ts describes each). */
export type ProgressMode =
  'nonlinear' | 'linear' | 'backloaded' | 'frontloaded' | 'stuck-then-jump' | 'stalled-middle' | 'none'
export type RetryAfterMode = 'seconds' | 'http-date' | 'none'
export type BusyStatus = 409 | 423
/**
 * How the limiter counts (contract §6, r3): `fixed`, a window from a token's first request to the
 * millisecond (the simulator's own way); `framework`, the framework's limiter (its timer is in whole
 * seconds: the window runs from the second of the first request for the decay time); `sliding`, the
 * requests of the last window's length (what proxies and gateways count).
 */
export type RateLimitKind = 'fixed' | 'framework' | 'sliding'
/** When answers carry `X-RateLimit-Reset`: on every answer, or only on a 429 (the framework's way). */
export type ResetHeaderMode = 'always' | 'on-429'
/** Which answers the simulator gives: the literal spec's, or the service family's observed ones (contract §10). */
export type Profile = 'spec' | 'service'

export interface RateLimitOptions {
  /** Requests allowed per token within one window. */
  limit: number
  /** Window length (for `framework`, the decay time, rounded up to whole seconds). */
  windowMs: number
  /** How a 429 says when to retry. Default 'seconds'. */
  retryAfter?: RetryAfterMode
  /** How requests are counted. Default 'fixed'. */
  kind?: RateLimitKind
  /** When `X-RateLimit-Reset` is sent. Default: the profile's way (spec: always, service: on-429). */
  resetHeader?: ResetHeaderMode
}

export interface SimulatorOptions {
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number
  /**
   * Job durations; defaults: create 3000, pull 2000, push 2000, delete 1000, version 1500, restore
   * 2000 (or the realistic ones).
   */
  durationsMs?: Partial<Record<JobKind, number>>
  /** Realistic durations: create 150000, pull 60000, push 60000, delete 15000, version 90000, restore 90000. */
  realistic?: boolean
  /** Shape of `percentage_complete` over time; 'none' omits the field. Default 'nonlinear'. */
  progress?: ProgressMode
  /** false: staging POST/DELETE responses carry no task_id. Default true. */
  taskIds?: boolean
  /** false: GET /v2/sites/{site}/staging answers 405. Default true. */
  probe?: boolean
  /** Status of pull/push/delete refused because another job runs. Default 409. */
  busyStatus?: BusyStatus
  /** Rate limit per token. Default: none. */
  rateLimit?: RateLimitOptions
  /** Task status answers 404 for this long after the job starts. Default 0. */
  taskVisibilityDelayMs?: number
  /** Answer shapes: 'spec' (default) or 'service' (contract §10). */
  profile?: Profile
  /**
   * Job lengths spread by this fraction around their duration (0.3: from 70% to 130%), spread
   * evenly and deterministically over the jobs in the order they start. Default 0.
   */
  durationSpread?: number
  /**
   * With durationSpread: the job lengths in a random order drawn from this seed (each job's place in
   * the spread taken at random, as jobs of a real batch come), instead of the even golden-ratio order.
   * Default null (the even order).
   */
  durationSeed?: number | null
  /** false: a create's answer carries no staging URL (clients read it from the staging environment). Default true. */
  urlInAnswers?: boolean
  /** A new staging site's URL answers 404 until this long after its create job completed. Default 3000. */
  siteDelayMs?: number
  /**
   * GET /v2/sites: the most rows one page holds; a larger `per_page` is answered with this many
   * (meta.per_page says so), as the service family does. Default null: the profile's own (service
   * 20; spec none, a per_page over 100 is refused with 400).
   */
  listPageCap?: number | null
  /** GET /v2/sites: where the paginator goes: 'meta' (default, beside `data`) or 'data' (`data.data`, `data.last_page`). */
  listPaginator?: ListPaginator
  /** The site-versions routes (contract §13). Default 'ok'. */
  versions?: VersionsMode
  /** Completed versions a site may keep (one more may be in progress); more is refused with 422. Default 3. */
  versionQuota?: number
  /** The site tools route (contract §14). Default 'ok'. */
  tools?: ToolsMode
  /** What a completed push leaves on production's own page (contract §16). Default 'ok'. */
  livePage?: LivePageMode
  /** With livePage down or wrong-page: the page is healthy again this long after the push. Default null (never). */
  livePageRecoversMs?: number | null
}

/** Production's page after a push: healthy, 500 (`down`), or 200 without the site's own page (`wrong-page`). */
export type LivePageMode = 'ok' | 'down' | 'wrong-page'

export type ListPaginator = 'meta' | 'data'

/** The options as the running simulator uses them (every field resolved). */
export interface EffectiveOptions {
  durationsMs: Record<JobKind, number>
  progress: ProgressMode
  taskIds: boolean
  probe: boolean
  busyStatus: BusyStatus
  rateLimit: RateLimitOptions | null
  taskVisibilityDelayMs: number
  profile: Profile
  durationSpread: number
  durationSeed: number | null
  urlInAnswers: boolean
  siteDelayMs: number
  listPageCap: number | null
  listPaginator: ListPaginator
  versions: VersionsMode
  versionQuota: number
  tools: ToolsMode
  livePage: LivePageMode
  livePageRecoversMs: number | null
}

export interface FaultRule {
  method?: string
  /** string: substring of the request path (query included); RegExp: tested against it. */
  path?: string | RegExp
  /** Apply to the next N matching requests (default 1); Infinity for always. */
  times?: number
  /** 0..1: apply to this fraction of matching requests instead of counting `times`. */
  rate?: number
  status?: number
  body?: 'json' | 'html' | 'empty' | 'echo-token'
  retryAfter?: number | string
  latencyMs?: number
  hang?: boolean
  drop?: 'before' | 'after'
  process?: boolean
  redirect?: string
  taskError?: string
  /** Any JSON value, sent verbatim as the body (status 200 unless `status` says otherwise). */
  json?: unknown
  /** A raw body string (status 200 unless `status` says otherwise), with `contentType`. */
  text?: string
  /** Content-Type of a `text` body. Default text/plain; charset=utf-8. */
  contentType?: string
  /** Extra response headers on whatever answer goes out (real or injected). */
  headers?: Record<string, string>
  /** Deep-merged into the real answer's JSON body after the API processed the request (arrays replace). */
  patch?: unknown
  /** The framework's debug error body: { message, exception, file, line, trace } (status 500 by default). */
  debug?: boolean
}

export interface RequestRecord {
  method: string
  /** Path and query string as sent. */
  path: string
  status: number | 'dropped' | 'hung' | 'pending'
  /** ms epoch when the request arrived. */
  at: number
  faulted: boolean
  /** The API logic ran (a fault before it or the rate limit stops that). */
  processed: boolean
  /** Which seeded token the request carried: 'rw', 'ro', 'unknown' or 'none'. */
  token: 'rw' | 'ro' | 'unknown' | 'none'
  /** Content-Type and X-localization as sent, when present. */
  contentType?: string
  localization?: string
}

/** A request to a staging site's own URL (not the API), as the site saw it. */
export interface SiteRequestRecord {
  method: string
  /** Path and query string as sent. */
  path: string
  status: number
  /** ms epoch when the request arrived. */
  at: number
  /** Every request header name, lower case, in the order sent. */
  headerNames: string[]
  /** The Authorization header's value, when one was sent. */
  authorization?: string
}

/** TCP connections the server accepted and the API or site requests they carried (since the last reset). */
export interface ConnectionStats {
  /** Connections that carried at least one API or site request. */
  connections: number
  /** API and site requests (admin requests are not counted). */
  requests: number
  maxRequestsOnOneConnection: number
  /** Every connection accepted, including ones that carried only admin requests or none. */
  acceptedConnections: number
}

/** A versioned value per part of a site, e.g. { files: 'prod-v1', database: 'prod-v1' }. */
export interface Content {
  files: string
  database: string
}

export interface ProductionSite {
  id: number
  site_name: string
  url: string
  type: 'production'
  /** A reserved (permanent) site, as opposed to a temporary one. */
  reserved: boolean
  plan: { name: string; staging: boolean }
  waas: boolean
  client_portal: { id: number; name: string } | null
  domains: { name: string; primary: boolean }[]
  cdn_zone: { id: string; hostname: string } | null
  ssl: { enabled: boolean; issuer: string; expires_at: string }
  tags: string[]
  ssh_keys: { id: number; name: string; fingerprint: string }[]
  settings: Record<string, string | number | boolean>
  password_protected: boolean
  /** Maintenance mode (site tool `maintenance_mode`, contract §14). */
  maintenance: boolean
  /** A push broke its page (option livePage): how, and until when (null: until a restore or a healthy push). */
  broken_page: { mode: Exclude<LivePageMode, 'ok'>; until: number | null } | null
  ssh_username: string
  ssh_password: string
  content: Content
  created_at: number
  updated_at: number
}

/** `failed`: its task ended in error (listed so; never restorable). */
export type SiteVersionStatus = 'progress' | 'completed' | 'failed'

/** A site version (contract §13): a point-in-time copy of a production site's content. */
export interface SiteVersion {
  /** Numeric; the spec profile shows it as `v-<id>`. */
  id: number
  site_id: number
  name: string | null
  status: SiteVersionStatus
  /** The site's content when the version was asked for. */
  content: Content
  size_mb: number
  /** Its task (a `version` job). */
  task_id: string | null
  created_at: number
  updated_at: number
}

export type StagingStatus = 'creating' | 'syncing' | 'pushing' | 'deleting' | 'ready'

export interface StagingSite {
  id: string
  /** The numeric id the service profile shows (50000 + the production id). */
  numeric_id: number
  site_id: number
  site_name: string
  url: string
  ssh_username: string
  ssh_password: string
  wp_password: string
  content: Content
  status: StagingStatus
  /** The job running on it, if any. */
  task_id: string | null
  /** When its create job completed (its URL answers siteDelayMs later); null while being created. */
  ready_at: number | null
  /** Copied from production at creation: its URL answers 401 (HTTP basic auth). */
  password_protected: boolean
  created_at: number
  updated_at: number
}

export type TaskStatusValue = 'progress' | 'completed' | 'error'

export interface Task {
  id: string
  /** The task's database row id, as the service profile shows it (never a site id). */
  row_id: number
  kind: JobKind
  site_id: number
  /** The staging site a staging job works on ('' for a site job). */
  staging_site_id: string
  /** The version a site job makes or restores. */
  version_id?: number
  status: TaskStatusValue
  started_at: number
  duration_ms: number
  ends_at: number
  /** The status endpoint answers 404 before this time. */
  visible_at: number
  timeout_at: number
  updated_at: number
  /** Planned failure text (fault `taskError`); the task ends in 'error' with comment 'Error: <text>'. */
  fail_with: string | null
  comment: string | null
  /** Percentage reached when the task ended in error. */
  failed_at_percentage: number | null
}

export interface Email {
  to: string
  subject: string
  site_id: number
  staging_site_id: string
  at: number
}

/** A site tool switched: by the API (POST .../tools), by a push (password protection off), by /__sim. */
export interface ToolChange {
  site_id: number
  tool: 'maintenance_mode' | 'password_protection'
  value: 'on' | 'off'
  source: 'api' | 'push' | 'admin'
  at: number
}

export interface Purge {
  site_id: number
  at: number
}

export interface SimState {
  /** Production sites by id (as a string). */
  sites: Map<string, ProductionSite>
  /** Staging sites by their production site's id (as a string). */
  staging: Map<string, StagingSite>
  tasks: Map<string, Task>
  outbox: Email[]
  purges: Purge[]
  /** Every change of a site tool, in order (tests read when maintenance was on). */
  toolChanges: ToolChange[]
  /** Content version counters per site and target, for /__sim content bumps. */
  versions: Map<string, number>
  /** Site versions (contract §13) by id. */
  siteVersions: Map<number, SiteVersion>
  nextSiteId: number
  nextTaskRowId: number
  nextVersionId: number
  /** `versions: 'busy-once'`: the busy refusal was answered (the next create goes through). */
  versionBusySaid?: boolean
}
