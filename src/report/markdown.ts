import { httpUrl, oneLine } from '../text.js'
import type { Outcome, Result } from '../types.js'

/**
 * Markdown pieces for the job summary and the PR comment. Text from a run (server text included) is
 * shown as text: no HTML, no links or images of its own, no @mentions or #references, no table
 * breaks, one line. Only http(s) URLs become links.
 */

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

/** Text as inert Markdown: HTML escaped, Markdown syntax escaped, mentions and references broken. */
export function md(text: string): string {
  return oneLine(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]|~#!()])/g, '\\$1')
    .replace(/@(?=[A-Za-z0-9])/g, '@\u200b')
}

/** An id or a short word in code style (ids are checked to hold no backtick, but be sure). */
export function code(text: string): string {
  return `\`${oneLine(text).replace(/`/g, "'")}\``
}

/** A link when `url` is http(s), else the text alone. */
export function link(url: string | null, label?: string): string {
  if (!url) return '—'
  if (!httpUrl(url)) return md(url)
  const href = url.replace(/[()\s<>"'`|\\]/g, (c) => encodeURIComponent(c))
  return `[${md(label ?? url)}](${href})`
}

/** `2m 31s` */
export function duration(seconds: number): string {
  const s = Math.round(seconds)
  return s >= 60 ? `${Math.floor(s / 60)}m ${s % 60}s` : `${Math.round(seconds * 10) / 10}s`
}

/** "2 succeeded, 1 skipped": the outcomes of a batch, most common first. */
export function countOutcomes(results: Result[]): string {
  const counts = new Map<Outcome, number>()
  for (const r of results) counts.set(r.result, (counts.get(r.result) ?? 0) + 1)
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([outcome, n]) => `${n} ${outcome}`)
    .join(', ')
}
