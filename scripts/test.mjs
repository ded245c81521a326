// npm test: build dist/ and lint at the same time (two processes that each use about one core, and
// neither needs the other's result; the build type-checks the whole project, with the one tsc run
// whose JavaScript it bundles), then, if both passed, every Jest test (the whole-action and CLI
// tests run dist/, so they come after the build). Arguments go to Jest: `npm test -- test/unit`.
// Each step's output is printed whole once it ends, so the two do not interleave; the times are
// printed at the end (docs/development.md, "How long the tests take").
import { spawn } from 'node:child_process'

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const started = Date.now()
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`

/** Runs `npm run <script>`, its output kept for later; resolves with its exit code and output. */
function quiet(script) {
  const t0 = Date.now()
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (d) => (output += d))
    child.stderr.on('data', (d) => (output += d))
    child.on('error', (e) => resolve({ script, code: 1, output: String(e), ms: Date.now() - t0 }))
    child.on('close', (code) => resolve({ script, code: code ?? 1, output, ms: Date.now() - t0 }))
  })
}

const steps = await Promise.all(['build', 'lint'].map(quiet))
for (const s of steps) {
  process.stdout.write(
    `\n── npm run ${s.script}: ${s.code === 0 ? 'ok' : `FAILED (exit ${s.code})`}, ${secs(s.ms)}\n`,
  )
  if (s.output.trim()) process.stdout.write(`${s.output.trimEnd()}\n`)
}
const failed = steps.filter((s) => s.code !== 0)
if (failed.length) {
  process.stderr.write(`\nnpm test: ${failed.map((s) => s.script).join(', ')} failed; Jest not run.\n`)
  process.exit(1)
}
const checked = Date.now()

process.stdout.write('\n── jest\n')
const jest = spawn(npm, ['run', '--silent', 'jest', '--', ...process.argv.slice(2)], { stdio: 'inherit' })
const code = await new Promise((resolve) => jest.on('close', (c, signal) => resolve(c ?? (signal ? 1 : 0))))
const done = Date.now()
process.stdout.write(
  `\nnpm test: ${code === 0 ? 'passed' : 'FAILED'} in ${secs(done - started)}: build (with the type check) and lint ` +
    `${secs(checked - started)} (at once: ${steps.map((s) => `${s.script} ${secs(s.ms)}`).join(', ')}), ` +
    `jest ${secs(done - checked)}\n`,
)
process.exit(code)
