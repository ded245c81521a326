/**
 * One step, one program (issue 25): the whole step (src/github/step.ts: the one input schema, the
 * one deadline, GitHub's side, the core, the one report) in process, against the simulator's API
 * core and the fake GitHub API (through GitHub's fetch seam), all on one virtual clock: time passes
 * only when something sleeps, so the limits checked here hold however busy the machine is, and an
 * hour-long job takes no real time.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from '@jest/globals'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { StepLog } from '../../src/github/run.js'
import { runStep } from '../../src/github/step.js'
import { ownerPayload, taskFor } from '../../src/github/ownership.js'
import { Redactor } from '../../src/secrets/redactor.js'
import { SIM_SITES, SIM_TOKENS } from '../../simulator/server.js'
import { useVirtualSimulator } from '../helpers/virtual-action.js'
import { BOT, eventEnv, virtualFakeGitHub } from './fake-github.js'

const GH_TOKEN = 'ghs_one-step-token-31415'
const SITE = String(SIM_SITES.withStaging)
const sha = (n: number) => n.toString(16).padStart(2, '0').repeat(20)
const MINUTE = 60_000

// A pull that takes an hour: whatever the step does, the job is still running when timeout ends.
const { sim } = useVirtualSimulator({ durationsMs: { pull: 3_600_000 }, siteDelayMs: 0 })
let gh: ReturnType<typeof virtualFakeGitHub>
let dir: string
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'one-step-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))
beforeEach(() => {
  gh = virtualFakeGitHub(sim().clock)
})
afterEach(() => {
  const sent = gh.requests.map((r) => `${r.path}\n${r.body}`).join('\n')
  for (const secret of [GH_TOKEN, SIM_TOKENS.readWrite]) expect(sent).not.toContain(secret)
})

/** The step's one writer, in memory. */
function memoryLog() {
  const lines: string[] = []
  const outputs: Record<string, string> = {}
  const summaries: string[] = []
  const log: StepLog = {
    info: (m) => lines.push(`info: ${m}`),
    warn: (m) => lines.push(`warn: ${m}`),
    warnTitled: (m, title) => lines.push(`warn[${title}]: ${m}`),
    debug: () => {},
    error: (m, title) => lines.push(`error[${title ?? ''}]: ${m}`),
    notice: (m) => lines.push(`notice: ${m}`),
    fail: (m) => lines.push(`fail: ${m}`),
    output: (name, value) => (outputs[name] = value),
    lostOutputs: () => null,
    warned: () => false,
    summary: async (markdown) => void summaries.push(markdown),
  }
  return { log, lines, outputs, summaries }
}

/** Pull request #10's earlier refresh, recorded as our own deployment, with its workflow run 555. */
function ownerIs10(runStatus: string) {
  gh.pulls.set(10, 'open')
  gh.runs.set(555, runStatus)
  gh.addDeployment('pr-10', sha(10), {
    task: taskFor(SITE),
    payload: ownerPayload(SITE, {
      pr: 10,
      sha: sha(10),
      runUrl: 'https://github.example/octo-org/site-repo/actions/runs/555',
      runId: 555,
      at: '2026-11-24T10:00:00Z',
    }),
    creator: BOT,
    statuses: [{ id: 1, state: 'success', created_at: '2026-11-24T10:00:00Z' }],
  })
}

/** Runs the step to its end on the simulator's virtual clock. */
function step(inputs: Record<string, string>, signal = new AbortController().signal, fetch = gh.fetch) {
  const out = memoryLog()
  const redactor = new Redactor()
  redactor.add(GH_TOKEN)
  redactor.add(SIM_TOKENS.readWrite)
  const env = eventEnv(gh, dir, 'pull_request', {
    number: 12,
    pull_request: { number: 12, head: { sha: sha(12) } },
  })
  const { clock } = sim()
  const run = runStep(
    {
      operation: 'pull',
      'site-id': SITE,
      'api-token': SIM_TOKENS.readWrite,
      'api-url': sim().apiUrl,
      'github-token': GH_TOKEN,
      'deployment-environment': 'pr-12',
      ...inputs,
    },
    {
      log: out.log,
      redactor,
      signal,
      clock,
      env,
      core: { random: () => 0.5, transport: sim().transport() },
      fetch,
    },
  )
  return { ...out, done: clock.run(run) }
}

describe('one deadline for the whole step', () => {
  test("if-staging-taken: wait, the owner's run ends at 60% of timeout, then a long job: timed-out at timeout, not later", async () => {
    ownerIs10('in_progress')
    const timeoutMs = 10 * MINUTE
    const { clock } = sim()
    const start = clock.now()
    // The owner's run completes when the clock reaches 60% of timeout (an event of the clock, not
    // of the machine's speed).
    let ownerEndedAt: number | null = null
    void clock.sleep(0.6 * timeoutMs).then(() => {
      gh.runs.set(555, 'completed')
      ownerEndedAt = clock.now()
    })
    const r = step({ 'if-staging-taken': 'wait', timeout: '10m' })
    await r.done
    expect(ownerEndedAt).not.toBeNull()
    expect(r.lines).toContain('info: The workflow run of #10 is done: this run takes staging.')
    // The pull was sent after the wait, and the step ended timed-out by the one deadline.
    expect(
      sim().requests.filter((q) => q.method === 'POST' && /\/staging\/(pull|reset)$/.test(q.path)),
    ).toHaveLength(1)
    expect(r.outputs.result).toBe('timed-out')
    const elapsed = clock.now() - start
    expect(elapsed).toBeGreaterThan(0.6 * timeoutMs)
    expect(elapsed).toBeLessThanOrEqual(timeoutMs + 5_000)
    expect(r.summaries[0]).toMatch(/^## ⏱️ Staging pull: timed-out/)
  })

  test("if-staging-taken: wait whose owner's run never ends: timed-out at timeout, nothing sent to the service", async () => {
    ownerIs10('in_progress')
    const { clock } = sim()
    const start = clock.now()
    const r = step({ 'if-staging-taken': 'wait', timeout: '5m' })
    await r.done
    expect(r.outputs.result).toBe('timed-out')
    expect(clock.now() - start).toBeLessThanOrEqual(5 * MINUTE)
    expect(sim().requests).toEqual([])
    expect(r.summaries[0]).toMatch(
      /^## ⏱️ Staging: timed out before it started\n\n> Staging shows \\#\u200b10 /,
    )
    expect(r.lines).toContainEqual(
      expect.stringMatching(/^fail: Staging pull timed-out \(site 1002\): Staging shows #10 /),
    )
  })

  test("cancelled while waiting for the owner's run: cancelled, nothing sent to the service, no deployment", async () => {
    ownerIs10('in_progress')
    const { clock } = sim()
    const start = clock.now()
    const cancel = new AbortController()
    void clock.sleep(2 * MINUTE).then(() => cancel.abort())
    const r = step({ 'if-staging-taken': 'wait', timeout: '10m' }, cancel.signal)
    await r.done
    expect(r.outputs.result).toBe('cancelled')
    expect(r.outputs.message).toBe(
      'Cancelled while waiting for the workflow run of #10: nothing was sent to the staging service.',
    )
    expect(clock.now() - start).toBeLessThan(3 * MINUTE)
    expect(sim().requests).toEqual([])
    expect(gh.deployments.filter((d) => d.environment === 'pr-12')).toEqual([])
    expect(r.summaries[0]).toMatch(/^## 🛑 Staging: cancelled before it started\n/)
  })
})

describe('every input checked before any request', () => {
  test.each([
    [{ 'pr-comment': 'yes' }, /^Input "pr-comment": must be true or false$/],
    [
      { 'pr-comment': 'true', 'comment-author': 'not a login' },
      /^Input "comment-author": must be a GitHub login/,
    ],
    [{ 'deployment-environment': 'a\nb' }, /^Input "deployment-environment": contains control characters/],
    [{ 'github-token': ' ' }, /^Input "github-token": is empty, but deployment-environment is set/],
    [{ 'if-staging-taken': 'steal' }, /^Input "if-staging-taken": "steal" is not one of take, wait, fail/],
    [
      { 'if-staging-taken': 'wait', 'site-id': '1001,1002' },
      /^Input "if-staging-taken": is wait, which needs/,
    ],
    [
      { operation: 'relase' },
      /^Input "operation": "relase" is not one of .*release \(did you mean "release"\?\)/,
    ],
  ])('%j fails the step; nothing is sent to GitHub or the service', async (inputs, message) => {
    const r = step(inputs)
    await r.done
    expect(r.outputs.result).toBe('failed')
    expect(r.outputs.message).toMatch(message)
    expect(r.lines).toEqual([expect.stringMatching(/^fail: Input "/)])
    expect(r.summaries[0]).toMatch(/^## ❌ Staging: invalid input\n\n> Input /)
    expect(gh.requests).toEqual([])
    expect(sim().requests).toEqual([])
  })
})

// GitHub's rate limits are not a missing permission, and one 5xx does not leave a deployment in progress.
describe("GitHub's own trouble", () => {
  const json = (status: number, body: object, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    })
  const limit = { message: 'API rate limit exceeded for installation ID 4242.' }

  test("a rate limit (403) while waiting for the owner's run is waited out, not told as a permission", async () => {
    ownerIs10('in_progress')
    let limited = 0
    const fetch: typeof gh.fetch = async (url, init) =>
      /\/actions\/runs\/555$/.test(url) && limited++ < 2
        ? json(403, limit, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1' })
        : gh.fetch(url, init)
    void sim()
      .clock.sleep(2 * MINUTE)
      .then(() => gh.runs.set(555, 'completed'))
    const r = step({ 'if-staging-taken': 'wait', timeout: '5m' }, undefined, fetch)
    await r.done
    expect(limited).toBeGreaterThan(2)
    expect(r.lines).toContain('info: The workflow run of #10 is done: this run takes staging.')
    expect(r.lines.join('\n')).not.toMatch(/actions: read/)
  })

  test('a rate limit that lasts to the timeout is said so: not "still running"', async () => {
    ownerIs10('completed')
    const fetch: typeof gh.fetch = async (url, init) =>
      /\/actions\/runs\/555$/.test(url)
        ? json(403, limit, { 'x-ratelimit-remaining': '0' })
        : gh.fetch(url, init)
    const r = step({ 'if-staging-taken': 'wait', timeout: '3m' }, undefined, fetch)
    await r.done
    expect(r.outputs.result).toBe('timed-out')
    expect(r.outputs.message).toMatch(/GitHub's API rate limit kept its workflow run from being read/)
  })

  test('a secondary rate limit on reading who staging shows says so: not "lacks the permission"', async () => {
    ownerIs10('completed')
    const secondary = { message: 'You have exceeded a secondary rate limit. Please wait a few minutes.' }
    const fetch: typeof gh.fetch = async (url, init) =>
      /\/deployments\?/.test(url) ? json(403, secondary, { 'retry-after': '5' }) : gh.fetch(url, init)
    const r = step({ 'if-staging-taken': 'fail', timeout: '2m' }, undefined, fetch)
    await r.done
    expect(r.outputs.message).toMatch(/GitHub's API rate limit was reached/)
    expect(r.outputs.message).not.toMatch(/lacks the permission/)
  })

  test('one 502 on the final deployment status: sent once more, the deployment does not stay in progress', async () => {
    let n = 0
    const fetch: typeof gh.fetch = async (url, init) =>
      /\/deployments\/\d+\/statuses$/.test(url) && init?.method === 'POST' && ++n === 2
        ? json(502, { message: 'Server Error' })
        : gh.fetch(url, init)
    const r = step({ timeout: '2m' }, undefined, fetch)
    await r.done
    const d = gh.deployments.find((x) => x.environment === 'pr-12')!
    expect(d.statuses.at(-1)!.state).not.toBe('in_progress')
  })
})
