/**
 * The run's facts about its staging site (src/staging/facts.ts): which source may overwrite which
 * (contract r4 §3), what makes staging "none", and that src/staging has no circle of imports.
 */
import { describe, expect, test } from '@jest/globals'
import fs from 'node:fs'
import path from 'node:path'
import { Facts, type Source } from '../../src/staging/facts.js'

const ANSWER: Source = { kind: 'answer', words: 'the create answer' }
const TASK: Source = { kind: 'answer', words: 'the task' }
const READ: Source = { kind: 'read', words: 'the staging environment' }
const READ_404: Source = { kind: 'read', words: 'the staging read (GET /v2/sites/1001/staging answered 404)' }
const LIST: Source = { kind: 'list', words: 'the site list, GET /v2/sites (field parent_id)' }
const OUTSIDE: Source = { kind: 'outside', words: 'the staging-url input (it answers)' }
const DELETE: Source = { kind: 'job', words: 'the delete job' }

function facts() {
  const warnings: string[] = []
  const lines: string[] = []
  const f = new Facts('1001', { warn: (t) => warnings.push(t), info: (t) => lines.push(t) })
  return { f, warnings, lines }
}

describe('a weaker later word never blanks or replaces a stronger one', () => {
  test.each([
    ['a 404 of the staging read', READ_404, { state: 'none' as const }],
    ['a site list without the record', LIST, { state: 'none' as const }],
  ])('%s after the create answer named it: kept, and the sources disagree', (_what, source, learnt) => {
    const { f, warnings } = facts()
    f.learn(ANSWER, { id: 's-1001', url: 'https://s.test/' })
    f.learn(source, learnt)
    expect(f.view()).toMatchObject({
      stagingSiteId: 's-1001',
      stagingUrl: 'https://s.test/',
      stagingState: null,
      stagingFrom: { siteId: 'the create answer', url: 'the create answer' },
    })
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(
      /says there is no staging environment, but the create answer named staging site s-1001 at https:\/\/s\.test\/: the sources disagree/,
    )
  })

  test('a read or the list giving another URL: the stronger is kept, the disagreement said once', () => {
    const { f, warnings } = facts()
    f.learn(ANSWER, { url: 'https://s.test/' })
    f.learn(READ, { url: 'https://other.test/' })
    f.learn(READ, { url: 'https://other.test/' })
    f.learn(LIST, { id: '51001', url: 'https://third.test/' })
    expect(f.url).toBe('https://s.test/')
    // What the create answer left unknown is filled by the weaker source.
    expect(f.view().stagingFrom).toMatchObject({ siteId: LIST.words, url: 'the create answer' })
    expect(warnings).toHaveLength(2)
    expect(warnings[0]).toBe(
      'The staging environment gave https://other.test/ as the staging URL, but the create answer gave https://s.test/: the sources disagree; https://s.test/ (from the create answer) was kept.',
    )
  })

  test('a stronger or equal source replaces; saying nothing changes nothing', () => {
    const { f, warnings } = facts()
    f.learn(OUTSIDE, { url: 'https://hint.test/' })
    f.learn(LIST, { url: 'https://list.test/' })
    expect(f.view().stagingFrom.url).toBe(LIST.words)
    f.learn(READ, { url: 'https://read.test/' })
    f.learn(READ, { url: 'https://read2.test/' })
    expect(f.url).toBe('https://read2.test/')
    f.learn(TASK, { id: '51001' })
    f.learn(READ, {})
    f.learn(READ, { id: null, url: null })
    expect(f.view()).toMatchObject({ stagingSiteId: '51001', stagingUrl: 'https://read2.test/' })
    // The same value from a stronger source: that source is now where it came from.
    f.learn(ANSWER, { url: 'https://read2.test/' })
    expect(f.view().stagingFrom.url).toBe('the create answer')
    expect(warnings).toEqual([])
  })

  test('a list record naming another staging site than the answer did lends no URL either', () => {
    const { f, warnings } = facts()
    f.learn(ANSWER, { id: 's-1001' })
    f.learn(LIST, { id: 's-9999', url: 'https://other.test/' })
    expect(f.view()).toMatchObject({ stagingSiteId: 's-1001', stagingUrl: null })
    expect(warnings.join(' ')).toMatch(
      /So the URL the site list, .* gave \(https:\/\/other\.test\/\) was not used either/,
    )
    // The same record agreeing on the id fills the URL.
    const agreed = facts()
    agreed.f.learn(ANSWER, { id: 's-1001' })
    agreed.f.learn(LIST, { id: 's-1001', url: 'https://s.test/' })
    expect(agreed.f.view().stagingUrl).toBe('https://s.test/')
  })

  test("a record that gives the production site's id as the staging id: nothing in it is used", () => {
    const { f, warnings } = facts()
    expect(f.learn(READ, { id: '01001', url: 'https://prod.test/' })).toBe(false)
    expect(f.view()).toMatchObject({ stagingSiteId: null, stagingUrl: null })
    expect(warnings[0]).toMatch(/production site's own id \(1001\)/)
  })
})

describe("another production site of the run is never this site's staging", () => {
  test('a task whose resource_id is another site of the batch: nothing in it is used', () => {
    const warnings: string[] = []
    const f = new Facts('1', { warn: (t) => warnings.push(t), info: () => {} }, ['1', '2'])
    expect(f.learn(TASK, { id: '2', url: 'https://site2-production.example.com/' })).toBe(false)
    expect(f.view()).toMatchObject({ stagingSiteId: null, stagingUrl: null })
    expect(warnings[0]).toMatch(/gave the id of site 2, another production site of this run, as the staging/)
  })
})

describe('what makes staging "none"', () => {
  test('a 404 of the read before any source named it (the caller confirmed the root)', () => {
    const { f, warnings } = facts()
    f.learn(READ, { state: 'unknown' })
    f.learn(READ_404, { state: 'none' })
    expect(f.view().stagingState).toBe('none')
    expect(warnings).toEqual([])
  })

  test('not a 404 after a job said staging exists, nor a list without it when nothing named it', () => {
    const { f, warnings } = facts()
    f.learn(LIST, { state: 'none' })
    expect(f.view().stagingState).toBeNull()
    f.learn({ kind: 'job', words: 'the pull job' }, { exists: true })
    f.learn(READ_404, { state: 'none' })
    expect(f.view().stagingState).toBeNull()
    expect(warnings).toEqual([
      'The staging read (GET /v2/sites/1001/staging answered 404) says there is no staging environment, but the pull job said a staging environment exists: the sources disagree; the staging site was kept.',
    ])
  })

  test('a delete that succeeded, whatever named it; a create afterwards names the new one', () => {
    const { f } = facts()
    f.learn(ANSWER, { id: 's-1001', url: 'https://s.test/' })
    f.learn(DELETE, { state: 'none' })
    expect(f.view()).toMatchObject({ stagingSiteId: null, stagingUrl: null, stagingState: 'none' })
    expect(f.named).toBe(false)
    f.learn(ANSWER, { id: 's-1001b' })
    expect(f.view()).toMatchObject({ stagingSiteId: 's-1001b', stagingState: null })
  })

  test('"unknown" never hides a state read; the latest read state wins', () => {
    const { f } = facts()
    f.learn(READ, { state: 'busy' })
    f.learn(READ, { state: 'unknown' })
    expect(f.view().stagingState).toBe('busy')
    f.learn(READ, { state: 'ready' })
    expect(f.view().stagingState).toBe('ready')
  })
})

test('notes are kept once each, in order, and logged', () => {
  const { f, lines } = facts()
  f.note('one')
  f.note('two')
  f.note('one')
  expect(f.view().stagingFrom.notes).toEqual(['one', 'two'])
  expect(lines).toEqual(['one', 'two', 'one'])
})

test('src/staging has no circle of imports (type imports included)', () => {
  const dir = path.resolve('src/staging')
  const graph = new Map<string, string[]>()
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    const text = fs.readFileSync(path.join(dir, file), 'utf8')
    graph.set(
      file,
      [...text.matchAll(/from '\.\/([\w-]+)\.js'/g)].map((m) => `${m[1]}.ts`),
    )
  }
  expect(graph.size).toBeGreaterThan(10)
  const circles: string[] = []
  const state = new Map<string, 'open' | 'done'>()
  const visit = (file: string, trail: string[]) => {
    state.set(file, 'open')
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') circles.push([...trail.slice(trail.indexOf(next)), next].join(' -> '))
      else if (!state.has(next)) visit(next, [...trail, next])
    }
    state.set(file, 'done')
  }
  for (const file of graph.keys()) if (!state.has(file)) visit(file, [file])
  expect(circles).toEqual([])
})
