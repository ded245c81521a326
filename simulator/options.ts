/** Defaults, resolution and run-time changes of the simulator's options. */
import { PROGRESS_MODES, isProgressMode } from './progress.js'
import type {
  BusyStatus,
  EffectiveOptions,
  JobKind,
  Profile,
  RateLimitKind,
  RateLimitOptions,
  ResetHeaderMode,
  SimulatorOptions,
  LivePageMode,
  ToolsMode,
  VersionsMode,
} from './types.js'

export const RATE_LIMIT_KINDS: readonly RateLimitKind[] = ['fixed', 'framework', 'sliding']

export const DEFAULT_DURATIONS_MS: Readonly<Record<JobKind, number>> = {
  create: 3000,
  pull: 2000,
  push: 2000,
  delete: 1000,
  version: 1500,
  restore: 2000,
}

/** The spec's "2 to 3 minutes" for create, and comparable times for the rest. */
export const REALISTIC_DURATIONS_MS: Readonly<Record<JobKind, number>> = {
  create: 150_000,
  pull: 60_000,
  push: 60_000,
  delete: 15_000,
  version: 90_000,
  restore: 90_000,
}

export const JOB_KINDS: readonly JobKind[] = ['create', 'pull', 'push', 'delete', 'version', 'restore']

export const VERSIONS_MODES: readonly VersionsMode[] = [
  'ok',
  'absent-404',
  'absent-405',
  'plan-403',
  'quota',
  'task-fails',
  'slow',
  'no-task-id',
  'unfiltered',
  'paged',
  'oldest-first',
  'busy-once',
  'restore-half',
]

/** Rows a page of the version list holds at most with `versions: 'paged'` or `'oldest-first'` (fewer than a client asks). */
export const PAGED_VERSION_ROWS = 2

/** The error text of a restore task with `versions: 'restore-half'` (its files put back, not its database). */
export const RESTORE_HALF_ERROR = 'Database import failed after the files were restored (simulated)'

export const TOOLS_MODES: readonly ToolsMode[] = ['ok', 'plan-403', 'absent-404']

export const LIVE_PAGE_MODES: readonly LivePageMode[] = ['ok', 'down', 'wrong-page']

/** Completed versions a site may keep by default (the family's backups: 3 manual plus 1 in progress). */
export const DEFAULT_VERSION_QUOTA = 3

/** How long a version task takes with `versions: 'slow'`: longer than the family's CLI waits (10 min). */
export const SLOW_VERSION_MS = 15 * 60 * 1000

/** The error text of a version task with `versions: 'task-fails'`. */
export const VERSION_TASK_ERROR = 'Snapshot of the site database failed (simulated)'

export const PROFILES: readonly Profile[] = ['spec', 'service']

/** How long after its create job a staging site's URL starts answering (DNS and TLS lag). */
export const DEFAULT_SITE_DELAY_MS = 3000

export function resolveOptions(options: SimulatorOptions = {}): EffectiveOptions {
  const base = options.realistic ? REALISTIC_DURATIONS_MS : DEFAULT_DURATIONS_MS
  const effective: EffectiveOptions = {
    durationsMs: { ...base },
    progress: 'nonlinear',
    taskIds: true,
    probe: true,
    busyStatus: 409,
    rateLimit: null,
    taskVisibilityDelayMs: 0,
    profile: 'spec',
    durationSpread: 0,
    durationSeed: null,
    urlInAnswers: true,
    siteDelayMs: DEFAULT_SITE_DELAY_MS,
    listPageCap: null,
    listPaginator: 'meta',
    versions: 'ok',
    versionQuota: DEFAULT_VERSION_QUOTA,
    tools: 'ok',
    livePage: 'ok',
    livePageRecoversMs: null,
  }
  const { port: _port, realistic: _realistic, ...rest } = options
  applyOptions(effective, rest)
  return effective
}

/** A change of options at run time, as POST /__sim/options accepts it. `rateLimit: null` removes the limit. */
export interface OptionsPatch extends Omit<SimulatorOptions, 'port' | 'rateLimit'> {
  rateLimit?: RateLimitOptions | null
}

/** Validates and applies `patch` to `target` in place. Throws an Error naming the bad field. */
export function applyOptions(target: EffectiveOptions, patch: OptionsPatch): void {
  if (patch.realistic !== undefined) {
    if (typeof patch.realistic !== 'boolean') throw new Error('realistic must be a boolean')
    target.durationsMs = { ...(patch.realistic ? REALISTIC_DURATIONS_MS : DEFAULT_DURATIONS_MS) }
  }
  if (patch.durationsMs !== undefined) {
    if (!isObject(patch.durationsMs)) throw new Error('durationsMs must be an object')
    for (const [kind, value] of Object.entries(patch.durationsMs)) {
      if (!(JOB_KINDS as string[]).includes(kind)) throw new Error(`durationsMs.${kind}: unknown job kind`)
      if (!isNonNegative(value)) throw new Error(`durationsMs.${kind} must be a number >= 0`)
      target.durationsMs[kind as JobKind] = value
    }
  }
  if (patch.progress !== undefined) {
    if (!isProgressMode(patch.progress)) throw new Error(`progress must be ${PROGRESS_MODES.join(', ')}`)
    target.progress = patch.progress
  }
  if (patch.taskIds !== undefined) target.taskIds = bool('taskIds', patch.taskIds)
  if (patch.probe !== undefined) target.probe = bool('probe', patch.probe)
  if (patch.busyStatus !== undefined) {
    if (patch.busyStatus !== 409 && patch.busyStatus !== 423) throw new Error('busyStatus must be 409 or 423')
    target.busyStatus = patch.busyStatus as BusyStatus
  }
  if (patch.taskVisibilityDelayMs !== undefined) {
    if (!isNonNegative(patch.taskVisibilityDelayMs))
      throw new Error('taskVisibilityDelayMs must be a number >= 0')
    target.taskVisibilityDelayMs = patch.taskVisibilityDelayMs
  }
  if (patch.rateLimit !== undefined) target.rateLimit = rateLimit(patch.rateLimit)
  if (patch.profile !== undefined) {
    if (!(PROFILES as readonly unknown[]).includes(patch.profile))
      throw new Error('profile must be spec or service')
    target.profile = patch.profile
  }
  if (patch.durationSpread !== undefined) {
    const spread = patch.durationSpread
    if (typeof spread !== 'number' || !(spread >= 0 && spread < 1))
      throw new Error('durationSpread must be a number from 0 to less than 1')
    target.durationSpread = spread
  }
  if (patch.durationSeed !== undefined) {
    const seed = patch.durationSeed
    if (seed !== null && !(typeof seed === 'number' && Number.isSafeInteger(seed) && seed >= 0))
      throw new Error('durationSeed must be a whole number >= 0, or null')
    target.durationSeed = seed
  }
  if (patch.urlInAnswers !== undefined) target.urlInAnswers = bool('urlInAnswers', patch.urlInAnswers)
  if (patch.siteDelayMs !== undefined) {
    if (!isNonNegative(patch.siteDelayMs)) throw new Error('siteDelayMs must be a number >= 0')
    target.siteDelayMs = patch.siteDelayMs
  }
  if (patch.listPageCap !== undefined) {
    const cap = patch.listPageCap
    if (cap !== null && !(Number.isInteger(cap) && cap >= 1))
      throw new Error('listPageCap must be an integer >= 1, or null')
    target.listPageCap = cap
  }
  if (patch.listPaginator !== undefined) {
    if (patch.listPaginator !== 'meta' && patch.listPaginator !== 'data')
      throw new Error('listPaginator must be meta or data')
    target.listPaginator = patch.listPaginator
  }
  if (patch.versions !== undefined) {
    if (!(VERSIONS_MODES as readonly unknown[]).includes(patch.versions))
      throw new Error(`versions must be ${VERSIONS_MODES.join(', ')}`)
    target.versions = patch.versions
  }
  if (patch.versionQuota !== undefined) {
    const quota = patch.versionQuota
    if (typeof quota !== 'number' || !Number.isInteger(quota) || quota < 0)
      throw new Error('versionQuota must be an integer >= 0')
    target.versionQuota = quota
  }
  if (patch.tools !== undefined) {
    if (!(TOOLS_MODES as readonly unknown[]).includes(patch.tools))
      throw new Error(`tools must be ${TOOLS_MODES.join(', ')}`)
    target.tools = patch.tools
  }
  if (patch.livePage !== undefined) {
    if (!(LIVE_PAGE_MODES as readonly unknown[]).includes(patch.livePage))
      throw new Error(`livePage must be ${LIVE_PAGE_MODES.join(', ')}`)
    target.livePage = patch.livePage
  }
  if (patch.livePageRecoversMs !== undefined) {
    const ms = patch.livePageRecoversMs
    if (ms !== null && !isNonNegative(ms))
      throw new Error('livePageRecoversMs must be a number >= 0, or null')
    target.livePageRecoversMs = ms
  }
}

function rateLimit(value: unknown): RateLimitOptions | null {
  if (value === null) return null
  if (!isObject(value)) throw new Error('rateLimit must be an object or null')
  const { limit, windowMs, retryAfter, kind, resetHeader } = value
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 0) {
    throw new Error('rateLimit.limit must be an integer >= 0')
  }
  if (typeof windowMs !== 'number' || !(windowMs > 0))
    throw new Error('rateLimit.windowMs must be a number > 0')
  if (retryAfter !== undefined && !['seconds', 'http-date', 'none'].includes(retryAfter as string)) {
    throw new Error('rateLimit.retryAfter must be seconds, http-date or none')
  }
  if (kind !== undefined && !(RATE_LIMIT_KINDS as readonly unknown[]).includes(kind))
    throw new Error(`rateLimit.kind must be ${RATE_LIMIT_KINDS.join(', ')}`)
  if (resetHeader !== undefined && resetHeader !== 'always' && resetHeader !== 'on-429')
    throw new Error('rateLimit.resetHeader must be always or on-429')
  return {
    limit,
    windowMs,
    retryAfter: (retryAfter as RateLimitOptions['retryAfter']) ?? 'seconds',
    kind: (kind as RateLimitKind | undefined) ?? 'fixed',
    ...(resetHeader !== undefined ? { resetHeader: resetHeader as ResetHeaderMode } : {}),
  }
}

function bool(name: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw new Error(`${name} must be a boolean`)
  return value
}

function isNonNegative(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
