// Slow (about 8 s): the terminal run's create takes 6 s, long enough for several redraws of the line.
/**
 * The CLI's progress on an interactive terminal: one live line (percentage, elapsed, estimated
 * time left) redrawn in place under the log, cleared at the end; in CI logs (stderr not a terminal)
 * plain lines now and then, with no carriage return or escape sequence at all.
 *
 * The terminal runs are dist/cli.js (npm run build) against the simulator, with stderr on a
 * pseudo-terminal (./pty.ts) and stdout a pipe. The CI log (stderr a pipe, where a plain line comes
 * every 15 s) runs in virtual time: test/unit/cli-plain-progress.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { Writable } from 'node:stream'
import { SIM_SITES, SIM_TOKENS, start, type Simulator } from '../../simulator/server.js'
import { LiveLine } from '../../src/cli/progress.js'
import { CLI_BUNDLE } from '../helpers/run-cli.js'
import { runOnPty, screen, type PtyResult } from './pty.js'

const ERASE = '\r\u001b[2K'
/** The live line of one job, as LiveLine renders it. */
const LIVE = /^create on site 1001: (\d+%|…), \d+s elapsed(, about \d+s left)?$/
const COLUMNS = 100
/** Carriage returns and escape characters in a text. */
const terminalCodes = (text: string) => [...text].filter((c) => c === '\r' || c === '\u001b')

let sim: Simulator
let tty: PtyResult
beforeAll(async () => {
  // create long enough for several redraws.
  sim = await start({ port: 0, durationsMs: { create: 6000, pull: 200, push: 200, delete: 200 } })
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    STAGING_API_TOKEN: SIM_TOKENS.readWrite,
    STAGING_API_URL: sim.apiUrl,
  }
  // A person at a terminal.
  tty = await runOnPty(
    [process.execPath, CLI_BUNDLE, 'create', '--site-id', String(SIM_SITES.eligible), '--verbose', '--json'],
    { columns: COLUMNS, env: { ...env, TERM: 'xterm-256color' } },
  )
}, 120_000)
afterAll(async () => {
  await sim?.stop()
})

describe('on a terminal', () => {
  test('the run succeeds; stdout (a pipe) has the JSON and no terminal codes', () => {
    expect(tty.code).toBe(0)
    expect(JSON.parse(tty.stdout)).toMatchObject({ operation: 'create', siteId: '1001', result: 'succeeded' })
    expect(terminalCodes(tty.stdout)).toEqual([])
  })

  test('one live line, redrawn in place: every draw starts with \\r and erase-line, never wraps', () => {
    const draws = tty.terminal.split(ERASE).filter((s) => /^create on site/.test(s))
    // Several updates (percentages, elapsed time), each drawn over the last.
    expect(draws.length).toBeGreaterThanOrEqual(4)
    for (const d of draws) {
      const text = d.split('\n')[0]!
      expect(text).toMatch(LIVE)
      expect(text.length).toBeLessThan(COLUMNS)
    }
    expect(new Set(draws.map((d) => /(\d+)%/.exec(d)?.[1])).size).toBeGreaterThanOrEqual(2)
    expect(new Set(draws.map((d) => /(\d+)s elapsed/.exec(d)?.[1])).size).toBeGreaterThanOrEqual(3)
    // No live text is ever written but right after \r + erase-line.
    expect(tty.terminal.split('create on site 1001:').length - 1).toBe(draws.length)
    // The plain lines are for logs, not for the terminal.
    expect(tty.terminal).not.toContain('still running after')
  })

  test('log lines appear above it, and it is drawn again below them', () => {
    // A debug line during the job: the live line is erased, the line printed, the live line redrawn.
    const segments = tty.terminal.split(ERASE)
    const between = segments.filter(
      (s, i) =>
        /^debug: GET \/v2\/tasks\/[0-9a-f]+\/status\n$/.test(s) &&
        LIVE.test(segments[i - 1] ?? '') &&
        LIVE.test(segments[i + 1] ?? ''),
    )
    expect(between.length).toBeGreaterThanOrEqual(1)
  })

  test('what the terminal shows at the end: the log and the final line, no progress left over', () => {
    const { lines, current } = screen(tty.terminal)
    // A live line never reached the scrollback (it would if a "\n" or a log line followed it
    // without an erase), and it was cleared at the end.
    for (const line of lines) expect(line).not.toMatch(/create on site 1001:/)
    expect(current).toBe('')
    expect(lines[0]).toBe('debug: POST /v2/sites/1001/staging')
    expect(lines).toContainEqual(
      expect.stringMatching(/^Waiting for the create job \(task [0-9a-f]+\) to finish…$/),
    )
    expect(lines).toContainEqual(expect.stringMatching(/^The create job on site 1001 finished after \d+s\.$/))
    expect(lines).toContain(`Staging URL: ${sim.url}/staging-sites/s-1001/`)
    expect(lines.at(-1)).toMatch(/^Staging create succeeded \(site 1001\)\. .*Staging created in \d+s\.$/)
  })
})

/** A stand-in terminal for LiveLine: what it was sent. */
function fakeTerminal(columns: number) {
  let written = ''
  const stream = new Writable({
    write(chunk, _encoding, done) {
      written += String(chunk)
      done()
    },
  }) as unknown as NodeJS.WriteStream
  Object.assign(stream, { isTTY: true, columns })
  return { stream, written: () => written }
}

describe('LiveLine', () => {
  const update = { operation: 'create' as const, siteId: '1001', elapsedMs: 5000 }

  test('on a narrow terminal, the line is cut to fit (one row, so \\r and erase-line clear it)', () => {
    for (const columns of [12, 30]) {
      const t = fakeTerminal(columns)
      const live = new LiveLine(t.stream, {})
      live.update({ ...update, percent: 45, etaMs: 90_000 })
      live.stop()
      const drawn = t.written().split(ERASE).filter(Boolean)
      expect(drawn).toHaveLength(1)
      expect(drawn[0]!.length).toBe(columns - 1)
      expect(drawn[0]!.endsWith('…')).toBe(true)
      expect(t.written().endsWith(ERASE)).toBe(true)
    }
  })

  test('the estimate shows while time is left, and goes once it is used up', () => {
    const t = fakeTerminal(80)
    const live = new LiveLine(t.stream, {})
    const now = performance.now()
    live.update({ ...update, percent: 50, etaMs: 5000 })
    expect(live.render(now)).toBe('create on site 1001: 50%, 5s elapsed, about 5s left')
    expect(live.render(now + 4000)).toBe('create on site 1001: 50%, 9s elapsed, about 1s left')
    expect(live.render(now + 6000)).toBe('create on site 1001: 50%, 11s elapsed')
    live.stop()
  })

  test('when the process exits with the line drawn (a second Ctrl-C), the line is cleared', () => {
    const before = new Set(process.listeners('exit'))
    const t = fakeTerminal(80)
    const live = new LiveLine(t.stream, {})
    const added = process.listeners('exit').filter((l) => !before.has(l))
    expect(added).toHaveLength(1)
    live.update({ ...update, percent: 10, etaMs: null })
    expect(t.written().endsWith(ERASE)).toBe(false)
    added[0]!.call(process, 1)
    expect(t.written().endsWith(ERASE)).toBe(true)
    process.removeListener('exit', added[0]!)
  })

  test('off when stderr is not a terminal, when CI is set, or when TERM is dumb', () => {
    const t = fakeTerminal(80)
    expect(new LiveLine(t.stream, {}).enabled).toBe(true)
    expect(new LiveLine(t.stream, { CI: 'true' }).enabled).toBe(false)
    expect(new LiveLine(t.stream, { TERM: 'dumb' }).enabled).toBe(false)
    Object.assign(t.stream, { isTTY: false })
    const off = new LiveLine(t.stream, {})
    expect(off.enabled).toBe(false)
    off.update({ ...update, percent: 10, etaMs: null })
    off.print('a log line')
    off.stop()
    expect(t.written()).toBe('a log line\n')
  })
})
