// Slow (about 45 s): a git clone, an npm pack and two gitlab-ci-local runs, one job against the simulator.
/**
 * Issue 34 §1: docs/gitlab.md's first run is one block that works in any clone, whatever its git
 * remote. Run here as written, in a clone of this repository whose `origin` is a fork on another
 * host (not OWNER's, not GitLab's): only what cannot run here is changed: the clone itself is made
 * by the test (the block's first line), `npm ci` is this repository's node_modules linked in, the
 * simulator's port is a free one, and rsync is the tests' pure-Node stand-in.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals'
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parse } from 'yaml'
import { standInBin } from '../helpers/gitlab.js'
import { OWNER } from '../helpers/owner.js'
import { ROOT } from '../helpers/run-action.js'

const DOC = readFileSync(path.join(ROOT, 'docs/gitlab.md'), 'utf8')
const BLOCK = /<!-- gitlab-first-run:begin -->\n```sh\n([\s\S]*?)```\n<!-- gitlab-first-run:end -->/.exec(
  DOC,
)?.[1]
let dir: string

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'gitlab-first-run-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

test('the block is near the top of docs/gitlab.md and starts from a clone of the documented repository', () => {
  expect(BLOCK).toBeDefined()
  expect(DOC.indexOf('<!-- gitlab-first-run:begin -->')).toBeLessThan(DOC.indexOf('## Setting up'))
  const lines = BLOCK!.split('\n')
  expect(lines[0]).toBe(
    `git clone https://github.com/${OWNER}/site-staging-action.git && cd site-staging-action`,
  )
  expect(lines[1]).toBe('npm ci')
  // The include names no owner: it is the clone's own project path, whatever the remote.
  expect(BLOCK).toContain('$CI_PROJECT_PATH/staging@$(git rev-parse HEAD)')
  expect(BLOCK).not.toMatch(/OWNER\/site-staging-action\/staging/)
})

test('the block runs as written in a clone whose remote is a fork elsewhere, and leaves git clean', async () => {
  const clone = path.join(dir, 'site-staging-action')
  execFileSync('git', ['clone', '--quiet', ROOT, clone])
  execFileSync('git', ['remote', 'set-url', 'origin', 'https://github.com/someone-else/my-fork.git'], {
    cwd: clone,
  })
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(clone, 'node_modules'))
  const port = await freePort()
  const script = BLOCK!
    .split('\n')
    .slice(2)
    .join('\n')
    .replaceAll('127.0.0.1:8787', `127.0.0.1:${port}`)
    .replaceAll('--port 8787', `--port ${port}`)
  const home = path.join(dir, 'home')
  const r = spawnSync('bash', ['-e', '-c', script], {
    cwd: clone,
    encoding: 'utf8',
    env: {
      PATH: `${standInBin(home)}:${path.dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      HOME: home,
      npm_config_offline: 'true',
      npm_config_cache: path.join(home, 'npm-cache'),
      npm_config_update_notifier: 'false',
    },
    timeout: 300_000,
  })
  const output = r.stdout + r.stderr
  expect(output).toMatch(/^staging:pull\s/m) // --list
  expect(output).toMatch(/Staging pull succeeded \(site 1002\)/)
  expect(output).toMatch(/PASS\s+staging:pull/)
  expect(output).not.toMatch(/gitlab\.com|ssh:|Could not resolve/)
  expect(r.status).toBe(0)
  // Everything the try wrote (the pipeline, the token's file, the tarball, the report) is ignored.
  expect(execFileSync('git', ['status', '--porcelain'], { cwd: clone, encoding: 'utf8' })).toBe('')
  // And the simulator was stopped by the block's last line.
  const stillOpen = await new Promise<boolean>((resolve) => {
    const socket = createServer()
      .once('error', () => resolve(true))
      .listen(port, '127.0.0.1', () => socket.close(() => resolve(false)))
  })
  expect(stillOpen).toBe(false)
})

test("cli-package takes a release's attached CLI by its https URL, as it takes a path; never a range or plain http", () => {
  for (const name of ['staging', 'review-app']) {
    const spec = parse(readFileSync(path.join(ROOT, 'templates', `${name}.yml`), 'utf8').split('\n---\n')[0]!)
    const regex = new RegExp(spec.spec.inputs['cli-package'].regex as string)
    const url = `https://github.com/${OWNER}/site-staging-action/releases/download/v1.2.3/site-staging-1.2.3.tgz`
    for (const ok of ['', 'site-staging@1.2.3', '/tmp/site-staging-1.2.3.tgz', url])
      expect(`${name}: ${ok} ${regex.test(ok)}`).toBe(`${name}: ${ok} true`)
    for (const bad of [
      'site-staging@1',
      'site-staging@^1.2.3',
      url.replace('https:', 'http:'),
      `${url} x`,
      `${url};id`,
    ])
      expect(`${name}: ${bad} ${regex.test(bad)}`).toBe(`${name}: ${bad} false`)
  }
  // The address the release workflow gives in its summary is of that form.
  const release = readFileSync(path.join(ROOT, '.github/workflows/release.yml'), 'utf8')
  expect(release).toContain('https://github.com/$GITHUB_REPOSITORY/releases/download/$TAG/$file')
})
