import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { parse } from 'yaml'
import { ROOT } from '../helpers/run-action.js'

describe('runtime', () => {
  it('the tests run on Node 24 or later, the runtime GitHub gives the action', () => {
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(24)
  })
  it('action.yml runs dist/index.js on node24', () => {
    const action = parse(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as {
      runs: { using: string; main: string }
    }
    expect(action.runs).toEqual({ using: 'node24', main: 'dist/index.js' })
  })
})
