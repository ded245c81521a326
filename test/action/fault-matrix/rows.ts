/**
 * The fault matrix of issue 4, as data: every row is one run of the action against the simulator's
 * fault injection. A row runs in virtual time, in process (`virtual.test.ts`), unless it needs the
 * bundle (a signal, an environment of its own, or a `bundle` reason: matrix.ts, runsWhole); then it
 * is a run of dist/index.js in a shard (`shard-N.test.ts`, see SHARD_COUNT), as is every row's CLI
 * run. The table of docs/reliability.md is rendered from ALL rows (`reliability-table.test.ts`
 * checks it cannot drift; `npm run reliability:update` rewrites it).
 *
 * To add a row: append it to ROWS under its section. Nothing else: matrix.ts places it, and the
 * table numbers it i + 1. Rebuild the table with `npm run build && npm run reliability:update`.
 */
import { expect } from '@jest/globals'
import { mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { markerFor } from '../../../src/report/comment.js'
import { addVersion } from '../../../simulator/routes/versions.js'
import type { FaultRule, Simulator } from '../../../simulator/server.js'
import { BOT, eventEnv, virtualFakeGitHub } from '../../github/fake-github.js'
import { ROOT, leaks, type RunOptions, type RunResult } from '../../helpers/run-action.js'
import { RW, finishNow, sentTo } from '../../helpers/sim.js'
import type { VirtualFaultSim, VirtualGitHub } from '../../helpers/virtual-action.js'

/**
 * The simulator as a row sees it: the HTTP server (simulator/server.ts) for a whole-action run, or
 * its API core on a virtual clock (test/helpers/virtual-action.ts).
 */
export type RowSim = Pick<
  Simulator,
  'url' | 'apiUrl' | 'state' | 'requests' | 'siteRequests' | 'addFault' | 'setOptions' | 'core'
>

export interface Row {
  scenario: string
  operation: 'create' | 'pull' | 'push' | 'delete'
  /** The `result` output expected. */
  result: string
  /** What the action does, for docs/reliability.md. */
  does: string
  site?: string
  inputs?: Record<string, string>
  faults?: FaultRule[]
  setup?: (sim: RowSim) => Promise<void> | void
  options?: RunOptions
  check?: (run: RunResult, sim: RowSim) => void | Promise<void>
  /**
   * GitHub for the run, made after `setup` on the row's simulator: the event's context and the fake
   * API's fetch (test/github/fake-github.ts's virtualFakeGitHub on the simulator's virtual clock),
   * passed to runActionVirtually. Such a row runs in virtual time only (matrix.ts).
   */
  github?: (sim: VirtualFaultSim) => VirtualGitHub
  /**
   * Why the row runs dist/index.js in a child process although it has no signal, environment or
   * CLI run of its own (a real socket, the real stdout). Without one it runs in virtual time, in
   * this process (matrix.ts, runsWhole).
   */
  bundle?: string
  /**
   * Also run the same scenario through the CLI (dist/cli.js): same result, nothing leaked, and its
   * stderr as inert as the action's log.
   */
  cli?: boolean
}

const OP_PATH = {
  create: '/staging',
  pull: '/staging/reset',
  push: '/staging/push',
  delete: '/staging',
} as const
const OP_METHOD = { create: 'POST', pull: 'POST', push: 'POST', delete: 'DELETE' } as const
export const defaultSite = (op: Row['operation']) => (op === 'create' ? '1001' : '1002')

/**
 * Requests of the operation itself that the server carried out (the job started): answered 2xx,
 * or processed and then answered with a fault or not at all. Busy refusals do not count.
 */
export function processed(sim: RowSim, op: Row['operation'], site: string) {
  return sentTo(sim, OP_METHOD[op], `/sites/${site}${OP_PATH[op]}`).filter(
    (r) => r.processed && (typeof r.status !== 'number' || r.status < 300 || r.faulted),
  )
}
export function delivered(sim: RowSim, op: Row['operation'], site: string) {
  return sentTo(sim, OP_METHOD[op], `/sites/${site}${OP_PATH[op]}`)
}
/** The pull a busy-site row started last (to end it on purpose: endPull). */
const pull = { sim: null as RowSim | null, taskId: '' }
/** Starts a pull as another job would (straight to the API, not a request of the run). */
function startPull(sim: RowSim, site: string) {
  const res = sim.core.handle({
    method: 'POST',
    path: `${new URL(sim.apiUrl).pathname.replace(/\/$/, '')}/v2/sites/${site}/staging/reset`,
    headers: { authorization: `Bearer ${RW}`, 'content-type': 'application/json' },
  })
  expect(res.status).toBe(202)
  Object.assign(pull, { sim, taskId: (JSON.parse(res.body) as { data: { task_id: string } }).data.task_id })
}
/** Ends that pull now, as if its time had passed (on the simulator's own clock). */
const endPull = () => finishNow(pull.sim!, pull.taskId, pull.sim!.core.clock.now())
const storm = (n: number, retryAfter?: number | string): FaultRule => ({
  method: 'POST',
  path: '/staging/push',
  status: 429,
  times: n,
  ...(retryAfter !== undefined ? { retryAfter } : {}),
})

/** Where a redirect points: records whatever reaches it. */
export const elsewhere = {
  url: '',
  hits: [] as http.IncomingHttpHeaders[],
  server: null as http.Server | null,
}
/** An https api-url whose TLS handshake always fails: the server drops the connection at its first byte. */
export const tls = { port: 0, connections: 0, server: null as net.Server | null }

/** Starts the servers the rows point at (each shard calls it once, in its beforeAll). */
export async function startFixtures(): Promise<void> {
  elsewhere.server = http.createServer((req, res) => {
    elsewhere.hits.push(req.headers)
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":true,"message":"ok","data":{}}')
  })
  await new Promise<void>((r) => elsewhere.server!.listen(0, '127.0.0.1', r))
  elsewhere.url = `http://127.0.0.1:${(elsewhere.server!.address() as AddressInfo).port}`
  tls.server = net.createServer((socket) => {
    tls.connections++
    socket.once('data', () => socket.destroy())
  })
  await new Promise<void>((r) => tls.server!.listen(0, '127.0.0.1', r))
  tls.port = (tls.server.address() as AddressInfo).port
}
export function stopFixtures(): void {
  elsewhere.server?.close()
  tls.server?.close()
}
/** Before each row: what the fixtures recorded so far is forgotten. */
export function resetFixtures(): void {
  elsewhere.hits.length = 0
  tls.connections = 0
}

/** The fake GitHub API of the comment row and the folder of its event file, made by the row's `github`. */
const hub = { gh: null as ReturnType<typeof virtualFakeGitHub> | null, dir: '' }

/** NODE_OPTIONS for a run whose wall clock steps by `stepMs` `afterMs` after it starts (an NTP correction). */
const wallClockStep = (afterMs: number, stepMs: number): RunOptions => ({
  env: {
    NODE_OPTIONS: `--import ${path.join(ROOT, 'test/helpers/clock-step.mjs')}`,
    CLOCK_STEP_AFTER_MS: String(afterMs),
    CLOCK_STEP_MS: String(stepMs),
  },
  killAfterMs: 40_000,
})
const HOUR = 3_600_000
const pushes = (s: RowSim, site = '1002') => sentTo(s, 'POST', `/sites/${site}/staging/push`)

/** An SSH private key as a server hands it out: several lines, its body in long base64 lines. */
const SSH_KEY = [
  '-----BEGIN OPENSSH PRIVATE KEY-----',
  'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW',
  'QyNTUxOQAAACDx1fQ7m2vJc9Pj0eXq8Lr3Kw5zT6uH4bN1yA2sD3fG4hAAAAJgq1w2Eq9c',
  'NgAAAAtzc2gtZWQyNTUxOQAAACDx1fQ7m2vJc9Pj0eXq8Lr3Kw5zT6uH4bN1yA2sD3fG4h',
  '-----END OPENSSH PRIVATE KEY-----',
].join('\n')
/** Parts of the key's body that must appear nowhere (each line, and a stretch across a line end). */
const KEY_PARTS = [...SSH_KEY.split('\n').slice(1, 4), 'ZW QyNTUxOQAAACDx', 'ZWQyNTUxOQAAACDx1fQ']
const noKeyIn = (text: string) => {
  for (const part of KEY_PARTS) expect(leaks(text, part)).toEqual([])
}
/** A framework personal access token: `id|secret`. */
const PAT_SECRET = 'Zk3vQ9mX2pL7wR4tY8uB1nC6dF0gH5jK9sA2eW7q'
/** A token with the characters PHP's rawurlencode encodes and encodeURIComponent does not. */
const ODD_TOKEN = "Tk!0*9'(aZ)~8_x-7.yQ3wE5rT"
const rawurlencode = (text: string) =>
  [...Buffer.from(text)]
    .map((b) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('')

export const ROWS: Row[] = [
  // Rate limiting
  {
    scenario: '429 storm with Retry-After',
    operation: 'push',
    result: 'succeeded',
    does: 'waits as told, sends again, pushes once',
    faults: [storm(3, 1)],
    check: (run) => expect(run.outputs.retries).toBe('3'),
  },
  {
    scenario: '429 storm without Retry-After',
    operation: 'push',
    result: 'succeeded',
    does: 'backs off with jitter, pushes once',
    faults: [storm(3)],
    check: (run) => expect(run.outputs.retries).toBe('3'),
  },
  {
    scenario: '429 storm longer than max-retries',
    operation: 'push',
    result: 'failed',
    does: 'stops after max-retries; says it is rate limited',
    inputs: { 'max-retries': '2' },
    faults: [storm(10, 0)],
    check: (run) => {
      expect(run.outputs['http-status']).toBe('429')
      expect(run.stdout).toMatch(/rate limited/)
    },
  },
  // 503: not processed, retried for every operation
  ...(['json', 'html', 'empty'] as const).map((body): Row => ({
    scenario: `503 with ${body === 'json' ? 'a JSON' : body === 'html' ? 'an HTML' : 'an empty'} body`,
    operation: 'push',
    result: 'succeeded',
    does: 'not processed: sends again, pushes once',
    faults: [{ method: 'POST', path: '/staging/push', status: 503, body, times: 2 }],
  })),
  // 502 / 504: outcome unknown, never sent again for push
  ...([502, 504] as const).flatMap((status) =>
    (['json', 'html', 'empty'] as const).map((body): Row => ({
      scenario: `${status} with ${body === 'json' ? 'a JSON' : body === 'html' ? 'an HTML' : 'an empty'} body, after processing`,
      operation: 'push',
      result: 'failed',
      does: 'outcome unknown: not sent again; says how to check',
      faults: [{ method: 'POST', path: '/staging/push', status, body, process: true }],
      check: (run) => {
        // The message output is the server's own words; our explanation is in the log and summary.
        if (body === 'json') expect(run.outputs.message).toMatch(/simulated fault/)
        expect(run.stdout).toMatch(/outcome of the push request is unknown/)
        expect(run.summary).toMatch(/outcome of the push request is unknown/)
        expect(run.stdout).toMatch(/run this action with operation: status, site-id: 1002/)
      },
    })),
  ),
  // 500 on each operation
  {
    scenario: '500 on create (the job started)',
    operation: 'create',
    result: 'succeeded',
    does: 'sends again; the 409 that follows shows the first went through: follows it',
    faults: [{ method: 'POST', path: '/sites/1001/staging', status: 500, process: true }],
    check: (run, s) => {
      expect(processed(s, 'create', '1001').filter((r) => r.status === 202 || r.status === 500)).toHaveLength(
        1,
      )
      expect(run.stdout).toMatch(/first try went through/)
    },
  },
  {
    scenario: '500 on pull (the job did not start)',
    operation: 'pull',
    result: 'succeeded',
    does: 'a pull only overwrites staging: sends again',
    faults: [{ method: 'POST', path: '/staging/reset', status: 500 }],
  },
  {
    scenario: '500 on push',
    operation: 'push',
    result: 'failed',
    does: 'outcome unknown: not sent again',
    faults: [{ method: 'POST', path: '/staging/push', status: 500 }],
  },
  {
    scenario: '500 on delete',
    operation: 'delete',
    result: 'failed',
    does: 'outcome unknown: not sent again',
    faults: [{ method: 'DELETE', path: '/staging', status: 500 }],
  },
  // Connections
  {
    scenario: 'hung request on push',
    operation: 'push',
    result: 'failed',
    does: 'the request time limit ends it; outcome unknown; not sent again',
    inputs: { timeout: '20s' },
    faults: [{ method: 'POST', path: '/staging/push', hang: true }],
  },
  {
    scenario: 'hung request on pull',
    operation: 'pull',
    result: 'succeeded',
    does: 'the request time limit ends it; sends the pull again',
    inputs: { timeout: '20s' },
    faults: [{ method: 'POST', path: '/staging/reset', hang: true }],
  },
  {
    scenario: 'connection dropped before processing (push)',
    operation: 'push',
    result: 'failed',
    does: 'cannot know: outcome unknown; not sent again; production untouched',
    faults: [{ method: 'POST', path: '/staging/push', drop: 'before' }],
    check: (_, s) => expect(s.state.purges).toHaveLength(0),
  },
  {
    scenario: 'connection dropped after processing (delete)',
    operation: 'delete',
    result: 'failed',
    does: 'outcome unknown: not sent again',
    faults: [{ method: 'DELETE', path: '/staging', drop: 'after' }],
  },
  {
    scenario: 'connection refused (nothing listening)',
    operation: 'push',
    result: 'failed',
    does: 'nothing was sent: tries again up to max-retries, then says the API cannot be reached',
    bundle: 'a port where nothing listens',
    inputs: { 'api-url': 'http://127.0.0.1:9', 'max-retries': '2' },
    check: (run) => {
      expect(run.outputs.requests).toBe('3')
      expect(run.outputs.message).toMatch(/ECONNREFUSED/)
    },
  },
  {
    scenario: 'added latency (1.5 s on every status call)',
    operation: 'pull',
    result: 'succeeded',
    does: 'slow answers are waited for; nothing is sent twice',
    faults: [{ method: 'GET', path: '/tasks/', latencyMs: 1500, times: Infinity }],
  },
  // Jobs
  {
    scenario: 'task ends in error',
    operation: 'pull',
    result: 'failed',
    does: "fails with the task's reason",
    faults: [{ method: 'POST', path: '/staging/reset', taskError: 'disk quota exceeded' }],
    check: (run) => expect(run.outputs.message).toMatch(/disk quota exceeded/),
  },
  {
    scenario: 'task invisible (404) for 3 s',
    operation: 'pull',
    result: 'succeeded',
    does: 'a 404 in the first 30 s is "not yet": keeps waiting',
    setup: (s) => s.setOptions({ taskVisibilityDelayMs: 3000 }),
  },
  // Site state
  {
    scenario: 'busy site (a pull is running)',
    operation: 'push',
    result: 'succeeded',
    does: 'if-busy: wait: waits for it, then pushes once',
    // A long pull, ended once the action has said the site is busy: no race with a short one.
    setup: (s) => {
      s.setOptions({ durationsMs: { pull: 60_000 } })
      startPull(s, '1002')
    },
    options: { onOutput: { when: /busy with another job/, then: endPull } },
    check: (run) => expect(run.stdout).toMatch(/busy with another job/),
  },
  {
    scenario: 'busy site, if-busy: fail',
    operation: 'pull',
    result: 'failed',
    does: 'fails at once, saying another job runs',
    inputs: { 'if-busy': 'fail' },
    setup: (s) => {
      s.setOptions({ durationsMs: { pull: 60_000 } })
      startPull(s, '1002')
    },
  },
  {
    scenario: 'missing staging',
    operation: 'push',
    result: 'failed',
    does: 'if-missing: fail: 404 with the hint',
    site: '1001',
  },
  {
    scenario: 'missing staging, if-missing: skip',
    operation: 'delete',
    result: 'skipped',
    does: 'skipped, exit 0',
    site: '1001',
    inputs: { 'if-missing': 'skip' },
  },
  {
    scenario: 'existing staging',
    operation: 'create',
    result: 'failed',
    does: 'if-exists: fail: 422 with the hint',
    site: '1002',
  },
  {
    scenario: 'existing staging, if-exists: skip',
    operation: 'create',
    result: 'skipped',
    does: 'skipped, with the existing staging URL',
    site: '1002',
    inputs: { 'if-exists': 'skip' },
    check: (run, s) => expect(run.outputs['staging-url']).toBe(`${s.url}/staging-sites/s-1002/`),
  },
  // Credentials
  {
    scenario: '401 (wrong token)',
    operation: 'pull',
    result: 'failed',
    does: 'says to check the secret',
    bundle: 'a token masked in the real stdout',
    inputs: { 'api-token': 'not-the-right-token-42' },
    check: (run) => expect(leaks(run.everything, 'not-the-right-token-42')).toEqual([]),
  },
  {
    scenario: '403 (plan without staging)',
    operation: 'create',
    result: 'failed',
    does: 'says the plan or site is not eligible',
    site: '2001',
  },
  {
    scenario: 'token echoed by the server',
    operation: 'push',
    result: 'failed',
    does: 'the token is scrubbed from every message, output and summary',
    bundle: 'the token masked in the real stdout',
    faults: [{ method: 'POST', path: '/staging/push', status: 400, body: 'echo-token' }],
    check: (run) => expect(run.outputs.message).toContain('***'),
  },
  {
    scenario: 'redirect to another origin',
    operation: 'push',
    result: 'failed',
    does: 'not followed: names the target; the token never leaves',
    bundle: 'another server that must get nothing',
    setup: (s) => s.addFault({ method: 'POST', path: '/staging/push', redirect: `${elsewhere.url}/steal` }),
    check: (run) => {
      expect(elsewhere.hits).toHaveLength(0)
      expect(run.outputs.message).toContain(`${elsewhere.url}/steal`)
    },
  },
  // Cancellation
  {
    scenario: 'cancelled while sending (hung request)',
    operation: 'push',
    result: 'cancelled',
    does: 'stops at once; says what was sent',
    faults: [{ method: 'POST', path: '/staging/push', hang: true }],
    options: { signal: { name: 'SIGINT', afterMs: 1500 } },
  },
  {
    scenario: 'cancelled while waiting for the job',
    operation: 'create',
    result: 'cancelled',
    does: 'stops at once; the summary says the job continues server-side',
    setup: (s) => s.setOptions({ durationsMs: { create: 30_000 } }),
    options: { signal: { name: 'SIGINT', whenOutput: /Waiting for the create job/ } },
    check: (run, s) => {
      expect(run.summary).toMatch(/POST \/v2\/sites\/1001\/staging -> 202/)
      expect(run.summary).toMatch(/may still be running there/)
      expect(s.state.staging.get('1001')?.status).toBe('creating')
    },
  },
  {
    scenario: 'cancelled while the site is busy',
    operation: 'push',
    result: 'cancelled',
    does: 'stops waiting; the push was never processed',
    setup: (s) => {
      s.setOptions({ durationsMs: { pull: 30_000 } })
      startPull(s, '1002')
    },
    options: { signal: { name: 'SIGINT', whenOutput: /busy with another job/ } },
  },
  {
    scenario: 'cancelled during a rate-limit wait (SIGTERM)',
    operation: 'push',
    result: 'cancelled',
    does: 'stops at once',
    faults: [storm(1, 30)],
    options: { signal: { name: 'SIGTERM', whenOutput: /Sending it again in/ } },
  },
  // Bad input
  ...(
    [
      ['site-id', '../1001', 'a path as site-id'],
      ['site-id', 'https://evil.example/1001', 'a URL as site-id'],
      ['api-url', 'http://api.example.com', 'plain http to a remote host'],
      ['operation', 'restore', 'an unknown operation'],
      ['language', 'fr', 'an unknown language'],
      ['if-exists', 'overwrite', 'an unknown policy'],
      ['timeout', 'forever', 'an unreadable timeout'],
    ] as const
  ).map(([input, value, what]): Row => ({
    scenario: `bad input: ${what}`,
    operation: 'push',
    result: 'failed',
    does: `refused before any request, naming \`${input}\``,
    inputs: { [input]: value },
    check: (run, s) => {
      expect(run.outputs.message).toContain(`Input "${input}"`)
      expect(s.requests).toHaveLength(0)
    },
  })),

  // ---- A hostile or broken server (issue 10): one row or more per class of attack ----
  // Stalls: no header makes the client idle longer than it can plausibly mean (contract §6).
  ...(
    [
      [
        'X-RateLimit-Reset in epoch milliseconds',
        { 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(Date.now() + 3_600_000) },
      ],
      [
        'X-RateLimit-Remaining: -1',
        { 'X-RateLimit-Remaining': '-1', 'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + 30) },
      ],
      ['a reset in the year 10^300', { 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '1e300' }],
    ] as const
  ).map(([what, headers]): Row => ({
    scenario: `hostile header on every answer: ${what}`,
    operation: 'pull',
    result: 'succeeded',
    does: 'the implausible value is ignored: it polls on and notices the end',
    inputs: { timeout: '20s' },
    faults: [{ path: '/v2/', headers: { 'X-RateLimit-Limit': '60', ...headers }, times: Infinity }],
    check: (_run, s) =>
      expect(s.requests.filter((r) => r.path.includes('/tasks/')).length).toBeGreaterThan(0),
  })),
  {
    scenario: 'hostile header: a 429 whose Retry-After is 3,000 years',
    operation: 'push',
    result: 'succeeded',
    does: 'ignored: backs off as without it, pushes once',
    inputs: { timeout: '20s' },
    faults: [{ method: 'POST', path: '/staging/push', status: 429, retryAfter: 99_999_999_999 }],
  },
  // Leaks: credentials anywhere in any body are removed before anything is shown (contract §5).
  {
    scenario: 'credentials in an error body (errors, error, exception; nested, in arrays)',
    operation: 'push',
    result: 'failed',
    does: 'removed from the parsed body: in no log line, output or summary',
    cli: true,
    faults: [
      {
        method: 'POST',
        path: '/staging/push',
        status: 422,
        json: {
          message: 'Validation failed for Db-Pass-9876x',
          errors: { db_pass: ['Db-Pass-9876x'], nested: [{ api_token: 'Tok-Secret-777x' }] },
          error: { session_key: 'Sess-Key-555x' },
          exception: { private_key: ['Priv-Key-444x'] },
        },
      },
    ],
    check: (run) => {
      for (const secret of ['Db-Pass-9876x', 'Tok-Secret-777x', 'Sess-Key-555x', 'Priv-Key-444x'])
        expect(leaks(run.everything, secret)).toEqual([])
      expect(run.outputs.message).toBe('Validation failed for ***')
    },
  },
  {
    scenario: 'a long error text with the token where it is cut',
    operation: 'pull',
    result: 'failed',
    does: 'scrubbed first, then cut: no part of the token survives',
    bundle: 'the token masked in the real stdout',
    cli: true,
    faults: [
      {
        method: 'POST',
        path: '/staging/reset',
        status: 400,
        json: { message: `${'x'.repeat(990)}${RW}${'y'.repeat(5000)}` },
      },
    ],
    check: (run) => expect(leaks(run.everything, RW.slice(0, 8))).toEqual([]),
  },
  {
    scenario: 'credential names beyond the first list (db_pass, pwd, passphrase) and array values',
    operation: 'pull',
    result: 'succeeded',
    does: 'every one removed; a server message that repeats them is scrubbed',
    cli: true,
    faults: [
      {
        method: 'POST',
        path: '/staging/reset',
        patch: {
          message:
            'Started. db: Db-Pass-1234x, pwd: Pwd-5678-xy, phrase: correct horse battery staple, keys: Arr-Key-1x',
          data: {
            db_pass: 'Db-Pass-1234x',
            pwd: 'Pwd-5678-xy',
            passphrase: 'correct horse battery staple',
            secret_keys: ['Arr-Key-1x'],
          },
        },
      },
    ],
    check: (run) => {
      for (const secret of ['Db-Pass-1234x', 'Pwd-5678-xy', 'correct horse battery staple', 'Arr-Key-1x'])
        expect(leaks(run.everything, secret)).toEqual([])
      expect(run.outputs.message).toMatch(/^Started\. db: \*\*\*, pwd: \*\*\*/)
    },
  },
  {
    scenario: 'the token echoed in base64 and in strict percent-encoding',
    operation: 'push',
    result: 'failed',
    does: 'every common encoding of the token is scrubbed',
    bundle: 'the token masked in the real stdout',
    cli: true,
    faults: [
      {
        method: 'POST',
        path: '/staging/push',
        status: 400,
        json: {
          message: `auth ${Buffer.from(`Bearer ${RW}`).toString('base64')} / ${[...Buffer.from(RW)].map((b) => `%${b.toString(16).toUpperCase()}`).join('')}`,
        },
      },
    ],
    check: (run) => {
      expect(leaks(run.everything, Buffer.from(RW).toString('base64').slice(4, 24))).toEqual([])
      expect(leaks(run.everything, Buffer.from(`Bearer ${RW}`).toString('base64').slice(8, 28))).toEqual([])
      expect(leaks(run.everything, '%73%69%6D%2D%72%77')).toEqual([])
    },
  },
  {
    scenario: 'a login token and user-info in the staging URL',
    operation: 'create',
    result: 'succeeded',
    does: 'stripped: staging-url carries neither',
    site: '1001',
    faults: [
      {
        method: 'POST',
        path: '/sites/1001/staging',
        patch: {
          data: {
            staging_url:
              'https://admin:Hunter2-Pw@staging.example.test/wp-login.php?autologin=Magic-Login-123&lang=en',
          },
        },
      },
    ],
    check: (run) => {
      expect(run.outputs['staging-url']).toBe('https://staging.example.test/wp-login.php?lang=en')
      for (const secret of ['Hunter2-Pw', 'Magic-Login-123'])
        expect(leaks(run.everything, secret)).toEqual([])
    },
  },
  {
    scenario: 'credential fields holding null, true or "succeeded"',
    operation: 'pull',
    result: 'succeeded',
    does: 'removed from the data, never masked: result and results stay true',
    faults: [
      {
        method: 'POST',
        path: '/staging/reset',
        patch: { data: { token: null, auth: true, password: 'succeeded', secret: 'pull' } },
      },
    ],
    check: (run) => {
      expect(run.stdout).not.toMatch(/^::add-mask::(succeeded|pull|true|null)$/m)
      expect((JSON.parse(run.outputs.results!) as { result: string }[])[0]!.result).toBe('succeeded')
    },
  },
  // Injection: server text never becomes a workflow command, a terminal escape, markup or a link.
  {
    scenario:
      'workflow commands in a success message (newline, CR, ::error::, ::add-mask::, ::stop-commands::, ##[)',
    operation: 'pull',
    result: 'succeeded',
    does: "kept on its line and made inert; the action's own later commands still work",
    bundle: "the runner's commands in the real stdout",
    cli: true,
    faults: [
      {
        method: 'POST',
        path: '/staging/reset',
        patch: {
          message:
            'Started\n::error::forged\r::add-mask::succeeded\n  ::stop-commands::pause\n##[error]legacy forged',
        },
      },
    ],
    check: (run) => {
      expect(run.outputs.result).toBe('succeeded')
      expect(run.stdout).not.toMatch(/^\s*::(error::forged|add-mask::succeeded|stop-commands::)/m)
      expect(run.stdout).toMatch(/^Staging pull succeeded/m)
    },
  },
  {
    scenario: 'a task id with a newline and a command',
    operation: 'pull',
    result: 'succeeded',
    does: 'never used in a path nor printed raw; the job is followed through the probe',
    setup: (s) => s.setOptions({ durationsMs: { pull: 3000 } }),
    faults: [
      { method: 'POST', path: '/staging/reset', patch: { data: { task_id: 'abc\n::error::forged' } } },
    ],
    check: (run) => expect(run.stdout).not.toMatch(/^\s*::error::forged/m),
  },
  {
    scenario: 'an unknown task status that carries a command',
    operation: 'pull',
    result: 'succeeded',
    does: 'logged once, inert; waiting goes on',
    faults: [{ method: 'GET', path: '/tasks/', patch: { data: { status: 'odd\n::error::forged' } } }],
    check: (run) => {
      expect(run.stdout).not.toMatch(/^\s*::error::forged/m)
      expect(run.stdout).toMatch(/a status that is not known here \("odd :/)
    },
  },
  {
    scenario: 'a dry-run probe error with a newline and a command',
    operation: 'push',
    result: 'dry-run',
    does: 'reported inert',
    inputs: { 'dry-run': 'true', 'max-retries': '0' },
    faults: [
      {
        method: 'GET',
        path: '/staging',
        status: 500,
        json: { message: 'boom\n::error::forged' },
        times: Infinity,
      },
    ],
    check: (run) => expect(run.stdout).not.toMatch(/^\s*::error::forged/m),
  },
  {
    scenario: 'ANSI escapes and control characters in server text',
    operation: 'pull',
    result: 'failed',
    does: 'stripped from the log, the CLI output, outputs and summary',
    cli: true,
    faults: [
      {
        method: 'POST',
        path: '/staging/reset',
        status: 422,
        json: {
          message:
            '\u001b[2J\u001b[31mRED\u001b[0m \u0007bell \u001b]8;;https://evil.test\u0007link\u001b]8;;\u0007 \u202eevil',
        },
      },
    ],
    check: (run) => {
      expect(run.outputs.message).toBe('RED bell link evil')
      // eslint-disable-next-line no-control-regex -- looking for control characters is the point
      expect(run.everything).not.toMatch(/[\u001b\u0007\u202e]/)
    },
  },
  {
    scenario: 'a newline, | and HTML in a server message; a javascript: staging URL',
    operation: 'create',
    result: 'succeeded',
    does: 'the summary table cannot be broken or forged; HTML inert; only http(s) URLs output or linked',
    site: '1001',
    faults: [
      {
        method: 'POST',
        path: '/sites/1001/staging',
        patch: {
          message: 'ok | x |\n| 9999 | ✅ forged |\n<script>alert(1)</script><img src=x onerror=alert(2)>',
          data: { staging_url: 'javascript:alert(document.cookie)' },
        },
      },
    ],
    check: (run) => {
      expect(run.outputs['staging-url']).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/staging-sites\/s-1001\/$/)
      // Named in a warning as the text it is, never output or linked.
      expect(JSON.stringify(run.outputs)).not.toMatch(/javascript:/)
      expect(run.summary).not.toMatch(/javascript:/)
      expect(run.stdout).toMatch(/Ignored a staging URL that is not an http\(s\) URL: "javascript:alert/)
      const rows = run.summary.split('\n').filter((l) => l.startsWith('|'))
      expect(rows.some((r) => r.includes('9999'))).toBe(false)
      expect(run.summary).not.toMatch(/<script|<img/)
    },
  },
  {
    scenario: 'a 1.5 MB server message',
    operation: 'pull',
    result: 'failed',
    does: "bounded: the summary and every output stay under GitHub's limits",
    cli: true,
    faults: [
      { method: 'POST', path: '/staging/reset', status: 422, json: { message: 'M'.repeat(1_500_000) } },
    ],
    check: (run) => {
      expect(Buffer.byteLength(run.summary)).toBeLessThan(1024 * 1024)
      for (const value of Object.values(run.outputs)) expect(Buffer.byteLength(value)).toBeLessThan(1_000_000)
      expect(run.outputs.message!.length).toBeLessThanOrEqual(1000)
      expect(Math.max(...run.stdout.split('\n').map((l) => l.length))).toBeLessThanOrEqual(8000)
    },
  },
  {
    scenario: 'a 3 MB answer body',
    operation: 'pull',
    result: 'failed',
    does: 'read no further than 2 MiB; reported by its status',
    faults: [{ method: 'POST', path: '/staging/reset', status: 422, text: 'Z'.repeat(3_000_000) }],
    check: (run) => expect(run.outputs['http-status']).toBe('422'),
  },
  {
    scenario: 'a task id of ".."',
    operation: 'pull',
    result: 'succeeded',
    does: 'refused as a path segment: no GET /v2/status; the probe follows the job',
    setup: (s) => s.setOptions({ durationsMs: { pull: 3000 } }),
    faults: [{ method: 'POST', path: '/staging/reset', patch: { data: { task_id: '..' } } }],
    check: (_run, s) => {
      expect(s.requests.some((r) => r.path === '/v2/status' || r.path.includes('/tasks/..'))).toBe(false)
      expect(s.requests.some((r) => r.path === '/v2/sites/1002/staging' && r.method === 'GET')).toBe(true)
    },
  },
  // Wrong answers
  {
    scenario: 'the same site twice as the server reads ids (1002 and 01002)',
    operation: 'push',
    result: 'failed',
    does: 'refused before any request',
    inputs: { 'site-id': '1002,01002' },
    check: (run, s) => {
      expect(run.outputs.message).toMatch(/Input "site-id": lists site 01002 more than once/)
      expect(s.requests).toHaveLength(0)
    },
  },
  {
    scenario: 'a TLS handshake that fails before any HTTP byte (push)',
    operation: 'push',
    result: 'failed',
    does: 'says nothing was sent, and may send it again: never "production may be being overwritten"',
    bundle: 'a real TLS handshake',
    get inputs() {
      return { 'api-url': `https://127.0.0.1:${tls.port}`, 'max-retries': '1' }
    },
    check: (run) => {
      expect(run.stdout).toMatch(/could not reach the server, so nothing was sent/)
      expect(run.stdout).not.toMatch(/may or may not be being overwritten/)
      expect(tls.connections).toBe(2)
    },
  },
  {
    scenario: 'a create the server took but never answered; the timeout comes while following it',
    operation: 'create',
    result: 'timed-out',
    does: 'says the job may still be running, and how to check on it',
    site: '1001',
    inputs: { timeout: '8s' },
    setup: (s) => {
      s.setOptions({ durationsMs: { create: 60_000 } })
      s.addFault({ method: 'POST', path: '/sites/1001/staging', hang: true, process: true })
    },
    check: (run) => {
      expect(run.stdout).toMatch(/reached the server but got no answer/)
      expect(run.summary).toMatch(/may still be running on the server/)
      expect(run.summary).toMatch(/operation: status, site-id: 1001/)
    },
  },
  {
    scenario: 'nothing listening until the timeout',
    operation: 'push',
    result: 'timed-out',
    does: 'says nothing was sent, never that the job may be running',
    bundle: 'a port where nothing listens',
    inputs: { 'api-url': 'http://127.0.0.1:9', 'max-retries': '20', timeout: '3s' },
    check: (run) => {
      expect(run.summary).not.toMatch(/may still be running/)
      expect(run.stdout).toMatch(/nothing was sent/)
    },
  },
  {
    scenario: 'a pull-request comment forged with our marker and a phishing staging URL',
    operation: 'push',
    result: 'succeeded',
    does: 'never edited, never read: our own comment is posted, without the forged URL',
    inputs: { 'pr-comment': 'true' },
    github: (s) => {
      // GitHub in this process, on the simulator's clock: the pull request's event and its comments.
      const gh = virtualFakeGitHub(s.clock)
      hub.gh = gh
      hub.dir = mkdtempSync(path.join(tmpdir(), 'fault-matrix-event-'))
      const env = eventEnv(gh, hub.dir, 'pull_request', {
        number: 12,
        pull_request: { number: 12 },
        repository: { name: gh.repo, owner: { login: gh.owner } },
      })
      const phishing = 'https://phishing.example.test/wp-login.php'
      gh.addComment(12, `${markerFor('1002')}\n<!-- site-staging-action:staging-url=${phishing} -->\nhi`, {
        login: 'mallory',
        type: 'User',
      })
      return { env, fetch: gh.fetch }
    },
    check: (run) => {
      const gh = hub.gh!
      try {
        expect(gh.requests.filter((r) => r.method === 'PATCH')).toHaveLength(0)
        const mine = gh.comments.filter((c) => c.user?.login === BOT.login)
        expect(mine).toHaveLength(1)
        expect(mine[0]!.body).not.toContain('phishing')
        expect(gh.comments.filter((c) => c.user?.login === 'mallory').map((c) => c.body)).toEqual([
          expect.stringContaining('phishing.example.test'),
        ])
        expect(run.stdout).toMatch(/^::notice::pr-comment: ignored 1 comment/m)
      } finally {
        rmSync(hub.dir, { recursive: true, force: true })
      }
    },
  },
  // ---- Issue 17 §3 and §5: a wall clock that steps, a long or past Retry-After, site ids ----
  // §3: the wall clock steps during a wait; durations and deadlines do not.
  {
    scenario: "the runner's wall clock steps back an hour while the job runs",
    operation: 'pull',
    result: 'succeeded',
    does: 'deadlines and durations read a monotonic clock: it ends as usual, with a true duration',
    setup: (s) => s.setOptions({ durationsMs: { pull: 3000 } }),
    options: wallClockStep(1000, -HOUR),
    check: (run) => {
      const seconds = Number(run.outputs['duration-seconds'])
      expect(seconds).toBeGreaterThanOrEqual(2)
      expect(seconds).toBeLessThan(30)
    },
  },
  {
    scenario: "the runner's wall clock steps back an hour during a wait that outlasts the timeout",
    operation: 'pull',
    result: 'timed-out',
    does: 'ends at its timeout, not an hour later',
    inputs: { timeout: '4s' },
    setup: (s) => s.setOptions({ durationsMs: { pull: 120_000 } }),
    options: wallClockStep(1500, -HOUR),
    check: (run) => {
      expect(run.elapsedMs).toBeLessThan(15_000)
      expect(run.summary).toMatch(/timeout/i)
    },
  },
  {
    scenario: "the runner's wall clock jumps an hour ahead while the job runs",
    operation: 'pull',
    result: 'succeeded',
    does: 'no false timeout: the deadline is on the monotonic clock',
    inputs: { timeout: '60s' },
    setup: (s) => s.setOptions({ durationsMs: { pull: 3000 } }),
    options: wallClockStep(1000, HOUR),
    check: (run) => expect(Number(run.outputs['duration-seconds'])).toBeLessThan(30),
  },
  {
    scenario: 'a 429 whose Retry-After date is an hour in the past (the server clock is slow)',
    operation: 'push',
    result: 'succeeded',
    does: "read as 'soon': a 1-2 s pause that grows, not a loop; pushes once",
    inputs: { 'max-retries': '5' },
    faults: [
      {
        method: 'POST',
        path: '/staging/push',
        status: 429,
        times: 3,
        retryAfter: new Date(Date.now() - HOUR).toUTCString(),
      },
    ],
    check: (_run, s) => {
      const at = pushes(s).map((r) => r.at)
      expect(at).toHaveLength(4)
      for (let i = 1; i < at.length; i++) expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(900)
      expect(at[3]! - at[0]!).toBeGreaterThanOrEqual(4000)
    },
  },
  {
    scenario: 'a 429 whose Retry-After date comes from a server clock an hour fast (its Date header too)',
    operation: 'push',
    result: 'succeeded',
    does: "the date is read against the answer's own Date header: a 3 s wait, not an hour; pushes once",
    faults: [
      {
        method: 'POST',
        path: '/staging/push',
        status: 429,
        times: 1,
        retryAfter: new Date(Date.now() + HOUR + 3000).toUTCString(),
        headers: { Date: new Date(Date.now() + HOUR).toUTCString() },
      },
    ],
    check: (run, s) => {
      const at = pushes(s).map((r) => r.at)
      expect(at).toHaveLength(2)
      expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(2000)
      expect(at[1]! - at[0]!).toBeLessThan(10_000)
    },
  },
  // §5: a server that says it refuses for longer than the run may wait.
  {
    scenario: 'a 429 on a push with Retry-After: 86400 (a day), timeout 30 minutes',
    operation: 'push',
    result: 'failed',
    does: 'ends at once, saying when the server accepts again (in words and ISO); no retry',
    inputs: { timeout: '30m' },
    faults: [{ method: 'POST', path: '/staging/push', status: 429, retryAfter: 86_400, times: Infinity }],
    check: (run, s) => {
      expect(pushes(s)).toHaveLength(1)
      expect(run.elapsedMs).toBeLessThan(15_000)
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
      expect(run.stdout).toMatch(new RegExp(`accepts requests again on \\w+day .* UTC \\(${tomorrow}T`))
      expect(run.summary).toContain(`Run again after ${tomorrow}T`)
      expect(run.outputs.message).toBeDefined()
    },
  },
  {
    scenario: 'a 503 with Retry-After as a date two hours ahead, timeout 1 minute',
    operation: 'create',
    result: 'failed',
    does: 'ends at once, saying when; no retry',
    site: '1001',
    faults: [
      {
        method: 'POST',
        path: '/sites/1001/staging',
        status: 503,
        retryAfter: new Date(Date.now() + 2 * HOUR).toUTCString(),
        times: Infinity,
      },
    ],
    check: (run, s) => {
      expect(sentTo(s, 'POST', '/sites/1001/staging')).toHaveLength(1)
      expect(run.summary).toMatch(/about 2 hours/)
    },
  },
  {
    scenario: 'status polls answered 429 with Retry-After: 86400 after the pull was accepted',
    operation: 'pull',
    result: 'timed-out',
    does: 'stops waiting at once, saying when the server accepts again and that the job may still run',
    faults: [{ method: 'GET', path: '/tasks/', status: 429, retryAfter: 86_400, times: Infinity }],
    check: (run, s) => {
      expect(run.elapsedMs).toBeLessThan(20_000)
      expect(s.requests.filter((r) => r.path.includes('/tasks/'))).toHaveLength(1)
      expect(run.summary).toMatch(/accepts requests again only at \d{4}-\d\d-\d\dT/)
      expect(run.summary).toMatch(/may still be running/)
    },
  },
  // §5: every site id is checked before any request.
  {
    scenario: 'site-id "1001;x" (a list with an id that is not a number)',
    operation: 'delete',
    result: 'failed',
    does: 'refused before any request, naming the bad id',
    site: '1001;x',
    check: (run, s) => {
      expect(s.requests).toEqual([])
      expect(run.stdout).toMatch(/::error.*"x" is not a site id/)
    },
  },
  {
    scenario: 'site-id "1001/../1002"',
    operation: 'push',
    result: 'failed',
    does: 'refused before any request, naming it',
    site: '1001/../1002',
    check: (run, s) => {
      expect(s.requests).toEqual([])
      expect(run.stdout).toMatch(/"1001\/\.\.\/1002" is not a site id/)
    },
  },
  // ---- Issue 17 §4: secrets that a server repeats in other shapes ----
  {
    scenario: 'an SSH private key in a credential field, repeated (several lines) in the message',
    operation: 'push',
    result: 'failed',
    does: 'every long line and every one-line folding of it is removed: not in the log, message output or summary',
    cli: true,
    faults: [
      {
        method: 'POST',
        path: '/staging/push',
        status: 422,
        json: { message: `The key\n${SSH_KEY}\nwas refused`, errors: { ssh_private_key: [SSH_KEY] } },
      },
    ],
    check: (run) => {
      noKeyIn(run.everything)
      expect(run.outputs.message).toMatch(/^The key \*\*\* was refused/)
    },
  },
  {
    scenario: 'an SSH private key in a message that no credential field names',
    operation: 'pull',
    result: 'failed',
    does: 'a private key block is removed from any server text, whole or cut short',
    faults: [
      {
        method: 'POST',
        path: '/staging/reset',
        status: 422,
        json: { message: `Could not use ${SSH_KEY.slice(0, 180)}` },
      },
    ],
    check: (run) => noKeyIn(run.everything),
  },
  {
    scenario: 'a two-part token (id|secret) whose secret part alone is echoed, upper-cased',
    operation: 'push',
    result: 'failed',
    does: 'each long part of the token is a secret on its own, matched in any case',
    bundle: 'the token masked in the real stdout',
    inputs: { 'api-token': `7|${PAT_SECRET}`, 'max-retries': '0' },
    faults: [
      {
        path: '/v2/',
        status: 401,
        json: { message: `Token ${PAT_SECRET} / ${PAT_SECRET.toUpperCase()} is not valid.` },
        times: Infinity,
      },
    ],
    check: (run) => {
      expect(leaks(run.everything, PAT_SECRET)).toEqual([])
      expect(leaks(run.everything.toLowerCase(), PAT_SECRET.toLowerCase())).toEqual([])
      expect(run.outputs.message).toBe('Token *** / *** is not valid.')
    },
  },
  {
    scenario: "a token with !*'()~ echoed as PHP's rawurlencode writes it",
    operation: 'pull',
    result: 'failed',
    does: 'scrubbed in its RFC 3986 form too (and urlencode, lower-case hex, HTML entities)',
    bundle: 'the token masked in the real stdout',
    inputs: { 'api-token': ODD_TOKEN, 'max-retries': '0' },
    faults: [
      {
        path: '/v2/',
        status: 401,
        json: {
          message: `bad token ${rawurlencode(ODD_TOKEN)} or ${rawurlencode(ODD_TOKEN).toLowerCase()} or ${ODD_TOKEN.replace(/'/g, '&#039;')}`,
        },
        times: Infinity,
      },
    ],
    check: (run) => {
      for (const form of [rawurlencode(ODD_TOKEN), ODD_TOKEN.replace(/'/g, '&#039;'), ODD_TOKEN])
        expect(leaks(run.everything.toLowerCase(), form.toLowerCase())).toEqual([])
      expect(run.outputs.message).toBe('bad token *** or *** or ***')
    },
  },
  {
    scenario: 'wait-for-url: a staging URL that carries the API token in a query parameter',
    operation: 'create',
    result: 'succeeded',
    does: 'the parameter is dropped before the URL is used or shown: the staging host never gets the token',
    bundle: "the staging site's own GET, and what it carried",
    site: '1001',
    inputs: { 'wait-for-url': 'true' },
    setup: (s) => {
      const url = `${s.url}/staging-sites/s-1001/?preview=${RW}&lang=en&b=${Buffer.from(RW).toString('base64')}`
      s.addFault({ path: '/v2/', patch: { data: { staging_url: url } }, times: Infinity })
    },
    check: (run, s) => {
      expect(run.outputs['url-ready']).toBe('true')
      expect(run.outputs['staging-url']).toBe(`${s.url}/staging-sites/s-1001/?lang=en`)
      expect(s.siteRequests.length).toBeGreaterThan(0)
      for (const visit of s.siteRequests) {
        expect(visit.path).toBe('/staging-sites/s-1001/?lang=en')
        expect(visit.authorization).toBeUndefined()
      }
    },
  },
  // The checkpoint before a push (issue 27): no checkpoint, no push
  ...(
    [
      ['absent-404', 'the service offers no site versions (404)', 404],
      ['absent-405', 'the site-versions route answers 405', 405],
      ['plan-403', 'a plan without site versions (403)', 403],
      ['quota', 'the quota of versions is reached (422), nothing of its own to delete', 422],
    ] as const
  ).map(([versions, scenario, status]): Row => ({
    scenario: `checkpoint: ${scenario}`,
    operation: 'push',
    result: 'failed',
    does: "no push is sent; the service's words and what to do (delete old versions, or checkpoint: none)",
    setup: (s) => s.setOptions({ versions }),
    check: (run, s) => {
      expect(sentTo(s, 'POST', '/site-versions').map((r) => r.status)).toEqual([status])
      expect(sentTo(s, 'POST', '/staging/push')).toEqual([])
      expect(run.stdout).toContain('The push was not sent')
    },
    cli: versions === 'quota',
  })),
  {
    scenario: "checkpoint: the version's task fails",
    operation: 'push',
    result: 'failed',
    does: "no push is sent; the task's reason is quoted",
    setup: (s) => s.setOptions({ versions: 'task-fails' }),
    check: (run, s) => {
      expect(sentTo(s, 'POST', '/staging/push')).toEqual([])
      expect(run.stdout).toMatch(/did not complete: its task failed/)
    },
  },
  {
    scenario: 'checkpoint: the version does not complete within the timeout',
    operation: 'push',
    result: 'timed-out',
    does: 'no push is sent; says to raise timeout or use checkpoint: none',
    inputs: { timeout: '4s' },
    setup: (s) => s.setOptions({ versions: 'slow' }),
    check: (_run, s) => expect(sentTo(s, 'POST', '/staging/push')).toEqual([]),
  },
  {
    scenario: 'checkpoint: cancelled while the version is made',
    operation: 'push',
    result: 'cancelled',
    does: 'stops at once; no push is sent',
    setup: (s) => s.setOptions({ versions: 'slow' }),
    options: { signal: { name: 'SIGINT', whenOutput: /Waiting for the checkpoint job/ } },
    check: (run, s) => {
      expect(sentTo(s, 'POST', '/staging/push')).toEqual([])
      expect(run.summary).toContain('The push was not sent')
    },
  },
  {
    scenario: 'checkpoint: the version create answered 500 (outcome unknown)',
    operation: 'push',
    result: 'failed',
    does: 'not sent again; no push is sent',
    faults: [{ method: 'POST', path: '/site-versions', status: 500, body: 'json', times: Infinity }],
    check: (_run, s) => {
      expect(sentTo(s, 'POST', '/site-versions')).toHaveLength(1)
      expect(sentTo(s, 'POST', '/staging/push')).toEqual([])
    },
  },
  {
    scenario: 'checkpoint: the version create answered 422 "already in progress" (busy)',
    operation: 'push',
    result: 'succeeded',
    does: 'waited out (if-busy: wait), asked again; no checkpoint deleted to make room',
    inputs: { 'if-busy': 'wait' },
    setup: (s) => s.setOptions({ versions: 'busy-once' }),
    check: (_run, s) => {
      expect(sentTo(s, 'POST', '/site-versions').map((r) => r.status)[0]).toBe(422)
      expect(sentTo(s, 'DELETE', '/site-versions')).toEqual([])
      expect(sentTo(s, 'POST', '/staging/push')).toHaveLength(1)
    },
  },
  {
    scenario: "the version list ignores site_id: another site's checkpoints listed",
    operation: 'push',
    result: 'succeeded',
    does: "another site's versions are never pruned or counted (a warning says they were left alone)",
    inputs: { 'keep-checkpoints': '1' },
    setup: (s) => {
      s.setOptions({ versions: 'unfiltered' })
      addVersion({ state: s.state, now: Date.now() }, s.state.sites.get('1001')!, 'completed', 'ssa~cp~other')
    },
    check: (run, s) => {
      expect([...s.state.siteVersions.values()].filter((v) => v.site_id === 1001)).not.toEqual([])
      expect(run.stdout).not.toMatch(/Deleted .* older checkpoint/)
    },
  },
  {
    scenario: 'protect-production: the push times out while its job runs',
    operation: 'push',
    result: 'timed-out',
    does: 'protection is not switched on while the job may still run; says it will be off once the push completes, and the step',
    inputs: { 'protect-production': 'true', checkpoint: 'none', timeout: '4s' },
    setup: (s) => s.setOptions({ durationsMs: { push: 600_000 } }),
    check: (run, s) => {
      expect(sentTo(s, 'POST', '/tools')).toEqual([])
      expect(run.stdout).toMatch(/Password protection was not switched on again/)
    },
  },
]
