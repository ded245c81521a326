/**
 * The pipe with the CLI installed as pipe/Dockerfile installs it, as far as that goes without a
 * Docker engine or the registry: the package (the run's one `npm pack`, test/helpers/pack.ts) is
 * installed globally (offline, into a temporary prefix) instead of fetched from npm; then the
 * Dockerfile's own version check runs, and its ENTRYPOINT (the installed `site-staging
 * --bitbucket-pipe`, found on the PATH) runs a pull against the simulator, on Node 24 as the
 * image's base.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals'
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { SIM_SITES, SIM_TOKENS, start, type Simulator } from '../../simulator/server.js'
import { packed } from '../helpers/pack.js'
import { ROOT } from '../helpers/run-action.js'

const run = promisify(execFile)
const version = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string
const dockerfile = readFileSync(path.join(ROOT, 'pipe/Dockerfile'), 'utf8')

let dir: string
let sim: Simulator
let bin: string
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'pipe-installed-'))
  sim = await start({ port: 0, durationsMs: { create: 300, pull: 200, push: 200, delete: 200 } })
  const npm = (args: string[]) =>
    run('npm', [...args, '--cache', path.join(dir, 'npm-cache')], {
      cwd: ROOT,
      env: { ...process.env, npm_config_loglevel: 'error' },
      maxBuffer: 20 * 1024 * 1024,
    })
  const { tarball } = await packed()
  const prefix = path.join(dir, 'prefix')
  mkdirSync(prefix)
  await npm(['install', '--global', '--prefix', prefix, '--offline', '--no-fund', '--no-audit', tarball])
  bin = path.join(prefix, 'bin')
}, 120_000)
afterAll(async () => {
  await sim?.stop()
  rmSync(dir, { recursive: true, force: true })
})

/** The PATH of the image: the installed CLI, then this Node (24, as node:24-alpine). */
const imagePath = () => [bin, path.dirname(process.execPath), '/usr/bin', '/bin'].join(':')

test("the Dockerfile's version check passes on the installed CLI, and fails for another version", async () => {
  const check = /&& (test "\$\(site-staging --version\)" = "\$SITE_STAGING_VERSION")/.exec(dockerfile)![1]!
  await expect(
    run('sh', ['-c', check], { env: { PATH: imagePath(), SITE_STAGING_VERSION: version } }),
  ).resolves.toBeDefined()
  await expect(
    run('sh', ['-c', check], { env: { PATH: imagePath(), SITE_STAGING_VERSION: '0.0.0' } }),
  ).rejects.toThrow()
})

test("the Dockerfile's ENTRYPOINT runs the installed site-staging from the PATH: a pull succeeds, outputs sourced", async () => {
  const entrypoint = JSON.parse(/^ENTRYPOINT (\[.*\])$/m.exec(dockerfile)![1]!) as string[]
  expect(entrypoint).toEqual(['site-staging', '--bitbucket-pipe'])
  const shared = path.join(dir, 'shared')
  const clone = path.join(dir, 'clone')
  mkdirSync(clone)
  const env = {
    PATH: imagePath(),
    HOME: clone,
    CI: 'true',
    BITBUCKET_CLONE_DIR: clone,
    BITBUCKET_PIPE_SHARED_STORAGE_DIR: shared,
    STAGING_API_TOKEN: SIM_TOKENS.readWrite,
    STAGING_API_URL: sim.apiUrl,
    OPERATION: 'pull',
    SITE_ID: String(SIM_SITES.withStaging),
  }
  const r = await run(entrypoint[0]!, entrypoint.slice(1), { cwd: clone, env })
  expect(r.stderr).toMatch(/Staging pull succeeded/)
  const { stdout } = await run('sh', ['-c', `. "${shared}/site-staging/staging.env"; printf '%s' "$RESULT"`])
  expect(stdout).toBe('succeeded')
}, 60_000)
