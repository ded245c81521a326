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
  it.each(['index.js', 'cli.js'])(
    'dist/%s loads undici only when something asks for it, and does not even parse it at start',
    (bundle) => {
      const code = readFileSync(path.join(ROOT, 'dist', bundle), 'utf8')
      expect(code).not.toMatch(/^var undici = __nccwpck_require__\(\d+\);$/m)
      const lazy =
        /let undici\$loaded; const undici = new Proxy\(\{\}, \{ get: \(_, key\) => \(undici\$loaded \?\?= __nccwpck_require__\((\d+)\)\)\[key\] \}\);/
      expect(code).toMatch(lazy)
      // The lazy module is undici itself: the id it loads is the module that defines ProxyAgent.
      const id = lazy.exec(code)![1]!
      const start = code.indexOf(`/***/ ${id}:`)
      expect(code.slice(start, start + 20_000)).toMatch(/ProxyAgent/)
      // It sits in the bundle as text (scripts/build.mjs, unparsedUntilUsed), compiled when first
      // required; the text is a module function that compiles.
      const entry = new RegExp(
        `^/\\*\\*\\*/ ${id}:\n/\\*\\*\\*/ \\(\\(module, exports, require\\) => __unparsed\\(${id}, ("(?:[^"\\\\]|\\\\.)*")\\)`,
        'm',
      )
      const text = entry.exec(code)
      expect(text).not.toBeNull()
      const compiled: unknown = (0, eval)(
        `"use strict";(__WEBPACK_EXTERNAL_createRequire, __import_meta) => ${JSON.parse(text![1]!) as string}`,
      )
      expect(typeof compiled).toBe('function')
    },
  )
})
