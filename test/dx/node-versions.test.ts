// Slow (about 20 s): the CLI bundle runs under every Node of engines' range that this machine has.
/**
 * Which Node the CLI needs. package.json `engines` is what CLI users see (npm warns below it); the
 * bundle dist/cli.js must really run on it. Here it runs under every Node of engines' range that
 * this machine has: the tests' own (24), every `node` on PATH and in /usr/bin, /usr/local/bin, and
 * any listed in SITE_STAGING_TEST_NODES (colon-separated paths to node binaries, e.g. one that
 * actions/setup-node installed at the lowest version engines allows).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals'
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { SIM_SITES, SIM_TOKENS, start, type Simulator } from '../../simulator/server.js'
import { ROOT } from '../helpers/run-action.js'
import { CLI_BUNDLE } from '../helpers/run-cli.js'

const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }
const FLOOR = Number(/^>=(\d+)$/.exec(pkg.engines.node)?.[1])

/** Node binaries on this machine, one per version: [version, path]. */
function nodes(): [string, string][] {
  const candidates = [process.execPath, '/usr/bin/node', '/usr/local/bin/node']
  try {
    candidates.push(...execFileSync('which', ['-a', 'node'], { encoding: 'utf8' }).split('\n'))
  } catch {
    // `which` found none besides the tests' own.
  }
  candidates.push(...(process.env.SITE_STAGING_TEST_NODES ?? '').split(':'))
  const byVersion = new Map<string, string>()
  for (const bin of candidates.filter((c) => c && existsSync(c))) {
    try {
      const version = execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim()
      if (!byVersion.has(version)) byVersion.set(version, bin)
    } catch {
      // not a working node
    }
  }
  return [...byVersion.entries()].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
}

const major = (version: string) => Number(/^v(\d+)\./.exec(version)?.[1])
const NODES = nodes().filter(([version]) => major(version) >= FLOOR)

function cli(node: string, args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(node, [CLI_BUNDLE, ...args], { env: { PATH: '/usr/bin:/bin', ...env } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

test('engines: the CLI needs Node 20 or later, and docs/development.md says so', () => {
  expect(pkg.engines.node).toBe('>=20')
  const doc = readFileSync(path.join(ROOT, 'docs/development.md'), 'utf8')
  expect(doc).toContain('`engines.node` is `>=20`')
  // The tests' own Node is one of the versions checked below.
  expect(NODES.map(([v]) => v)).toContain(process.version)
})

describe.each(NODES)('dist/cli.js on Node %s', (_version, node) => {
  let sim: Simulator
  beforeAll(async () => {
    sim = await start({ port: 0, durationsMs: { create: 300, pull: 200, push: 200, delete: 200 } })
  })
  afterAll(async () => {
    await sim?.stop()
  })
  beforeEach(() => sim.reset())
  const env = () => ({ STAGING_API_TOKEN: SIM_TOKENS.readWrite, STAGING_API_URL: sim.apiUrl })

  test('--help and --version', async () => {
    const help = await cli(node, ['--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/^Usage: site-staging <create\|pull\|push\|delete\|status\|rollback>/)
    const version = await cli(node, ['--version'])
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/)
  })

  test('create waits for the job; pull --no-wait is accepted; a mistyped flag is exit 2', async () => {
    const create = await cli(node, ['create', '--site-id', String(SIM_SITES.eligible), '--json'], env())
    expect(create.code).toBe(0)
    expect(JSON.parse(create.stdout)).toMatchObject({ result: 'succeeded', stagingSiteId: 's-1001' })

    const pull = await cli(
      node,
      ['pull', '--site-id', String(SIM_SITES.withStaging), '--no-wait', '--json'],
      env(),
    )
    expect(pull.code).toBe(0)
    expect(JSON.parse(pull.stdout)).toMatchObject({ result: 'accepted', requests: 1 })

    const typo = await cli(node, ['pull', '--sit-id', '1002'], env())
    expect(typo.code).toBe(2)
    expect(typo.stderr).toContain('unknown flag --sit-id (did you mean "--site-id"?)')
  })

  // Node before 24 warns past ten listeners on one AbortSignal ("MaxListenersExceededWarning:
  // Possible EventTarget memory leak detected"); every site of a batch listens to the same few.
  test('a batch of many sites at once writes no runtime warning', async () => {
    const sites: string[] = []
    for (let i = 0; i < 14; i++) {
      const res = await fetch(`${sim.apiUrl}/v2/sites`, {
        method: 'POST',
        headers: { authorization: `Bearer ${SIM_TOKENS.readWrite}`, 'content-type': 'application/json' },
        body: JSON.stringify({ site_name: `batch-${i}` }),
      })
      sites.push(String(((await res.json()) as { data: { id: number } }).data.id))
    }
    // Slow answers: every site's request is in flight at the same time.
    sim.addFault({ path: '/staging', times: Infinity, latencyMs: 400 })
    const run = await cli(node, ['create', '--site-id', sites.join(',')], env())
    expect(run.code).toBe(0)
    expect(run.stderr).toContain('14 succeeded')
    expect(run.stderr).not.toMatch(/Warning|\(node:\d+\)/)
  })
})
