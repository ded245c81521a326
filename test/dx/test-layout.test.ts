/**
 * The test suite's layout that keeps `npm test` fast: a suite that runs against every simulator
 * profile is split into one file per profile (so Jest runs them in parallel), and none is lost.
 */
import { describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { ROOT } from '../helpers/run-action.js'
import { PROFILES } from '../helpers/sim.js'

const TEST = path.join(ROOT, 'test')
const files = (readdirSync(TEST, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'))

describe('profile suites', () => {
  const suites = files.filter(
    (f) =>
      !f.endsWith('.test.ts') &&
      /describe\.each\(profileOfThisFile\(\)\)/.test(readFileSync(path.join(TEST, f), 'utf8')),
  )

  it('there are some (the check below would otherwise prove nothing)', () => {
    expect(suites.length).toBeGreaterThan(0)
  })

  it('each profile suite X.ts is run by X.<profile>-profile.test.ts for every profile, and only by those', () => {
    for (const suite of suites) {
      const base = suite.replace(/\.ts$/, '')
      const runners = files
        .filter((f) => f.endsWith('.test.ts'))
        .filter(
          (f) =>
            readFileSync(path.join(TEST, f), 'utf8').includes(`'./${path.basename(base)}.js'`) &&
            path.dirname(f) === path.dirname(suite),
        )
      expect({ suite, runners: runners.sort() }).toEqual({
        suite,
        runners: Object.keys(PROFILES)
          .map((p) => `${base}.${p}-profile.test.ts`)
          .sort(),
      })
    }
  })

  it('no profile test file is left without its suite', () => {
    for (const f of files.filter((f) => /\.\w+-profile\.test\.ts$/.test(f)))
      expect(suites).toContain(f.replace(/\.\w+-profile\.test\.ts$/, '.ts'))
  })
})
