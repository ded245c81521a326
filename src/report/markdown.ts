import { fragmentCredentials, isCredentialQueryParam } from '../contract.js'
import { rawUrlEncode } from '../secrets/encodings.js'
import { bound, hasControl, httpUrl, oneLine } from '../text.js'
import type { Outcome, Result } from '../types.js'

/** Markdown pieces for the job summary and the PR comment. Text from a run (server text included) is shown as
 * text, one line, bounded (`md`, `escapeMarkdown`); only http(s) URLs that `safeHttpUrl` accepts become
 * links. */

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

/** Text as inert Markdown: one line, at most `max` characters, then escaped. */
export function md(text: string, max = 1500): string {
  return escapeMarkdown(bound(oneLine(String(text)), max))
}

/** Text shows as text: no HTML, no emphasis, code, links or images, no table breaks, no block structure at
 * its start (headings, lists, quotes), no @mentions, no issue references (#12, GH-12), no autolinks. A URL in
 * the text (`https://...`, `www....`) goes in a code span, where nothing links it and its characters stay
 * exactly as they were, so a person can copy it as it is (an invisible character inside it would break that).
 * Zero-width spaces break what backslashes cannot (mentions, issue references), and only there. */
export function escapeMarkdown(text: string): string {
  let out = ''
  let at = 0
  for (const m of text.matchAll(URL_IN_TEXT)) {
    const url = trimUrl(m[0])
    if (!/[A-Za-z0-9]/.test(url.replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\/|^www\./i, ''))) continue
    out += escapeText(text.slice(at, m.index), at === 0) + `\`${url}\``
    at = m.index + url.length
  }
  return out + escapeText(text.slice(at), at === 0)
}

/** A URL in running text: a scheme and `://` (or `www.`), then the characters a URL is made of, none of which
 * can end a code span or a table cell (no backtick, `|`, `\\`, `<`, `>`, quote or space). */
const URL_IN_TEXT =
  /(?<![A-Za-z0-9+.-])(?:[A-Za-z][A-Za-z0-9+.-]{0,30}:\/\/|www\.)[A-Za-z0-9\-._~:/?#[\]@!$&'*+,;=%()]+/gi

/** Punctuation that ends the sentence rather than the URL: a final `.`, `,`, `)` without its `(`... */
function trimUrl(url: string): string {
  let u = url
  for (;;) {
    const before = u
    u = u.replace(/[.,;:!?'*]+$/, '')
    for (const [open, close] of [
      ['(', ')'],
      ['[', ']'],
    ] as const)
      if (u.endsWith(close) && u.split(close).length > u.split(open).length) u = u.slice(0, -1)
    if (u === before) return u
  }
}

/** Text with no URL in it, as inert Markdown; `atStart`: it opens the line. */
function escapeText(text: string, atStart: boolean): string {
  const escaped = text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]()|~#!{}$])/g, '\\$1')
    .replace(/@(?=[A-Za-z0-9])/g, '@\u200b')
    .replace(/#(?=\d)/g, '#\u200b')
    .replace(/\b(GH)-(?=\d)/gi, '$1-\u200b')
  return atStart
    ? escaped.replace(/^([-+=]|\d+(?=[.)]))/, (m) => (/\d/.test(m) ? `${m}\\` : `\\${m}`))
    : escaped
}

/** An id or a short word in a code span; anything else as escaped text. */
export function code(text: string): string {
  const t = oneLine(String(text))
  return /^[A-Za-z0-9_.:/ >-]{1,200}$/.test(t) && !t.includes('`') ? `\`${t}\`` : md(t, 200)
}

const MAX_URL_CHARS = 2048
/** Characters kept as they are in a path, query or fragment; everything else is percent-encoded. */
const URL_SAFE = /[A-Za-z0-9\-._~:/?#[\]@!$&'*+,;=%]/

/** An http(s) URL made safe to link, to put in an HTML comment and to send to GitHub as an `environment_url`;
 * null for anything else (other schemes, user-info, odd hosts, control characters, more than 2048
 * characters). Credential-looking query parameters are removed (contract §5), and every character that could
 * end a Markdown link or an HTML comment is percent-encoded. */
export function safeHttpUrl(raw: unknown): string | null {
  if (typeof raw !== 'string') return null
  const text = raw.trim()
  if (text === '' || text.length > MAX_URL_CHARS || /[\s\\]/.test(text) || hasControl(text)) return null
  if (!/^https?:\/\/[^/]/i.test(text)) return null
  const u = httpUrl(text)
  if (!u) return null
  if (u.username || u.password) return null
  if (!/^([a-z0-9-]+\.)*[a-z0-9-]+\.?$|^\[[0-9a-f:.]+\]$/i.test(u.hostname)) return null
  const credentials = [...u.searchParams.keys()].filter(isCredentialQueryParam)
  for (const name of credentials) u.searchParams.delete(name)
  const fragment = fragmentCredentials(u).length > 0
  if (fragment) u.hash = ''
  // The URL as the server wrote it (so it matches the staging-url output), unless it had to be
  // rewritten: credentials removed, or characters outside ASCII (an IDN host, say).
  const base = credentials.length > 0 || fragment || /[^\x21-\x7e]/.test(text) ? u.href : text
  const href = [...base].map((ch) => (URL_SAFE.test(ch) ? ch : rawUrlEncode(ch))).join('')
  return href.length <= MAX_URL_CHARS ? href : null
}

/** `[url](url)` when `url` is a safe http(s) URL, the text escaped and the target as made safe; else '—' or the text. */
export function link(url: string | null): string {
  if (!url) return '—'
  const safe = safeHttpUrl(url)
  if (!safe) return md(url, 200)
  return `[${safe.replace(/&/g, '&amp;').replace(/([\\`*_[\]|~$<>])/g, '\\$1')}](${safe})`
}

/** The table row of the site version a push took first or a rollback restored (`id` as shown). */
export function checkpointRow(r: Result, id: string): string {
  return `| ${r.operation === 'rollback' ? 'Restored version' : 'Checkpoint'} | ${code(id)} |`
}

/** The server's own words, to quote beside ours: null when absent or when our summary already says them. */
export function serverWords(r: Result): string | null {
  return r.message && !r.summary.includes(r.message) ? r.message : null
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
