/**
 * docs/reliability.md's table is the fault matrix's rows, all of them (the shards prove each passes):
 * it cannot drift. `npm run reliability:update` runs every shard, then rewrites the table.
 */
import { describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ROOT } from '../../helpers/run-action.js'
import { SHARD_COUNT, renderTable, rowsOfShard, runsWhole, virtualRows } from './matrix.js'
import { ROWS } from './rows.js'

const HERE = path.dirname(fileURLToPath(import.meta.url))

describe('fault matrix: the rows and docs/reliability.md', () => {
  it('every row runs exactly once (in a shard when it needs the bundle, else in virtual time), every CLI run in a shard', () => {
    const shards = Array.from({ length: SHARD_COUNT }, (_, i) => i + 1)
    const files = readdirSync(HERE).filter((f) => /^shard-\d+\.test\.ts$/.test(f))
    expect(files.sort()).toEqual(shards.map((k) => `shard-${k}.test.ts`).sort())
    for (const k of shards)
      expect(readFileSync(path.join(HERE, `shard-${k}.test.ts`), 'utf8')).toMatch(
        new RegExp(`^runShard\\(${k}\\)$`, 'm'),
      )
    expect(readFileSync(path.join(HERE, 'virtual.test.ts'), 'utf8')).toMatch(/^runVirtualRows\(\)$/m)
    const inShards = shards.flatMap((k) => rowsOfShard(k).map(([i]) => i))
    expect(new Set(inShards).size).toBe(inShards.length)
    const whole = inShards.filter((i) => runsWhole(ROWS[i]!) !== null)
    const inVirtualTime = virtualRows().map(([i]) => i)
    expect([...whole, ...inVirtualTime].sort((a, b) => a - b)).toEqual(ROWS.map((_, i) => i))
    // Every CLI run is in a shard; a row in a shard that does not run whole is there for it alone.
    for (const [i, row] of ROWS.entries()) if (row.cli) expect(inShards).toContain(i)
    for (const i of inShards) expect(runsWhole(ROWS[i]!) !== null || ROWS[i]!.cli).toBe(true)
    // A row whose run needs a process (a signal, an environment) never runs in virtual time.
    for (const [, row] of virtualRows())
      expect(row.options?.signal ?? row.options?.env ?? row.options?.killAfterMs).toBeUndefined()
    // A row with GitHub in this process (its `github`) runs only there: never whole, no CLI run.
    for (const row of ROWS.filter((r) => r.github)) {
      expect(runsWhole(row)).toBeNull()
      expect(row.cli).toBeFalsy()
    }
    // A test is named by its scenario: two rows with one name would hide one of them.
    expect(new Set(ROWS.map((r) => r.scenario)).size).toBe(ROWS.length)
  })

  it('the reliability table of docs/reliability.md is these scenarios', () => {
    const readmePath = path.join(ROOT, 'docs/reliability.md')
    const readme = readFileSync(readmePath, 'utf8')
    const table = renderTable(ROWS)
    const begin = '<!-- reliability-table:begin -->'
    const end = '<!-- reliability-table:end -->'
    const current = readme.includes(begin)
      ? readme.slice(readme.indexOf(begin) + begin.length, readme.indexOf(end))
      : ''
    if (process.env.UPDATE_RELIABILITY === '1') {
      const next = readme.includes(begin)
        ? `${readme.slice(0, readme.indexOf(begin) + begin.length)}\n${table}\n${readme.slice(readme.indexOf(end))}`
        : `${readme.trimEnd()}\n\n${begin}\n${table}\n${end}\n`
      writeFileSync(readmePath, next)
      return
    }
    expect(current.trim()).toBe(table.trim())
  })
})
