// npm run bench: the waiting, many-sites, connections, scale and cold-start figures of
// docs/benchmarks.md (its key figures at the top, and the full tables), with every target marked.
//
// Real time: the bundled action (dist/index.js, run as the GitHub runner runs it) against the
// simulator (dist/simulator.js) on loopback: cold start; waiting for 20 s jobs (every progress
// curve) and 3 min jobs (honest curves and none); 20 sites of 20 s jobs under 60 requests a minute;
// 1000 sites with time scaled by 1/10 (the limit's window and the job lengths alike).
// Virtual time (bench/virtual, bundled here with ncc into bench/.build/): the same planner, rate
// budget, client, waiting loop and batch runner (src/) against the simulator's own API core, with a
// virtual clock and no sockets: every curve at 20 s, 3 min, 15 min and 1 h, and many sites (20, 100,
// 500, 1000) at several concurrencies.
//
// Prints the figures and writes them to bench/results/latest.md and, between its markers, to
// docs/benchmarks.md. `--quick`: a smoke run (fewer, shorter rows; writes bench/results/quick.md).
import ncc from '@vercel/ncc'
import { execFile } from 'node:child_process'
import http from 'node:http'
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { ROOT as root, SIM_TOKENS, runBundledAction, startSimulator } from '../scripts/lib/runner.mjs'

const QUICK = process.argv.includes('--quick')
const SIM_TOKEN = SIM_TOKENS.readWrite
/** `--thousand`: only the 1000 sites at once beside a plain polling script, printed. */
const THOUSAND_ONLY = process.argv.includes('--thousand')
/** `--many`: only the many-sites rows in virtual time (the simulator's way and every limiter mode), printed. */
const MANY_ONLY = process.argv.includes('--many')
/** `--checkpoint`: only the push's checkpoint row (issue 27), printed. */
const CHECKPOINT_ONLY = process.argv.includes('--checkpoint')
/** `--honest`: only the honest shapes (random job-length orders, both windows, a 404 read route), printed. */
const HONEST_ONLY = process.argv.includes('--honest')
/** `--runners`: only the rows of many runs sharing one account and the other job shapes (issue 33), printed. */
const RUNNERS_ONLY = process.argv.includes('--runners')
const log = (line) => process.stderr.write(`${line}\n`)
const sleep = (ms) => new Promise((r) => setTimeout(r, Math.max(0, ms)))
const started = Date.now()

// ------------------------------------------------------------------------------ settings

const CURVES = [
  'linear',
  'nonlinear',
  'backloaded',
  'frontloaded',
  'stuck-then-jump',
  'stalled-middle',
  'none',
]
const HONEST = ['linear', 'nonlinear']
const MIN = 60_000
const LENGTHS = QUICK ? [20_000, 3 * MIN] : [20_000, 3 * MIN, 15 * MIN, 60 * MIN]
const VIRTUAL_JOBS = QUICK ? 20 : 40
const REAL_JOBS = QUICK ? 6 : 20
/** Real-time rows: [length, curves]. */
const REAL_ROWS = QUICK
  ? [[20_000, ['nonlinear', 'none']]]
  : [
      [20_000, CURVES],
      [3 * MIN, ['linear', 'nonlinear', 'none']],
    ]
/** Virtual round trip to the API (half each way), added to every exchange. */
const RTT_MS = 50
const LIMIT = 60
const WINDOW_MS = 60_000
const SITES = QUICK ? [20, 100] : [20, 100, 500]
const JOB_LENGTHS = QUICK ? [5000, 20_000] : [5000, 20_000, 3 * MIN]
const DEFAULT_CONCURRENCY = Number(defaultOf('concurrency'))
const BASELINES = [2000, 10_000]
/**
 * The ways the simulator limits requests (issue 17 §1): its own fixed window with a reset on every
 * answer and jobs of one length (the rows above), then, with job lengths spread ±30%, the fixed
 * window, the framework's (whole-second timer from the first request, the service profile's
 * answers), a sliding window, each with the reset header on every answer or only on a 429, and a
 * sliding window whose create answers carry no staging URL (each site reads its staging
 * environment after its job: three calls a site).
 */
const SPREAD = 0.3
const MODES = [
  {
    name: 'simulator: fixed, reset on every answer, equal jobs',
    limiter: 'fixed',
    resetHeader: 'always',
    spread: 0,
  },
  { name: 'fixed, reset on every answer', limiter: 'fixed', resetHeader: 'always' },
  { name: 'fixed, reset only on a 429', limiter: 'fixed', resetHeader: 'on-429' },
  {
    name: 'framework, reset on every answer',
    limiter: 'framework',
    resetHeader: 'always',
    profile: 'service',
  },
  { name: 'framework, reset only on a 429', limiter: 'framework', resetHeader: 'on-429', profile: 'service' },
  { name: 'sliding, reset on every answer', limiter: 'sliding', resetHeader: 'always' },
  { name: 'sliding, reset only on a 429', limiter: 'sliding', resetHeader: 'on-429' },
  {
    name: 'sliding, reset only on a 429, no URL in answers',
    limiter: 'sliding',
    resetHeader: 'on-429',
    urlInAnswers: false,
  },
  {
    // The hosted service's shapes: no URL in the create answers, 405 on the staging read, the
    // staging sites in the site list (read once for the run).
    name: 'framework, reset only on a 429, no URL in answers, no staging read',
    limiter: 'framework',
    resetHeader: 'on-429',
    urlInAnswers: false,
    profile: 'service',
  },
]
const MODE_JOBS = QUICK ? [20_000] : [5000, 20_000, 3 * MIN]
/**
 * The honest shapes (issue 26 §7): job lengths spread ±30% in random orders (one seed per order),
 * linear progress, the hosted service's answers (no URL in them, 405 on the staging read, the site
 * list), under the framework's fixed window and a sliding window; a staging read that answers 404;
 * 100 sites of 3 min jobs. Each row against the oracle bound of its actual job lengths.
 */
const SEEDS = QUICK ? [1, 2] : [1, 2, 3, 4, 5, 6]
const HONEST_SHAPES = [
  { name: 'framework window', limiter: 'framework', profile: 'service', urlInAnswers: false },
  { name: 'sliding window', limiter: 'sliding', profile: 'service', urlInAnswers: false },
  {
    name: 'sliding window, staging read answers 404',
    limiter: 'sliding',
    urlInAnswers: false,
    read404: true,
  },
]
function honestScenarios() {
  const out = []
  for (const shape of HONEST_SHAPES)
    for (const seed of SEEDS)
      out.push({
        kind: 'many',
        sites: 20,
        jobMs: 20_000,
        limit: LIMIT,
        windowMs: WINDOW_MS,
        concurrency: DEFAULT_CONCURRENCY,
        rttMs: RTT_MS,
        mode: 'linear',
        limiter: shape.limiter,
        resetHeader: 'on-429',
        spread: SPREAD,
        seed,
        urlInAnswers: shape.urlInAnswers,
        read404: shape.read404 ?? false,
        profile: shape.profile ?? 'spec',
        honest: shape.name,
        target: 1.2,
      })
  for (const limiter of ['framework', 'sliding'])
    for (const seed of QUICK ? [1] : [1, 2, 3])
      out.push({ ...serviceRow(100, 3 * MIN, limiter, seed), honest: `${limiter} window`, target: 1.1 })
  return out
}

function defaultOf(input) {
  const yml = readFileSync(path.join(root, 'action.yml'), 'utf8')
  const m = new RegExp(`\\n  ${input}:[\\s\\S]*?default: '([^']*)'`).exec(yml)
  if (!m) throw new Error(`no default for ${input} in action.yml`)
  return m[1]
}

// ------------------------------------------------------------------------------ helpers

const pct = (values, p) => {
  const s = [...values].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]
}
const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length
const sec = (ms) => (ms >= 100_000 ? `${(ms / 1000).toFixed(0)} s` : `${(ms / 1000).toFixed(2)} s`)
const dur = (ms) =>
  ms >= 3_600_000 ? `${ms / 3_600_000} h` : ms >= MIN ? `${ms / MIN} min` : `${ms / 1000} s`
const mark = (ok) => (ok ? '✅' : '❌')
const jobLength = (nominalMs, i) => Math.round(nominalMs * (0.85 + 0.3 * ((i * 0.6180339887 + 0.31) % 1)))

/** Fixed polling every `intervalMs` from the job's start, on jobs of these lengths. */
function fixedPolling(durations, intervalMs) {
  return durations.map((d) => {
    const calls = Math.max(1, Math.ceil(d / intervalMs))
    return { lateMs: calls * intervalMs - d, calls }
  })
}

/**
 * The lower bound for N sites under a limit of R calls per window W (fixed windows, each starting
 * with the first request after the last one ended, as the simulator counts them): the N creates and
 * at least N status calls must fit the limit (2N calls take ⌈2N/R⌉ windows), and no site ends
 * before its job does (the last create goes in window ⌈N/R⌉, its job runs J after it).
 */
export function lowerBound(n, jobMs, limit = LIMIT, windowMs = WINDOW_MS) {
  return Math.max((Math.ceil((2 * n) / limit) - 1) * windowMs, (Math.ceil(n / limit) - 1) * windowMs + jobMs)
}

// ------------------------------------------------------------------------------ virtual rows

async function buildVirtual() {
  const { code } = await ncc(path.join(root, 'bench/virtual/main.ts'), {
    minify: false,
    sourceMap: false,
    license: '',
    quiet: true,
    target: 'es2023',
  })
  const dir = path.join(root, 'bench/.build')
  mkdirSync(dir, { recursive: true })
  writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n')
  writeFileSync(path.join(dir, 'virtual.js'), code)
  return path.join(dir, 'virtual.js')
}

/**
 * Many runs of the tool sharing one account's limit (a CI matrix: issue 33), and the job shapes of
 * one run that used to spill into the next window (jobs with no progress). Each against the oracle
 * of one client that holds every site; the slowest runner's end is the row's time.
 */
function runnerScenarios() {
  const out = []
  const row = (runners, perRunner, jobMs, limiter, seed, target, extra = {}) => ({
    ...serviceRow(runners * perRunner, jobMs, limiter, seed),
    runners,
    target,
    runnerRow: `${runners} runners × ${perRunner} sites`,
    ...extra,
  })
  for (const limiter of ['framework', 'sliding'])
    for (const seed of QUICK ? [1] : [1, 2, 3]) {
      out.push(row(4, 5, 20_000, limiter, seed, 1.3))
      out.push(row(8, 5, 20_000, limiter, seed, 1.3))
      out.push(
        row(4, 5, 20_000, limiter, seed, 1.3, {
          lateMs: 20_000,
          runnerRow: '4 runners × 5 sites, the last 20 s late',
        }),
      )
      out.push(
        row(4, 5, 20_000, limiter, seed, 1.3, {
          skewMs: 2000,
          runnerRow: '4 runners × 5 sites, each 2 s after the one before',
        }),
      )
      out.push(
        row(2, 10, 20_000, limiter, seed, 1.3, {
          lateMs: 20_000,
          runnerRow: '2 runners × 10 sites, the second 20 s late',
        }),
      )
      out.push(
        row(12, 1, 20_000, limiter, seed, 1.3, { runnerRow: '12 runners × 1 site (one job per site)' }),
      )
      if (!QUICK) out.push(row(2, 50, 3 * MIN, limiter, seed, 1.1))
      out.push(row(1, 20, 20_000, limiter, seed, 1.2, { mode: 'none', runnerRow: '20 sites, no progress' }))
      out.push(
        row(1, 10, 20_000, limiter, seed, 1.2, {
          operation: 'push',
          versionMs: 30_000,
          runnerRow: '10 pushes with checkpoints',
        }),
      )
    }
  return out
}

/** One honest-shape row of `sites` sites (the hosted service's answers, linear progress, ±30%). */
function serviceRow(sites, jobMs, limiter, seed) {
  return {
    kind: 'many',
    sites,
    jobMs,
    limit: LIMIT,
    windowMs: WINDOW_MS,
    concurrency: DEFAULT_CONCURRENCY,
    rttMs: RTT_MS,
    mode: 'linear',
    limiter,
    resetHeader: 'on-429',
    spread: SPREAD,
    seed,
    urlInAnswers: false,
    profile: 'service',
  }
}

/** The runner rows' table, each against its target: the slowest runner within its ratio, at most 2 × 429 (none for one run). */
function runnersReport(runs) {
  const lines = [
    '| shape | job | window | order (seed) | oracle bound | slowest runner | ratio | 429s | told it shares | URLs | target |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ]
  // In the order of runnerScenarios (the harness runs them in chunks, side by side).
  const key = (s) => `${s.runnerRow} ${s.limiter} ${s.seed}`
  const order = new Map(runnerScenarios().map((s, i) => [key(s), i]))
  const sorted = [...runs].sort((a, b) => order.get(key(a.scenario)) - order.get(key(b.scenario)))
  for (const m of sorted) {
    const s = m.scenario
    const ratio = m.makespanMs / m.boundMs
    const max429 = s.runners > 1 ? 2 : 0
    // A create's staging URL is part of its result: a runner that ends sooner by giving up on it has not met the row.
    const urls = s.versionMs ? s.sites : m.urlsFound
    const ok = m.succeeded === s.sites && urls === s.sites && m.refused429 <= max429 && ratio <= s.target
    target(
      `${s.runnerRow}, ${dur(s.jobMs)} ±30%, ${s.limiter}, order ${s.seed}: within ${s.target}× the oracle, at most ${max429} × 429, every URL`,
      ok,
      '',
    )
    lines.push(
      `| ${s.runnerRow} | ${s.versionMs ? `versions ${dur(s.versionMs)}, pushes ` : ''}${dur(s.jobMs)} ±30%${s.mode === 'none' ? ', no progress' : ''} | ${s.limiter} | ${s.seed} | ${sec(m.boundMs)} | ${sec(m.makespanMs)} | ${ratio.toFixed(2)}× | ${m.refused429} | ${s.runners > 1 ? `${m.toldShared}/${s.runners}` : '-'} | ${s.versionMs ? '-' : `${m.urlsFound}/${s.sites}`} | ${mark(ok)} ≤ ${s.target}× |`,
    )
  }
  return [
    '### Many runs sharing one account, and jobs with no progress (virtual time)',
    '',
    `Each runner is one run of the tool (its own rate window and scheduler) with its share of the sites, all under one token against one simulator: the framework's fixed window or a sliding one, ${LIMIT} requests a minute, the hosted service's answers, linear progress unless marked, job lengths ±30% in a random order per seed, ${RTT_MS} ms round trip, every runner started at the same moment unless the row says one joins late or each starts after the one before. Oracle bound: one client that holds every site and knows when each job ends (a late runner's sites start no sooner than it does). "10 pushes with checkpoints": one run pushing 10 sites with the default checkpoint, each site a chain of its version then its push; the oracle makes the same calls but polls each job once, at its end. "Told it shares": runners whose log said other runs use the account's limit.`,
    '',
    ...lines,
    '',
  ]
}

/** Runs scenarios on the virtual harness, split over the machine's cores. */
async function virtual(harness, scenarios) {
  const workers = Math.max(1, Math.min(os.availableParallelism(), 4))
  const chunks = Array.from({ length: workers }, () => [])
  scenarios.forEach((s, i) => chunks[i % workers].push(s))
  const outs = await Promise.all(
    chunks
      .filter((c) => c.length > 0)
      .map((chunk) =>
        promisify(execFile)(process.execPath, [harness, JSON.stringify(chunk)], { maxBuffer: 1 << 28 }).then(
          ({ stdout }) =>
            stdout
              .trim()
              .split('\n')
              .map((l) => JSON.parse(l)),
        ),
      ),
  )
  return outs.flat()
}

// ------------------------------------------------------------------------------ real time: waiting

async function newSites(sim, n, prefix) {
  const ids = []
  for (let i = 0; i < n; i++) {
    const res = await sim.v2('POST', '/sites', { body: { site_name: `${prefix}-${i}` } })
    if (res.status !== 201) throw new Error(`could not create a site: ${res.status}`)
    ids.push(String(res.body.data.id))
  }
  return ids
}

async function taskOf(sim, siteId, known) {
  for (let i = 0; i < 400; i++) {
    const task = (await sim.admin('tasks')).find((t) => String(t.site_id) === siteId && !known.has(t.id))
    if (task) return task
    await sleep(25)
  }
  throw new Error(`no task appeared for site ${siteId}`)
}

/** `jobs` create jobs of `lengthMs` (±15%) with progress `curve`, each followed by the bundled action. */
async function realWaiting(lengthMs, curve, jobs) {
  const sim = await startSimulator(['--progress', curve])
  try {
    const sites = await newSites(sim, jobs, `wait-${curve}`)
    const known = new Set()
    const runs = []
    for (let i = 0; i < jobs; i++) {
      await sim.admin('options', 'POST', { durationsMs: { create: jobLength(lengthMs, i) } })
      // Debug logging on: the run's count of its connections is a debug line (connectionsOf).
      const action = runBundledAction(
        { operation: 'create', 'site-id': sites[i], 'api-url': sim.apiUrl, timeout: '2h' },
        { env: { RUNNER_DEBUG: '1' } },
      )
      const task = await taskOf(sim, sites[i], known)
      known.add(task.id)
      runs.push({ task, action })
    }
    const requests = []
    const jobsOut = []
    for (const { task, action } of runs) {
      const run = await action
      if (run.outputs.result !== 'succeeded')
        throw new Error(`a ${curve} job ${run.outputs.result}:\n${run.log}`)
      jobsOut.push({ task, run })
    }
    requests.push(...(await sim.admin('requests')))
    const stats = await sim.admin('stats')
    const rows = jobsOut.map(({ task, run }) => {
      const polls = requests.filter(
        (r) => r.method === 'GET' && r.path.startsWith(`/v2/tasks/${task.id}/status`),
      )
      const seen = polls.find((r) => r.at >= task.ends_at)
      const mine = requests.filter(
        (r) => r.at >= task.started_at - 5000 && r.path.includes(`/${task.site_id}/`),
      )
      return {
        durationMs: task.duration_ms,
        lateMs: seen.at - task.ends_at,
        calls: polls.length,
        requests: polls.length + mine.length,
        connections: connectionsOf(run.log),
        // The simulator closes a connection idle for IDLE_CLOSE_MS: each such pause needs a new one.
        idleGaps: idleGaps([...polls, ...mine].map((r) => r.at)),
      }
    })
    return { rows, stats }
  } finally {
    sim.stop()
  }
}

/**
 * A kept-alive connection to the simulator does not outlive a pause this long: its server announces
 * `Keep-Alive: timeout=65` (as real web servers keep connections about a minute), and Node's
 * client lets a connection go a second before that.
 */
const IDLE_CLOSE_MS = 64_000

/** Pauses between one run's requests long enough for the server to close the connection. */
function idleGaps(times) {
  const t = [...times].sort((a, b) => a - b)
  return t.slice(1).filter((at, i) => at - t[i] >= IDLE_CLOSE_MS).length
}

/** The action's own count of connections it opened (its debug line). */
function connectionsOf(logText) {
  const m = /(\d+) connection\(s\) to the API/.exec(logText)
  return m ? Number(m[1]) : null
}

// ------------------------------------------------------------------------------ real time: many sites

/** Peak resident memory of a process (Linux), polled while it runs. */
function watchMemory(pidOf) {
  let peak = 0
  const timer = setInterval(() => {
    const pid = pidOf()
    if (!pid) return
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
      if (m) peak = Math.max(peak, Number(m[1]) / 1024)
    } catch {
      // gone already
    }
  }, 200)
  return () => {
    clearInterval(timer)
    return peak || null
  }
}

/** Peak resident memory (MiB) and CPU time (s, user + system) of a process (Linux), polled while it runs. */
function watchProcess(pidOf) {
  let peak = 0
  let cpu = 0
  const timer = setInterval(() => {
    const pid = pidOf()
    if (!pid) return
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
      if (m) peak = Math.max(peak, Number(m[1]) / 1024)
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
      cpu = Math.max(cpu, (Number(stat[11]) + Number(stat[12])) / 100)
    } catch {
      // gone already
    }
  }, 100)
  return () => {
    clearInterval(timer)
    return { peakMiB: peak || null, cpuS: cpu }
  }
}

/**
 * 1000 sites at once with no rate limit (issue 26 §4, §5): the bundled action beside a plain
 * polling script (bench/plain-poller.mjs), each against a fresh simulator answering as the hosted
 * service does (no URL in the answers, 405 on the staging read, the paged site list), jobs of
 * `jobMs` ±30% with linear progress. Peak memory and CPU of each process, and the URLs found.
 */
async function thousandAtOnce(sites = 1000, jobMs = 10_000) {
  const args = ['--profile', 'service', '--duration', `create=${jobMs}ms`, '--duration-spread', '0.3']
  const measure = async (start) => {
    const sim = await startSimulator([...args, '--progress', 'linear', '--no-url-in-answers'])
    try {
      const ids = await newSites(sim, sites, 'thousand')
      let child = null
      const stop = watchProcess(() => child?.pid)
      const t0 = Date.now()
      const out = await start(sim, ids, (c) => (child = c))
      return { ...stop(), wallMs: Date.now() - t0, ...out }
    } finally {
      sim.stop()
    }
  }
  const ours = await measure(async (sim, ids, onSpawn) => {
    const run = await runBundledAction(
      {
        operation: 'create',
        'site-id': ids.join('\n'),
        'api-url': sim.apiUrl,
        concurrency: String(sites),
        timeout: '30m',
      },
      { onSpawn },
    )
    const results = JSON.parse(run.outputs.results ?? '[]')
    return {
      succeeded: results.filter((r) => r.result === 'succeeded').length,
      urls: results.filter((r) => r['staging-url'] ?? r.stagingUrl ?? r.staging_url).length,
      requests: (await sim.admin('requests')).length - sites,
    }
  })
  const plain = await measure(async (sim, ids, onSpawn) => {
    const child = execFile(
      process.execPath,
      [path.join(root, 'bench/plain-poller.mjs'), `${sim.apiUrl}/v2`, SIM_TOKEN, ids.join(',')],
      { maxBuffer: 1 << 20 },
    )
    onSpawn(child)
    const stdout = await new Promise((resolve, reject) => {
      let text = ''
      child.stdout.on('data', (d) => (text += d))
      child.on('close', (code) =>
        code === 0 ? resolve(text) : reject(new Error(`plain poller exited ${code}`)),
      )
    })
    return { ...JSON.parse(stdout.trim()), requests: (await sim.admin('requests')).length - sites }
  })
  return { sites, jobMs, ours, plain }
}

async function realMany({ sites, jobMs, limit, windowMs, concurrency, scale = 1 }) {
  const sim = await startSimulator(['--duration', `create=${jobMs}ms`])
  try {
    const ids = await newSites(sim, sites, 'many')
    await sim.admin('options', 'POST', { rateLimit: { limit, windowMs } })
    let child = null
    const stopWatch = watchMemory(() => child?.pid)
    const run = await runBundledAction(
      {
        operation: 'create',
        'site-id': ids.join('\n'),
        'api-url': sim.apiUrl,
        concurrency: String(concurrency),
        timeout: '1h',
      },
      // Debug logging on: the run's count of its connections is a debug line (connectionsOf).
      { onSpawn: (c) => (child = c), env: { RUNNER_DEBUG: '1' } },
    )
    const peakMiB = stopWatch()
    const requests = await sim.admin('requests')
    const stats = await sim.admin('stats')
    const results = JSON.parse(run.outputs.results ?? '[]')
    const firstAt = Math.min(...requests.map((r) => r.at))
    const lastAt = Math.max(...requests.map((r) => r.at))
    return {
      sites,
      jobMs,
      limit,
      windowMs,
      concurrency,
      scale,
      // From the action's first request to its last (the action's own start-up is the cold start).
      makespanMs: lastAt - firstAt,
      succeeded: results.filter((r) => r.result === 'succeeded').length,
      refused429: requests.filter((r) => r.status === 429).length,
      requests: requests.length,
      connections: stats.connections,
      clientConnections: connectionsOf(run.log),
      peakMiB,
      result: run.outputs.result,
    }
  } finally {
    sim.stop()
  }
}

// ------------------------------------------------------------------------------ cold start

async function coldStart() {
  let firstAt = 0
  const server = http.createServer((req, res) => {
    if (!firstAt) firstAt = Date.now()
    // The API root answers as the API, so the 404 means "no staging environment" (contract §4 r3).
    if (req.url.endsWith('/v2/sites'))
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":true,"message":"","data":[]}')
    else
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end('{"status":false,"message":"no staging"}')
  })
  await new Promise((r) => server.listen(0, '127.0.0.1', r))
  try {
    const samples = []
    for (let i = 0; i < 20; i++) {
      firstAt = 0
      const run = await runBundledAction({
        operation: 'pull',
        'site-id': '1001',
        'if-missing': 'skip',
        'api-url': `http://127.0.0.1:${server.address().port}`,
      })
      if (run.outputs.result !== 'skipped')
        throw new Error(`cold-start run: ${run.outputs.result}\n${run.log}`)
      samples.push(firstAt - run.spawnedAt)
    }
    return samples
  } finally {
    server.close()
  }
}

// ------------------------------------------------------------------------------ run

const targets = []
const target = (what, ok, detail) => {
  targets.push({ what, ok, detail })
  return ok
}

log(`bench: ${QUICK ? 'quick run' : 'full run (about 10 minutes)'} on Node ${process.versions.node}`)
/**
 * Start-up (issue 26 §6): whole-process time of the CLI for `--version`, `--help`, an input error
 * and a dry run (against a local server that answers at once), beside `node -e 0`, `runs` times
 * each, interleaved; the median and p90 of each (wall time, spawn to exit).
 */
async function startup(runs = 15) {
  const server = http.createServer((req, res) => {
    if (req.url.endsWith('/v2/sites'))
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":true,"message":"","data":[]}')
    else
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end('{"status":false,"message":"no staging"}')
  })
  await new Promise((r) => server.listen(0, '127.0.0.1', r))
  const api = `http://127.0.0.1:${server.address().port}`
  const cli = path.join(root, 'dist/cli.js')
  const cases = [
    ['node -e 0', ['-e', '0']],
    ['--version', [cli, '--version']],
    ['--help', [cli, '--help']],
    ['an input error', [cli, 'create', '--site-id', 'abc']],
    ['a dry run', [cli, 'create', '--site-id', '1001', '--dry-run', '--api-url', api]],
  ]
  const times = new Map(cases.map(([name]) => [name, []]))
  try {
    for (let i = 0; i < runs; i++)
      for (const [name, args] of cases) {
        const t0 = performance.now()
        await promisify(execFile)(process.execPath, args, {
          env: { ...process.env, STAGING_API_TOKEN: 'bench-token' },
        }).catch((e) => e)
        times.get(name).push(performance.now() - t0)
      }
  } finally {
    server.close()
  }
  return cases.map(([name]) => ({ name, p50: pct(times.get(name), 50), p90: pct(times.get(name), 90) }))
}

function startupLines(rows) {
  const base = rows[0].p50
  return [
    '### Start-up of the CLI (real time)',
    '',
    `Whole-process time of \`node dist/cli.js\` (spawn to exit), each case run in turn, beside \`node -e 0\` on the same Node; the dry run against a local server that answers at once. The CLI keeps the staging and HTTP stack and undici as text until a run asks for them (scripts/build.mjs).`,
    '',
    '| what | p50 | p90 | over `node -e 0` (p50) |',
    '|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${Math.round(r.p50)} ms | ${Math.round(r.p90)} ms | ${r.name === 'node -e 0' ? '-' : `+${Math.round(r.p50 - base)} ms`} |`,
    ),
    '',
  ]
}

/** The 1000-site row's lines (its targets marked). */
function thousandLines(t) {
  const ok =
    t.ours.peakMiB !== null &&
    t.ours.peakMiB < 200 &&
    t.ours.succeeded === t.sites &&
    t.ours.urls === t.sites &&
    t.ours.cpuS <= 5
  target(
    `${t.sites} sites at once: under 200 MiB peak and 5 s of CPU, every site succeeded with its URL`,
    ok,
    '',
  )
  const row = (who, m) =>
    `| ${who} | ${m.peakMiB ? `${m.peakMiB.toFixed(0)} MiB` : '?'} | ${m.cpuS.toFixed(1)} s | ${sec(m.wallMs)} | ${m.succeeded}/${t.sites} | ${m.urls}/${t.sites} | ${m.requests} |`
  return [
    `### ${t.sites} sites at once, beside a plain polling script (real time)`,
    '',
    `\`create\` on ${t.sites} sites with \`concurrency: ${t.sites}\` and no rate limit, against the simulator answering as the hosted service does (no URL in the answers, 405 on the staging read, the paged site list), jobs of ${dur(t.jobMs)} ±30% with linear progress; beside it, in the same run and against a fresh simulator of the same options, a plain script (bench/plain-poller.mjs: fetch, every create at once, each task polled every 2 s, then every page of the site list). Peak resident memory and CPU (user + system) of each process, sampled every 100 ms; the time includes each process's start. ${mark(ok)} target: under 200 MiB and 5 s of CPU, every site succeeded with its URL.`,
    '',
    '| who | peak memory | CPU | time | succeeded | URLs found | requests |',
    '|---|---|---|---|---|---|---|',
    row('the action', t.ours),
    row('plain polling script', t.plain),
    '',
  ]
}
if (process.argv.includes('--startup')) {
  console.log(startupLines(await startup()).join('\n'))
  process.exit(0)
}
if (THOUSAND_ONLY) {
  const t = await thousandAtOnce()
  console.log(thousandLines(t).join('\n'))
  process.exit(0)
}
log('  building the virtual-time harness (bench/.build/)')
const harness = await buildVirtual()
if (RUNNERS_ONLY) {
  console.log(runnersReport(await virtual(harness, runnerScenarios())).join('\n'))
  const missed = targets.filter((t) => !t.ok)
  console.log(`\n${targets.length - missed.length} of ${targets.length} targets met.`)
  process.exit(0)
}
log('  cold start, alone on the machine')
const cold = MANY_ONLY || HONEST_ONLY || CHECKPOINT_ONLY ? [] : await coldStart()
const startupRows = MANY_ONLY || HONEST_ONLY || CHECKPOINT_ONLY ? [] : await startup()

log('  real time: waiting, and many sites (20 sites of 20 s; 1000 sites, time scaled by 1/10)')
/** The rows of one length: short jobs one curve after the other, long ones side by side. */
async function realLength([lengthMs, curves]) {
  const one = async (curve) => {
    const { rows: jobs, stats } = await realWaiting(lengthMs, curve, REAL_JOBS)
    return { lengthMs, curve, jobs, stats }
  }
  if (lengthMs >= MIN) return Promise.all(curves.map(one))
  const rows = []
  for (const curve of curves) rows.push(await one(curve))
  return rows
}
const [short, ...long] = MANY_ONLY || HONEST_ONLY || CHECKPOINT_ONLY ? [] : REAL_ROWS
const realWaitingRows = Promise.all(long.map(realLength)).then((r) => r.flat())
// Many sites after the short waiting rows (at most REAL_JOBS short actions at once meanwhile).
const realManyRows = (async () => {
  if (MANY_ONLY || HONEST_ONLY || CHECKPOINT_ONLY) return { shortRows: [], rows: [] }
  const shortRows = await realLength(short)
  const rows = [
    await realMany({
      sites: 20,
      jobMs: 20_000,
      limit: LIMIT,
      windowMs: WINDOW_MS,
      concurrency: DEFAULT_CONCURRENCY,
    }),
  ]
  if (!QUICK)
    rows.push(
      await realMany({
        sites: 1000,
        jobMs: 500,
        limit: LIMIT,
        windowMs: WINDOW_MS / 10,
        concurrency: 1000,
        scale: 10,
      }),
    )
  // 1000 sites at once beside a plain polling script: after the rows above.
  const thousandRow = QUICK ? null : await thousandAtOnce()
  return { shortRows, rows, thousandRow }
})()
const [longWait, { shortRows, rows: realManyOut, thousandRow }] =
  MANY_ONLY || HONEST_ONLY || CHECKPOINT_ONLY
    ? [[], { shortRows: [], rows: [], thousandRow: null }]
    : await Promise.all([realWaitingRows, realManyRows])
const realWait = [...shortRows, ...longWait]

log('  virtual time: waiting (every curve and length) and many sites (several concurrencies)')
const waitingScenarios = []
if (!MANY_ONLY && !HONEST_ONLY && !CHECKPOINT_ONLY)
  for (const lengthMs of LENGTHS)
    for (const mode of CURVES)
      waitingScenarios.push({ kind: 'waiting', mode, lengthMs, jobs: VIRTUAL_JOBS, rttMs: RTT_MS })
/** N sites of J ms jobs at a concurrency, under LIMIT calls a window: every many-sites row starts here. */
const manySites = (sites, jobMs, concurrency) => ({
  kind: 'many',
  sites,
  jobMs,
  limit: LIMIT,
  windowMs: WINDOW_MS,
  concurrency,
  rttMs: RTT_MS,
})
const manyScenarios = []
if (!HONEST_ONLY && !CHECKPOINT_ONLY)
  for (const sites of SITES)
    for (const jobMs of JOB_LENGTHS)
      for (const concurrency of [...new Set([4, 20, DEFAULT_CONCURRENCY, sites])].filter((c) => c <= sites))
        manyScenarios.push(manySites(sites, jobMs, concurrency))
const modeScenarios = []
if (!HONEST_ONLY && !CHECKPOINT_ONLY)
  for (const mode of MODES)
    for (const sites of SITES)
      for (const jobMs of MODE_JOBS)
        for (const concurrency of [...new Set([Math.min(DEFAULT_CONCURRENCY, sites), sites])])
          modeScenarios.push({
            ...manySites(sites, jobMs, concurrency),
            limitMode: mode.name,
            limiter: mode.limiter,
            resetHeader: mode.resetHeader,
            spread: mode.spread ?? SPREAD,
            urlInAnswers: mode.urlInAnswers ?? true,
            profile: mode.profile ?? 'spec',
            // The timeline of a row whose bound cannot be reached (see modesSection).
            timeline:
              mode.urlInAnswers === false &&
              mode.profile !== 'service' &&
              sites === 20 &&
              jobMs === 20_000 &&
              concurrency === sites,
          })
if (!QUICK && !MANY_ONLY && !HONEST_ONLY && !CHECKPOINT_ONLY)
  manyScenarios.push(manySites(1000, 20_000, 1000))
const honestRuns = MANY_ONLY || CHECKPOINT_ONLY ? [] : honestScenarios()
/** A push's checkpoint (issue 27): the version's task followed with the same waiting as any job. */
const CHECKPOINT_MS = 90_000
const checkpointScenarios =
  MANY_ONLY || HONEST_ONLY
    ? []
    : ['nonlinear', 'linear'].map((mode) => ({
        kind: 'checkpoint',
        mode,
        lengthMs: CHECKPOINT_MS,
        jobs: VIRTUAL_JOBS,
        rttMs: RTT_MS,
      }))
const virtualOut = await virtual(harness, [
  ...waitingScenarios,
  ...manyScenarios,
  ...modeScenarios,
  ...honestRuns,
  ...checkpointScenarios,
  ...(MANY_ONLY || HONEST_ONLY || CHECKPOINT_ONLY ? [] : runnerScenarios()),
])
const virtualWait = virtualOut.filter((o) => o.scenario.kind === 'waiting')
const virtualCheckpoint = virtualOut.filter((o) => o.scenario.kind === 'checkpoint')
const virtualHonest = virtualOut.filter((o) => o.scenario.honest)
const virtualRunners = virtualOut.filter((o) => o.scenario.runnerRow)
const virtualMany = virtualOut.filter(
  (o) => o.scenario.kind === 'many' && !o.scenario.limitMode && !o.scenario.honest && !o.scenario.runnerRow,
)
const virtualModes = virtualOut.filter((o) => o.scenario.limitMode)
const checkpointRows = virtualCheckpoint.map((o) => waitingRow(o.scenario.lengthMs, o.scenario.mode, o.jobs))
const checkpointSection = checkpointRows.length
  ? [
      "### A push's checkpoint (virtual time)",
      '',
      `A push with the default \`checkpoint: version\`, ${VIRTUAL_JOBS} pushes a row: the site version of production is followed with the same waiting as any job, then the push is sent (once, after the version completed: the harness fails otherwise). Versions of ${dur(CHECKPOINT_MS)} ±15%. "Late" is how long after the version ended the push reached the server; calls are the version task's status calls. The same targets as a job's waiting.`,
      '',
      waitingTable(checkpointRows, 'Checkpoint (virtual)'),
      '',
    ]
  : []
if (CHECKPOINT_ONLY) {
  console.log(checkpointSection.join('\n'))
  const missed = targets.filter((t) => !t.ok)
  console.log(`\n${targets.length - missed.length} of ${targets.length} targets met.`)
  process.exit(0)
}

// ------------------------------------------------------------------------------ report

// The honest shapes (issue 26 §7), then many sites under each way of limiting (issue 17 §1).
const honestSection = honestReport(virtualHonest)
if (HONEST_ONLY) {
  console.log(honestSection.join('\n'))
  const missed = targets.filter((t) => !t.ok)
  console.log(`\n${targets.length - missed.length} of ${targets.length} targets met.`)
  process.exit(0)
}
const modesSection = modesReport(virtualModes)

/** Each honest row against its oracle bound (the bound of its own job lengths and calls). */
function honestReport(runs) {
  const lines = [
    '| sites | job | window | order (seed) | oracle bound | ours | ratio | requests | status calls | 429s | URLs found | target |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ]
  for (const m of runs) {
    const s = m.scenario
    const ratio = m.makespanMs / m.boundMs
    const ok = m.succeeded === s.sites && m.refused429 === 0 && ratio <= s.target
    target(
      `Honest shapes: ${s.sites} sites of ${dur(s.jobMs)} ±30%, ${s.honest}, order ${s.seed}: within ${s.target}× the oracle, no 429`,
      ok,
      '',
    )
    lines.push(
      `| ${s.sites} | ${dur(s.jobMs)} ±30% | ${s.honest} | ${s.seed} | ${sec(m.boundMs)} (${m.perSiteCalls} calls a site + ${m.perRunCalls}) | ${sec(m.makespanMs)} | ${ratio.toFixed(2)}× | ${m.requests} | ${m.statusCalls} | ${m.refused429} | ${m.urlsFound}/${s.sites} | ${mark(ok)} ≤ ${s.target}× |`,
    )
  }
  return [
    '### Honest shapes: random job-length orders, both windows, a 404 read route (virtual time)',
    '',
    `\`create\` on every site at the default concurrency (${DEFAULT_CONCURRENCY}), ${LIMIT} requests a minute, ${RTT_MS} ms round trip, linear progress, job lengths spread ±30% in a random order per seed (the simulator's \`durationSeed\`), 429s answered with \`Retry-After\` and \`Reset\` only. "framework" and "sliding" rows answer as the hosted service does (no URL in the answers, 405 on the staging read, the staging sites in the site list); the 404 rows answer 404 to every staging read. Oracle bound: a client that knows when each job ends (the bound of the tables below, from the row's own job lengths and calls).`,
    '',
    ...lines,
    '',
  ]
}
if (MANY_ONLY) {
  const lines = [...manyTable(), '', ...modesSection]
  writeFileSync(
    path.join(root, 'bench/results/many.md'),
    `# Many sites (npm run bench -- --many)\n\n${lines.join('\n')}\n`,
  )
  console.log(lines.join('\n'))
  const missed = targets.filter((t) => !t.ok)
  console.log(
    `\n${targets.length - missed.length} of ${targets.length} targets met${missed.length ? `; missed: ${missed.map((t) => t.what).join('; ')}` : ''}.`,
  )
  process.exit(0)
}

/** The rows of every mode: each (sites, job) at the default concurrency and all at once, against the bound. */
function modesReport(runs) {
  const lines = [
    `| way of limiting | sites | job | lower bound | default (${DEFAULT_CONCURRENCY}) | all at once | requests | 429s | target (best) |`,
    '|---|---|---|---|---|---|---|---|---|',
  ]
  const unreachable = []
  for (const mode of MODES)
    for (const sites of SITES)
      for (const jobMs of MODE_JOBS) {
        const row = runs.filter(
          (m) =>
            m.scenario.limitMode === mode.name && m.scenario.sites === sites && m.scenario.jobMs === jobMs,
        )
        if (row.length === 0) continue
        const bound = Math.max(...row.map((m) => m.boundMs))
        const def = row.find((m) => m.scenario.concurrency === Math.min(DEFAULT_CONCURRENCY, sites))
        const all = row.find((m) => m.scenario.concurrency === sites)
        const best = [...row].sort((a, b) => a.makespanMs - b.makespanMs)[0]
        const ok = (m) => m.succeeded === sites && m.refused429 === 0 && m.makespanMs <= 1.2 * bound
        // Every call a site makes is in the bound; when those calls fill the limit exactly, the bound
        // needs one status call per site, at its job's end, which no poller can know: shown, not a target.
        const exact = row[0].perRunCalls + sites * row[0].perSiteCalls === LIMIT && !ok(best)
        if (exact) unreachable.push(...row.filter((m) => m.timeline))
        const okBest = exact ? best.succeeded === sites && best.refused429 === 0 : ok(best)
        target(
          `Many sites (${mode.name}): ${sites} sites of ${dur(jobMs)} jobs ${exact ? 'all succeeded, no 429 (bound unreachable)' : 'within 1.2× the bound, no 429'}`,
          okBest,
          '',
        )
        const cell = (m) => (m ? `${sec(m.makespanMs)} (${(m.makespanMs / bound).toFixed(2)}×)` : '-')
        lines.push(
          `| ${mode.name} | ${sites} | ${dur(jobMs)} | ${sec(bound)} (${row[0].perSiteCalls} calls a site${row[0].perRunCalls ? ` + ${row[0].perRunCalls}` : ''}) | ${mark(ok(def))} ${cell(def)} | ${all === def ? 'same' : `${mark(ok(all))} ${cell(all)}`} | ${best.requests} | ${row.reduce((a, m) => a + m.refused429, 0)} | ${exact ? `⚠️ bound unreachable (${row[0].perRunCalls + sites * row[0].perSiteCalls} calls = the limit), ${mark(okBest)} all succeeded, no 429` : `${mark(okBest)} ≤ 1.2×, all ${best.succeeded}/${sites} succeeded`} |`,
        )
      }
  const out = [
    `### Many sites under each way of limiting (virtual time)`,
    '',
    `\`create\` on every site under ${LIMIT} requests a minute, ${RTT_MS} ms round trip, progress \`nonlinear\`. Job lengths are spread ±${SPREAD * 100}% (evenly over the jobs in the order they start) but in the first mode. The limiter counts in a fixed window from a key's first request (the simulator's own), the framework's (the same with a whole-second timer; the service profile's answers: Limit and Remaining on every answer, Retry-After and Reset on a 429), or a sliding window; with \`X-RateLimit-Reset\` on every answer or only on a 429. Lower bound: every call of the run counted (the create, the final status call and, when the answers carry no staging URL, the read after the job; once per run, any other call): call i goes no sooner than ⌊i/R⌋·W after the first under either kind of window, so all C calls need (⌈C/R⌉ − 1)·W, and the m-th job to start ends no sooner than ⌊m/R⌋·W + its length. The target is the best of the two concurrencies.`,
    '',
    ...lines,
    '',
  ]
  for (const m of unreachable)
    out.push(
      `Why the bound of ${m.scenario.sites} sites of ${dur(m.scenario.jobMs)} jobs (${m.scenario.limitMode}) cannot be reached: ${m.scenario.sites} creates, ${m.scenario.sites} final status calls and ${m.scenario.sites} reads are ${3 * m.scenario.sites} calls, the whole limit, so the bound (${sec(m.boundMs)}) leaves no call to see a job still running: each site would have to be asked exactly once, exactly at its end. Any status call that finds a job running (the jobs end from ${dur(m.scenario.jobMs * (1 - SPREAD))} to ${dur(m.scenario.jobMs * (1 + SPREAD))}) pushes the last read into the next window. The run's requests (seconds from the first, grouped):`,
      '',
      '```',
      ...timelineLines(m.timeline),
      '```',
      '',
    )
  return out
}

/** The key figure of the limiter modes: the best concurrency's distance to the bound, and 429s. */
function modesFigure() {
  const rows = []
  for (const mode of MODES.slice(1))
    for (const sites of SITES)
      for (const jobMs of MODE_JOBS) {
        const row = virtualModes.filter(
          (m) =>
            m.scenario.limitMode === mode.name && m.scenario.sites === sites && m.scenario.jobMs === jobMs,
        )
        if (row.length === 0) continue
        const best = [...row].sort((a, b) => a.makespanMs - b.makespanMs)[0]
        rows.push({
          x: best.makespanMs / best.boundMs,
          reachable:
            row[0].perRunCalls + sites * row[0].perSiteCalls !== LIMIT ||
            best.makespanMs <= 1.2 * best.boundMs,
        })
      }
  const reachable = rows.filter((r) => r.reachable).map((r) => r.x)
  const refused = virtualModes.reduce((a, m) => a + m.refused429, 0)
  return `- Under the framework's fixed window and a sliding one, with or without a reset header, jobs spread ±${SPREAD * 100}% (${SITES.join(', ')} sites): ${span(reachable, (v) => `${v.toFixed(2)}×`)} the lower bound with every site at once, every call a site makes counted (a bound that needs exactly one status call per site is shown apart: docs/benchmarks.md); ${refused} requests refused with 429 in ${virtualModes.length} runs.`
}

/** A request timeline, consecutive requests of one kind within 0.5 s on one line. */
function timelineLines(timeline) {
  const kind = (method, p) =>
    method === 'POST' ? 'create' : p.startsWith('/tasks/') ? 'status' : p.endsWith('/staging') ? 'read' : p
  const lines = []
  let group = null
  for (const [at, method, p, status] of timeline) {
    const k = `${kind(method, p)}${status === 429 ? ' 429' : ''}`
    if (group && group.k === k && at - group.last <= 500) {
      group.n++
      group.last = at
      continue
    }
    if (group) lines.push(group)
    group = { k, n: 1, first: at, last: at }
  }
  if (group) lines.push(group)
  return lines.map((g) => `${(g.first / 1000).toFixed(1).padStart(6)} s  ${String(g.n).padStart(3)} × ${g.k}`)
}

/** One waiting row: ours, fixed polling baselines, and what fixed polling does with as many calls. */
function waitingRow(lengthMs, curve, jobs) {
  const durations = jobs.map((j) => j.durationMs)
  const late = jobs.map((j) => j.lateMs)
  const calls = jobs.map((j) => j.calls)
  const p95 = pct(late, 95)
  const meanCalls = mean(calls)
  // Fixed polling with as many calls as ours: its interval is the mean length over our mean calls.
  const same = fixedPolling(durations, mean(durations) / meanCalls)
  const honest = HONEST.includes(curve)
  const checks = []
  if (honest) {
    checks.push(['≤ 2 s p95', p95 <= 2000])
    if (lengthMs === 3 * MIN) checks.push(['≤ 20 calls', meanCalls <= 20])
    if (lengthMs === 60 * MIN) checks.push(['≤ 40 calls', meanCalls <= 40])
  }
  if (lengthMs <= 3 * MIN || curve === 'none') checks.push(['≤ 5 s p95', p95 <= 5000])
  const product = (p95 * meanCalls) / lengthMs
  checks.push([`late×calls ${product.toFixed(2)} ≤ 1`, product <= 1])
  return {
    lengthMs,
    curve,
    p50: pct(late, 50),
    p95,
    meanCalls,
    maxCalls: Math.max(...calls),
    product,
    same: {
      p95: pct(
        same.map((s) => s.lateMs),
        95,
      ),
      calls: mean(same.map((s) => s.calls)),
    },
    baselines: BASELINES.map((interval) => {
      const b = fixedPolling(durations, interval)
      return {
        interval,
        p50: pct(
          b.map((x) => x.lateMs),
          50,
        ),
        p95: pct(
          b.map((x) => x.lateMs),
          95,
        ),
        calls: mean(b.map((x) => x.calls)),
      }
    }),
    checks,
  }
}

function waitingTable(rows, title) {
  const lines = [
    `| job | progress | late p50 | late p95 | calls (mean / max) | fixed polling, as many calls: p95 | fixed 2 s: p95, calls | fixed 10 s: p95, calls | targets |`,
    '|---|---|---|---|---|---|---|---|---|',
  ]
  for (const r of rows) {
    const [b2, b10] = r.baselines
    lines.push(
      `| ${dur(r.lengthMs)} | ${r.curve} | ${sec(r.p50)} | ${sec(r.p95)} | ${r.meanCalls.toFixed(1)} / ${r.maxCalls} | ${sec(r.same.p95)} | ${sec(b2.p95)}, ${b2.calls.toFixed(1)} | ${sec(b10.p95)}, ${b10.calls.toFixed(1)} | ${r.checks.map(([label, ok]) => `${mark(ok)} ${label}`).join(', ')} |`,
    )
    for (const [label, ok] of r.checks) target(`${title}: ${dur(r.lengthMs)} ${r.curve}: ${label}`, ok, '')
  }
  return lines.join('\n')
}

const vRows = []
for (const lengthMs of LENGTHS)
  for (const curve of CURVES) {
    const o = virtualWait.find((w) => w.scenario.lengthMs === lengthMs && w.scenario.mode === curve)
    vRows.push(waitingRow(lengthMs, curve, o.jobs))
  }
const rRows = realWait.map((r) => waitingRow(r.lengthMs, r.curve, r.jobs))

// None: how fixed polling itself scores at 20 s (on the same jobs).
const none20 = virtualWait.find((w) => w.scenario.lengthMs === 20_000 && w.scenario.mode === 'none')
const fixedScore = (intervalMs) => {
  const d = none20.jobs.map((j) => j.durationMs)
  const f = fixedPolling(d, intervalMs)
  return (
    (pct(
      f.map((x) => x.lateMs),
      95,
    ) *
      mean(f.map((x) => x.calls))) /
    20_000
  ).toFixed(2)
}
const fixedNone20 = fixedScore(4900)
const fixedTwo20 = fixedScore(2000)
// None: calls past 15 min.
const noneRows = vRows.filter((r) => r.curve === 'none')
const noneGrowth = noneRows.map((r) => `${dur(r.lengthMs)}: ${r.meanCalls.toFixed(0)}`).join(', ')

// Many sites.
function manyRow(sites, jobMs) {
  const runs = virtualMany.filter((m) => m.scenario.sites === sites && m.scenario.jobMs === jobMs)
  const lb = lowerBound(sites, jobMs)
  const ok = (m) => m.succeeded === sites && m.refused429 === 0 && m.makespanMs <= 1.2 * lb
  const def =
    runs.find((m) => m.scenario.concurrency === Math.min(DEFAULT_CONCURRENCY, sites)) ??
    runs.find((m) => m.scenario.concurrency === sites)
  const best = [...runs].sort((a, b) => a.makespanMs - b.makespanMs)[0]
  return { sites, jobMs, lb, runs, def, best, ok }
}
/** The many-sites table of the simulator's own way (its targets marked). */
function manyTable(manyRows = manyRowsAll()) {
  const manyLines = [
    `| sites | job | lower bound | concurrency: total (× bound) | default (${DEFAULT_CONCURRENCY}) | best | requests (best) | 429s | target (best) |`,
    '|---|---|---|---|---|---|---|---|---|',
  ]
  for (const r of manyRows) {
    const all = r.runs
      .sort((a, b) => a.scenario.concurrency - b.scenario.concurrency)
      .map((m) => `${m.scenario.concurrency}: ${sec(m.makespanMs)} (${(m.makespanMs / r.lb).toFixed(2)})`)
      .join(' · ')
    const okDef = r.ok(r.def)
    const okBest = r.ok(r.best)
    target(
      `Many sites: ${r.sites} sites of ${dur(r.jobMs)} jobs at the best concurrency within 1.2× the bound`,
      okBest,
      '',
    )
    target(
      `Many sites: ${r.sites} sites of ${dur(r.jobMs)} jobs at the default concurrency within 1.2× the bound`,
      okDef,
      '',
    )
    manyLines.push(
      `| ${r.sites} | ${dur(r.jobMs)} | ${sec(r.lb)} | ${all} | ${mark(okDef)} ${(r.def.makespanMs / r.lb).toFixed(2)}× | ${r.best.scenario.concurrency}: ${(r.best.makespanMs / r.lb).toFixed(2)}× | ${r.best.requests} | ${r.runs.reduce((a, m) => a + m.refused429, 0)} | ${mark(okBest)} ≤ 1.2×, all ${r.best.succeeded}/${r.sites} succeeded |`,
    )
  }
  return manyLines
}
function manyRowsAll() {
  const rows = []
  for (const sites of SITES) for (const jobMs of JOB_LENGTHS) rows.push(manyRow(sites, jobMs))
  return rows
}
const manyRows = manyRowsAll()
const manyLines = MANY_ONLY ? [] : manyTable(manyRows)

const thousand = virtualMany.find((m) => m.scenario.sites === 1000)

// Connections and scale (real time).
const realManyLines = realManyOut.map((m) => {
  const lb = lowerBound(m.sites, m.jobMs, m.limit, m.windowMs)
  // A scaled row checks that every site succeeded with no 429; its distance to the bound is shown
  // (the constants that do not scale weigh ten times as much in it).
  const ok = m.succeeded === m.sites && m.refused429 === 0 && (m.scale > 1 || m.makespanMs <= 1.2 * lb)
  target(
    m.scale > 1
      ? `Scale in real time: ${m.sites} site ids in one step (time ×1/${m.scale}), all succeeded, none refused with 429`
      : `Many sites in real time: ${m.sites} sites within 1.2× the bound, all succeeded, none refused with 429`,
    ok,
    '',
  )
  return `| ${m.sites} | ${m.scale > 1 ? `${m.jobMs} ms (×1/${m.scale})` : dur(m.jobMs)} | ${m.limit} per ${m.windowMs / 1000} s | ${m.concurrency} | ${sec(lb)} | ${sec(m.makespanMs)} (${(m.makespanMs / lb).toFixed(2)}×) | ${m.succeeded}/${m.sites} | ${m.refused429} | ${m.requests} | ${m.connections ?? '?'} (${m.connections ? (m.requests / m.connections).toFixed(0) : '?'} requests each) | ${m.peakMiB ? `${m.peakMiB.toFixed(0)} MiB` : '?'} | ${mark(ok)} |`
})
const single = realWait.flatMap((r) => r.jobs)
// Each run's own count (its debug line), since the simulator's also counts this benchmark's pollers.
const runConnections = single.reduce((sum, j) => sum + (j.connections ?? Infinity), 0)
const runRequests = single.reduce((sum, j) => sum + j.requests, 0)
// One connection per run, and a new one only after a pause the server closed it in.
const needed = single.reduce((sum, j) => sum + 1 + j.idleGaps, 0)
const oneConnection =
  single.length > 0 && single.every((j) => j.connections !== null && j.connections <= 1 + j.idleGaps)
target(
  'Connections: one kept-alive connection per run, new ones only after the server closed it',
  oneConnection,
  '',
)
const largest = realManyOut.find((m) => m.sites === 1000)

// Matrix guidance: the most requests one job made within a minute (its create, its status calls).
const busiest = (curves) =>
  Math.max(
    ...virtualWait
      .filter((w) => curves.includes(w.scenario.mode))
      .flatMap((w) => w.jobs.map((j) => j.peakMinute)),
  )
const worstHonest = busiest([...HONEST, 'none'])
const worstAny = busiest(CURVES)
const maxParallel = Math.max(1, Math.floor(LIMIT / worstHonest))
const maxParallelAny = Math.max(1, Math.floor(LIMIT / worstAny))

const coldOk = target('Cold start of dist/index.js under 150 ms at the median', pct(cold, 50) < 150, '')
const size = (f) => `${(statSync(path.join(root, 'dist', f)).size / 1024).toFixed(0)} KiB`

const out = []

out.push(
  '### Waiting for one job (virtual time)',
  '',
  `${VIRTUAL_JOBS} jobs a row, lengths spread ±15% around the nominal one, ${RTT_MS} ms round trip. "Late" is how long after the job ended the first status call that saw it ended reached the server. Fixed polling is computed on the same jobs (polls every interval from the job's start); "as many calls" is fixed polling with our mean number of calls, spread evenly. late×calls is the p95 lateness times the mean calls over the job length: at most 1 is no worse than fixed polling with as many calls.`,
  '',
  waitingTable(vRows, 'Waiting (virtual)'),
  '',
  `Without progress the calls grow linearly with the job's length (${noneGrowth}): ⚠️ by design, and at 20 s late×calls is just over 1 (the one early call at 1 s, which catches jobs of a second or two, is the difference; fixed polling every 4.9 s scores ${fixedNone20} on the same jobs, fixed 2 s polling ${fixedTwo20}): fixed polling itself cannot score under 1 at 20 s unless it polls every 2 s or faster. With no sign of the end, noticing it within 5 s needs a call at least every 5 s wherever the end may fall, and any interval that grows makes late×calls exceed the length for some length, which is worse than fixed polling with as many calls. Even a poller that knew the length to ±15% would need 0.3 × length / 5 s calls.`,
  '',
)
out.push(...checkpointSection)
if (rRows.length)
  out.push(
    '### Waiting for one job (real time)',
    '',
    `The bundled action, run as the runner runs it, against the simulator on loopback (one action per job, ${REAL_JOBS} jobs a row), while the rest of the benchmark ran: the same measures as above.`,
    '',
    waitingTable(rRows, 'Waiting (real time)'),
    '',
  )
out.push(
  `### Many sites under ${LIMIT} requests a minute (virtual time)`,
  '',
  `\`create\` on every site, simulator progress \`nonlinear\`, ${RTT_MS} ms round trip. Lower bound (fixed windows of W = 60 s, R = ${LIMIT} calls each): N creates and at least N status calls must fit the limit, and no site ends before its job does: **max((⌈2N/R⌉ − 1)·W, (⌈N/R⌉ − 1)·W + J)**. The requests are the action's own (setup is not counted).`,
  '',
  manyLines.join('\n'),
  '',
)
out.push(...honestSection, ...runnersReport(virtualRunners), ...modesSection)
if (thousand)
  out.push(
    `1000 sites of ${dur(thousand.scenario.jobMs)} jobs, concurrency 1000: ${sec(thousand.makespanMs)} against a bound of ${sec(lowerBound(1000, thousand.scenario.jobMs))} (${(thousand.makespanMs / lowerBound(1000, thousand.scenario.jobMs)).toFixed(2)}×), ${thousand.succeeded}/1000 succeeded, ${thousand.refused429} refused with 429, ${thousand.requests} requests, peak memory of the harness process ${thousand.maxRssMiB.toFixed(0)} MiB.`,
    '',
  )
if (thousandRow) out.push(...thousandLines(thousandRow))
if (startupRows.length) out.push(...startupLines(startupRows))
out.push(
  '### Many sites in real time, connections and memory',
  '',
  "The bundled action against the simulator on loopback. The 1000-site row scales time by 1/10 (a 6 s window, 0.5 s jobs), so its bound is 198 s; what does not scale weighs ten times as much in it: the simulator's reset is in whole seconds, so each window is waited for up to a second longer than it lasts (a sixth of a 6 s window, a sixtieth of a minute), and the first poll of a job comes after 1 s (twice the job). Its target is that every site succeeds with no 429; the virtual rows above check the bound at full scale. Connections are counted by the simulator; memory is the action process's peak resident size.",
  '',
  '| sites | job | limit | concurrency | lower bound | total | succeeded | 429s | requests | connections | memory | target |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ...realManyLines,
  '',
)
if (single.length)
  out.push(
    `Single-site runs (the real-time waiting rows): ${single.length} runs made ${runRequests} requests on ${runConnections} connections, as each run counted them (${(runRequests / runConnections).toFixed(1)} requests per connection). ${mark(oneConnection)} Each run kept one connection alive for all its requests, and would open another only after a pause of ${IDLE_CLOSE_MS / 1000} s or more (the simulator's server keeps an idle connection 65 s, as web servers do, nginx 75 s; the client lets it go a second before that): at most ${needed} allowed, ${runConnections} opened.`,
    '',
  )
out.push(
  '### One step or a matrix',
  '',
  `One step takes up to 1000 sites and paces them to the limit; under ${LIMIT} a minute it needs about 2N/${LIMIT} minutes for N sites (1000 sites: ${(lowerBound(1000, 20_000) / MIN).toFixed(0)} minutes, over the default \`timeout\` of 30m: set \`timeout: 40m\`). A matrix takes over past 1000 sites (slices of up to 1000 each, one after the other: slices that share a token share its limit, so running them side by side finishes no sooner) or when one job would outlast the 6 h job limit (over ${Math.floor((360 * LIMIT) / 2)} sites at ${LIMIT} a minute). A matrix of one site per job does not share a budget: one job made at most ${worstHonest} requests within any minute (the virtual waiting rows above, honest progress or none, any length), so \`max-parallel: ${maxParallel}\` keeps the jobs within ${LIMIT} a minute; with a bar that misleads (99% early) a job made up to ${worstAny}, so \`max-parallel: ${maxParallelAny}\`.`,
  '',
  '### Cold start and size',
  '',
  `- Cold start of \`dist/index.js\` (node start to first request, ${cold.length} runs): p50 ${Math.round(pct(cold, 50))} ms, p95 ${Math.round(pct(cold, 95))} ms (${mark(coldOk)} median under 150 ms)`,
  `- Bundles: \`dist/index.js\` ${size('index.js')}, \`dist/cli.js\` ${size('cli.js')}, \`dist/simulator.js\` ${size('simulator.js')}`,
  '',
)

// The summary goes first, once every table has marked its targets.
const passed = targets.filter((t) => t.ok).length
const missed = targets.filter((t) => !t.ok)
out.unshift(
  `${new Date().toISOString().slice(0, 10)}, Node ${process.versions.node}, ${os.availableParallelism()} cores, \`npm run bench${QUICK ? ' -- --quick' : ''}\`: ${passed} of ${targets.length} targets met. Took ${((Date.now() - started) / 60_000).toFixed(1)} minutes.`,
  '',
  ...(missed.length ? ['Targets missed:', '', ...missed.map((t) => `- ❌ ${t.what}`), ''] : []),
)
const text = out.join('\n')

// The key figures of this run (docs/benchmarks.md's top), with the command that made them.
const rowOf = (rows, lengthMs, curve) => rows.find((r) => r.lengthMs === lengthMs && r.curve === curve)
const honestAt = (lengthMs) => HONEST.map((c) => rowOf(vRows, lengthMs, c)).filter(Boolean)
const span = (values, f) => {
  const [low, high] = [f(Math.min(...values)), f(Math.max(...values))]
  return low === high ? low : `${low}-${high}`
}
const misleading = vRows.filter((r) => !HONEST.includes(r.curve) && r.curve !== 'none')
const over = vRows.filter((r) => r.product > 1)
const defaults = manyRows.map((r) => r.def.makespanMs / r.lb)
const bests = manyRows.map((r) => r.best.makespanMs / r.lb)
const refused =
  virtualMany.reduce((a, m) => a + m.refused429, 0) + realManyOut.reduce((a, m) => a + m.refused429, 0)
const longest = LENGTHS.at(-1)
const keyFigures = [
  `\`npm run bench\` on ${new Date().toISOString().slice(0, 10)}, Node ${process.versions.node}, ${os.availableParallelism()} cores: ${passed} of ${targets.length} targets met${missed.length ? ` (missed: ${missed.map((t) => t.what).join('; ')})` : ''}.`,
  '',
  ...[...new Set([3 * MIN, longest])].map((lengthMs) => {
    const h = honestAt(lengthMs)
    const [f2, f10] = h[0].baselines
    return `- Waiting for a ${dur(lengthMs)} job with progress: end noticed within ${span(
      h.map((r) => r.p95),
      sec,
    )} at p95 with ${span(
      h.map((r) => r.meanCalls),
      (v) => v.toFixed(0),
    )} status calls (fixed 2 s polling: ${f2.calls.toFixed(0)} calls; fixed 10 s: ${sec(f10.p95)} late).`
  }),
  `- Misleading progress (back-loaded, 99% early, stuck then a jump, stalled): within ${sec(Math.max(...misleading.filter((r) => r.lengthMs <= 3 * MIN).map((r) => r.p95)))} at p95 for 20 s and 3 min jobs; lateness × calls within the job's length (no worse than fixed polling with as many calls) ${over.length ? `everywhere but ${over.map((r) => `${r.curve} at ${dur(r.lengthMs)} (${r.product.toFixed(2)}; fixed 4.9 s polling scores ${fixedNone20} there)`).join(', ')}` : 'everywhere'}.`,
  `- No progress: within ${sec(Math.max(...noneRows.map((r) => r.p95)))} at p95; ${noneRows.at(-1).meanCalls.toFixed(0)} calls for ${dur(longest)} (growing with the length: the price of noticing within 5 s with no sign of the end).`,
  `- Many sites under ${LIMIT} requests a minute (${SITES.join(', ')} sites of ${JOB_LENGTHS.map(dur).join(', ')} jobs): ${span(defaults, (v) => `${v.toFixed(2)}×`)} the lower bound at the default concurrency (${DEFAULT_CONCURRENCY}), ${span(bests, (v) => `${v.toFixed(2)}×`)} at the best concurrency (${manyRows.every((r) => r.best.makespanMs <= r.runs.find((m) => m.scenario.concurrency === r.sites).makespanMs * 1.001) ? 'every site at once' : 'see docs/benchmarks.md'}); ${refused} requests refused with 429${thousand ? `. 1000 sites: ${(thousand.makespanMs / lowerBound(1000, thousand.scenario.jobMs)).toFixed(2)}× in virtual time` : ''}${largest ? `, ${(largest.makespanMs / lowerBound(largest.sites, largest.jobMs, largest.limit, largest.windowMs)).toFixed(2)}× in real time with time scaled by 1/${largest.scale}, the action using ${largest.peakMiB ? `${largest.peakMiB.toFixed(0)} MiB` : '?'}` : ''}.`,
  modesFigure(),
  `- Connections: each run keeps one alive for all its requests (${(runRequests / runConnections).toFixed(1)} requests per connection). A matrix of one site per job: \`max-parallel: ${maxParallel}\` under ${LIMIT} a minute.`,
  `- Cold start of \`dist/index.js\`: ${Math.round(pct(cold, 50))} ms at the median.`,
].join('\n')
mkdirSync(path.join(root, 'bench/results'), { recursive: true })
writeFileSync(path.join(root, 'bench/results', QUICK ? 'quick.md' : 'latest.md'), `# Benchmark\n\n${text}\n`)
/** Replaces what lies between two markers of a file. */
function between(file, [begin, end], content) {
  const full = path.join(root, file)
  const doc = readFileSync(full, 'utf8')
  if (!doc.includes(begin) || !doc.includes(end)) throw new Error(`${file} lacks its ${begin} ${end} markers`)
  writeFileSync(
    full,
    `${doc.slice(0, doc.indexOf(begin) + begin.length)}\n${content}\n${doc.slice(doc.indexOf(end))}`,
  )
}
if (!QUICK) {
  const figures = ['<!-- bench-figures:begin -->', '<!-- bench-figures:end -->']
  between('docs/benchmarks.md', ['<!-- bench:begin -->', '<!-- bench:end -->'], text)
  between('docs/benchmarks.md', figures, keyFigures)
}
console.log(text)
if (QUICK) console.log(`\n${keyFigures}`)
