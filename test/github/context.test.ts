import { describe, expect, test } from '@jest/globals'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { deploymentSha, pullRequestTarget, repoOf, runContext, runUrlFrom } from '../../src/github/context.js'

const HEAD = 'c0ffee'.padEnd(40, '1')
const MERGE = 'deadbeef'.padEnd(40, '2')

describe('pullRequestTarget', () => {
  const payload = { pull_request: { number: 42 }, repository: { name: 'r2', owner: { login: 'o2' } } }
  test('pull_request and pull_request_target name the pull request', () => {
    expect(pullRequestTarget('pull_request', payload, 'o/r')).toEqual({
      target: { owner: 'o', repo: 'r', number: 42 },
    })
    expect(pullRequestTarget('pull_request_target', payload, undefined)).toEqual({
      target: { owner: 'o2', repo: 'r2', number: 42 },
    })
  })
  test('other events give a reason, not a target', () => {
    expect(pullRequestTarget('push', payload, 'o/r')).toEqual({ reason: expect.stringContaining('"push"') })
    expect(pullRequestTarget('pull_request', {}, 'o/r')).toEqual({
      reason: expect.stringContaining('no pull request'),
    })
    expect(pullRequestTarget('pull_request', { number: 3 }, undefined)).toEqual({
      reason: expect.stringContaining('repository is unknown'),
    })
  })
})

test('repoOf reads GITHUB_REPOSITORY, else the payload, and nothing odd', () => {
  expect(repoOf('o/r', null)).toEqual({ owner: 'o', repo: 'r' })
  expect(repoOf('o/r/x', null)).toBeNull()
  expect(repoOf(undefined, { repository: { name: 'r', owner: { login: 'o' } } })).toEqual({
    owner: 'o',
    repo: 'r',
  })
  expect(repoOf(undefined, { repository: { name: 7 } })).toBeNull()
})

describe('deploymentSha', () => {
  test('a pull request deploys its head commit, not the merge commit GITHUB_SHA names', () => {
    const payload = { pull_request: { number: 1, head: { sha: HEAD.toUpperCase() } } }
    expect(deploymentSha('pull_request', payload, { GITHUB_SHA: MERGE })).toEqual({ sha: HEAD })
    expect(deploymentSha('pull_request_target', payload, { GITHUB_SHA: MERGE })).toEqual({ sha: HEAD })
  })
  test('other events deploy GITHUB_SHA', () => {
    expect(deploymentSha('push', { pull_request: { head: { sha: HEAD } } }, { GITHUB_SHA: MERGE })).toEqual({
      sha: MERGE,
    })
    expect(deploymentSha('workflow_dispatch', {}, { GITHUB_SHA: 'a'.repeat(64) })).toEqual({
      sha: 'a'.repeat(64),
    })
  })
  test('no commit, or something that is not one: a reason', () => {
    expect(
      deploymentSha('pull_request', { pull_request: { head: { sha: 'main' } } }, { GITHUB_SHA: MERGE }),
    ).toEqual({
      reason: expect.stringContaining('pull_request.head.sha'),
    })
    expect(deploymentSha('push', {}, {})).toEqual({ reason: expect.stringContaining('GITHUB_SHA') })
    expect(deploymentSha('push', {}, { GITHUB_SHA: 'refs/heads/main' })).toEqual({
      reason: expect.stringContaining('GITHUB_SHA'),
    })
  })
})

test('runUrlFrom builds the run link from the runner environment', () => {
  expect(runUrlFrom({ GITHUB_REPOSITORY: 'o/r', GITHUB_RUN_ID: '77' })).toBe(
    'https://github.com/o/r/actions/runs/77',
  )
  expect(
    runUrlFrom({
      GITHUB_SERVER_URL: 'https://ghe.example/',
      GITHUB_REPOSITORY: 'o/r',
      GITHUB_RUN_ID: '77',
      GITHUB_RUN_ATTEMPT: '2',
    }),
  ).toBe('https://ghe.example/o/r/actions/runs/77/attempts/2')
  expect(runUrlFrom({})).toBeNull()
  expect(runUrlFrom({ GITHUB_REPOSITORY: 'o/r', GITHUB_RUN_ID: '77 -->' })).toBeNull()
})

test('runContext reads the event file; an unreadable one is an empty payload', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctx-'))
  try {
    const file = path.join(dir, 'event.json')
    writeFileSync(file, JSON.stringify({ pull_request: { number: 5 } }))
    const ctx = runContext({
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: file,
      GITHUB_REPOSITORY: 'o/r',
      GITHUB_API_URL: 'http://127.0.0.1:1/',
    })
    expect(ctx).toMatchObject({
      eventName: 'pull_request',
      payload: { pull_request: { number: 5 } },
      apiUrl: 'http://127.0.0.1:1',
    })
    writeFileSync(file, '{not json')
    expect(runContext({ GITHUB_EVENT_PATH: file }).payload).toEqual({})
    expect(runContext({ GITHUB_EVENT_PATH: path.join(dir, 'missing.json') }).payload).toEqual({})
    expect(runContext({}).apiUrl).toBe('https://api.github.com')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
