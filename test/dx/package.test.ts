// Slow (about 10 s): the packed tarball is installed offline and its `site-staging` run.
/**
 * The npm package `site-staging` as a CLI user gets it: `npm pack` ships the CLI bundle
 * (dist/cli.js, self-contained), README and LICENSE, with no runtime dependencies; the tarball
 * installs offline (nothing to fetch) and its `site-staging` runs, from outside this repository,
 * against the simulator: --version, and a real pull.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { execFile } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { SIM_SITES, SIM_TOKENS, start, type Simulator } from '../../simulator/server.js'
import { packed as pack } from '../helpers/pack.js'
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

// The run's one `npm pack` (test/helpers/pack.ts): its report (what `--dry-run` would print: the
// same list and size) and its tarball.
describe('npm pack', () => {
  test('the CLI bundle, README, LICENSE and package.json, nothing else', async () => {
    const { report } = await pack()
    expect(report.name).toBe('site-staging')
    // The action is not in it: GitHub runs it from the repository at a tag, never from npm.
    expect(report.files.map((f) => f.path).sort()).toEqual([
      'LICENSE',
      'README.md',
      'dist/cli.js',
      'dist/package.json',
      'package.json',
    ])
    // Well under a megabyte compressed: no sources, tests, node_modules or benchmark results.
    expect(report.size).toBeLessThan(1_000_000)
  })
})

// Issue 24 §11: the npm package's README is the CLI's (docs/npm-README.md), packed in place of the
// action's README.md by the prepack script when publishing; a pack for publishing stops while it
// names the OWNER placeholder. Run in a copy of the package: packing swaps README.md for a moment.
describe("the package's README", () => {
  let copy: string
  beforeAll(() => {
    copy = path.join(dir, 'readme-copy')
    for (const rel of [
      'package.json',
      'README.md',
      'LICENSE',
      'dist/cli.js',
      'dist/package.json',
      'docs/npm-README.md',
      'scripts/npm-readme.mjs',
      'scripts/set-owner.mjs',
    ])
      cpSync(path.join(ROOT, rel), path.join(copy, rel))
  })
  const actionReadme = () => readFileSync(path.join(ROOT, 'README.md'), 'utf8')
  const asPublished = { ...process.env, SITE_STAGING_CLI_README: '1', npm_config_loglevel: 'error' }

  test('publishing stops while the README names the OWNER placeholder; README.md is left as it was', async () => {
    for (const args of [
      ['pack', '--json', '--pack-destination', dir],
      ['publish', '--dry-run', '--registry', 'http://127.0.0.1:9'],
    ]) {
      const env = args[0] === 'publish' ? { ...process.env, npm_config_loglevel: 'error' } : asPublished
      const failed = await run('npm', [...args, '--cache', path.join(dir, 'npm-cache')], {
        cwd: copy,
        env,
      }).then(
        () => null,
        (e: { stderr: string }) => e,
      )
      expect(failed?.stderr).toContain(
        'docs/npm-README.md still names OWNER: run "npm run release:set-owner -- NAME" first.',
      )
      expect(readFileSync(path.join(copy, 'README.md'), 'utf8')).toBe(actionReadme())
    }
  })

  test("once the owner is set, the tarball's README.md is the CLI's, without the not-yet note", async () => {
    await run(process.execPath, ['scripts/set-owner.mjs', 'acme-web'], { cwd: copy })
    const stampedReadme = readFileSync(path.join(copy, 'README.md'), 'utf8')
    expect(stampedReadme).toContain('uses: acme-web/site-staging-action@v1')
    const out = path.join(dir, 'readme-pack')
    mkdirSync(out)
    const { stdout } = await run(
      'npm',
      ['pack', '--json', '--pack-destination', out, '--cache', path.join(dir, 'npm-cache')],
      { cwd: copy, env: asPublished },
    )
    const tarball = path.join(out, (JSON.parse(stdout) as { filename: string }[])[0]!.filename)
    await run('tar', ['-xzf', tarball, '-C', out])
    const packed = readFileSync(path.join(out, 'package', 'README.md'), 'utf8')
    expect(packed).toMatch(/^# site-staging\n/)
    expect(packed).toContain('npx site-staging@1 create --site-id 1001')
    expect(packed).toContain('git clone https://github.com/acme-web/site-staging-action.git')
    expect(packed).not.toMatch(/not-yet-published|Not on npm yet|\bOWNER\b/)
    // Not the action's: no workflow, no `uses:`.
    expect(packed).not.toMatch(/uses: |\.github\/workflows/)
    // The copy's README.md is the action's again.
    expect(readFileSync(path.join(copy, 'README.md'), 'utf8')).toBe(stampedReadme)
  })
})

test("the release job puts the CLI's README in place before its publish, which runs no scripts", () => {
  const release = readFileSync(path.join(ROOT, '.github/workflows/release.yml'), 'utf8')
  const prepack = release.indexOf('node scripts/npm-readme.mjs prepack')
  const publish = release.indexOf('npm publish --provenance')
  expect(prepack).toBeGreaterThan(0)
  expect(publish).toBeGreaterThan(prepack)
  expect(release.slice(release.lastIndexOf('- name:', prepack), prepack)).toContain(
    "SITE_STAGING_CLI_README: '1'",
  )
})

describe('the tarball', () => {
  let tarball: string
  beforeAll(async () => {
    tarball = (await pack()).tarball
    await run('tar', ['-xzf', tarball, '-C', dir])
  })

  test('its package.json: publishable, no dependencies, the CLI as bin, the Node it needs', () => {
    const packed = JSON.parse(readFileSync(path.join(dir, 'package', 'package.json'), 'utf8'))
    expect(packed.name).toBe('site-staging')
    expect(packed.private).toBeUndefined()
    expect(packed.publishConfig).toEqual({ access: 'public', provenance: true })
    // npm provenance ties the package to this repository: the field must name it.
    expect(packed.repository.url).toMatch(/^git\+https:\/\/github\.com\/[\w.-]+\/site-staging-action\.git$/)
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
    const installed = path.join(prefix, 'lib', 'node_modules', 'site-staging')
    // Only the package itself: no node_modules came with it.
    expect(readFileSync(path.join(installed, 'package.json'), 'utf8')).toContain('"name": "site-staging"')
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

    // And a pull of a site that has staging, as `npx site-staging@1 pull --site-id 1002` would.
    const pull = await run(
      bin,
      ['pull', '--site-id', String(SIM_SITES.withStaging), '--dotenv', 'pull.env'],
      {
        env: { ...env, STAGING_API_TOKEN: SIM_TOKENS.readWrite, STAGING_API_URL: sim.apiUrl },
        cwd: dir,
      },
    )
    expect(pull.stderr).toMatch(/^Staging pull succeeded \(site 1002\)/m)
    expect(readFileSync(path.join(dir, 'pull.env'), 'utf8')).toMatch(/^RESULT=succeeded$/m)
    expect(sim.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/staging/reset'))).toHaveLength(
      1,
    )
  })
})
