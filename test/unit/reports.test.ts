import { describe, expect, it } from '@jest/globals'
import { finalLine } from '../../src/report/assembly.js'
import { MAX_RESULTS_BYTES, outputsFor } from '../../src/report/outputs.js'
import { MAX_SUMMARY_BYTES, renderSummary } from '../../src/report/summary.js'
import { newResult, type Outcome, type Result } from '../../src/types.js'

const result = (over: Partial<Result> = {}): Result => ({
  ...newResult('create', '1001', Date.parse('2026-11-22T10:00:00Z')),
  result: 'succeeded',
  httpStatus: 202,
  message: 'Staging site creation started.',
  summary: 'Staging created in 2m 31s.',
  taskId: 'd53a490af3cd',
  stagingSiteId: '50123',
  stagingUrl: 'https://staging-1001.example.test/',
  durationSeconds: 151,
  requests: 14,
  ...over,
})

/** The Markdown table rows of a text: lines that start with `|`. */
const rows = (md: string) => md.split('\n').filter((l) => l.startsWith('|'))

describe('the job summary, one site (issue 11)', () => {
  const md = renderSummary([result()])
  it('heading, then what happened in one sentence, then a definition table with no empty header row', () => {
    const lines = md.split('\n')
    expect(lines[0]).toBe('## ✅ Staging create: succeeded')
    expect(md).toContain('Staging created in 2m 31s.')
    expect(rows(md)[0]).toBe('| Production site | `1001` |')
    expect(rows(md)[1]).toBe('|:--|:--|')
    expect(md).not.toMatch(/^\|\s*\|\s*\|$/m)
  })
  it("quotes the server's acceptance message as the server's", () => {
    expect(md).toContain('> **The server said:** Staging site creation started.')
  })
  it('a URL that is not http(s) is never a link', () => {
    const bad = renderSummary([result({ stagingUrl: 'javascript:alert(1)' })])
    expect(bad).not.toMatch(/\]\(javascript:/)
  })
})

describe("the summary's timing line when other runs share the account's rate limit (issue 33 §2)", () => {
  it('one site: the duration says how much of it was waiting for calls other runs used; alone, it says nothing more', () => {
    const shared = rows(renderSummary([result({ sharedWaitSeconds: 12.5 })]))
    expect(shared).toContain(
      '| Duration | 2m 31s, of which 12.5s waiting for calls other runs on this account used |',
    )
    expect(rows(renderSummary([result()]))).toContain('| Duration | 2m 31s |')
  })
  it('several sites: one line under the table', () => {
    const two = [
      result({ siteId: '1', sharedWaitSeconds: 40 }),
      result({ siteId: '2', sharedWaitSeconds: 40 }),
    ]
    const md = renderSummary(two)
    expect(md.split('\n').filter((l) => l.includes('other runs'))).toEqual([
      'The run spent 40s waiting for calls other runs on this account used.',
    ])
    expect(renderSummary([result({ siteId: '1' }), result({ siteId: '2' })])).not.toContain('other runs')
  })
})

describe('the job summary, several sites (issue 11)', () => {
  const outcomes: Outcome[] = ['succeeded', 'skipped', 'succeeded', 'skipped']
  const batch = outcomes.map((o, i) =>
    result({
      siteId: `10${i}`,
      operation: 'pull',
      result: o,
      summary: o === 'skipped' ? 'Skipped: no staging.' : 'Done.',
    }),
  )
  const md = renderSummary(batch)
  it('the heading counts outcomes, never a plain "succeeded" over a mixed batch', () => {
    expect(md.split('\n')[0]).toBe('## ✅ Staging pull: 2 succeeded, 2 skipped')
  })
  it('one compact table of at most six columns, a row per site, details below', () => {
    const table = rows(md)
    expect(table[0]!.split('|').length - 2).toBeLessThanOrEqual(6)
    expect(table).toHaveLength(2 + batch.length)
    expect(md).toContain('### Sites that need a look')
    expect(md.indexOf('Skipped: no staging.')).toBeGreaterThan(md.indexOf('### Sites that need a look'))
    expect(md).not.toMatch(/\*\*100\*\* ✅/)
  })
  it('a column no site fills is left out; one that any site fills stays, with a dash for the rest', () => {
    const bare = { operation: 'delete' as const, stagingSiteId: null, stagingUrl: null }
    const none = renderSummary([result({ siteId: '100', ...bare }), result({ siteId: '101', ...bare })])
    expect(rows(none)[0]).toBe('| Site | Result | Duration |')
    expect(rows(none)[1]).toBe('|---|---|---|')
    const some = renderSummary([
      result({ siteId: '100', stagingSiteId: null, stagingUrl: 'https://s.example.test' }),
      result({ siteId: '101', stagingSiteId: null, stagingUrl: null }),
    ])
    const table = rows(some)
    expect(table[0]).toBe('| Site | Result | Staging URL | Duration |')
    expect(table[1]).toBe('|---|---|---|---|')
    expect(table[3]).toMatch(/^\| `101` \| .* \| — \| /)
  })
})

describe('the job summary says where a batch found its staging URLs (issue 20 §1)', () => {
  const list = 'the site list, GET /v2/sites (field parent_id)'
  const answer = 'the create answer'
  const from = (url: string | null, notes: string[] = []) => ({ siteId: url, url, notes })
  const md = renderSummary([
    result({ siteId: '100', stagingFrom: from(list) }),
    result({
      siteId: '101',
      stagingFrom: from(list, ['The site list had no field that links a staging site.']),
    }),
    result({
      siteId: '102',
      stagingFrom: {
        siteId: 'the task data',
        url: answer,
        notes: ['The site list had no field that links a staging site.'],
      },
    }),
    result({ siteId: '103', stagingUrl: null, stagingSiteId: null, stagingFrom: from(null) }),
  ])
  it('one line a kind, sources grouped and counted, below the table; each note once', () => {
    // Markdown escapes (`\\(`, `\\_`) aside, as a reader sees it.
    const urls = md
      .split('\n')
      .find((l) => l.startsWith('_Staging URLs:'))
      ?.replace(/\\/g, '')
    expect(urls).toMatch(
      /^_Staging URLs: 2 sites from the site list, GET \/v2\/sites \(field parent\\?_id\); 1 site from the create answer\._$/,
    )
    expect(md).toMatch(/^_Staging sites: 2 sites from .*; 1 site from the task data\._$/m)
    expect(md.match(/The site list had no field/g)).toHaveLength(1)
    expect(md.indexOf('_Staging URLs:')).toBeGreaterThan(md.lastIndexOf('| `103` |'))
  })
  it('one line when the ids and URLs came from the same places', () => {
    const same = renderSummary([
      result({ siteId: '100', stagingFrom: from(list) }),
      result({ siteId: '101', stagingFrom: from(list) }),
    ])
    expect(same).toMatch(/^_Staging sites and URLs: 2 sites from the site list, .*\._$/m)
    expect(same).not.toContain('_Staging URLs:')
  })
  it('a batch whose sources are unknown says nothing of them', () => {
    expect(renderSummary([result({ siteId: '100' }), result({ siteId: '101' })])).not.toContain(
      '_Staging URLs:',
    )
  })
})

describe('server text cannot break or forge the report (issue 10)', () => {
  const hostile = result({
    message:
      'ok | forged | row |\n| 9999 | ✅ succeeded |\n<img src=x onerror=alert(1)> @octocat #1 [x](https://evil.test)',
    summary: 'done\n## Forged heading',
    stagingSiteId: '50123',
  })
  const md = renderSummary([hostile])
  it('no new table row, heading, HTML tag, mention or link', () => {
    expect(rows(md).some((r) => r.includes('9999'))).toBe(false)
    expect(md).not.toMatch(/^## Forged/m)
    expect(md).not.toContain('<img')
    expect(md).not.toMatch(/@octocat/)
    expect(md).not.toContain('](https://evil.test)')
  })
  it('megabytes of server text keep the summary under its limit, and the outputs too', () => {
    const big = 'x'.repeat(3_000_000)
    const many = Array.from({ length: 1000 }, (_, i) =>
      result({
        siteId: String(2000 + i),
        message: big.slice(0, 1000),
        summary: big.slice(0, 1000),
        warnings: [big.slice(0, 1000)],
      }),
    )
    expect(Buffer.byteLength(renderSummary(many))).toBeLessThanOrEqual(MAX_SUMMARY_BYTES)
    const outputs = outputsFor(many)
    expect(Buffer.byteLength(outputs.results)).toBeLessThanOrEqual(MAX_RESULTS_BYTES)
    const parsed = JSON.parse(outputs.results) as { siteId: string; result: string }[]
    expect(parsed).toHaveLength(1000)
    expect(parsed[999]).toMatchObject({ siteId: '2999', result: 'succeeded' })
    for (const value of Object.values(outputs)) expect(Buffer.byteLength(value)).toBeLessThan(1_000_000)
  })
})

describe('the last line', () => {
  it('says what happened and quotes the server as such; never "started" as the last word on an ended job', () => {
    const line = finalLine([result()])
    expect(line).toBe(
      'Staging create succeeded (site 1001). The server said when it accepted the job: "Staging site creation started." Staging created in 2m 31s.',
    )
  })
  it('several sites: the counts', () => {
    expect(finalLine([result(), result({ siteId: '1002', result: 'failed' })])).toBe(
      'Staging create on 2 sites: 1 succeeded, 1 failed (failed overall).',
    )
  })
  it('several sites: the sites not started are named, at most ten', () => {
    const notStarted = (siteId: string) =>
      result({ siteId, result: 'skipped', summary: 'Not started: the token was refused.' })
    expect(
      finalLine([result({ siteId: '1003', result: 'failed' }), notStarted('4001'), notStarted('3001')]),
    ).toBe('Staging create on 3 sites: 2 skipped, 1 failed (failed overall). Not started: 4001, 3001.')
    const many = Array.from({ length: 12 }, (_, i) => notStarted(String(5000 + i)))
    expect(finalLine([result({ result: 'failed' }), ...many])).toMatch(
      /Not started: 5000, 5001, 5002, 5003, 5004, 5005, 5006, 5007, 5008, 5009 and 2 more\.$/,
    )
  })
})
