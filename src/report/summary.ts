import { overallOutcome, type Result } from '../types.js'
import { durationText } from '../duration.js'
import { ICON, checkpointRow, code, countOutcomes, link, md, serverWords } from './markdown.js'

/** GitHub drops a step summary over 1 MiB: stay well under it, whatever the server sent. */
export const MAX_SUMMARY_BYTES = 900 * 1024
/** Per-site detail lines after the table of a batch: past this, the `results` output has the rest. */
const MAX_DETAIL_SITES = 200

/** The job summary as Markdown, for a person reading at a glance: a heading that counts the outcomes, what
 * happened in one sentence, then a short table (one site: a definition table whose first row is the site;
 * several: one row a site, at most five columns, then the sites that did not succeed), the server's words,
 * what to do, warnings. Everything from the run is escaped (src/report/markdown.ts); the whole stays under
 * MAX_SUMMARY_BYTES. */
export function renderSummary(results: Result[]): string {
  const first = results[0]
  if (!first) return '## Staging\n\nNothing ran.\n'
  const out = new Bounded(MAX_SUMMARY_BYTES)
  if (results.every((r) => r.error?.kind === NOT_STARTED)) return notStarted(results, out)
  const outcome = overallOutcome(results)
  const heading = results.length === 1 ? outcome : countOutcomes(results)
  out.push(`## ${ICON[outcome]} Staging ${first.operation}: ${heading}`, '')
  if (results.length === 1) single(first, out)
  else batch(results, out)
  const warnings = [...new Set(results.flatMap((r) => r.warnings))]
  if (warnings.length > 0) {
    out.push('### ⚠️ Warnings', '')
    for (const w of warnings.slice(0, 20)) out.push(`- ${md(w)}`)
    out.push('')
  }
  return out.text()
}

/** `error.kind` of a Result whose operation never started (a refusal, a fork without secrets): nothing was sent. */
export const NOT_STARTED = 'not-started'

const NOT_STARTED_HEADING: Partial<Record<Result['result'], string>> = {
  skipped: 'skipped',
  'timed-out': 'timed out before it started',
  cancelled: 'cancelled before it started',
}

/** A run that never started: why (each reason once), and that nothing was sent. */
function notStarted(results: Result[], out: Bounded): string {
  const outcome = overallOutcome(results)
  out.push(`## ${ICON[outcome]} Staging: ${NOT_STARTED_HEADING[outcome] ?? 'not started'}`, '')
  for (const why of new Set(results.map((r) => r.summary))) out.push(`> ${md(why)}`, '')
  const sites = results.map((r) => r.siteId).filter(Boolean)
  out.push(
    `No request was sent to the staging service${sites.length > 0 ? ` (sites: ${sites.slice(0, 20).map(code).join(', ')}${sites.length > 20 ? ', …' : ''})` : ''}.`,
    '',
  )
  return out.text()
}

/** The summary of a step whose inputs were refused: which input and why; nothing was sent. */
export function renderInvalidInput(message: string): string {
  return `## ${ICON.failed} Staging: invalid input\n\n> ${md(message)}\n\nNo request was sent.\n`
}

function single(r: Result, out: Bounded): void {
  if (r.summary) out.push(md(r.summary), '')
  out.push(`| Production site | ${code(r.siteId)} |`, '|:--|:--|')
  out.push(`| Result | ${ICON[r.result]} ${r.result} |`)
  if (r.stagingState) out.push(`| Staging state | ${r.stagingState} |`)
  // After the value, what is known of it: `http://… — answers; from the create answer`.
  const about = (...parts: (string | null)[]) => {
    const said = parts.filter((p): p is string => p !== null)
    return said.length > 0 ? ` — ${said.join('; ')}` : ''
  }
  const from = (source: string | null | undefined) => (source ? `from ${md(source, 200)}` : null)
  if (r.stagingUrl || (r.operation !== 'delete' && r.operation !== 'release' && r.operation !== 'rollback'))
    out.push(
      `| Staging URL | ${link(r.stagingUrl)}${r.stagingUrl ? about(r.operation === 'push' ? null : readiness(r), from(r.stagingFrom?.url)) : ''} |`,
    )
  if (r.stagingSiteId)
    out.push(`| Staging site | ${code(r.stagingSiteId)}${about(from(r.stagingFrom?.siteId))} |`)
  if (r.productionCheck)
    out.push(
      `| Production | check ${r.productionCheck === 'passed' ? 'passed' : '**failed**'} (production-url) |`,
    )
  if (r.checkpointId) out.push(checkpointRow(r, r.checkpointId))
  if (r.taskId) out.push(`| Task | ${code(r.taskId)} |`)
  if (r.httpStatus !== null) out.push(`| HTTP status | ${r.httpStatus} |`)
  out.push(`| Requests | ${r.requests}${r.retries > 0 ? ` (${r.retries} sent again)` : ''} |`)
  out.push(
    `| Duration | ${durationText(r.durationSeconds * 1000, 'tenths')}${sharedWait(r) && `, of which ${sharedWait(r)}`} |`,
    '',
  )
  // Where a staging id or URL could not come from (issue 20 §1): said, not hidden.
  for (const note of r.stagingFrom?.notes ?? []) out.push(`_${md(note, 400)}_`, '')
  const said = serverWords(r)
  if (said) out.push(`> **The server said:** ${md(said)}`, '')
  // What to do, unless the summary above already says it whole (a failed release says it there).
  if (r.error && r.error.hint !== r.summary) out.push(`**What to do:** ${md(r.error.hint)}`, '')
  sentNote(r, '', out)
}

/** The part of a run's time spent waiting for calls other runs on the account used (contract §6 r5). */
function sharedWait(r: Result): string {
  const wait = r.sharedWaitSeconds ? durationText(r.sharedWaitSeconds * 1000, 'tenths') : ''
  return wait && `${wait} waiting for calls other runs on this account used`
}

function batch(results: Result[], out: Bounded): void {
  // A column that no site fills (a delete, or a service that does not say) is left out, not a row of dashes.
  const columns: [string, (r: Result) => string][] = [
    ['Site', (r) => code(r.siteId)],
    ['Result', (r) => `${ICON[r.result]} ${r.result}`],
  ]
  if (results.some((r) => r.stagingSiteId))
    columns.push(['Staging site', (r) => (r.stagingSiteId ? code(r.stagingSiteId) : '—')])
  if (results.some((r) => r.stagingUrl))
    columns.push([
      'Staging URL',
      (r) => `${link(r.stagingUrl)}${r.stagingUrl && readiness(r) ? ` — ${readiness(r)}` : ''}`,
    ])
  columns.push(['Duration', (r) => durationText(r.durationSeconds * 1000, 'tenths')])
  out.push(`| ${columns.map(([name]) => name).join(' | ')} |`, `|${columns.map(() => '---|').join('')}`)
  for (const r of results) if (!out.push(`| ${columns.map(([, cell]) => cell(r)).join(' | ')} |`)) break
  out.push('')
  if (results[0]?.sharedWaitSeconds) out.push(`The run spent ${sharedWait(results[0])}.`, '')
  // Where the staging ids and URLs in the table came from (issue 20 §1), one line for the batch.
  for (const line of sourceLines(results)) out.push(line, '')
  // Details for every site that did not simply succeed: the table says the rest.
  const order = results.filter((r) => r.result !== 'succeeded')
  if (order.length === 0) return
  const shown = order.slice(0, MAX_DETAIL_SITES)
  out.push('### Sites that need a look', '')
  for (const r of shown) {
    const parts = [`- **${md(r.siteId)}** ${ICON[r.result]} ${md(r.summary || r.result)}`]
    const said = serverWords(r)
    if (said) parts.push(` The server said: “${md(said)}”`)
    if (r.error && r.error.hint !== r.summary) parts.push(` **What to do:** ${md(r.error.hint)}`)
    if (!out.push(parts.join(''))) break
    sentNote(r, '  ', out)
  }
  if (order.length > shown.length)
    out.push('', `… and ${order.length - shown.length} more: see the \`results\` output.`)
  out.push('')
}

/** Under a batch's table: where its staging URLs and ids came from, grouped by source ("3 sites: from the
 * site list, …; 1 site: from the create answer"), then the notes on sources that could not say, each once.
 * Bounded: a few sources and notes, whatever the batch. */
function sourceLines(results: Result[]): string[] {
  const grouped = (pick: (r: Result) => string | null | undefined): string | null => {
    const counts = new Map<string, number>()
    for (const r of results) {
      const source = pick(r)
      if (source) counts.set(source, (counts.get(source) ?? 0) + 1)
    }
    if (counts.size === 0) return null
    const all = [...counts].sort((a, b) => b[1] - a[1])
    const shown = all
      .slice(0, 5)
      .map(([source, n]) => `${n} ${n === 1 ? 'site' : 'sites'} from ${md(source, 200)}`)
    if (all.length > shown.length) shown.push(`${all.length - shown.length} other sources`)
    return shown.join('; ')
  }
  const lines: string[] = []
  const urls = grouped((r) => (r.stagingUrl ? r.stagingFrom?.url : null))
  const ids = grouped((r) => (r.stagingSiteId ? r.stagingFrom?.siteId : null))
  if (urls && urls === ids) lines.push(`_Staging sites and URLs: ${urls}._`)
  else {
    if (urls) lines.push(`_Staging URLs: ${urls}._`)
    if (ids) lines.push(`_Staging sites: ${ids}._`)
  }
  const notes = [...new Set(results.flatMap((r) => r.stagingFrom?.notes ?? []))]
  for (const note of notes.slice(0, 5)) lines.push(`_${md(note, 400)}_`)
  return lines
}

function readiness(r: Result): string | null {
  if (r.urlReady === true) return 'answers'
  if (r.urlReady === false) return 'did not answer in time'
  return null
}

function sentNote(r: Result, indent: string, out: Bounded): void {
  if ((r.result === 'cancelled' || r.result === 'timed-out') && r.sent.length > 0)
    out.push(`${indent}Requests that changed something: ${r.sent.map(code).join(', ')}.`, '')
}

/** Lines up to a byte budget; once it is spent, one closing note and nothing more. */
class Bounded {
  private readonly lines: string[] = []
  private bytes = 0
  private full = false
  constructor(private readonly max: number) {}
  push(...lines: string[]): boolean {
    for (const line of lines) {
      if (this.full) return false
      const size = Buffer.byteLength(line) + 1
      if (this.bytes + size > this.max - 200) {
        this.full = true
        this.lines.push(
          '',
          '_The summary stops here: it would pass its size limit. The `results` output has every site._',
        )
        return false
      }
      this.lines.push(line)
      this.bytes += size
    }
    return true
  }
  text(): string {
    return this.lines.join('\n')
  }
}
