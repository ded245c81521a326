import type { Result } from '../types.js'
import { ICON } from './summary.js'

/**
 * The pull-request comment's body (`pr-comment: true`), rendered purely: a Result in, Markdown out.
 * Posting it is src/github/comment.ts's job.
 *
 * One comment per production site, found again by a hidden marker on its first line. Everything
 * from the server is made inert here: on one line, bounded, HTML escaped, no Markdown structure,
 * no @mentions or issue references, no links. The only links are the ones we build: the staging
 * URL (http or https only, re-encoded by `safeHttpUrl`) and the workflow run.
 */

const MARKER_PREFIX = '<!-- site-staging-action:site='
/** Site ids are `[A-Za-z0-9_-]` (src/inputs.ts), so they cannot close the HTML comment. */
export const markerFor = (siteId: string): string => `${MARKER_PREFIX}${siteId} -->`

/**
 * The last known staging URL, kept hidden in the comment for runs that do not report one (push).
 * It holds only what `safeHttpUrl` returns, so it cannot contain whitespace, `<`, `>` or quotes,
 * and cannot close the HTML comment.
 */
const URL_MARK_OPEN = '<!-- site-staging-action:staging-url='
const URL_MARK_CLOSE = ' -->'
const URL_MARK = /^<!-- site-staging-action:staging-url=(\S{1,2100}) -->$/m

/** Bounds on every text from a run, in characters (GitHub refuses comments over 65536). */
const MAX_MESSAGE_CHARS = 1500
const MAX_HINT_CHARS = 500
const MAX_WARNING_CHARS = 500
const MAX_WARNINGS = 20
const MAX_URL_CHARS = 2048
export const MAX_COMMENT_CHARS = 60_000

export interface RenderExtras {
  /** Link to the workflow run that posted the comment. */
  runUrl?: string | null
  /**
   * The staging URL an earlier comment of ours recorded (used when the result has none). The
   * caller reads it only from a comment it has checked was written by the comment author.
   */
  previousStagingUrl?: string | null
}

/** Whether the result leaves the site without a staging environment. */
function removesStaging(r: Result): boolean {
  return r.operation === 'delete' && (r.result === 'succeeded' || r.result === 'skipped')
}

function headline(r: Result): string {
  if (r.operation === 'delete') {
    if (r.result === 'succeeded') return '🗑️ Staging environment removed'
    if (r.result === 'skipped') return '🗑️ Staging environment removed (there was none left to delete)'
    if (r.result === 'accepted') return '🗑️ Staging removal requested (not yet confirmed)'
  }
  if (r.result === 'succeeded') {
    if (r.operation === 'create') return '✅ Staging environment ready'
    if (r.operation === 'pull') return '✅ Staging refreshed from production'
    if (r.operation === 'push') return '✅ Staging pushed to production'
  }
  return `${ICON[r.result] ?? ''} Staging ${r.operation}: ${r.result}`
}

/**
 * The comment for one site's Result, as Markdown. Every text from the run is passed through
 * `scrub` (the redactor) before anything else, so no secret can reach the comment.
 */
export function renderComment(r: Result, scrub: (text: string) => string, extras: RenderExtras = {}): string {
  const removed = removesStaging(r)
  const ownUrl = r.stagingUrl ? cleanUrl(r.stagingUrl, scrub) : null
  const earlierUrl =
    !ownUrl && r.operation !== 'delete' && extras.previousStagingUrl
      ? cleanUrl(extras.previousStagingUrl, scrub)
      : null
  const url = ownUrl ?? earlierUrl
  const runUrl = extras.runUrl ? cleanUrl(extras.runUrl, scrub) : null

  const lines = [markerFor(r.siteId)]
  if (url && !removed) lines.push(`${URL_MARK_OPEN}${url}${URL_MARK_CLOSE}`)
  lines.push(`### ${headline(r)}`, '')
  lines.push('| | |', '|---|---|')
  lines.push(`| Production site | \`${r.siteId}\` |`)
  lines.push(`| Operation | \`${r.operation}\` |`)
  lines.push(
    `| Result | ${ICON[r.result] ?? ''} ${r.result}${Number.isInteger(r.httpStatus) ? ` (HTTP ${r.httpStatus})` : ''} |`,
  )
  if (removed) lines.push('| Staging URL | — (removed) |')
  else lines.push(`| Staging URL | ${url ? link(url) : '—'}${earlierUrl ? ' (from an earlier run)' : ''} |`)
  if (r.stagingSiteId && !removed) lines.push(`| Staging site | ${codeOrText(scrub(r.stagingSiteId))} |`)
  lines.push(`| Duration | ${Number(r.durationSeconds) || 0} s |`)
  lines.push(`| Time | ${utcTime(r.startedAt)} |`)
  if (runUrl) lines.push(`| Run | [workflow run](${runUrl}) |`)
  lines.push('')
  if (r.message) lines.push(`> ${inert(scrub(r.message), MAX_MESSAGE_CHARS)}`, '')
  if (r.error) lines.push(`**What to do:** ${inert(scrub(r.error.hint), MAX_HINT_CHARS)}`, '')
  const warnings = [...new Set(r.warnings)]
  if (warnings.length > 0) {
    lines.push('**⚠️ Warnings**', '')
    for (const w of warnings.slice(0, MAX_WARNINGS)) lines.push(`- ${inert(scrub(w), MAX_WARNING_CHARS)}`)
    if (warnings.length > MAX_WARNINGS) lines.push(`- … and ${warnings.length - MAX_WARNINGS} more`)
    lines.push('')
  }
  lines.push(
    `<sub>Posted by site-staging-action. Later runs for site \`${r.siteId}\` update this comment.</sub>`,
    '',
  )
  const body = scrub(lines.join('\n'))
  return body.length > MAX_COMMENT_CHARS ? `${body.slice(0, MAX_COMMENT_CHARS)}…\n` : body
}

/**
 * The staging URL recorded in an earlier comment, if it is one we could have rendered ourselves
 * (an http(s) URL exactly as `safeHttpUrl` writes it); anything else is ignored. Only call this on
 * a comment written by the comment author: never take anything from somebody else's comment.
 */
export function stagingUrlFromComment(body: string): string | null {
  const found = URL_MARK.exec(body)?.[1]
  if (!found) return null
  return safeHttpUrl(found) === found ? found : null
}

/** Whether `body` carries this project's marker for `siteId` (the marker opens the comment). */
export function isCommentFor(body: string | undefined | null, siteId: string): boolean {
  return typeof body === 'string' && body.trimStart().startsWith(markerFor(siteId))
}

/** Whether `body` carries this project's marker for any site. */
export function hasMarker(body: string | undefined | null): boolean {
  return typeof body === 'string' && body.trimStart().startsWith(MARKER_PREFIX)
}

// --- URLs ------------------------------------------------------------------------------------

/** Query parameters that may carry a credential (contract §5): never shown, never linked. */
const CREDENTIAL_PARAM =
  /token|pass|pwd|secret|key|hash|credential|auth|private|session|login|signature|^sig$/i
/** Characters kept as they are in a path, query or fragment; everything else is percent-encoded. */
const URL_SAFE = /[A-Za-z0-9\-._~:/?#[\]@!$&'*+,;=%]/

/**
 * An http(s) URL made safe to link, to put in an HTML comment and to send to GitHub as an
 * `environment_url`; null for anything else (other schemes, user-info, odd hosts, control
 * characters, more than 2048 characters). Credential-looking query parameters are removed, and
 * every character that could end a Markdown link or an HTML comment is percent-encoded.
 */
export function safeHttpUrl(raw: unknown): string | null {
  if (typeof raw !== 'string') return null
  const text = raw.trim()
  if (text === '' || text.length > MAX_URL_CHARS || /[\s\\]/.test(text) || hasControl(text)) return null
  if (!/^https?:\/\/[^/]/i.test(text)) return null
  let u: URL
  try {
    u = new URL(text)
  } catch {
    return null
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null
  if (u.username || u.password) return null
  if (!/^([a-z0-9-]+\.)*[a-z0-9-]+\.?$|^\[[0-9a-f:.]+\]$/i.test(u.hostname)) return null
  const credentials = [...u.searchParams.keys()].filter((name) => CREDENTIAL_PARAM.test(name))
  for (const name of credentials) u.searchParams.delete(name)
  // The URL as the server wrote it (so it matches the staging-url output), unless it had to be
  // rewritten: credentials removed, or characters outside ASCII (an IDN host, say).
  const base = credentials.length > 0 || /[^\x21-\x7e]/.test(text) ? u.href : text
  const href = [...base]
    .map((ch) => (URL_SAFE.test(ch) ? ch : encodeURIComponent(ch).replace(/[()'!*]/g, percent)))
    .join('')
  return href.length <= MAX_URL_CHARS ? href : null
}

const percent = (ch: string) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`

/** Scrubbed, then made safe; a URL that held a secret is dropped rather than shown broken. */
function cleanUrl(url: string, scrub: (text: string) => string): string | null {
  const scrubbed = scrub(url)
  if (scrubbed !== url) return null
  return safeHttpUrl(scrubbed)
}

/** `[url](url)` for a URL `safeHttpUrl` made: the text escaped, the target as it is. */
function link(url: string): string {
  return `[${url.replace(/&/g, '&amp;').replace(/([\\`*_[\]|~$])/g, '\\$1')}](${url})`
}

// --- inert text ------------------------------------------------------------------------------

/* eslint-disable no-control-regex -- these patterns exist to find and remove control characters */
const ANSI_CSI = /\u001b\[[0-?]*[ -/]*[@-~]/g
const ANSI_OSC = /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?/g
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g
/* eslint-enable no-control-regex */
const INVISIBLE = /[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g

/** Whether `text` holds a control character (a newline included). */
export function hasControl(text: string): boolean {
  return new RegExp(CONTROL.source).test(text)
}

/**
 * Foreign text as plain text on one line: ANSI escapes, control, invisible and bidi characters
 * removed, whitespace (newlines included) folded to single spaces. Not escaped, not bounded.
 */
export function plainLine(text: string): string {
  return String(text)
    .replace(ANSI_CSI, '')
    .replace(ANSI_OSC, '')
    .replace(CONTROL, ' ')
    .replace(INVISIBLE, '')
    .replace(/\s+/g, ' ')
    .trim()
}

/** Server text as inert Markdown: `plainLine`, at most `max` characters, then escaped. */
export function inert(text: string, max = MAX_MESSAGE_CHARS): string {
  const chars = [...plainLine(text)]
  return escapeMarkdown(chars.length > max ? `${chars.slice(0, max).join('')}…` : chars.join(''))
}

/**
 * Text shows as text: no HTML, no emphasis, code, links or images, no table breaks, no block
 * structure at its start (headings, lists, quotes), no @mentions, no issue references (#12,
 * GH-12), no autolinks (`http://`, `www.`). Zero-width spaces break what backslashes cannot.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]()|~#!{}$])/g, '\\$1')
    .replace(/^([-+=]|\d+(?=[.)]))/, (m) => (/\d/.test(m) ? `${m}\\` : `\\${m}`))
    .replace(/@(?=[A-Za-z0-9])/g, '@\u200b')
    .replace(/#(?=\d)/g, '#\u200b')
    .replace(/\b(GH)-(?=\d)/gi, '$1-\u200b')
    .replace(/:\/\//g, ':\u200b//')
    .replace(/\bwww\./gi, (m) => `${m.slice(0, 3)}\u200b.`)
}

/** A short identifier in a code span; anything else as escaped text. */
function codeOrText(text: string): string {
  return /^[A-Za-z0-9_.:-]{1,100}$/.test(text) ? `\`${text}\`` : inert(text, 100)
}

/** `2025-01-15T09:30:00.000Z` -> `2025-01-15 09:30:00 UTC`. */
function utcTime(iso: string): string {
  const d = new Date(iso)
  return Number.isNaN(d.getTime())
    ? inert(String(iso), 40)
    : `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`
}
