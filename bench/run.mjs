// npm run bench: measures the bundled action (dist/index.js, run as the GitHub runner runs it)
// against the API simulator (dist/simulator.js), all on loopback:
//
//   1. Waiting. On the same jobs, our adaptive waiting against fixed 2 s polling, fixed 10 s polling
//      and a `sleep 30` loop: how late each notices the end (p50, p95) and how many status calls it
//      makes, for 20 s and 3 min jobs, with linear, non-linear and no progress.
//   2. Cold start of dist/index.js (node start to first request) and the bundles' sizes.
//   3. Many sites: 20 sites in one step against a limit of 60 requests a minute, compared with the best
//      possible under that limit.
//
// Prints a table and writes it to bench/results/latest.md. `--quick` runs 20 s jobs only (a smoke run).
import http from 'node:http'
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { ROOT as root, SIM_TOKENS, runBundledAction, startSimulator } from '../scripts/lib/runner.mjs'

const QUICK = process.argv.includes('--quick')
const RO = SIM_TOKENS.readOnly
const SAMPLES = QUICK ? 4 : 10
const LENGTHS = QUICK
  ? [{ name: '20 s', ms: 20_000, op: 'pull' }]
  : [
      { name: '20 s', ms: 20_000, op: 'pull' },
      { name: '3 min', ms: 180_000, op: 'create' },
    ]
const MODES = ['linear', 'nonlinear', 'none']
const BASELINES = [
  { name: 'fixed 2 s polling', intervalMs: 2000 },
  { name: 'fixed 10 s polling', intervalMs: 10_000 },
  { name: '`sleep 30` loop', intervalMs: 30_000 },
]
/** Issue 6's targets for our waiting: [job length][progress or not] -> latency p95 and calls. */
const TARGETS = {
  '20 s': { progress: { p95: 1500, calls: 10 } },
  '3 min': { progress: { p95: 2000, calls: 20 }, none: { p95: 5000, calls: 40 } },
}
const MULTI = { sites: 20, limit: 60, windowMs: 60_000, jobMs: 20_000, concurrency: 4 }

const sleep = (ms) => new Promise((r) => setTimeout(r, Math.max(0, ms)))
const log = (line) => process.stderr.write(`${line}\n`)

// ---------------------------------------------------------------- simulator and action plumbing

async function newSites(sim, n, prefix) {
  const ids = []
  for (let i = 0; i < n; i++) {
    const res = await sim.v2('POST', '/sites', { body: { site_name: `${prefix}-${i}` } })
    if (res.status !== 201) throw new Error(`could not create a site: ${res.status}`)
    ids.push(String(res.body.data.id))
  }
  return ids
}

/** Runs dist/index.js as the runner does, with a longer timeout than the default. */
const runAction = (inputs) => runBundledAction({ timeout: '15m', ...inputs })

async function waitForTask(sim, siteId, known) {
  for (let i = 0; i < 400; i++) {
    const task = (await sim.admin('tasks')).find((t) => String(t.site_id) === siteId && !known.has(t.id))
    if (task) return task
    await sleep(25)
  }
  throw new Error(`no task appeared for site ${siteId}`)
}

/** A baseline poller: asks every `intervalMs` from the job's start until it sees the end. */
async function basePoll(sim, task, intervalMs) {
  let calls = 0
  for (let at = task.started_at + intervalMs; ; at += intervalMs) {
    await sleep(at - Date.now())
    calls++
    const sentAt = Date.now()
    const res = await sim.v2('GET', `/tasks/${task.id}/status`, { token: RO })
    if (res.body?.data?.status === 'completed') return { lateMs: sentAt - task.ends_at, calls }
    if (res.body?.data?.status === 'error') throw new Error('a benchmark job failed')
  }
}

// ---------------------------------------------------------------- 1. waiting

async function waitingBench(mode) {
  const sim = await startSimulator(['--progress', mode])
  try {
    const pullSites = await newSites(sim, SAMPLES, `pull-${mode}`)
    const createSites = await newSites(sim, SAMPLES, `create-${mode}`)
    // Staging for the pull jobs, made quickly.
    await sim.admin('options', 'POST', { durationsMs: { create: 300 } })
    for (const id of pullSites) await sim.v2('POST', `/sites/${id}/staging`)
    await sleep(800)
    const known = new Set((await sim.admin('tasks')).map((t) => t.id))
    const jobs = []
    for (const length of LENGTHS) {
      const sites = length.op === 'pull' ? pullSites : createSites
      for (let i = 0; i < SAMPLES; i++) {
        // The same length give or take 15%, spread (golden ratio) so that the end falls at every
        // phase of a fixed poller's cycle.
        const ms = Math.round(length.ms * (0.85 + 0.3 * ((i * 0.6180339887 + 0.31) % 1)))
        await sim.admin('options', 'POST', { durationsMs: { [length.op]: ms } })
        const action = runAction({ operation: length.op, 'site-id': sites[i], 'api-url': sim.url })
        const task = await waitForTask(sim, sites[i], known)
        known.add(task.id)
        const baselines = BASELINES.map((b) => basePoll(sim, task, b.intervalMs))
        jobs.push({ length: length.name, nominalMs: length.ms, task, action, baselines })
      }
    }
    log(`  ${mode}: ${jobs.length} jobs started; waiting for them to end…`)
    const finished = []
    for (const job of jobs) {
      const run = await job.action
      if (run.outputs.result !== 'succeeded')
        throw new Error(`an action run ${run.outputs.result}:\n${run.log}`)
      finished.push({ ...job, run, baselines: await Promise.all(job.baselines) })
    }
    const requests = await sim.admin('requests')
    return finished.map((job) => {
      const polls = requests.filter(
        (r) => r.token === 'rw' && r.method === 'GET' && r.path.startsWith(`/v2/tasks/${job.task.id}/status`),
      )
      const seen = polls.find((r) => r.at >= job.task.ends_at)
      return {
        mode,
        length: job.length,
        ours: { lateMs: seen.at - job.task.ends_at, calls: polls.length },
        /** Calls scaled to the row's nominal length (jobs are spread ±15% around it). */
        scale: job.nominalMs / job.task.duration_ms,
        baselines: job.baselines,
      }
    })
  } finally {
    sim.stop()
  }
}

// ---------------------------------------------------------------- 2. cold start and size

/**
 * Node start to first request: the action is spawned against a bare local server that records when
 * the first request arrives (nothing else runs meanwhile, so the figure is the action's own).
 */
async function coldStart() {
  let firstAt = 0
  const server = http.createServer((req, res) => {
    if (!firstAt) firstAt = Date.now()
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"status":false,"message":"no staging"}')
  })
  await new Promise((r) => server.listen(0, '127.0.0.1', r))
  try {
    const samples = []
    for (let i = 0; i < 20; i++) {
      firstAt = 0
      const run = await runAction({
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

// ---------------------------------------------------------------- 3. many sites under a rate limit

/**
 * The best possible under the limit: a client that knows when every job ends. With the same
 * concurrency, it sends each POST as soon as a worker is free and the limiter allows, and exactly
 * one status call at the end of each job (or as soon after as the limiter allows). Fixed windows
 * per token, as the simulator counts them: a window starts with the first request after the last
 * one ended. Request latency is taken as zero.
 */
export function bestPossible({ sites, concurrency, jobMs, limit, windowMs }) {
  let windowStart = -Infinity
  let used = 0
  const admit = (t) => {
    if (t >= windowStart + windowMs) {
      windowStart = t
      used = 0
    }
    if (used < limit) {
      used++
      return t
    }
    return admit(windowStart + windowMs)
  }
  const free = Array(concurrency).fill(0)
  let last = 0
  for (let i = 0; i < sites; i++) {
    free.sort((a, b) => a - b)
    const posted = admit(free[0])
    const noticed = admit(posted + jobMs)
    free[0] = noticed
    last = Math.max(last, noticed)
  }
  return { ms: last, requests: sites * 2 }
}

async function multiSite() {
  const sim = await startSimulator(['--duration', `create=${MULTI.jobMs / 1000}s`])
  try {
    const sites = await newSites(sim, MULTI.sites, 'agency')
    await sim.admin('options', 'POST', { rateLimit: { limit: MULTI.limit, windowMs: MULTI.windowMs } })
    const run = await runAction({
      operation: 'create',
      'site-id': sites.join('\n'),
      'api-url': sim.url,
      concurrency: String(MULTI.concurrency),
      timeout: '15m',
    })
    const requests = await sim.admin('requests')
    const results = JSON.parse(run.outputs.results ?? '[]')
    return {
      ms: run.exitedAt - run.spawnedAt,
      succeeded: results.filter((r) => r.result === 'succeeded').length,
      rateLimited: requests.filter((r) => r.status === 429).length,
      requests: requests.length,
      result: run.outputs.result,
      best: bestPossible(MULTI),
    }
  } finally {
    sim.stop()
  }
}

// ---------------------------------------------------------------- report

const pct = (values, p) => {
  const s = [...values].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]
}
const sec = (ms) => `${(ms / 1000).toFixed(2)} s`

function waitingTable(rows) {
  const lines = [
    '| job | progress | strategy | late p50 | late p95 | status calls (mean / max) | target |',
    '|---|---|---|---|---|---|---|',
  ]
  for (const length of LENGTHS.map((l) => l.name)) {
    for (const mode of MODES) {
      const group = rows.filter((r) => r.length === length && r.mode === mode)
      if (group.length === 0) continue
      const strategies = [
        { name: '**ours (adaptive)**', samples: group.map((r) => r.ours) },
        ...BASELINES.map((b, i) => ({ name: b.name, samples: group.map((r) => r.baselines[i]) })),
      ]
      for (const [k, s] of strategies.entries()) {
        const late = s.samples.map((x) => x.lateMs)
        const calls = s.samples.map((x) => x.calls)
        const mean = calls.reduce((a, b) => a + b, 0) / calls.length
        let target = ''
        if (k === 0) {
          const t = TARGETS[length]?.[mode === 'none' ? 'none' : 'progress']
          if (t) {
            // The call target is for a job of the nominal length: scale each job's calls to it.
            const scaled = group.map((r) => r.ours.calls * r.scale)
            const ok = pct(late, 95) <= t.p95 && Math.max(...scaled) <= t.calls
            target = `${ok ? '✅' : '❌'} ≤ ${sec(t.p95)}, ≤ ${t.calls} calls (max ${Math.max(...scaled).toFixed(1)} at ${length})`
          }
        }
        lines.push(
          `| ${length} | ${mode} | ${s.name} | ${sec(pct(late, 50))} | ${sec(pct(late, 95))} | ${mean.toFixed(1)} / ${Math.max(...calls)} | ${target} |`,
        )
      }
    }
  }
  return lines.join('\n')
}

const started = Date.now()
log(
  `bench: ${QUICK ? 'quick run (20 s jobs only)' : 'full run (about 5 minutes)'} on Node ${process.versions.node}`,
)
log('  cold start, alone on the machine')
const cold = await coldStart()
log('  waiting and many sites (in parallel, on separate simulators)')
const [waiting, multi] = await Promise.all([
  Promise.all(MODES.map(waitingBench)).then((r) => r.flat()),
  QUICK ? Promise.resolve(null) : multiSite(),
])

const size = (f) => `${(statSync(path.join(root, 'dist', f)).size / 1024).toFixed(0)} KiB`
const out = []
out.push(`# Benchmark: \`npm run bench${QUICK ? ' -- --quick' : ''}\``, '')
out.push(
  `${new Date().toISOString().slice(0, 10)}, Node ${process.versions.node}, ${SAMPLES} jobs per row (lengths spread ±15%), the bundled action against the simulator on loopback. Every strategy watched the same jobs. "Late" is how long after the job really ended the first status call that saw it ended was made. The call targets are for jobs of the nominal length, so each job's calls are scaled to it for the target column.`,
  '',
)
out.push('## Waiting for a job', '', waitingTable(waiting), '')
const coldOk = pct(cold, 50) < 150
out.push(
  '## Cold start and size',
  '',
  `- Cold start of \`dist/index.js\` (node start to first request, ${cold.length} runs): p50 ${Math.round(pct(cold, 50))} ms, p95 ${Math.round(pct(cold, 95))} ms (${coldOk ? '✅' : '❌'} target: median under 150 ms)`,
  `- Bundles: \`dist/index.js\` ${size('index.js')}, \`dist/cli.js\` ${size('cli.js')}, \`dist/simulator.js\` ${size('simulator.js')}`,
  '',
)
if (multi) {
  const ratio = multi.ms / multi.best.ms
  const ok = multi.succeeded === MULTI.sites && multi.rateLimited === 0 && ratio <= 1.2
  out.push(
    '## Many sites in one step',
    '',
    `${MULTI.sites} sites, \`create\` jobs of ${MULTI.jobMs / 1000} s, \`concurrency: ${MULTI.concurrency}\`, simulator limit ${MULTI.limit} requests per ${MULTI.windowMs / 1000} s:`,
    '',
    `- ${multi.succeeded}/${MULTI.sites} sites succeeded; ${multi.rateLimited} requests refused with 429; ${multi.requests} requests in all`,
    `- total ${sec(multi.ms)} against a best possible of ${sec(multi.best.ms)}: ${(ratio * 100).toFixed(0)}% of it (${ok ? '✅' : '❌'} target: all succeed, no 429 failure, within 120%)`,
    `- best possible: a client that knows when every job ends, with the same concurrency and limiter, sending only each POST and one status call at each job's end (${multi.best.requests} requests), with zero latency (\`bestPossible\` in \`bench/run.mjs\`)`,
    '',
  )
}
out.push(`Took ${((Date.now() - started) / 1000).toFixed(0)} s.`)
const text = out.join('\n')
mkdirSync(path.join(root, 'bench/results'), { recursive: true })
writeFileSync(path.join(root, 'bench/results', QUICK ? 'quick.md' : 'latest.md'), `${text}\n`)
if (!QUICK) {
  // The README quotes the latest full run, with the command that made it.
  const readmePath = path.join(root, 'README.md')
  const readme = readFileSync(readmePath, 'utf8')
  const [begin, end] = ['<!-- bench-figures:begin -->', '<!-- bench-figures:end -->']
  const figures = text.replace(/^# .*\n\n/, '').replace(/^## /gm, '#### ')
  writeFileSync(
    readmePath,
    `${readme.slice(0, readme.indexOf(begin) + begin.length)}\n${figures}\n${readme.slice(readme.indexOf(end))}`,
  )
}
console.log(text)
