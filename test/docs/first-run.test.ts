// Slow (about 10 s): runs the first-run block of the docs against the simulator (real job durations).
/**
 * Issue 24 §11: the npm package's README and docs/cli.md show a CLI user their own first run, a
 * copyable block against the simulator. The two blocks are the same, and the block runs as written:
 * the simulator started as the docs say (`npm run simulator -- --port N`), the commands in bash with
 * `npx site-staging@1` being this repository's dist/cli.js, the port the free one the test got.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals'
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { ROOT } from '../helpers/run-action.js'

const doc = (rel: string) => readFileSync(path.join(ROOT, rel), 'utf8')
const firstRun = (text: string) =>
  /<!-- first-run:begin -->\n```sh\n([\s\S]*?)```\n<!-- first-run:end -->/.exec(text)?.[1]
const simulatorLine = (text: string) => /^npm run simulator -- --port (\d+)$/m.exec(text)

const BLOCK = firstRun(doc('docs/npm-README.md'))!
let sim: ChildProcess
let port = ''
let dir: string

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'first-run-'))
  // What `npm run simulator` runs (package.json), on a free port.
  sim = spawn(process.execPath, [path.join(ROOT, 'dist/simulator.js'), '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  port = await new Promise<string>((resolve, reject) => {
    let out = ''
    sim.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)
      if (m) resolve(m[1]!)
    })
    sim.on('exit', () => reject(new Error(`the simulator stopped: ${out}`)))
  })
})
afterAll(() => {
  sim?.kill('SIGTERM')
  rmSync(dir, { recursive: true, force: true })
})

test('the npm README and docs/cli.md show the same first run, started the same way', () => {
  expect(BLOCK).toBeDefined()
  expect(firstRun(doc('docs/cli.md'))).toBe(BLOCK)
  const readme = simulatorLine(doc('docs/npm-README.md'))
  expect(readme).not.toBeNull()
  expect(simulatorLine(doc('docs/cli.md'))?.[0]).toBe(readme![0])
  // The port it starts the simulator on is the one the block talks to.
  expect(BLOCK).toContain(`STAGING_API_URL=http://127.0.0.1:${readme![1]}\n`)
  const pkg = JSON.parse(doc('package.json')) as { scripts: Record<string, string> }
  expect(pkg.scripts.simulator).toBe('node dist/simulator.js')
  // A CLI user's words: the npx command, no action inputs.
  expect(BLOCK).toMatch(/^npx site-staging@1 create --site-id 1001$/m)
  expect(BLOCK).not.toMatch(/uses:|with:|site-id:/)
})

test('the block runs as written: create, status, pull with --shell-env, source it, delete', () => {
  const port8099 = simulatorLine(doc('docs/npm-README.md'))![1]!
  const script = BLOCK.replaceAll(`127.0.0.1:${port8099}`, `127.0.0.1:${port}`).replaceAll(
    'npx site-staging@1',
    `"${process.execPath}" "${path.join(ROOT, 'dist/cli.js')}"`,
  )
  const r = spawnSync('bash', ['-e', '-c', script], {
    cwd: dir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: dir },
    timeout: 120_000,
  })
  expect(r.stderr).toMatch(/^Staging create succeeded \(site 1001\)/m)
  expect(r.stderr).toMatch(/^Staging pull succeeded \(site 1001\)/m)
  expect(r.stderr).toMatch(/^Staging delete succeeded \(site 1001\)/m)
  expect(r.stdout).toMatch(
    new RegExp(`^Staging at http://127\\.0\\.0\\.1:${port}/staging-sites/\\S+: pull succeeded$`, 'm'),
  )
  expect(r.status).toBe(0)
})
