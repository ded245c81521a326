import { overallOutcome } from '../staging/batch.js'
import type { Outcome, Result } from '../types.js'

/** One icon per outcome, for every rendering (summary, PR comment). */
export const ICON: Record<Outcome, string> = {
  succeeded: '✅',
  failed: '❌',
  skipped: '⏭️',
  'timed-out': '⏱️',
  accepted: '📨',
  cancelled: '🛑',
  'dry-run': '🧪',
}

/** The job summary as Markdown: a table a person reads at a glance, then what they must know. */
export function renderSummary(results: Result[]): string {
  const lines: string[] = []
  const first = results[0]
  if (!first) return '## Staging\n\nNothing ran.\n'
  const outcome = overallOutcome(results)
  lines.push(`## ${ICON[outcome]} Staging ${first.operation}: ${outcome}`, '')
  if (results.length === 1) {
    const r = first
    lines.push('| | |', '|---|---|')
    lines.push(`| Operation | \`${r.operation}\` |`)
    lines.push(`| Production site | \`${cell(r.siteId)}\` |`)
    lines.push(`| Staging site | ${r.stagingSiteId ? `\`${cell(r.stagingSiteId)}\`` : '—'} |`)
    lines.push(`| Staging URL | ${link(r.stagingUrl)} |`)
    lines.push(`| Result | ${ICON[r.result]} ${r.result} |`)
    lines.push(`| HTTP status | ${r.httpStatus ?? '—'} |`)
    lines.push(`| Task | ${r.taskId ? `\`${cell(r.taskId)}\`` : '—'} |`)
    lines.push(`| Duration | ${r.durationSeconds} s |`)
    lines.push(`| Requests | ${r.requests} |`)
    lines.push(`| Retries | ${r.retries} |`)
  } else {
    lines.push(
      '| Production site | Result | Staging site | Staging URL | HTTP | Task | Duration | Requests | Retries |',
    )
    lines.push('|---|---|---|---|---|---|---|---|---|')
    for (const r of results) {
      lines.push(
        `| \`${cell(r.siteId)}\` | ${ICON[r.result]} ${r.result} | ${cell(r.stagingSiteId ?? '—')} | ${link(r.stagingUrl)} | ${r.httpStatus ?? '—'} | ${cell(r.taskId ?? '—')} | ${r.durationSeconds} s | ${r.requests} | ${r.retries} |`,
      )
    }
  }
  lines.push('')
  for (const r of results) {
    const who = results.length > 1 ? `**${cell(r.siteId)}**: ` : ''
    if (r.message) lines.push(`> ${who}${oneLine(r.message)}`, '')
    if (r.error) lines.push(`**What to do:** ${who}${oneLine(r.error.hint)}`, '')
    if ((r.result === 'cancelled' || r.result === 'timed-out') && r.sent.length > 0) {
      lines.push(
        `${who}Requests that changed something: ${r.sent.map((s) => `\`${cell(s)}\``).join(', ')}.`,
        '',
      )
    }
  }
  const warnings = [...new Set(results.flatMap((r) => r.warnings))]
  if (warnings.length > 0) {
    lines.push('### ⚠️ Warnings', '')
    for (const w of warnings) lines.push(`- ${oneLine(w)}`)
    lines.push('')
  }
  return lines.join('\n')
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/`/g, "'")
}
function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ')
}
function link(url: string | null): string {
  if (!url) return '—'
  return /^https?:\/\//.test(url)
    ? `[${cell(url)}](${url.replace(/[()\s]/g, encodeURIComponent)})`
    : cell(url)
}
