// The CLI as a function (src/cli/run.ts) and the one report assembly both front doors share.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import { dotenvKey } from '../../src/cli/dotenv.js'
import { assembleReport } from '../../src/report/assembly.js'
import { OUTPUT_NAMES } from '../../src/report/outputs.js'
import { SIM_SITES, SIM_TOKENS, start, type Simulator } from '../../simulator/server.js'
import { ROOT } from '../helpers/run-action.js'
import { createdResult } from '../helpers/fakes.js'

function io() {
  let stdout = ''
  const stderr = new PassThrough()
  let err = ''
  stderr.on('data', (d: Buffer) => (err += d.toString()))
  return {
    io: {
      stdout: { write: (t: string) => (stdout += t) },
      stderr: stderr as unknown as NodeJS.WriteStream,
      cancelOn: () => new AbortController().signal,
    },
    out: () => stdout,
    err: () => err,
  }
}

describe('run(argv, env, io)', () => {
  let sim: Simulator
  beforeAll(async () => {
    sim = await start({ port: 0 })
  })
  afterAll(async () => {
    await sim.stop()
  })

  it('importing the module does nothing: no signal handler, no output', async () => {
    const before = process.listenerCount('SIGINT') + process.listenerCount('SIGTERM')
    const { run } = await import('../../src/cli/run.js')
    expect(typeof run).toBe('function')
    expect(process.listenerCount('SIGINT') + process.listenerCount('SIGTERM')).toBe(before)
  })
  it('--version: exit 0, the version on stdout', async () => {
    const { run } = await import('../../src/cli/run.js')
    const t = io()
    expect(await run(['--version'], {}, t.io)).toBe(0)
    expect(t.out().trim()).toMatch(/^\d+\.\d+\.\d+/)
  })
  it('bad usage: exit 2, the reason on stderr, nothing on stdout', async () => {
    const { run } = await import('../../src/cli/run.js')
    const t = io()
    expect(await run(['status', '--sit-id', '1'], {}, t.io)).toBe(2)
    expect(t.err()).toMatch(/unknown flag --sit-id \(did you mean "--site-id"\?\)/)
    expect(t.out()).toBe('')
  })
  it('a status run against the simulator: exit 0, --json on stdout, the final line last on stderr', async () => {
    const { run } = await import('../../src/cli/run.js')
    const t = io()
    const env = { STAGING_API_TOKEN: SIM_TOKENS.readWrite, STAGING_API_URL: sim.apiUrl }
    const code = await run(['status', '--site-id', String(SIM_SITES.withStaging), '--json'], env, t.io)
    expect(code).toBe(0)
    expect(JSON.parse(t.out())).toMatchObject({
      operation: 'status',
      result: 'succeeded',
      stagingState: 'ready',
    })
    expect(t.err().trim().split('\n').at(-1)).toMatch(/^Staging status succeeded \(site 1002\)/)
    expect(t.err() + t.out()).not.toContain(SIM_TOKENS.readWrite)
  })
})

describe('assembleReport', () => {
  it('one site: warnings once, no error when it succeeded', () => {
    const r = createdResult({ warnings: ['w1', 'w1', 'w2'], stagingUrl: 'https://s.example.test' })
    const report = assembleReport([r], 1234)
    expect(report).toMatchObject({ failed: false, warnings: ['w1', 'w2'], errors: [] })
    expect(report.outputs.result).toBe('succeeded')
    expect(report.outputs['duration-seconds']).toBe(String(r.durationSeconds))
    expect(assembleReport([r, r], 1234).outputs['duration-seconds']).toBe('1.2')
  })
  it('a batch: warnings of all sites once, one error per failed site', () => {
    const ok = createdResult({ siteId: '1001', warnings: ['same'], stagingUrl: 'https://a.example.test' })
    const bad = createdResult({
      siteId: '1002',
      result: 'failed',
      warnings: ['same'],
      stagingUrl: null,
      error: { kind: 'busy', hint: 'wait' },
    })
    const late = createdResult({
      siteId: '1003',
      result: 'timed-out',
      stagingUrl: null,
      error: { kind: 'timeout', hint: 'later' },
    })
    const report = assembleReport([ok, bad, late], 0)
    expect(report.failed).toBe(true)
    expect(report.warnings).toEqual(['same'])
    expect(report.errors).toEqual([
      { title: 'Staging create failed (site 1002)', hint: 'wait' },
      { title: 'Staging create timed-out (site 1003)', hint: 'later' },
    ])
    expect(report.finalLine).toMatch(/on 3 sites/)
  })
})

describe('docs/cli.md on --dotenv', () => {
  const doc = readFileSync(path.join(ROOT, 'docs/cli.md'), 'utf8')
  const section = doc.slice(doc.indexOf('### `--dotenv FILE`'))
  it('its example has every key the file has, in order', () => {
    const block = /```text\n([\s\S]*?)```/.exec(section)![1]!
    const keys = block
      .trim()
      .split('\n')
      .map((l) => l.slice(0, l.indexOf('=')))
    expect(keys).toEqual(OUTPUT_NAMES.map(dotenvKey))
  })
  it('says how many keys there are', () => {
    const words = [
      'zero',
      'one',
      'two',
      'three',
      'four',
      'five',
      'six',
      'seven',
      'eight',
      'nine',
      'ten',
      'eleven',
      'twelve',
      'thirteen',
      'fourteen',
      'fifteen',
    ]
    expect(section).toContain(`Always these ${words[OUTPUT_NAMES.length]} keys`)
  })
})
