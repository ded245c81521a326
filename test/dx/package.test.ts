/**
 * The package as a CLI user gets it: `npm pack` ships dist/ (self-contained bundles), action.yml,
 * README and LICENSE, with no runtime dependencies; the tarball installs offline (nothing to fetch)
 * and its `site-staging` runs, from outside this repository, against the simulator.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { SIM_SITES, SIM_TOKENS, start, type Simulator } from '../../src/simulator/server.js'
import { ROOT } from '../helpers/run-action.js'

const run = promisify(execFile)
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  version: string
  engines: { node: string }
  bin: Record<string, string>
}

let dir: string
let sim: Simulator
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'package-test-'))
  sim = await start({ port: 0, durationsMs: { create: 300, pull: 200, push: 200, delete: 200 } })
})
afterAll(async () => {
  await sim?.stop()
  rmSync(dir, { recursive: true, force: true })
})

/** npm with this repository's npm settings, but its own empty cache (so nothing comes from it). */
function npm(args: string[], cwd = ROOT) {
  return run('npm', [...args, '--cache', path.join(dir, 'npm-cache')], {
    cwd,
    env: { ...process.env, npm_config_loglevel: 'error' },
    maxBuffer: 20 * 1024 * 1024,
  })
}

describe('npm pack', () => {
  test('--dry-run: dist/, action.yml, README, LICENSE and package.json, nothing else', async () => {
    const { stdout } = await npm(['pack', '--dry-run', '--json'])
    const [report] = JSON.parse(stdout) as { files: { path: string }[]; size: number }[]
    const files = report!.files.map((f) => f.path).sort()
    for (const f of files) expect(f).toMatch(/^(dist\/[\w.-]+|action\.yml|README\.md|LICENSE|package\.json)$/)
    expect(files).toEqual(
      expect.arrayContaining([
        'LICENSE',
        'README.md',
        'action.yml',
        'dist/cli.js',
        'dist/index.js',
        'dist/package.json',
        'package.json',
      ]),
    )
    // Well under a megabyte compressed: no sources, tests, node_modules or benchmark results.
    expect(report!.size).toBeLessThan(1_500_000)
  })
})

describe('the tarball', () => {
  let tarball: string
  beforeAll(async () => {
    const { stdout } = await npm(['pack', '--json', '--pack-destination', dir])
    tarball = path.join(dir, (JSON.parse(stdout) as { filename: string }[])[0]!.filename)
    await run('tar', ['-xzf', tarball, '-C', dir])
  })

  test('its package.json has no dependencies, the CLI as bin, and the Node it needs', () => {
    const packed = JSON.parse(readFileSync(path.join(dir, 'package', 'package.json'), 'utf8'))
    expect(packed.dependencies ?? {}).toEqual({})
    expect(packed.bin).toEqual({ 'site-staging': 'dist/cli.js' })
    expect(packed.engines).toEqual(pkg.engines)
    expect(readFileSync(path.join(dir, 'package', 'dist', 'cli.js'), 'utf8')).toMatch(
      /^#!\/usr\/bin\/env node\n/,
    )
  })

  test('installs offline with an empty cache (nothing to fetch), and site-staging runs from there', async () => {
    const prefix = path.join(dir, 'prefix')
    mkdirSync(prefix)
    const install = await npm(
      ['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tarball],
      dir,
    )
    expect(install.stderr).not.toMatch(/ENOTCACHED|ERR!/)
    const bin = path.join(prefix, 'bin', 'site-staging')
    const installed = path.join(prefix, 'lib', 'node_modules', 'site-staging-action')
    // Only the package itself: no node_modules came with it.
    expect(readFileSync(path.join(installed, 'package.json'), 'utf8')).toContain(
      '"name": "site-staging-action"',
    )
    expect(existsSync(path.join(installed, 'node_modules'))).toBe(false)
    expect(existsSync(path.join(installed, 'dist', 'cli.js'))).toBe(true)

    // The bin link runs the bundle with the `node` on PATH (here the tests' own).
    const env = { PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin`, HOME: dir }
    const version = await run(bin, ['--version'], { env, cwd: dir })
    expect(version.stdout.trim()).toBe(pkg.version)

    // A real run, far from this repository's node_modules: the bundle needs nothing else.
    const create = await run(bin, ['create', '--site-id', String(SIM_SITES.eligible), '--json'], {
      env: { ...env, STAGING_API_TOKEN: SIM_TOKENS.readWrite, STAGING_API_URL: sim.apiUrl },
      cwd: dir,
    })
    expect(JSON.parse(create.stdout)).toMatchObject({
      operation: 'create',
      result: 'succeeded',
      stagingSiteId: 's-1001',
    })
    expect(create.stderr).toMatch(/^Staging create succeeded \(site 1001\)/m)
  })
})
