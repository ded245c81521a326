// npm run demo: starts the API simulator on a free port, runs the bundled action (node dist/index.js,
// as the GitHub runner does) for create, pull, push (production checked on its own page), a push
// that breaks production (its check fails, the checkpoint is restored), rollback and delete in turn,
// and shows each run's log, outputs and job summary. Offline, no account, about a minute.
//   npm run demo -- --profile service    the simulator answers in the service family's shapes
//                                        (contract §10); the action gets that profile's api-url
//   npm run demo -- --rate-limit 10 --rate-kind sliding --rate-reset on-429
//                                        the simulator limits requests that way (see npm run simulator -- --help)
import { actionInputs, actionOutputs, runBundledAction, startSimulator } from './lib/runner.mjs'

const color = process.stdout.isTTY && !process.env.NO_COLOR
const paint = (code, text) => (color ? `\x1b[${code}m${text}\x1b[0m` : text)
const bold = (t) => paint('1', t)
const dim = (t) => paint('2', t)
const SITE = '1001'

/** Simulator options the demo passes on: how it limits requests, job lengths, URLs in answers. */
const SIMULATOR_FLAGS =
  /^--(rate-limit|rate-window|rate-kind|rate-reset|retry-after|duration-spread)(=|$)|^--no-url-in-answers$/

/**
 * The simulator's arguments: the profile from `--profile NAME` / `--profile=NAME` ('spec' when
 * absent) and the simulator options above, as given; null on any other argument.
 */
function simulatorArgs(argv) {
  let profile = 'spec'
  const rest = []
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--profile') profile = argv[++i]
    else if (argv[i].startsWith('--profile=')) profile = argv[i].slice('--profile='.length)
    else if (!SIMULATOR_FLAGS.test(argv[i])) return null
    else if (argv[i].includes('=') || argv[i] === '--no-url-in-answers') rest.push(argv[i])
    else rest.push(argv[i], argv[++i] ?? '')
  }
  return ['spec', 'service'].includes(profile) ? ['--profile', profile, ...rest] : null
}

/** How the runner shows workflow commands in a job log. */
function renderLogLine(line) {
  if (line.startsWith('::add-mask::') || line.startsWith('::debug::')) return null
  const m = /^::(warning|error|notice)(?: ([^:]*))?::(.*)$/.exec(line)
  if (!m) return line
  const label = {
    warning: paint('33', 'Warning'),
    error: paint('31', 'Error'),
    notice: paint('36', 'Notice'),
  }[m[1]]
  return `${label}: ${m[3]}`
}

/** A Markdown backslash escape (`\\(`, `\\_`): a terminal shows the character alone. */
const MD_ESCAPE = /\\([\\`*_{}[\]()#+\-.!|<>~])/g

/** Markdown as a terminal shows it best: tables aligned, markup light. */
function renderMarkdown(md) {
  const out = []
  const lines = md.split('\n')
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].startsWith('|')) {
      out.push(
        lines[i]
          .replace(/^#+ /, '')
          .replace(/\*\*(.+?)\*\*/g, (_, t) => bold(t))
          .replace(/`([^`]*)`/g, '$1')
          .replace(/\[([^\]]+)\]\([^)]+\)/g, '$1')
          .replace(/^> /, '  ')
          .replace(MD_ESCAPE, '$1'),
      )
      continue
    }
    const rows = []
    for (; i < lines.length && lines[i].startsWith('|'); i++) {
      if (/^\|[-:| ]+\|$/.test(lines[i])) continue
      rows.push(
        lines[i]
          .slice(1, -1)
          .split(/(?<!\\)\|/)
          .map((c) =>
            c
              .trim()
              .replace(/`/g, '')
              .replace(/\[([^\]]+)\]\([^)]+\)/g, '$1')
              .replace(MD_ESCAPE, '$1'),
          ),
      )
    }
    i--
    const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => [...(r[c] ?? '')].length)))
    for (const r of rows) {
      if (r.every((c) => c === '')) continue
      out.push('  ' + r.map((c, k) => c + ' '.repeat(widths[k] - [...c].length)).join('   '))
    }
  }
  return out.join('\n')
}

/** Runs the bundled action, showing its log as the runner would. */
async function runAction(apiUrl, inputs) {
  let buffer = ''
  const show = (d) => {
    buffer += d
    const lines = buffer.split('\n')
    buffer = lines.pop()
    for (const l of lines) {
      const shown = renderLogLine(l)
      if (shown !== null) console.log(`  ${dim('│')} ${shown}`)
    }
  }
  return runBundledAction(
    { 'site-id': SITE, 'api-url': apiUrl, timeout: '2m', ...inputs },
    { onOutput: show },
  )
}

const simArgs = simulatorArgs(process.argv.slice(2))
if (simArgs === null) {
  console.error(
    'usage: npm run demo [-- --profile spec|service] [--rate-limit N --rate-kind fixed|framework|sliding --rate-reset always|on-429 ...]',
  )
  process.exit(2)
}
const started = Date.now()
const sim = await startSimulator(simArgs)
console.log(bold('Site staging action: demo against the embedded v2 API simulator'))
console.log(dim(sim.banner.trim().split('\n').slice(0, 3).join('\n')))
// create and pull also wait until the staging site answers (wait-for-url): the simulator serves each
// staging site on loopback, answering only a few seconds after its job ends, as DNS and TLS lag. It
// serves production's own page too: a push is checked there (production-url, production-expect).
const production = {
  'production-url': `${sim.url}/production-sites/${SITE}/`,
  'production-expect': `Production site ${SITE}`,
}
// The failed production check needs the action's production check (its production-check output):
// a build without it skips that step, saying so.
const checksProduction =
  actionOutputs().includes('production-check') && actionInputs().includes('verify-timeout')
const steps = [
  {
    op: 'create',
    note: 'create a staging environment from production site 1001, and wait until it answers',
    inputs: { 'wait-for-url': 'true' },
  },
  {
    op: 'pull',
    note: 'overwrite staging with a fresh copy of production',
    inputs: { 'wait-for-url': 'true' },
  },
  {
    op: 'push',
    name: 'push',
    note: 'take a checkpoint of production (a site version), overwrite production with staging, check the live site',
    inputs: production,
  },
  {
    op: 'push',
    note: 'push again, but this time the live site breaks (HTTP 500): the production check fails, the checkpoint is restored',
    inputs: { ...production, 'rollback-on-failure': 'true', 'verify-timeout': '10s' },
    // The simulator's knob: a completed push leaves production's page answering 500 until a restore.
    sim: { livePage: 'down' },
    expect: 'failed',
    skip: checksProduction
      ? null
      : 'this build of the action has no production check (no production-check output)',
  },
  {
    op: 'rollback',
    note: "restore production to the first push's checkpoint: the old production comes back",
    inputs: (named) => ({ 'checkpoint-id': named.push?.['checkpoint-id'] ?? '', ...production }),
  },
  { op: 'delete', note: 'delete the staging environment' },
]
let unexpected = 0
const named = {}
try {
  for (const [i, step] of steps.entries()) {
    console.log(`\n${bold(`${i + 1}/${steps.length}  operation: ${step.op}`)}  ${dim(`(${step.note})`)}`)
    if (step.skip) {
      console.log(dim(`  skipped: ${step.skip}`))
      continue
    }
    const inputs = typeof step.inputs === 'function' ? step.inputs(named) : step.inputs
    const given = Object.entries({ operation: step.op, ...inputs })
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ')
    if (step.sim) {
      await sim.admin('options', 'POST', step.sim)
      console.log(
        dim(
          `  $ curl -X POST ${sim.url}/__sim/options -d '${JSON.stringify(step.sim)}'   # the simulator's knob`,
        ),
      )
    }
    console.log(dim(`  $ node dist/index.js   # the bundled action, as the runner starts it (${given})`))
    const { code, outputs, summary } = await runAction(sim.apiUrl, { operation: step.op, ...inputs })
    if (step.sim) await sim.admin('options', 'POST', { livePage: 'ok' })
    if (step.name) named[step.name] = outputs
    const expected = step.expect ?? 'succeeded'
    const asExpected = outputs.result === expected && code === (expected === 'succeeded' ? 0 : 1)
    if (!asExpected) unexpected++
    const note = asExpected
      ? step.expect
        ? ` (result ${expected}, as this step means to show)`
        : ''
      : ` (expected result ${expected})`
    console.log(
      `\n  ${bold('exit code')} ${code}${dim(note)}   ${bold('outputs')} ${dim('(the empty ones left out)')}`,
    )
    // Every output of action.yml that has a value, but the long ones (the message is in the
    // summary, results is JSON).
    for (const name of actionOutputs().filter((n) => n !== 'message' && n !== 'results'))
      if (outputs[name]) console.log(`    ${name.padEnd(17)} ${outputs[name]}`)
    console.log(`\n  ${bold('job summary')}`)
    console.log(renderMarkdown(summary).replace(/^/gm, '  '))
  }
  console.log(bold('\nWhat the simulated service did'))
  const mails = await sim.admin('outbox')
  const purges = await sim.admin('purges')
  console.log(
    `  e-mails sent:     ${mails.length}${mails.map((m) => `; "${m.subject}" to ${m.to}`).join('')}`,
  )
  console.log(`  CDN cache purges: ${purges.length}${purges.map((p) => `; site ${p.site_id}`).join('')}`)
  const visits = await sim.admin('site-requests')
  const withToken = visits.filter((v) => v.authorization).length
  for (const [what, prefix] of [
    ['staging site visits (wait-for-url)', '/staging-sites/'],
    ['production page visits (production-url)', '/production-sites/'],
  ]) {
    const seen = visits.filter((v) => v.path.startsWith(prefix))
    console.log(`  ${what}: ${seen.length}, answered ${seen.map((v) => v.status).join(', ')}`)
  }
  console.log(`  of these visits, ${withToken} carried an Authorization header`)
} finally {
  sim.stop()
}
const ran = steps.filter((s) => !s.skip).length
console.log(
  `\n${unexpected === 0 ? bold(`All ${ran} operations ended as expected`) : bold(`${unexpected} operation(s) did not end as expected`)} in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
)
process.exitCode = unexpected === 0 ? 0 : 1
