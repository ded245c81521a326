/**
 * One table of inputs (src/inputs/table.ts): every door's declaration agrees with it, and the check
 * fails on any drift. action.yml's inputs, pipe/pipe.yml's variables, templates/staging.yml's spec
 * inputs and the job's command line, the CLI's flags and --help, the pipe's variable map. (The
 * README's GitLab tables and docs/bitbucket.md's variables table are made from the specs and
 * pipe.yml by scripts/gitlab-inputs.mjs, checked in test/gitlab/catalog.test.ts.)
 */
import { describe, expect, test } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { parse, parseAllDocuments } from 'yaml'
import { USAGE, parse as parseArgs } from '../../src/cli/args.js'
import { PIPE_VARIABLES, argsFrom } from '../../src/cli/pipe.js'
import { GITHUB_INPUT_NAMES } from '../../src/inputs/index.js'
import {
  DEFAULTS,
  INPUTS,
  INPUT_NAMES,
  cliFlag,
  pipeVariable,
  type InputName,
  type InputSpec,
} from '../../src/inputs/table.js'
import { ROOT } from '../helpers/run-action.js'

const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8')
const spec = (n: InputName): InputSpec => INPUTS[n]
type Yml = Record<string, { default?: unknown; required?: boolean; options?: unknown[]; type?: string }>

/** What action.yml says otherwise than the table. */
function actionDrift(inputs: Yml): string[] {
  const out: string[] = []
  const names = Object.keys(inputs)
  const expected = [...INPUT_NAMES, ...GITHUB_INPUT_NAMES]
  for (const n of expected) if (!names.includes(n)) out.push(`action.yml has no input ${n}`)
  for (const n of names) if (!expected.includes(n as InputName)) out.push(`action.yml's ${n} is in no table`)
  for (const n of INPUT_NAMES) {
    const i = inputs[n]
    if (!i) continue
    if (i.default !== spec(n).default) out.push(`action.yml: ${n} defaults to ${String(i.default)}`)
    if ((i.required === true) !== (spec(n).default === undefined)) out.push(`action.yml: ${n} required?`)
  }
  return out
}

/** What pipe.yml says otherwise than the table. */
function pipeDrift(variables: { name: string; default?: unknown; required?: boolean }[]): string[] {
  const out: string[] = []
  const names = variables.map((v) => v.name)
  for (const n of PIPE_VARIABLES) if (!names.includes(n)) out.push(`pipe.yml has no ${n}`)
  for (const n of names) if (!PIPE_VARIABLES.includes(n)) out.push(`pipe.yml's ${n} is not read`)
  for (const n of INPUT_NAMES) {
    const name = pipeVariable(n)
    const v = variables.find((x) => x.name === name)
    if (!v || n === 'api-token' || n === 'api-url') continue
    const d = spec(n).default
    if (d === undefined ? v.required !== true : String(v.default) !== d)
      out.push(`pipe.yml: ${name} defaults to ${String(v.default)}, the table to ${d}`)
  }
  return out
}

/** The GitLab component's own inputs: the job's, not the run's. */
const COMPONENT_OWN = [
  'token-variable',
  'stage',
  'job-prefix',
  'rules',
  'environment',
  'environment-action',
  'environment-url',
  'resource-group',
  'image',
  'cli-package',
]
/** Extra options the component offers for the same value (locales; reset is pull). */
const GITLAB_ALIASES: Record<string, string[]> = { language: ['en-US', 'es-ES'], operation: ['reset'] }

/**
 * What a component's spec says otherwise than the table: templates/staging.yml takes every input the
 * table gives GitLab (`complete`); review-app.yml a few, each as the table has it.
 */
function gitlabDrift(inputs: Yml, job: string, complete = true): string[] {
  const out: string[] = []
  for (const [name, i] of Object.entries(inputs)) {
    if (COMPONENT_OWN.includes(name)) continue
    if (!INPUT_NAMES.includes(name as InputName)) {
      out.push(`staging.yml's ${name} is in no table`)
      continue
    }
    const n = name as InputName
    const s = spec(n)
    if (complete && !spec(n).gitlab) out.push(`staging.yml has ${n}, which the table does not give GitLab`)
    if (
      n !== 'api-url' &&
      n !== 'site-id' &&
      (s.default === undefined ? 'default' in i : String(i.default) !== s.default)
    )
      out.push(`staging.yml: ${n} defaults to ${String(i.default)}, the table to ${s.default}`)
    const type = s.kind === 'switch' ? 'boolean' : s.kind === 'count' ? 'number' : undefined
    if (i.type !== type) out.push(`staging.yml: ${n} is of type ${i.type ?? 'string'}`)
    if (s.values && JSON.stringify(i.options) !== JSON.stringify(sortedAs(s.values, n, i.options)))
      out.push(`staging.yml: ${n} offers ${JSON.stringify(i.options)}`)
    if (n !== 'operation' && !job.includes(`--${n} `) && !job.includes(`--${n}=`))
      out.push(`the staging job does not pass --${n}`)
  }
  if (complete)
    for (const n of INPUT_NAMES) if (spec(n).gitlab && !(n in inputs)) out.push(`staging.yml has no ${n}`)
  return out
}
const sortedAs = (values: readonly string[], n: string, options: unknown) =>
  Array.isArray(options)
    ? options.filter((o) => values.includes(o as string) || GITLAB_ALIASES[n]?.includes(o as string))
    : values

const actionYml = parse(read('action.yml'))
const pipeYml = parse(read('pipe/pipe.yml'))
const [header, body] = parseAllDocuments(read('templates/staging.yml')).map((d) => d.toJS())
const gitlabInputs = header.spec.inputs as Yml
const job = JSON.stringify(body)

describe('each door declares the inputs of the one table', () => {
  test('action.yml', () => expect(actionDrift(actionYml.inputs)).toEqual([]))
  test('pipe/pipe.yml', () => expect(pipeDrift(pipeYml.variables)).toEqual([]))
  test("templates/staging.yml: its spec inputs and the job's command line", () =>
    expect(gitlabDrift(gitlabInputs, job)).toEqual([]))
  test('templates/review-app.yml: the inputs it takes, each as the table has it', () => {
    const [spec, body] = parseAllDocuments(read('templates/review-app.yml')).map((d) => d.toJS())
    expect(gitlabDrift(spec.spec.inputs, JSON.stringify(body), false)).toEqual([])
  })
  test('the components pass each value as --flag=value: a value that starts with "-" stays a value', () => {
    for (const file of ['templates/staging.yml', 'templates/review-app.yml'])
      expect([file, read(file).match(/ --(?!prefix)[a-z-]+ "\$/g)]).toEqual([file, null])
    const parsed = parseArgs(['status', '--site-id=1001', '--task-id=-9f3a', '--production-expect=-- Acme'])
    expect(parsed.values).toMatchObject({ 'task-id': '-9f3a', 'production-expect': '-- Acme' })
  })
  test("the CLI's --help lists every flag, with its choices and its default", () => {
    for (const n of INPUT_NAMES) {
      const flag = cliFlag(n)
      if (flag === null) continue
      const line = new RegExp(`^ {2}--${flag}\\b.*$`, 'm').exec(USAGE)?.[0]
      expect([n, line !== undefined]).toEqual([n, true])
      if (spec(n).values) expect(line).toContain(spec(n).values!.join('|'))
    }
    expect(USAGE).toMatch(
      /^ {2}--if-exists fail\|skip\|recreate +create when staging exists \(default: fail\)$/m,
    )
    expect(USAGE).toMatch(/^ {2}--wait, --no-wait +wait for the background job to finish \(default: wait\)$/m)
  })
  test("the pipe's variables become the table's flags, every one of them", () => {
    const all: Record<string, string> = { STAGING_API_TOKEN: 'tok', OPERATION: 'push' }
    for (const n of INPUT_NAMES) {
      const v = pipeVariable(n)
      if (v && !all[v]) all[v] = spec(n).kind === 'switch' ? 'true' : DEFAULTS[n] || 'x'
    }
    const args = argsFrom(all)
    for (const n of INPUT_NAMES)
      if (pipeVariable(n) && cliFlag(n)) expect(args.some((a) => a.startsWith(`--${n}`))).toBe(true)
  })
})

describe('the check fails on drift', () => {
  test('a default changed in action.yml, an input left out, one too many', () => {
    const changed = structuredClone(actionYml.inputs)
    changed.timeout.default = '20m'
    delete changed['if-busy']
    changed['if-exist'] = { default: 'fail' }
    expect(actionDrift(changed)).toEqual([
      'action.yml has no input if-busy',
      "action.yml's if-exist is in no table",
      'action.yml: timeout defaults to 20m',
    ])
  })
  test('the pipe without rollback-era variables, or with a default of its own', () => {
    const vars = structuredClone(pipeYml.variables).filter(
      (v: { name: string }) => v.name !== 'KEEP_CHECKPOINTS',
    )
    vars.find((v: { name: string }) => v.name === 'WAIT').default = 'yes'
    expect(pipeDrift(vars)).toEqual([
      'pipe.yml has no KEEP_CHECKPOINTS',
      'pipe.yml: WAIT defaults to yes, the table to true',
    ])
  })
  test('a GitLab input with another choice, a type, or not passed to the command', () => {
    const inputs = structuredClone(gitlabInputs)
    inputs['if-busy']!.options = ['wait', 'fail', 'retry']
    inputs.wait!.type = 'string'
    inputs['fail-fast'] = { type: 'boolean', default: false }
    expect(gitlabDrift(inputs, job.replace('--if-missing', '--if-mising'))).toEqual([
      'staging.yml: wait is of type string',
      'the staging job does not pass --if-missing',
      'staging.yml: if-busy offers ["wait","fail","retry"]',
      'staging.yml has fail-fast, which the table does not give GitLab',
      'the staging job does not pass --fail-fast',
    ])
  })
})
