/** Command-line arguments of the simulator (main.ts), parsed without side effects. */
import {
  JOB_KINDS,
  LIVE_PAGE_MODES,
  PROFILES,
  RATE_LIMIT_KINDS,
  TOOLS_MODES,
  VERSIONS_MODES,
} from './options.js'
import { isProgressMode } from './progress.js'
import type {
  BusyStatus,
  JobKind,
  LivePageMode,
  Profile,
  RateLimitKind,
  ResetHeaderMode,
  RetryAfterMode,
  SimulatorOptions,
  ToolsMode,
  VersionsMode,
} from './types.js'

export class ArgsError extends Error {}

export type ParsedArgs = { help: true } | { help: false; options: SimulatorOptions }

export const USAGE = `Usage: npm run simulator -- [options]

Runs the reference v2 API simulator on 127.0.0.1.

Options:
  --port N                   port (default: $PORT, else 0 = a free port)
  --profile NAME             answer shapes: spec (default: as the API documentation shows them) or
                             service (as the hosted service answers: API under /api/v2, framework
                             errors, 422 when busy, 405 on reading staging...)
  --site-delay TIME          a new staging site's URL answers 404 until this long after its creation
                             completed (default 3s)
  --list-page-cap N          GET /v2/sites answers at most N rows a page, whatever per_page asks
                             (default: the profile's: service 20, spec none, per_page over 100 refused)
  --list-paginator WHERE     GET /v2/sites's paginator: meta (default, beside data) or data (the
                             framework's paginator as data: data.data, data.last_page)
  --realistic                realistic job durations (create 150s, pull 60s, push 60s, delete 15s,
                             version 90s, restore 90s)
  --duration KIND=TIME       one job's duration, e.g. --duration create=10s (KIND: create, pull, push,
                             delete, version, restore)
  --duration-spread N        spread job lengths by this fraction around their duration (0.3: 70% to
                             130%), evenly over the jobs in the order they start (default 0)
  --no-url-in-answers        a create's answer carries no staging URL (clients read the staging
                             environment for it)
  --progress MODE            shape of percentage_complete: nonlinear (default), linear, or none (no
                             percentage_complete); misleading ones for benchmarks: backloaded (slow
                             start), frontloaded (99% at a fifth of the job), stuck-then-jump (0% for
                             70% of the job, then 90%), stalled-middle (stuck at 50% from 30% to 70%)
  --rate-limit N             requests per token per window (default: unlimited)
  --rate-window TIME         rate-limit window (default 60s)
  --retry-after MODE         Retry-After on 429: seconds (default), http-date or none
  --rate-kind KIND           how requests are counted: fixed (default: a window from a token's first
                             request), framework (the framework's limiter: the same in whole seconds)
                             or sliding (the requests of the last window's length)
  --rate-reset WHEN          X-RateLimit-Reset on every answer (always) or only on a 429 (on-429);
                             default: the profile's way (spec: always, service: on-429)
  --busy-status CODE         status of a refused pull/push/delete while a job runs: 409 (default) or 423
  --no-task-ids              staging responses carry no task_id (clients must use the probe)
  --no-probe                 GET /v2/sites/{site}/staging answers 405
  --task-visibility-delay TIME
                             task status answers 404 for this long after a job starts
  --versions MODE            site versions (checkpoints): ok (default); absent-404 or absent-405 (the
                             service offers none: its routes answer 404, or 405); plan-403 (a plan
                             without versions); quota (every create refused with 422); task-fails
                             (version tasks end in error); slow (version tasks take 15 minutes);
                             no-task-id (a create answers no task_id)
  --version-quota N          completed versions a site keeps; one more may be made on top, one at a
                             time, then creates are refused until one is deleted (default 3)
  --tools MODE               site tools (maintenance mode, password protection): ok (default),
                             plan-403 (a plan gate) or absent-404 (no such route)
  --live-page MODE           production's page after a push: ok (default), down (500) or wrong-page
                             (200, not the site's page), until a restore
  --live-page-recovers TIME  with --live-page down or wrong-page: healthy again this long after the push
  -h, --help                 show this help

TIME is a number with an optional unit: 500ms, 30s, 2m (no unit: seconds).`

/** A duration such as 500ms, 30s, 2m or 45 (seconds), in ms. */
export function parseDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim())
  if (!match) throw new ArgsError(`not a duration: ${text} (use e.g. 500ms, 30s, 2m)`)
  const value = Number(match[1])
  const unit = match[2] ?? 's'
  return Math.round(unit === 'ms' ? value : unit === 's' ? value * 1000 : value * 60_000)
}

function parseIntArg(name: string, text: string, min: number, max: number): number {
  if (!/^\d+$/.test(text.trim())) throw new ArgsError(`${name} must be an integer, got ${text}`)
  const value = Number(text)
  if (value < min || value > max) throw new ArgsError(`${name} must be from ${min} to ${max}, got ${text}`)
  return value
}

const WITH_VALUE = new Set([
  '--port',
  '--duration',
  '--progress',
  '--rate-limit',
  '--rate-window',
  '--retry-after',
  '--rate-kind',
  '--rate-reset',
  '--duration-spread',
  '--busy-status',
  '--task-visibility-delay',
  '--profile',
  '--site-delay',
  '--list-page-cap',
  '--list-paginator',
  '--versions',
  '--version-quota',
  '--tools',
  '--live-page',
  '--live-page-recovers',
])

/** Parses argv (without node and the script) and the environment (PORT). Throws ArgsError. */
export function parseArgs(argv: readonly string[], env: Record<string, string | undefined> = {}): ParsedArgs {
  const options: SimulatorOptions = {}
  const durations: Partial<Record<JobKind, number>> = {}
  let port: number | undefined
  let rateLimit: number | undefined
  let rateWindow: number | undefined
  let retryAfter: RetryAfterMode | undefined
  let rateKind: RateLimitKind | undefined
  let rateReset: ResetHeaderMode | undefined
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? ''
    if (arg === '-h' || arg === '--help') return { help: true }
    const eq = arg.indexOf('=')
    const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg
    let value: string | undefined
    if (WITH_VALUE.has(name)) {
      value = eq > 0 && name !== arg ? arg.slice(eq + 1) : argv[++i]
      if (value === undefined || value === '') throw new ArgsError(`${name} needs a value`)
    }
    const v = value ?? ''
    switch (name) {
      case '--port':
        port = parseIntArg('--port', v, 0, 65535)
        break
      case '--realistic':
        options.realistic = true
        break
      case '--duration': {
        const [kind, time] = v.split('=')
        if (!kind || time === undefined || !(JOB_KINDS as readonly string[]).includes(kind)) {
          throw new ArgsError(`--duration takes KIND=TIME with KIND one of ${JOB_KINDS.join(', ')}, got ${v}`)
        }
        durations[kind as JobKind] = parseDuration(time)
        break
      }
      case '--progress':
        if (!isProgressMode(v))
          throw new ArgsError(
            `--progress: nonlinear, linear or none, or a misleading curve (backloaded, frontloaded, stuck-then-jump, stalled-middle), got ${v}`,
          )
        options.progress = v
        break
      case '--rate-limit':
        rateLimit = parseIntArg('--rate-limit', v, 0, Number.MAX_SAFE_INTEGER)
        break
      case '--rate-window':
        rateWindow = parseDuration(v)
        if (rateWindow <= 0) throw new ArgsError('--rate-window must be more than 0')
        break
      case '--retry-after':
        if (!['seconds', 'http-date', 'none'].includes(v)) {
          throw new ArgsError(`--retry-after: seconds, http-date or none, got ${v}`)
        }
        retryAfter = v as RetryAfterMode
        break
      case '--rate-kind':
        if (!(RATE_LIMIT_KINDS as readonly string[]).includes(v))
          throw new ArgsError(`--rate-kind: ${RATE_LIMIT_KINDS.join(', ')}, got ${v}`)
        rateKind = v as RateLimitKind
        break
      case '--rate-reset':
        if (v !== 'always' && v !== 'on-429') throw new ArgsError(`--rate-reset: always or on-429, got ${v}`)
        rateReset = v
        break
      case '--duration-spread': {
        const spread = Number(v)
        if (!/^\d*\.?\d+$/.test(v) || !(spread >= 0 && spread < 1))
          throw new ArgsError(`--duration-spread must be a number from 0 to less than 1, got ${v}`)
        options.durationSpread = spread
        break
      }
      case '--no-url-in-answers':
        options.urlInAnswers = false
        break
      case '--busy-status':
        if (v !== '409' && v !== '423') throw new ArgsError(`--busy-status: 409 or 423, got ${v}`)
        options.busyStatus = Number(v) as BusyStatus
        break
      case '--no-task-ids':
        options.taskIds = false
        break
      case '--no-probe':
        options.probe = false
        break
      case '--task-visibility-delay':
        options.taskVisibilityDelayMs = parseDuration(v)
        break
      case '--profile':
        if (!(PROFILES as readonly string[]).includes(v))
          throw new ArgsError(`--profile: ${PROFILES.join(' or ')}, got ${v}`)
        options.profile = v as Profile
        break
      case '--site-delay':
        options.siteDelayMs = parseDuration(v)
        break
      case '--list-page-cap':
        options.listPageCap = parseIntArg('--list-page-cap', v, 1, 1000)
        break
      case '--list-paginator':
        if (v !== 'meta' && v !== 'data') throw new ArgsError(`--list-paginator: meta or data, got ${v}`)
        options.listPaginator = v
        break
      case '--versions':
        if (!(VERSIONS_MODES as readonly string[]).includes(v))
          throw new ArgsError(`--versions: ${VERSIONS_MODES.join(', ')}, got ${v}`)
        options.versions = v as VersionsMode
        break
      case '--version-quota':
        options.versionQuota = parseIntArg('--version-quota', v, 0, 1000)
        break
      case '--tools':
        if (!(TOOLS_MODES as readonly string[]).includes(v))
          throw new ArgsError(`--tools: ${TOOLS_MODES.join(', ')}, got ${v}`)
        options.tools = v as ToolsMode
        break
      case '--live-page':
        if (!(LIVE_PAGE_MODES as readonly string[]).includes(v))
          throw new ArgsError(`--live-page: ${LIVE_PAGE_MODES.join(', ')}, got ${v}`)
        options.livePage = v as LivePageMode
        break
      case '--live-page-recovers':
        options.livePageRecoversMs = parseDuration(v)
        break
      default:
        throw new ArgsError(`unknown argument: ${arg} (see --help)`)
    }
  }
  if (port === undefined && env.PORT !== undefined && env.PORT !== '')
    port = parseIntArg('PORT', env.PORT, 0, 65535)
  options.port = port ?? 0
  if (Object.keys(durations).length > 0) options.durationsMs = durations
  if (
    rateLimit === undefined &&
    [rateWindow, retryAfter, rateKind, rateReset].some((value) => value !== undefined)
  ) {
    throw new ArgsError('--rate-window, --retry-after, --rate-kind and --rate-reset need --rate-limit')
  }
  if (rateLimit !== undefined) {
    options.rateLimit = {
      limit: rateLimit,
      windowMs: rateWindow ?? 60_000,
      retryAfter: retryAfter ?? 'seconds',
      kind: rateKind ?? 'fixed',
      ...(rateReset !== undefined ? { resetHeader: rateReset } : {}),
    }
  }
  return { help: false, options }
}
