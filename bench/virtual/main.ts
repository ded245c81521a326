/**
 * The benchmark's virtual-time rows: the real planner, rate window, poll scheduler, client, waiting loop and
 * batch runner (src/), against the simulator's own API core (simulator) in process, with a
 * virtual clock and no sockets. Reads a JSON scenario or a list of them (argv[2]) and prints one
 * JSON line per scenario.
 *
 *   {"kind":"waiting","mode":"nonlinear","lengthMs":180000,"jobs":40,"rttMs":50}
 *   {"kind":"many","sites":100,"jobMs":5000,"limit":60,"windowMs":60000,"concurrency":20,"rttMs":50}
 *   {"kind":"checkpoint","mode":"nonlinear","lengthMs":90000,"jobs":20,"rttMs":50}
 */
import { Redactor } from '../../src/secrets/redactor.js'
import { runAll } from '../../src/staging/batch.js'
import { runOperation } from '../../src/staging/operations.js'
import { SIM_SITES, SIM_TOKENS } from '../../simulator/seed.js'
import type { Profile, ProgressMode, RateLimitKind, ResetHeaderMode } from '../../simulator/types.js'
import type { Config } from '../../src/inputs/index.js'
import type { Logger } from '../../src/types.js'
import { VirtualClock } from './clock.js'
import { VirtualSimulator, VirtualTransport } from './server.js'

interface Waiting {
  kind: 'waiting'
  mode: ProgressMode
  lengthMs: number
  jobs: number
  rttMs: number
}
/** A push with its checkpoint (issue 27): the version's task followed like any job, then the push. */
interface Checkpoint {
  kind: 'checkpoint'
  mode: ProgressMode
  lengthMs: number
  jobs: number
  rttMs: number
}
interface Many {
  kind: 'many'
  sites: number
  jobMs: number
  limit: number
  windowMs: number
  concurrency: number
  rttMs: number
  mode?: ProgressMode
  /** How the simulator limits (default: its own fixed window, with the profile's reset header). */
  limiter?: RateLimitKind
  resetHeader?: ResetHeaderMode
  /** Job lengths spread by this fraction (default 0: every job exactly jobMs). */
  spread?: number
  /** false: the create answer carries no staging URL, so each site reads its staging environment after its job. */
  urlInAnswers?: boolean
  profile?: Profile
  /** Return every request (time, method, path, status), for a timeline. */
  timeline?: boolean
  /** The job lengths in a random order drawn from this seed (simulator option durationSeed). */
  seed?: number
  /** The staging read answers 404 (a route that is there but names nothing), whatever the staging. */
  read404?: boolean
  /**
   * Runs that share the account (a CI matrix): the sites split evenly over this many runs of the
   * tool, each with its own rate window and scheduler, one token, one simulator (default 1).
   */
  runners?: number
  /** Runner i starts i × this late (default 0: all at the same moment). */
  skewMs?: number
  /** The last runner joins this much later than the others (a late joiner). */
  lateMs?: number
  /**
   * `push`: each site has staging and is pushed with the default checkpoint (a site version of
   * production, followed to its end, then the push): a chain of two jobs per site, the version
   * `versionMs` long, the push `jobMs` (default: `create` on every site).
   */
  operation?: 'create' | 'push'
  versionMs?: number
}

const silent: Logger = { info: () => {}, warn: () => {}, debug: () => {} }

function config(apiUrl: string, siteIds: string[], concurrency = 4): Config {
  return {
    operation: 'create',
    siteIds,
    apiToken: SIM_TOKENS.readWrite,
    apiUrl,
    wait: true,
    timeoutMs: 6 * 3600_000,
    language: 'en',
    maxRetries: 5,
    ifExists: 'fail',
    ifMissing: 'fail',
    ifBusy: 'wait',
    dryRun: false,
    concurrency,
    failFast: false,
    taskId: null,
    waitForUrl: false,
    checkpoint: 'version',
    stagingUrl: null,
    productionUrl: null,
    productionExpect: null,
    verifyTimeoutMs: 5 * 60_000,
    checkpointId: null,
    rollbackOnFailure: false,
    keepCheckpoints: 3,
    maintenance: false,
    protectProduction: false,
  }
}

function redactor(): Redactor {
  const r = new Redactor()
  r.add(SIM_TOKENS.readWrite)
  return r
}

/** A deterministic stand-in for Math.random (backoff jitter), so a row is the same every run. */
function seeded(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

/**
 * The lower bound of a batch's time under `limit` calls per window (a fixed window from the first
 * request, or a sliding one: either way call number i, counted from 0, goes no sooner than
 * ⌊i/R⌋·W after the first): every call of the run must go (C = per-run calls + N × calls per site,
 * so the last goes at (⌈C/R⌉ − 1)·W at the soonest), and no site ends before its job: the m-th
 * create goes at ⌊m/R⌋·W at the soonest, and not before its site's runner started (`starts[m]`,
 * 0 unless runners start apart), and its job (the m-th to start, `lengths[m]`) runs after it.
 */
export function lowerBound(b: {
  sites: number
  perSiteCalls: number
  perRunCalls: number
  lengths: number[]
  starts?: number[]
  limit: number
  windowMs: number
}): number {
  const calls = b.perRunCalls + b.sites * b.perSiteCalls
  let bound = (Math.ceil(calls / b.limit) - 1) * b.windowMs
  b.lengths.forEach((length, m) => {
    const start = Math.max(Math.floor(m / b.limit) * b.windowMs, b.starts?.[m] ?? 0)
    bound = Math.max(bound, start + length)
  })
  return bound
}

/** The most requests within any 60 s. */
function busiestMinute(times: number[]): number {
  const t = [...times].sort((a, b) => a - b)
  let best = 0
  for (let i = 0, j = 0; i < t.length; i++) {
    while (t[i]! - t[j]! >= 60_000) j++
    best = Math.max(best, i - j + 1)
  }
  return best
}

/** Job i of a row: the nominal length give or take 15%, spread (golden ratio) over every phase. */
function jobLength(nominalMs: number, i: number): number {
  return Math.round(nominalMs * (0.85 + 0.3 * ((i * 0.6180339887 + 0.31) % 1)))
}

async function waiting(s: Waiting) {
  const jobs = []
  for (let i = 0; i < s.jobs; i++) {
    const durationMs = jobLength(s.lengthMs, i)
    const clock = new VirtualClock()
    const sim = new VirtualSimulator(clock, { progress: s.mode, durationsMs: { create: durationMs } })
    const [site] = sim.newSites(1)
    const transport = new VirtualTransport(clock, sim, s.rttMs)
    const result = await clock.run(
      runOperation(config(sim.apiUrl, [site!]), site!, {
        logger: silent,
        redactor: redactor(),
        clock,
        transport,
        random: seeded(i + 1),
      }),
    )
    if (result.result !== 'succeeded') throw new Error(`a ${s.mode} job ${result.result}: ${result.message}`)
    const task = [...sim.core.state.tasks.values()][0]!
    const polls = sim.log.filter((r) => r.method === 'GET' && r.path.endsWith(`/v2/tasks/${task.id}/status`))
    const seen = polls.find((r) => r.at >= task.ends_at)
    if (!seen) throw new Error('no status call saw the end')
    jobs.push({
      durationMs,
      lateMs: seen.at - task.ends_at,
      calls: polls.length,
      peakMinute: busiestMinute(sim.log.map((r) => r.at)),
    })
  }
  return { scenario: s, jobs }
}

/**
 * Each job: a push on the site with staging, with the default checkpoint (a site version of
 * production, followed to completed, then the push). Measured like a waiting row: the version's
 * status calls, and how late after the version ended the push was sent.
 */
async function checkpoint(s: Checkpoint) {
  const jobs = []
  for (let i = 0; i < s.jobs; i++) {
    const durationMs = jobLength(s.lengthMs, i)
    const clock = new VirtualClock()
    const sim = new VirtualSimulator(clock, {
      progress: s.mode,
      durationsMs: { version: durationMs, push: 1000 },
    })
    const site = String(SIM_SITES.withStaging)
    const transport = new VirtualTransport(clock, sim, s.rttMs)
    const result = await clock.run(
      runOperation({ ...config(sim.apiUrl, [site]), operation: 'push', checkpoint: 'version' }, site, {
        logger: silent,
        redactor: redactor(),
        clock,
        transport,
        random: seeded(i + 1),
      }),
    )
    if (result.result !== 'succeeded')
      throw new Error(`a checkpointed push ${result.result}: ${result.message}`)
    const version = [...sim.core.state.tasks.values()].find((t) => t.kind === 'version')!
    const polls = sim.log.filter(
      (r) => r.method === 'GET' && r.path.endsWith(`/v2/tasks/${version.id}/status`),
    )
    const pushes = sim.log.filter((r) => r.method === 'POST' && r.path.endsWith('/staging/push'))
    if (pushes.length !== 1 || pushes[0]!.at < version.ends_at)
      throw new Error(`the push was sent ${pushes.length} times, or before its checkpoint completed`)
    jobs.push({ durationMs, lateMs: pushes[0]!.at - version.ends_at, calls: polls.length })
  }
  return { scenario: s, jobs }
}

async function many(s: Many) {
  const clock = new VirtualClock()
  const sim = new VirtualSimulator(clock, {
    progress: s.mode ?? 'nonlinear',
    durationsMs: { create: s.jobMs, push: s.jobMs, version: s.versionMs ?? s.jobMs },
    durationSpread: s.spread ?? 0,
    durationSeed: s.seed ?? null,
    urlInAnswers: s.urlInAnswers ?? true,
    profile: s.profile ?? 'spec',
  })
  const sites = sim.newSites(s.sites)
  const pushing = s.operation === 'push'
  if (pushing) sim.addStaging(sites)
  sim.core.setOptions({
    rateLimit: {
      limit: s.limit,
      windowMs: s.windowMs,
      kind: s.limiter ?? 'fixed',
      ...(s.resetHeader ? { resetHeader: s.resetHeader } : {}),
    },
  })
  if (s.read404) sim.read404 = true
  const transport = new VirtualTransport(clock, sim, s.rttMs)
  const heapBefore = process.memoryUsage().heapUsed
  const started = clock.now()
  let peakHeap = 0
  const runners = s.runners ?? 1
  const runnerEnds: number[] = []
  const shared: string[] = []
  // Runners that start apart (skewMs between each two, lateMs more for the last).
  const startOf = (runner: number) =>
    runner * (s.skewMs ?? 0) + (runner === runners - 1 ? (s.lateMs ?? 0) : 0)
  const runs = Array.from({ length: runners }, async (_, i) => {
    const own = sites.filter((_, k) => k % runners === i)
    const start = startOf(i)
    if (start > 0) await clock.sleep(start)
    const logger: Logger = { ...silent, info: (m) => void (m.startsWith('Other runs') && shared.push(m)) }
    const base = config(sim.apiUrl, own, s.concurrency)
    const r = await runAll(pushing ? { ...base, operation: 'push', checkpoint: 'version' } : base, {
      logger,
      redactor: redactor(),
      clock,
      transport,
      random: seeded(7 + i),
    })
    runnerEnds.push(clock.now() - started)
    return r
  })
  const results = await clock.run(
    Promise.all(runs).then((r) => {
      peakHeap = process.memoryUsage().heapUsed
      return r.flat()
    }),
  )
  const makespanMs = clock.now() - started
  const tasks = [...sim.core.state.tasks.values()]
  // Every call the run made, as the bound counts them: per site (create, status calls, the
  // after-job read), and once per run (anything else: the API root check, the site list and, where
  // the service offers no staging read, the one read that heard so).
  const offersRead = (s.profile ?? 'spec') !== 'service' && !s.read404
  const siteCalls = sim.log.filter(
    (r) => /\/v2\/(sites\/[^/]+\/staging|tasks\/)/.test(r.path) && !(r.method === 'GET' && r.status === 405),
  )
  // The oracle is one client holding every site: one run's own calls, not every runner's.
  const perRunCalls = Math.round((sim.log.length - siteCalls.length) / runners)
  const reads = sim.log.filter((r) => r.method === 'GET' && /\/staging$/.test(r.path)).length
  const perSiteCalls = 2 + (s.urlInAnswers === false && offersRead ? 1 : 0)
  const byRow = [...tasks].sort((a, b) => a.row_id - b.row_id)
  let lengths = byRow.map((t) => t.ends_at - t.started_at)
  // A site's job starts no sooner than its runner did.
  const siteStart = (site: string) => startOf(sites.indexOf(site) % runners)
  let starts = byRow.map((t) => siteStart(String(t.site_id)))
  // A push with its checkpoint: each site's chain (its version, then its push) is one job to the
  // oracle, and every call but the status calls is one it makes too, with one final per job.
  const chains = pushing
    ? {
        lengths: sites.map((id) =>
          tasks.filter((t) => String(t.site_id) === id).reduce((sum, t) => sum + t.ends_at - t.started_at, 0),
        ),
        calls: sim.log.filter((r) => !r.path.includes('/v2/tasks/')).length + tasks.length,
      }
    : null
  if (chains) {
    lengths = chains.lengths
    starts = sites.map(siteStart)
  }
  return {
    scenario: s,
    makespanMs,
    succeeded: results.filter((r) => r.result === 'succeeded').length,
    urlsFound: results.filter((r) => r.stagingUrl).length,
    outcomes: [...new Set(results.map((r) => r.result))],
    requests: sim.log.length,
    refused429: sim.log.filter((r) => r.status === 429).length,
    statusCalls: sim.log.filter((r) => r.path.includes('/v2/tasks/')).length,
    lastJobEnd: Math.max(...tasks.map((t) => t.ends_at)) - started,
    boundMs: lowerBound({
      sites: s.sites,
      perSiteCalls: chains ? 0 : perSiteCalls,
      perRunCalls: chains ? chains.calls : perRunCalls,
      lengths,
      starts,
      limit: s.limit,
      windowMs: s.windowMs,
    }),
    perSiteCalls,
    perRunCalls,
    reads,
    runnerEnds,
    toldShared: shared.length,
    ...(s.timeline
      ? { timeline: sim.log.map((r) => [r.at - started, r.method, r.path.replace(/^.*\/v2/, ''), r.status]) }
      : {}),
    heapMiB: Math.max(0, peakHeap - heapBefore) / 2 ** 20,
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
    events: clock.events,
  }
}

// One scenario or a list of them; one JSON line out per scenario.
type Scenario = Waiting | Many | Checkpoint
const input = JSON.parse(process.argv[2] ?? '[]') as Scenario | Scenario[]
for (const scenario of Array.isArray(input) ? input : [input]) {
  const out =
    scenario.kind === 'waiting'
      ? await waiting(scenario)
      : scenario.kind === 'checkpoint'
        ? await checkpoint(scenario)
        : await many(scenario)
  process.stdout.write(`${JSON.stringify(out)}\n`)
}
