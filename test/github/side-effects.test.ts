/**
 * githubSideEffects (src/github/index.ts), in process against the fake GitHub API: inputs, what
 * runs before and after the operation, time limits, cancellation, and that failures only warn.
 */
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals'
import { createServer, type Server } from 'node:http'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { githubSideEffects } from '../../src/github/index.js'
import type { GitHubSideEffectOptions } from '../../src/github/run.js'
import { phaseSignal } from '../../src/github/phase.js'
import { realClock } from '../../src/clock.js'
import { parseGitHubInputs } from '../../src/inputs/index.js'
import { markerFor } from '../../src/report/comment.js'
import { Redactor } from '../../src/secrets/redactor.js'
import { createdResult } from '../helpers/fakes.js'
import type { Result } from '../../src/types.js'
import { startFakeGitHub, type FakeGitHub } from './fake-github.js'

const GH_TOKEN = 'ghs_side-effects-token-31415'
const HEAD = 'feedface'.padEnd(40, '3')

const result = (over: Partial<Result> = {}): Result =>
  createdResult({
    message: 'ok',
    ...over,
  })

let gh: FakeGitHub
let dir: string
beforeEach(async () => {
  gh = await startFakeGitHub()
  dir = mkdtempSync(path.join(tmpdir(), 'gh-side-'))
})
afterEach(async () => {
  await gh.stop()
  rmSync(dir, { recursive: true, force: true })
})

interface Recorded {
  lines: string[]
  outputs: Record<string, string>
}

function setup(
  inputs: Record<string, string>,
  over: Partial<GitHubSideEffectOptions> & { eventName?: string; payload?: unknown; apiUrl?: string } = {},
): { options: GitHubSideEffectOptions; rec: Recorded } {
  const file = path.join(dir, 'event.json')
  writeFileSync(
    file,
    JSON.stringify(over.payload ?? { number: 12, pull_request: { number: 12, head: { sha: HEAD } } }),
  )
  const rec: Recorded = { lines: [], outputs: {} }
  const redactor = new Redactor()
  redactor.add(GH_TOKEN)
  const all: Record<string, string> = {
    'github-token': GH_TOKEN,
    'pr-comment': 'false',
    'comment-author': '',
    'deployment-environment': '',
    ...inputs,
  }
  const run = {
    operation: over.operation ?? 'create',
    siteIds: over.siteIds ?? ['1001'],
    dryRun: over.dryRun ?? false,
  }
  const options: GitHubSideEffectOptions = {
    ...run,
    settings: parseGitHubInputs(all, run),
    clock: realClock,
    deadline: realClock.now() + 60_000,
    redactor,
    log: {
      info: (m) => rec.lines.push(`info: ${m}`),
      warnTitled: (m, title) => rec.lines.push(`warn[${title}]: ${m}`),
      notice: (m) => rec.lines.push(`notice: ${m}`),
    },
    setOutput: (name, value) => (rec.outputs[name] = value),
    env: {
      GITHUB_API_URL: over.apiUrl ?? gh.url,
      GITHUB_SERVER_URL: 'https://github.example',
      GITHUB_REPOSITORY: `${gh.owner}/${gh.repo}`,
      GITHUB_RUN_ID: '99',
      GITHUB_EVENT_NAME: over.eventName ?? 'pull_request',
      GITHUB_EVENT_PATH: file,
      GITHUB_SHA: 'b'.repeat(40),
    },
    ...over,
  }
  return { options, rec }
}

async function hangingServer(): Promise<{ url: string; close(): void }> {
  const server: Server = createServer(() => {})
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => {
      server.closeAllConnections()
      server.close()
    },
  }
}

describe('githubSideEffects', () => {
  test('nothing asked of GitHub: no request, deployment-id empty', async () => {
    const { options, rec } = setup({})
    const side = await githubSideEffects(options)
    await side.before()
    await side.after([result()])
    expect(gh.requests).toEqual([])
    expect(rec.outputs).toEqual({ 'deployment-id': '' })
    expect(rec.lines).toEqual([])
  })

  test('a deployment before, its final status after, and the comment, on the PR head commit', async () => {
    const { options, rec } = setup({ 'deployment-environment': 'pr-12', 'pr-comment': 'true' })
    const side = await githubSideEffects(options)
    await side.before()
    expect(gh.deployments).toHaveLength(1)
    const d = gh.deployments[0]!
    expect(d.ref).toBe(HEAD)
    expect(d.statuses.map((s) => s.state)).toEqual(['in_progress'])
    expect(d.statuses[0]!.log_url).toBe(`https://github.example/${gh.owner}/${gh.repo}/actions/runs/99`)
    expect(rec.outputs['deployment-id']).toBe(String(d.id))
    expect(gh.comments).toHaveLength(0) // the comment comes after

    await side.after([result()])
    expect(d.statuses.map((s) => s.state)).toEqual(['in_progress', 'success'])
    expect(d.statuses[1]!.environment_url).toBe('https://staging-1001.example.test/')
    expect(gh.comments).toHaveLength(1)
    expect(rec.lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          new RegExp(`^info: Deployment ${d.id} for environment "pr-12" on feedface3333: in progress\\.`),
        ),
        `info: Deployment ${d.id} for environment "pr-12": success.`,
        expect.stringMatching(/^info: Posted the comment for site 1001 on pull request #12/),
      ]),
    )
    expect(rec.lines.filter((l) => l.startsWith('warn'))).toEqual([])
  })

  test('on a push event the deployment is made for GITHUB_SHA; the comment only gives a notice', async () => {
    const { options, rec } = setup(
      { 'deployment-environment': 'staging', 'pr-comment': 'true' },
      { eventName: 'push', payload: { ref: 'refs/heads/main' } },
    )
    const side = await githubSideEffects(options)
    await side.before()
    await side.after([result({ result: 'failed' })])
    expect(gh.deployments[0]!.ref).toBe('b'.repeat(40))
    expect(gh.deployments[0]!.statuses.map((s) => s.state)).toEqual(['in_progress', 'failure'])
    expect(gh.comments).toHaveLength(0)
    expect(rec.lines).toContainEqual(
      expect.stringMatching(/^notice: pr-comment: the triggering event is "push"/),
    )
  })

  test('a dry run makes no deployment', async () => {
    const { options, rec } = setup({ 'deployment-environment': 'pr-12' }, { dryRun: true })
    const side = await githubSideEffects(options)
    await side.before()
    await side.after([result({ result: 'dry-run' })])
    expect(gh.requests).toEqual([])
    expect(rec.lines).toEqual(['info: deployment-environment: a dry run makes no deployment.'])
  })

  test('an operation that is not create, pull, push or delete (a read-only one) makes no deployment', async () => {
    const { options } = setup({ 'deployment-environment': 'pr-12' }, { operation: 'status' })
    const side = await githubSideEffects(options)
    await side.before()
    await side.after([result({ operation: 'status' as Result['operation'] })])
    expect(gh.requests).toEqual([])
  })

  test('delete: no new deployment; the environment is marked inactive once staging is gone', async () => {
    const old = [gh.addDeployment('pr-12'), gh.addDeployment('pr-12')]
    const { options, rec } = setup({ 'deployment-environment': 'pr-12' }, { operation: 'delete' })
    const side = await githubSideEffects(options)
    await side.before()
    expect(gh.requests).toEqual([])
    expect(rec.outputs['deployment-id']).toBe('')
    await side.after([result({ operation: 'delete', result: 'skipped', stagingUrl: null })])
    expect(gh.deployments).toHaveLength(2)
    for (const d of old) expect(d.statuses.map((s) => s.state)).toEqual(['inactive'])
    expect(rec.lines).toContain('info: Marked 2 deployment(s) of environment "pr-12" inactive.')
  })

  test('a delete that did not finish leaves the deployments alone', async () => {
    const old = gh.addDeployment('pr-12')
    const { options, rec } = setup({ 'deployment-environment': 'pr-12' }, { operation: 'delete' })
    const side = await githubSideEffects(options)
    await side.after([result({ operation: 'delete', result: 'failed' })])
    expect(old.statuses).toEqual([])
    expect(gh.requests).toEqual([])
    expect(rec.lines).toEqual([expect.stringMatching(/delete did not finish/)])
  })

  test('a 403 is a warning naming the permission; nothing throws and after() sends no status', async () => {
    gh.refuse({ status: 403, message: 'Resource not accessible by integration' })
    const { options, rec } = setup({ 'deployment-environment': 'pr-12' })
    const side = await githubSideEffects(options)
    await side.before()
    await side.after([result()])
    expect(rec.outputs['deployment-id']).toBe('')
    expect(rec.lines).toEqual([
      expect.stringMatching(
        /^warn\[GitHub deployment\]: Could not create a deployment .*permissions: deployments: write/,
      ),
    ])
    // The read of who staging shows, then the refused create; nothing after.
    expect(gh.requests.map((q) => q.method)).toEqual(['GET', 'POST'])
  })

  test('the forged-comment notice comes once per run, however many sites and comments', async () => {
    for (const site of ['1001', '1002'])
      for (let i = 0; i < 3; i++)
        gh.addComment(12, `${markerFor(site)}\nforged`, { login: 'mallory', type: 'User' })
    const { options, rec } = setup({ 'pr-comment': 'true' }, { siteIds: ['1001', '1002'] })
    const side = await githubSideEffects(options)
    await side.after([result(), result({ siteId: '1002' })])
    const notices = rec.lines.filter((l) => l.startsWith('notice:'))
    expect(notices).toHaveLength(1)
    expect(notices[0]).toContain('ignored 6 comment(s) on pull request #12')
    expect(
      gh.comments.filter((c) => c.user?.login === 'mallory').every((c) => c.body.endsWith('forged')),
    ).toBe(true)
    expect(gh.comments).toHaveLength(8)
  })

  test('a GitHub that never answers is given up on within the time limit, with a warning', async () => {
    const hanging = await hangingServer()
    try {
      const { options, rec } = setup(
        { 'deployment-environment': 'pr-12', 'pr-comment': 'true' },
        { apiUrl: hanging.url, limits: { before: 300, after: 300 } },
      )
      const side = await githubSideEffects(options)
      const started = Date.now()
      await side.before()
      await side.after([result()])
      expect(Date.now() - started).toBeLessThan(5000)
      expect(rec.lines).toEqual(
        expect.arrayContaining([
          expect.stringMatching(
            /^warn\[GitHub deployment\]: Could not create a deployment .*did not answer in time/,
          ),
          expect.stringMatching(
            /^warn\[Pull-request comment\]: Could not read the comments .*did not answer in time/,
          ),
        ]),
      )
    } finally {
      hanging.close()
    }
  })

  test('once the run is cancelled, GitHub gets the short limit, not the normal one', async () => {
    const hanging = await hangingServer()
    try {
      const cancel = new AbortController()
      const { options, rec } = setup(
        { 'pr-comment': 'true' },
        { apiUrl: hanging.url, signal: cancel.signal, limits: { after: 60_000, cancelled: 200 } },
      )
      const side = await githubSideEffects(options)
      cancel.abort()
      const started = Date.now()
      await side.after([result({ result: 'cancelled' })])
      expect(Date.now() - started).toBeLessThan(3000)
      expect(rec.lines).toEqual([expect.stringMatching(/did not answer in time/)])
    } finally {
      hanging.close()
    }
  })

  test('after() with a problem: the deployment says error with our words, and the comment is still posted', async () => {
    const { options, rec } = setup({ 'deployment-environment': 'pr-12', 'pr-comment': 'true' })
    const side = await githubSideEffects(options)
    await side.before()
    await side.after([result()], "Staging create ended, but the step's outputs were lost.")
    const d = gh.deployments[0]!
    expect(d.statuses.map((s) => s.state)).toEqual(['in_progress', 'error'])
    expect(d.statuses[1]).toMatchObject({
      description: "Staging create ended, but the step's outputs were lost.",
    })
    expect(d.statuses[1]!.environment_url).toBeUndefined()
    expect(gh.comments).toHaveLength(1)
    expect(rec.lines).toContain(`info: Deployment ${d.id} for environment "pr-12": error.`)
  })

  test('abandon(): a started deployment gets error; without one, nothing is sent', async () => {
    const { options } = setup({ 'deployment-environment': 'pr-12', 'pr-comment': 'true' })
    const side = await githubSideEffects(options)
    await side.abandon('never started')
    expect(gh.requests).toEqual([])
    await side.before()
    await side.abandon('Staging create stopped by an unexpected error.')
    expect(gh.deployments[0]!.statuses.map((s) => [s.state, s.description])).toEqual([
      ['in_progress', 'Staging create started.'],
      ['error', 'Staging create stopped by an unexpected error.'],
    ])
    expect(gh.comments).toHaveLength(0)
  })

  test('a cancel before the operation stops the deployment at once', async () => {
    const cancel = new AbortController()
    cancel.abort()
    const { options } = setup({ 'deployment-environment': 'pr-12' }, { signal: cancel.signal })
    const side = await githubSideEffects(options)
    await side.before()
    expect(gh.requests).toEqual([])
  })
})

test('phaseSignal: the normal limit, or the short one from the moment of the cancel', async () => {
  const run = new AbortController()
  const a = phaseSignal(run.signal, 50, 10_000)
  await new Promise((r) => setTimeout(r, 120))
  expect(a.signal.aborted).toBe(true)
  a.dispose()

  const b = phaseSignal(run.signal, 10_000, 30)
  expect(b.signal.aborted).toBe(false)
  run.abort()
  await new Promise((r) => setTimeout(r, 100))
  expect(b.signal.aborted).toBe(true)
  b.dispose()

  // A limit read from performance.now() is fractional; one past a 32-bit timer is clamped.
  for (const ms of [12.345, Number.POSITIVE_INFINITY]) phaseSignal(undefined, ms, 10).dispose()
  const d = phaseSignal(undefined, 20.5, 10_000)
  await new Promise((r) => setTimeout(r, 120))
  expect(d.signal.aborted).toBe(true)
  d.dispose()

  const c = phaseSignal(undefined, 10_000, 10)
  await new Promise((r) => setTimeout(r, 50))
  expect(c.signal.aborted).toBe(false)
  c.dispose()
})
