/**
 * Issue 34 §6: a repository people trust. Its links work (every relative link of the README, the
 * root documents and docs/ reaches a file, and a heading when it names one), SECURITY.md sends
 * reports to GitHub's private vulnerability reporting with the token and production in scope,
 * CHANGELOG.md keeps Keep a Changelog's shape, the issue templates ask for the run's summary and
 * no secrets, and docs/releasing.md gives each first-release step once.
 */
import { describe, expect, test } from '@jest/globals'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { parse } from 'yaml'
import { ROOT } from '../helpers/run-action.js'

const read = (rel: string) => readFileSync(path.join(ROOT, rel), 'utf8')
const DOCS = [
  'README.md',
  'SECURITY.md',
  'CONTRIBUTING.md',
  'CHANGELOG.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
]

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>()
  const out = new Set<string>()
  const body = text.replace(/```[\s\S]*?```/g, '')
  for (const [, heading] of body.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(heading!)
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    out.add(n ? `${base}-${n}` : base)
  }
  return out
}

describe('links', () => {
  test.each(DOCS)('every relative link of %s reaches its file and heading', (file) => {
    const text = read(file).replace(/```[\s\S]*?```/g, '')
    const broken: string[] = []
    let seen = 0
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:|mailto:)/.test(target!) || target!.startsWith('../../security/')) continue
      seen++
      const [rel, anchor] = target!.split('#') as [string, string | undefined]
      const dest = rel ? path.join(path.dirname(file), rel) : file
      if (!existsSync(path.join(ROOT, dest))) broken.push(`${target}: no ${dest}`)
      else if (anchor && dest.endsWith('.md') && !anchors(read(dest)).has(anchor))
        broken.push(`${target}: no heading #${anchor} in ${dest}`)
    }
    expect(broken).toEqual([])
    if (file === 'README.md') expect(seen).toBeGreaterThan(20)
  })

  test.each(DOCS)(
    'every source file %s names in code quotes exists (the layout has moved before)',
    (file) => {
      const named = [...read(file).matchAll(/`((?:src|test|bench)\/[\w./-]+\.[a-z]+)`/g)].map((m) => m[1]!)
      const written = ['bench/results/quick.md', 'bench/results/many.md'] // written by a run, not committed
      expect(named.filter((rel) => !written.includes(rel) && !existsSync(path.join(ROOT, rel)))).toEqual([])
    },
  )

  test('the anchor check finds a missing heading (it can fail)', () => {
    expect(anchors('# A title\n## Try it: `npm ci`, then\n## Try it: `npm ci`, then\n')).toEqual(
      new Set(['a-title', 'try-it-npm-ci-then', 'try-it-npm-ci-then-1']),
    )
  })
})

test('SECURITY.md: private reporting through GitHub, the token and production in scope', () => {
  const text = read('SECURITY.md')
  expect(text).toMatch(/private vulnerability reporting/)
  expect(text).toContain('](../../security/advisories/new)')
  expect(text).toMatch(/Do not\s+open a public issue/)
  const inScope = text.slice(text.indexOf('## In scope'), text.indexOf('## Not in scope'))
  for (const topic of ['**The token.**', '**Hostile answers.**', '**Production.**'])
    expect(inScope).toContain(topic)
  expect(inScope).toMatch(/any\s+common encoding/)
})

test("CHANGELOG.md: Keep a Changelog's shape, Unreleased first, only its kinds of change", () => {
  const text = read('CHANGELOG.md')
  expect(text).toMatch(/keepachangelog\.com/)
  const versions = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]!)
  expect(versions[0]).toBe('[Unreleased]')
  for (const v of versions.slice(1)) expect(v).toMatch(/^\[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}$/)
  const kinds = [...text.matchAll(/^### (.+)$/gm)].map((m) => m[1]!)
  expect(kinds.length).toBeGreaterThan(0)
  for (const k of kinds)
    expect(['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security']).toContain(k)
})

describe('issue templates', () => {
  const dir = '.github/ISSUE_TEMPLATE'
  type Field = {
    type: string
    id?: string
    validations?: { required?: boolean }
    attributes: Record<string, unknown>
  }
  const form = (name: string) => parse(read(`${dir}/${name}`)) as { name: string; body: Field[] }

  test('no blank issues; security reports go to the private report, as SECURITY.md says', () => {
    const config = parse(read(`${dir}/config.yml`)) as {
      blank_issues_enabled: boolean
      contact_links: { url: string }[]
    }
    expect(config.blank_issues_enabled).toBe(false)
    expect(config.contact_links.map((l) => l.url)).toEqual([
      expect.stringMatching(
        /^https:\/\/github\.com\/[\w.-]+\/site-staging-action\/security\/advisories\/new$/,
      ),
    ])
  })

  test("a bug asks for the door, the version, the step, the run's summary, and ticks 'no secrets'", () => {
    const bug = form('bug.yml')
    const required = bug.body.filter((f) => f.validations?.required).map((f) => f.id)
    expect(required).toEqual(['door', 'version', 'inputs', 'summary', 'expected'])
    const noSecrets = bug.body.find((f) => f.id === 'no-secrets')!
    expect(noSecrets.type).toBe('checkboxes')
    expect((noSecrets.attributes.options as { required: boolean }[])[0]!.required).toBe(true)
    expect(read(`${dir}/bug.yml`)).toMatch(/SECURITY\.md/)
  })

  test('a feature request asks what the user wants to do', () => {
    const feature = form('feature.yml')
    expect(feature.body.find((f) => f.id === 'need')!.validations!.required).toBe(true)
  })
})

test('docs/releasing.md: each first-release step once, in order, the manual npm publish before trusted publishing', () => {
  const text = read('docs/releasing.md')
  const steps = [...text.matchAll(/^## (\d)\. (.+)$/gm)].map((m) => `${m[1]}. ${m[2]}`)
  expect(steps).toEqual([
    '1. The owner',
    '2. The first npm publish, by hand',
    '3. Trusted publishing',
    '4. The GitHub Marketplace listing',
    '5. The GitLab CI/CD Catalog',
    "6. The Bitbucket pipe's image",
  ])
  expect(text).toMatch(/cannot be published through it/)
  expect(text).toMatch(/npm publish --access public --provenance=false/)
  expect(text).toMatch(/Private\s+vulnerability reporting: Enable/)
})
