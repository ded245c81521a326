/**
 * The fault matrix of issue 4: one whole-action run (dist/index.js against the simulator's fault
 * injection) per row. The README's "Reliability" table is rendered from these rows and checked
 * here, so it cannot drift: `npm run reliability:update` rewrites it.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { readFileSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import type { FaultRule, Simulator } from '../../src/simulator/server.js'
import { ROOT, leaks, type RunOptions, type RunResult } from '../helpers/run-action.js'
import { RW, runAgainst, sentTo, useSimulator } from '../helpers/sim.js'

const { sim } = useSimulator()

interface Row {
  scenario: string
  operation: 'create' | 'pull' | 'push' | 'delete'
  /** The `result` output expected. */
  result: string
  /** What the action does, for the README. */
  does: string
  site?: string
  inputs?: Record<string, string>
  faults?: FaultRule[]
  setup?: (sim: Simulator) => Promise<void> | void
  options?: RunOptions
  check?: (run: RunResult, sim: Simulator) => void | Promise<void>
}

const OP_PATH = {
  create: '/staging',
  pull: '/staging/reset',
  push: '/staging/push',
  delete: '/staging',
} as const
const OP_METHOD = { create: 'POST', pull: 'POST', push: 'POST', delete: 'DELETE' } as const
const defaultSite = (op: Row['operation']) => (op === 'create' ? '1001' : '1002')

/**
 * Requests of the operation itself that the server carried out (the job started): answered 2xx,
 * or processed and then answered with a fault or not at all. Busy refusals do not count.
 */
function processed(sim: Simulator, op: Row['operation'], site: string) {
  return sentTo(sim, OP_METHOD[op], `/sites/${site}${OP_PATH[op]}`).filter(
    (r) => r.processed && (typeof r.status !== 'number' || r.status < 300 || r.faulted),
  )
}
function delivered(sim: Simulator, op: Row['operation'], site: string) {
  return sentTo(sim, OP_METHOD[op], `/sites/${site}${OP_PATH[op]}`)
}
async function startPull(sim: Simulator, site: string) {
  const res = await fetch(`${sim.apiUrl}/v2/sites/${site}/staging/reset`, {
    method: 'POST',
    headers: { authorization: `Bearer ${RW}`, 'content-type': 'application/json' },
  })
  expect(res.status).toBe(202)
}
const storm = (n: number, retryAfter?: number | string): FaultRule => ({
  method: 'POST',
  path: '/staging/push',
  status: 429,
  times: n,
  ...(retryAfter !== undefined ? { retryAfter } : {}),
})

/** Where a redirect points: records whatever reaches it. */
const elsewhere = { url: '', hits: [] as http.IncomingHttpHeaders[], server: null as http.Server | null }
beforeAll(async () => {
  elsewhere.server = http.createServer((req, res) => {
    elsewhere.hits.push(req.headers)
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":true,"message":"ok","data":{}}')
  })
  await new Promise<void>((r) => elsewhere.server!.listen(0, '127.0.0.1', r))
  elsewhere.url = `http://127.0.0.1:${(elsewhere.server!.address() as AddressInfo).port}`
})
afterAll(() => {
  elsewhere.server?.close()
})

const ROWS: Row[] = [
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
        expect(run.stdout).toMatch(/Check the staging page/)
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
    setup: async (s) => {
      s.setOptions({ durationsMs: { pull: 1500 } })
      await startPull(s, '1002')
    },
    check: (run) => expect(run.stdout).toMatch(/busy with another job/),
  },
  {
    scenario: 'busy site, if-busy: fail',
    operation: 'pull',
    result: 'failed',
    does: 'fails at once, saying another job runs',
    inputs: { 'if-busy': 'fail' },
    setup: async (s) => {
      s.setOptions({ durationsMs: { pull: 3000 } })
      await startPull(s, '1002')
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
    faults: [{ method: 'POST', path: '/staging/push', status: 400, body: 'echo-token' }],
    check: (run) => expect(run.outputs.message).toContain('***'),
  },
  {
    scenario: 'redirect to another origin',
    operation: 'push',
    result: 'failed',
    does: 'not followed: names the target; the token never leaves',
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
      expect(run.summary).toMatch(/keeps running/)
      expect(s.state.staging.get('1001')?.status).toBe('creating')
    },
  },
  {
    scenario: 'cancelled while the site is busy',
    operation: 'push',
    result: 'cancelled',
    does: 'stops waiting; the push was never processed',
    setup: async (s) => {
      s.setOptions({ durationsMs: { pull: 30_000 } })
      await startPull(s, '1002')
    },
    options: { signal: { name: 'SIGINT', whenOutput: /busy with another job/ } },
  },
  {
    scenario: 'cancelled during a rate-limit wait (SIGTERM)',
    operation: 'push',
    result: 'cancelled',
    does: 'stops at once',
    faults: [storm(1, 30)],
    options: { signal: { name: 'SIGTERM', whenOutput: /sending it again in/ } },
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
]

const passed: string[] = []

describe('fault matrix', () => {
  it.each(ROWS.map((row) => [row.scenario, row] as const))('%s', async (_, row) => {
    const s = sim()
    elsewhere.hits.length = 0
    for (const f of row.faults ?? []) s.addFault(f)
    await row.setup?.(s)
    const site = row.site ?? defaultSite(row.operation)
    const run = await runAgainst(s, { operation: row.operation, 'site-id': site, ...row.inputs }, row.options)

    expect(run.outputs.result).toBe(row.result)
    const ok = ['succeeded', 'skipped', 'accepted', 'dry-run'].includes(row.result)
    expect(run.code).toBe(ok ? 0 : 1)
    // Nothing leaks, whatever happened.
    expect(leaks(run.everything, RW)).toEqual([])
    // A destructive request is never processed twice, and never re-sent after an unknown outcome.
    if (row.operation === 'push' || row.operation === 'delete') {
      expect(processed(s, row.operation, site).length).toBeLessThanOrEqual(1)
      const unknown = delivered(s, row.operation, site).findIndex(
        (r) =>
          r.status === 'dropped' ||
          r.status === 'hung' ||
          r.status === 'pending' ||
          (typeof r.status === 'number' && [500, 502, 504].includes(r.status)),
      )
      if (unknown >= 0) expect(delivered(s, row.operation, site)).toHaveLength(unknown + 1)
    }
    if (row.result === 'cancelled') {
      expect(run.exitAfterSignalMs).not.toBeNull()
      expect(run.exitAfterSignalMs!).toBeLessThan(3000)
      expect(run.summary).toMatch(/cancelled/)
    }
    if (row.result === 'failed') expect(run.stdout).toMatch(/::error/)
    await row.check?.(run, s)
    passed.push(row.scenario)
  })

  it('the README reliability table is these scenarios, all passing', () => {
    const readmePath = path.join(ROOT, 'README.md')
    const readme = readFileSync(readmePath, 'utf8')
    const table = renderTable(ROWS, passed)
    const begin = '<!-- reliability-table:begin -->'
    const end = '<!-- reliability-table:end -->'
    const current = readme.includes(begin)
      ? readme.slice(readme.indexOf(begin) + begin.length, readme.indexOf(end))
      : ''
    if (process.env.UPDATE_RELIABILITY === '1' && passed.length === ROWS.length) {
      const next = readme.includes(begin)
        ? `${readme.slice(0, readme.indexOf(begin) + begin.length)}\n${table}\n${readme.slice(readme.indexOf(end))}`
        : `${readme.trimEnd()}\n\n${begin}\n${table}\n${end}\n`
      writeFileSync(readmePath, next)
      return
    }
    expect(current.trim()).toBe(table.trim())
  })
})

function renderTable(rows: Row[], ok: string[]): string {
  const lines = [
    `**${rows.length} scenarios tried, ${ok.length} passed** (each one a run of \`dist/index.js\` against the simulator's fault injection, in \`test/action/fault-matrix.test.ts\`; every row also checks that the token leaked nowhere and that no push or delete was processed twice or sent again after an unknown outcome).`,
    '',
    '| # | Scenario | Operation | Result | What the action does | Passed |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (r, i) =>
        `| ${i + 1} | ${r.scenario} | ${r.operation} | \`${r.result}\` | ${r.does} | ${ok.includes(r.scenario) ? '✅' : '❌'} |`,
    ),
  ]
  return lines.join('\n')
}
