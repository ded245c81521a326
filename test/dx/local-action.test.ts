// Slow (about 60 s): each run starts @github/local-action, which compiles src/ with tsx, plus the
// simulator's jobs in real time.
/**
 * `npm run local-action`: the action's entry module (src/main.ts, its run()) run by
 * @github/local-action against the simulator, as a newcomer runs it on a fresh clone.
 */
import { describe, expect, jest, test } from '@jest/globals'
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { SIM_TOKENS } from '../../simulator/server.js'
import { ROOT } from '../helpers/run-action.js'

// Each run is killed after 150 s (localAction below); a test waits a little longer.
jest.setTimeout(180_000)

interface Run {
  code: number | null
  stdout: string
  stderr: string
  /** The outputs as local-action printed them (`::set-output name=...::value`). */
  outputs: Record<string, string>
}

/** `npm run local-action -- ...args`, in a clean environment (no CI or GitHub variables). */
function localAction(args: string[], extraEnv: Record<string, string> = {}): Promise<Run> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' }
  for (const name of ['npm_config_cache', 'npm_config_userconfig', 'TMPDIR'])
    if (process.env[name]) env[name] = process.env[name]!
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', 'local-action', '--', ...args], {
      cwd: ROOT,
      env: { ...env, ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    // Generous: a run takes seconds on an idle machine, 40 s or more on a loaded one.
    const killer = setTimeout(() => child.kill('SIGKILL'), 150_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(killer)
      stdout = stripVTControlCharacters(stdout)
      const outputs: Record<string, string> = {}
      for (const m of stdout.matchAll(/^::set-output name=([\w-]+)::(.*)$/gm)) outputs[m[1]!] = m[2]!
      resolve({ code, stdout, stderr: stripVTControlCharacters(stderr), outputs })
    })
  })
}

/** Whether something still listens at this URL's port. */
function listening(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname)
    socket.on('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.on('error', () => resolve(false))
  })
}

const TOKEN = SIM_TOKENS.readWrite
const encodings = (s: string) => [s, Buffer.from(s).toString('base64'), Buffer.from(s).toString('hex')]

describe('npm run local-action', () => {
  test('with no arguments: create on site 1001 against the simulator, through local-action, succeeded', async () => {
    const r = await localAction([])
    const all = r.stdout + r.stderr
    expect(r.code).toBe(0)

    // local-action ran it: its banner sections, with our run() in between (it returned, the
    // process did not exit under local-action: the outputs table comes after it).
    const sections = ['Configuration', 'Action Metadata', 'Running Action', 'Action Outputs'].map((s) =>
      r.stdout.indexOf(`${' '.repeat(10)}${s}`),
    )
    for (const at of sections) expect(at).toBeGreaterThan(-1)
    expect([...sections].sort((a, b) => a - b)).toEqual(sections)
    const sim = /^Simulator listening on (http:\/\/127\.0\.0\.1:\d+)/m.exec(r.stdout)
    expect(sim).not.toBeNull()
    expect(r.stdout).toContain(`Inputs: operation=create site-id=1001 api-url=${sim![1]} api-token=***`)

    // The action's own log lines, as local-action's @actions/core stand-in prints them.
    expect(r.stdout).toMatch(/^::info::Waiting for the create job \(task [0-9a-f]+\) to finish/m)
    expect(r.stdout).toMatch(/^::info::Staging create succeeded \(site 1001\)/m)

    // Outputs set through core.setOutput, with what only the simulator could have answered.
    expect(r.outputs).toMatchObject({
      result: 'succeeded',
      'http-status': '202',
      'staging-site-id': 's-1001',
      'staging-url': `${sim![1]}/staging-sites/s-1001/`,
      retries: '0',
    })
    expect(r.outputs['task-id']).toMatch(/^[0-9a-f]{12}$/)
    const results = JSON.parse(r.outputs.results!) as { sent: string[] }[]
    expect(results[0]!.sent).toEqual(['POST /v2/sites/1001/staging -> 202'])
    // The outputs table repeats them after run() returned.
    expect(r.stdout.slice(sections[3])).toMatch(/'result'\s*│\s*'succeeded'/)

    // The job summary the action wrote (GITHUB_STEP_SUMMARY) is shown, then the result.
    expect(r.stdout).toContain('## ✅ Staging create: succeeded')
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('local-action: result succeeded')

    // The token appears nowhere, in no common encoding.
    for (const form of encodings(TOKEN)) expect(all).not.toContain(form)
    // No debug lines without step debug logging (the --inputs test turns it on).
    expect(r.stdout).not.toMatch(/^::debug::/m)

    // The simulator was stopped.
    expect(await listening(sim![1]!)).toBe(false)
  })

  test('--inputs FILE and name=value: a later name=value wins; a refused create fails the run (exit 1) with the error from the action', async () => {
    // One run for both (each run of local-action compiles the sources again, about 4 s of CPU).
    const dir = mkdtempSync(path.join(tmpdir(), 'local-action-test-'))
    try {
      const file = path.join(dir, 'my.env')
      writeFileSync(
        file,
        "# my inputs\nINPUT_OPERATION=pull\nINPUT_SITE-ID='1001'\nINPUT_IF-MISSING=skip\nACTIONS_STEP_DEBUG=true\n",
      )
      const r = await localAction(['--inputs', file, 'operation=create', 'site-id=2001'])
      // The command line's operation and site: a create on 2001, which the simulator refuses (403).
      expect(r.outputs.result).toBe('failed')
      expect(r.outputs['http-status']).toBe('403')
      expect(JSON.parse(r.outputs.results!)[0].sent).toEqual(['POST /v2/sites/2001/staging -> 403'])
      expect(r.stdout).toMatch(/^::error::/m)
      expect(r.stdout).toContain('local-action: result failed')
      expect(r.code).toBe(1)
      // Step debug logging on (a variable of the file): the action's debug lines, one per request.
      expect(r.stdout).toMatch(/^::debug::POST \/v2\/sites\/2001\/staging$/m)
      for (const form of encodings(TOKEN)) expect(r.stdout + r.stderr).not.toContain(form)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('the token is refused on the command line, without being echoed', async () => {
    const r = await localAction(['api-token=secret-value-123456'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/token is not taken from the command line/)
    // (npm itself echoes the script's command line, `> node scripts/local-action.mjs ...`, first.)
    const ours = (r.stdout + r.stderr).split('\n').filter((l) => !l.startsWith('> '))
    expect(ours.join('\n')).not.toContain('secret-value-123456')
  })

  test('an --inputs file that cannot be read: exit 2, nothing started', async () => {
    const r = await localAction(['--inputs', '/nonexistent/my.env'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/^local-action: --inputs \/nonexistent\/my\.env: ENOENT/m)
    expect(r.stdout).not.toContain('Simulator listening')
  })
})
