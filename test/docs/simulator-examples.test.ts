/**
 * Issue 34 §5: docs/simulator.md's fault examples paste. Each line of the block is one JSON value,
 * with no raw line break or control byte inside (escapes instead), and the simulator accepts each as
 * it is sent: POST /__sim/faults answers 200 and lists the rule.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { start, type Simulator } from '../../simulator/server.js'
import { ROOT } from '../helpers/run-action.js'

const DOC = readFileSync(path.join(ROOT, 'docs/simulator.md'), 'utf8')
const section = DOC.slice(DOC.indexOf('### Fault examples'))
const block = /```jsonc\n([\s\S]*?)```/.exec(section)![1]!
const examples = block.split('\n').filter((l) => l.trim() && !l.startsWith('//'))
let sim: Simulator

beforeAll(async () => {
  sim = await start({ port: 0 })
})
afterAll(() => sim?.stop())

test('the block holds the examples, one per line, with no control byte but the line ends', () => {
  expect(examples.length).toBeGreaterThanOrEqual(10)
  // eslint-disable-next-line no-control-regex
  expect(block).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/)
  // The escapes that stand for what the answers carry are still there.
  expect(block).toContain('\\u001b[31m')
  expect(block).toContain('\\n::error::')
})

test.each(examples.map((l, i) => [i + 1, l] as const))(
  'example %i parses and is accepted as sent',
  async (_, line) => {
    const rule = JSON.parse(line) as Record<string, unknown>
    const sent = await fetch(`${sim.url}/__sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: line,
    })
    expect(`${sent.status} ${await sent.text()}`).toMatch(/^200 /)
    const active = (await (await fetch(`${sim.url}/__sim/faults`)).json()) as { path?: string }[]
    expect(JSON.stringify(active)).toContain(JSON.stringify(rule.path))
    await fetch(`${sim.url}/__sim/faults`, { method: 'DELETE' })
  },
)
