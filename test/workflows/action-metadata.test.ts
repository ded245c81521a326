/** action.yml follows GitHub's metadata rules and agrees with the code (defaults, outputs). */
import { describe, expect, test } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { parse } from 'yaml'
import { GITHUB_OUTPUT_NAMES } from '../../src/github/index.js'
import { GITHUB_INPUT_DEFAULTS } from '../../src/inputs/index.js'
import { DEFAULTS } from '../../src/inputs/index.js'
import { OUTPUT_NAMES } from '../../src/report/outputs.js'
import { ROOT } from '../helpers/run-action.js'
import { checkActionMetadata } from './action-metadata.js'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const ACTION: any = parse(readFileSync(path.join(ROOT, 'action.yml'), 'utf8'))
const clone = () => structuredClone(ACTION)

describe('action.yml metadata', () => {
  test('follows the metadata rules (name, description, runs node24 + main, inputs, outputs, branding)', () => {
    expect(checkActionMetadata(ACTION, ROOT)).toEqual([])
  })

  test('the checks catch broken metadata', () => {
    const broken = clone()
    broken.runs.using = 'node20'
    broken.runs.main = 'dist/nope.js'
    broken.branding = { icon: 'github', color: 'pink' }
    delete broken.inputs.operation.description
    broken.inputs.wait.default = true
    broken.inputs['bad id'] = { description: 'x' }
    broken.outputs.result = {}
    delete broken.description
    broken.extra = 1
    expect(checkActionMetadata(broken, ROOT).sort()).toEqual(
      [
        'description is required',
        'unknown top-level key "extra"',
        'runs.using must be node24, got "node20"',
        'runs.main: dist/nope.js does not exist',
        'branding.icon "github" is not allowed',
        'branding.color "pink" is not allowed',
        'input operation has no description',
        'input wait: default must be a string (quote it), got true',
        'input id "bad id" is not valid',
        'output result has no description',
      ].sort(),
    )
  })
})

describe('action.yml agrees with the code', () => {
  test('DEFAULTS in src/inputs/ are the defaults of action.yml', () => {
    const yml: Record<string, string> = {}
    for (const [name, spec] of Object.entries(ACTION.inputs) as [string, { default?: string }][])
      if (spec.default !== undefined) yml[name] = spec.default
    const core = Object.fromEntries(Object.entries(yml).filter(([name]) => !(name in GITHUB_INPUT_DEFAULTS)))
    const github = Object.fromEntries(Object.entries(yml).filter(([name]) => name in GITHUB_INPUT_DEFAULTS))
    expect(core).toEqual({ ...DEFAULTS })
    // The GitHub side's inputs (src/github/index.ts) follow the others, with the same defaults.
    expect(github).toEqual({ ...GITHUB_INPUT_DEFAULTS })
    expect(Object.keys(ACTION.inputs).slice(-Object.keys(GITHUB_INPUT_DEFAULTS).length)).toEqual(
      Object.keys(GITHUB_INPUT_DEFAULTS),
    )
  })

  test('the inputs without a default are the required ones', () => {
    const required = Object.entries(ACTION.inputs as Record<string, { required?: boolean; default?: string }>)
      .filter(([, spec]) => spec.default === undefined)
      .map(([name, spec]) => [name, spec.required])
    expect(required).toEqual([
      ['operation', true],
      ['site-id', true],
      ['api-token', true],
    ])
  })

  test("the outputs are OUTPUT_NAMES, then the GitHub side's, in order", () => {
    expect(Object.keys(ACTION.outputs)).toEqual([...OUTPUT_NAMES, ...GITHUB_OUTPUT_NAMES])
  })
})
