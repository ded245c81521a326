// Slow (about 40 s): runs the first-run block of the docs against the simulator (real job durations).
/**
 * Issue 24 §11: the npm package's README and docs/cli.md show a CLI user their own first run, a
 * copyable block against the simulator. The two blocks are the same, and the block runs as written:
 * the simulator started as the docs say (`npm run simulator -- --port N`), the commands in bash with
 * `npx site-staging@1` being this repository's dist/cli.js, the port the free one the test got.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals'
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { OWNER } from '../helpers/owner.js'
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

/**
 * Issue 34 §1: before the package is on npm, docs/cli.md installs the CLI from a clone's `npm pack`,
 * and docs/bitbucket.md runs the pipe's entry from the same tarball. Both blocks run here as written
 * in a clone of this repository (the test makes the clone, the block's first line): `npm install
 * --global` goes to a prefix of the test's (npm_config_prefix), offline from an empty cache, so the
 * tarball is all that is installed; the first run above then runs with `site-staging`, as the page
 * says, in place of `npx site-staging@1`.
 */
const block = (file: string, name: string) =>
  new RegExp(`<!-- ${name}:begin -->\\n\`\`\`sh\\n([\\s\\S]*?)\`\`\`\\n<!-- ${name}:end -->`).exec(
    doc(file),
  )?.[1]

function inClone(name: string): { clone: string; env: NodeJS.ProcessEnv } {
  const clone = path.join(dir, name, 'site-staging-action')
  execFileSync('git', ['clone', '--quiet', ROOT, clone])
  const prefix = path.join(dir, name, 'prefix')
  const env = {
    PATH: `${path.join(prefix, 'bin')}:${path.dirname(process.execPath)}:${process.env.PATH ?? ''}`,
    HOME: path.join(dir, name),
    npm_config_prefix: prefix,
    npm_config_offline: 'true',
    npm_config_cache: path.join(dir, name, 'npm-cache'),
    npm_config_update_notifier: 'false',
    npm_config_loglevel: 'error',
  }
  return { clone, env }
}
const withoutClone = (text: string) => {
  const lines = text.split('\n')
  expect(lines[0]).toBe(
    'git clone https://github.com/OWNER/site-staging-action.git && cd site-staging-action'.replace(
      'OWNER',
      OWNER,
    ),
  )
  return lines.slice(1).join('\n')
}

test('docs/cli.md: the CLI from the packed clone, then the first run with site-staging', () => {
  const install = block('docs/cli.md', 'cli-install')
  expect(install).toBeDefined()
  expect(doc('docs/cli.md')).toContain('type `site-staging` where this page says\n`npx site-staging@1`')
  const { clone, env } = inClone('cli')
  const script =
    withoutClone(install!) +
    BLOCK.replaceAll(`127.0.0.1:${simulatorLine(doc('docs/cli.md'))![1]}`, `127.0.0.1:${port}`).replaceAll(
      'npx site-staging@1',
      'site-staging',
    )
  const r = spawnSync('bash', ['-e', '-c', script], { cwd: clone, encoding: 'utf8', env, timeout: 120_000 })
  const pkg = JSON.parse(doc('package.json')) as { version: string }
  expect(r.stdout).toMatch(new RegExp(`^${pkg.version.replaceAll('.', '\\.')}$`, 'm'))
  expect(r.stderr).toMatch(/^Staging create succeeded \(site 1001\)/m)
  expect(r.stderr).toMatch(/^Staging delete succeeded \(site 1001\)/m)
  expect(r.status).toBe(0)
})

test("docs/bitbucket.md: the pipe's entry with the pipe's variables, from the packed clone", () => {
  const first = block('docs/bitbucket.md', 'pipe-first-run')
  expect(first).toBeDefined()
  expect(doc('docs/bitbucket.md').indexOf('<!-- pipe-first-run:begin -->')).toBeLessThan(
    doc('docs/bitbucket.md').indexOf('## Variables'),
  )
  const { clone, env } = inClone('pipe')
  const script = withoutClone(first!)
    .replaceAll('8099', '0')
    .replace(
      // The simulator the block starts listens on a port of its own choosing: read it from its log.
      /^node dist\/simulator\.js --port 0 &.*$/m,
      'node dist/simulator.js --port 0 > sim.log &\nuntil grep -q listening sim.log; do sleep 0.1; done\n' +
        'PORT=$(grep -o "127.0.0.1:[0-9]*" sim.log | head -n 1 | cut -d: -f2)',
    )
    .replace('http://127.0.0.1:0', 'http://127.0.0.1:$PORT')
  // The try and its outputs twice in one shell, whose desktop locale sets LANGUAGE: the same result.
  const again = /^(env -i \S+ )?OPERATION=pull[\s\S]*?staging\.env[^\n]*\n/m.exec(script)![0]
  const twice = script.replace(again, again + again)
  const r = spawnSync('bash', ['-e', '-c', twice], {
    cwd: clone,
    encoding: 'utf8',
    env: { ...env, LANGUAGE: 'fr_FR:fr' },
    timeout: 120_000,
  })
  expect(r.stderr).toMatch(/Staging pull succeeded \(site 1002\)/)
  expect(r.stdout.match(/^succeeded http:\/\/127\.0\.0\.1:\d+\/staging-sites\/\S+$/gm)).toHaveLength(2)
  expect(r.status).toBe(0)
  expect(
    execFileSync('git', ['status', '--porcelain', '--', '.', ':!sim.log'], { cwd: clone, encoding: 'utf8' }),
  ).toBe('')
})
