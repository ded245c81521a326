/**
 * Every Bitbucket pipeline the docs show is one Bitbucket accepts. Atlassian publishes no schema of
 * bitbucket-pipelines.yml as a package (none on npm; SchemaStore's copy is old and accepts a manual
 * first step), so the rules are written here from Atlassian's pages, each checked on a counter
 * example:
 * - https://support.atlassian.com/bitbucket-cloud/docs/pipeline-start-conditions/ (the `pipelines`
 *   sections: default, branches, tags, bookmarks, pull-requests, custom)
 * - https://support.atlassian.com/bitbucket-cloud/docs/step-options/ (a step's keys; `script`
 *   required; `trigger: manual | automatic`)
 * - https://support.atlassian.com/bitbucket-cloud/docs/pipeline-triggers/ ("you can't make the
 *   first step manual")
 * - Atlassian's own pipes, e.g. `pipe: atlassian/aws-s3-deploy:1.1.0`: the full version.
 */
import { describe, expect, test } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { parse } from 'yaml'
import { OWNER } from '../helpers/owner.js'
import { ROOT } from '../helpers/run-action.js'

const version = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string
const PIPE = `docker://${OWNER}/site-staging-pipe:${version}`

const SECTIONS = ['default', 'branches', 'tags', 'bookmarks', 'pull-requests', 'custom']
const STEP_KEYS = [
  'name',
  'script',
  'image',
  'trigger',
  'deployment',
  'artifacts',
  'caches',
  'services',
  'size',
  'max-time',
  'after-script',
  'oidc',
  'clone',
  'condition',
  'runs-on',
  'fail-fast',
]

/** What Bitbucket would refuse in a bitbucket-pipelines.yml, as messages (none: accepted). */
function problems(doc: Record<string, unknown>): string[] {
  const found: string[] = []
  for (const key of Object.keys(doc))
    if (!['image', 'clone', 'options', 'definitions', 'pipelines'].includes(key))
      found.push(`unknown top-level key ${key}`)
  const pipelines = doc.pipelines as Record<string, unknown> | undefined
  if (!pipelines || typeof pipelines !== 'object') return [...found, 'no pipelines']
  const all: [string, unknown][] = []
  for (const [section, value] of Object.entries(pipelines)) {
    if (!SECTIONS.includes(section)) found.push(`unknown pipelines section ${section}`)
    else if (section === 'default') all.push([section, value])
    else for (const [name, p] of Object.entries(value as object)) all.push([`${section} ${name}`, p])
  }
  for (const [where, pipeline] of all) {
    if (!Array.isArray(pipeline) || pipeline.length === 0) {
      found.push(`${where}: not a list of steps`)
      continue
    }
    // A custom pipeline may start with its `variables:` item.
    const items = (pipeline as Record<string, unknown>[]).filter(
      (i) => !('variables' in i && where.startsWith('custom')),
    )
    items.forEach((item, i) => {
      const steps =
        'parallel' in item ? ((item.parallel as { step: unknown }[]) ?? []).map((p) => p.step) : [item.step]
      for (const step of steps) {
        if (!step || typeof step !== 'object') {
          found.push(`${where}: item ${i + 1} is not a step`)
          continue
        }
        const s = step as Record<string, unknown>
        for (const key of Object.keys(s))
          if (!STEP_KEYS.includes(key)) found.push(`${where}: unknown step key ${key}`)
        if (!Array.isArray(s.script) || s.script.length === 0) found.push(`${where}: a step without a script`)
        if (s.trigger !== undefined && !['manual', 'automatic'].includes(s.trigger as string))
          found.push(`${where}: trigger ${String(s.trigger)}`)
        if (i === 0 && s.trigger === 'manual') found.push(`${where}: the first step is manual`)
        for (const line of (s.script as unknown[]) ?? [])
          if (line && typeof line === 'object' && 'pipe' in line && (line as { pipe: string }).pipe !== PIPE)
            found.push(`${where}: pipe ${(line as { pipe: string }).pipe} is not ${PIPE}`)
      }
    })
  }
  return found
}

const blocks = ['docs/bitbucket.md', 'docs/cli.md'].flatMap((f) =>
  [...readFileSync(path.join(ROOT, f), 'utf8').matchAll(/```yaml\n([\s\S]*?)```/g)]
    .map((m) => [f, m[1]!] as const)
    .filter(([, text]) => /^pipelines:/m.test(text)),
)

describe('the Bitbucket pipelines in the docs', () => {
  test('there are some, in both pages', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(3)
    expect(new Set(blocks.map(([f]) => f))).toEqual(new Set(['docs/bitbucket.md', 'docs/cli.md']))
  })

  test.each(blocks.map(([f, text], i) => [`${f} #${i + 1}`, text]))(
    '%s: Bitbucket accepts it',
    (_name, text) => {
      expect(problems(parse(text, { merge: true }))).toEqual([])
    },
  )

  test('each step that runs the pipe pins its full version', () => {
    const pins = blocks.flatMap(([, text]) => [...text.matchAll(/- pipe: (\S+)/g)].map((m) => m[1]))
    expect(pins.length).toBeGreaterThanOrEqual(5)
    for (const pin of pins) expect(pin).toBe(PIPE)
  })
})

describe('the rules can fail', () => {
  const step = (extra: object = {}) => ({
    step: { name: 'x', script: [{ pipe: PIPE, variables: {} }], ...extra },
  })
  test.each([
    [
      'a manual first step',
      { pipelines: { tags: { 'v*': [step({ trigger: 'manual' })] } } },
      /tags v\*: the first step is manual/,
    ],
    [
      'a manual first step in parallel',
      { pipelines: { default: [{ parallel: [step({ trigger: 'manual' })] }] } },
      /the first step is manual/,
    ],
    [
      'a step without a script',
      { pipelines: { default: [{ step: { name: 'x' } }] } },
      /a step without a script/,
    ],
    [
      'a misspelt trigger',
      { pipelines: { default: [step(), step({ trigger: 'manaul' })] } },
      /trigger manaul/,
    ],
    [
      'a misspelt step key',
      { pipelines: { default: [step({ deploymnet: 'x' })] } },
      /unknown step key deploymnet/,
    ],
    ['an unknown section', { pipelines: { pullrequests: {} } }, /unknown pipelines section pullrequests/],
    [
      'the pipe by its major version only',
      {
        pipelines: {
          default: [{ step: { name: 'x', script: [{ pipe: `docker://${OWNER}/site-staging-pipe:1` }] } }],
        },
      },
      /is not docker:/,
    ],
  ])('%s', (_name, doc, message) => {
    expect(problems(doc).join('\n')).toMatch(message)
  })

  test('a manual step after the first is fine, and so is a custom pipeline that starts with its variables', () => {
    expect(problems({ pipelines: { tags: { 'v*': [step(), step({ trigger: 'manual' })] } } })).toEqual([])
    expect(problems({ pipelines: { custom: { go: [{ variables: [{ name: 'X' }] }, step()] } } })).toEqual([])
  })
})
