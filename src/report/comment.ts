import type { Result } from '../types.js'
import { durationText } from '../duration.js'
import { ICON, checkpointRow, code, link, md, safeHttpUrl, serverWords } from './markdown.js'

/** The pull-request comment's body (posted by src/github/comment.ts), rendered purely: a Result in, Markdown
 * out, one comment per production site, found again by a hidden marker on its first line. Everything from the
 * server is made inert here: one line, bounded, HTML escaped, no Markdown structure, @mentions, issue
 * references or links. The only links are ours: the staging URL (http or https only, re-encoded by
 * `safeHttpUrl`) and the workflow run. */

const MARKER_PREFIX = '<!-- site-staging-action:site='
/** Site ids are `[A-Za-z0-9_-]` (src/inputs/), so they cannot close the HTML comment. */
export const markerFor = (siteId: string): string => `${MARKER_PREFIX}${siteId} -->`

/** The last known staging URL, kept hidden in the comment for runs that do not report one (push). It holds
 * only what `safeHttpUrl` returns, so it cannot contain whitespace, `<`, `>` or quotes, and cannot close the
 * HTML comment. */
const URL_MARK = /^<!-- site-staging-action:staging-url=(\S{1,2100}) -->$/m

/** Bounds on every text from a run, in characters (GitHub refuses comments over 65536). */
const MAX_MESSAGE_CHARS = 1500
const MAX_HINT_CHARS = 500
const MAX_WARNING_CHARS = 500
const MAX_WARNINGS = 20
export const MAX_COMMENT_CHARS = 60_000

export interface RenderExtras {
  /** Link to the workflow run that posted the comment. */
  runUrl?: string | null
  /** The staging URL an earlier comment of ours recorded (used when the result has none). The caller reads it
   * only from a comment it has checked was written by the comment author. */
  previousStagingUrl?: string | null
  /** What staging shows after this run (a create or pull for a pull request): its head commit and time. */
  owner?: { sha: string; at: string } | null
}

/** A notice at the top of the comment (staging taken by another run, or released), ours alone. */
const NOTICE_OPEN = '<!-- site-staging-action:notice -->'

/** The heading of an operation's common endings; any other says its operation and outcome. */
const HEADLINES: Record<string, string> = {
  'delete succeeded': '🗑️ Staging environment removed',
  'delete skipped': '🗑️ Staging environment removed (there was none left to delete)',
  'delete accepted': '🗑️ Staging removal requested (not yet confirmed)',
  'create succeeded': '✅ Staging environment ready',
  'pull succeeded': '✅ Staging refreshed from production',
  'push succeeded': '✅ Staging pushed to production',
}

/** The comment for one site's Result, as Markdown. Every text from the run is passed through `scrub` (the
 * redactor) before anything else, so no secret can reach the comment. */
export function renderComment(r: Result, scrub: (text: string) => string, extras: RenderExtras = {}): string {
  // Whether the result leaves the site without a staging environment.
  const removed = r.operation === 'delete' && (r.result === 'succeeded' || r.result === 'skipped')
  const ownUrl = cleanUrl(r.stagingUrl, scrub)
  const earlierUrl = !ownUrl && r.operation !== 'delete' ? cleanUrl(extras.previousStagingUrl, scrub) : null
  const url = ownUrl ?? earlierUrl
  const runUrl = cleanUrl(extras.runUrl, scrub)

  const lines = [markerFor(r.siteId)]
  if (url && !removed) lines.push(`<!-- site-staging-action:staging-url=${url} -->`)
  const headline =
    HEADLINES[`${r.operation} ${r.result}`] ?? `${ICON[r.result] ?? ''} Staging ${r.operation}: ${r.result}`
  lines.push(`### ${headline}`, '')
  if (r.summary) lines.push(md(scrub(r.summary), MAX_MESSAGE_CHARS), '')
  lines.push(`| Production site | \`${r.siteId}\` |`, '|:--|:--|')
  lines.push(`| Operation | \`${r.operation}\` |`)
  lines.push(
    `| Result | ${ICON[r.result] ?? ''} ${r.result}${Number.isInteger(r.httpStatus) ? ` (HTTP ${r.httpStatus})` : ''} |`,
  )
  if (removed) lines.push('| Staging URL | — (removed) |')
  else {
    // Where the URL came from (issue 20 §1): this run's source, or an earlier comment of ours.
    const source = ownUrl && r.stagingFrom?.url ? ` (from ${md(scrub(r.stagingFrom.url), 200)})` : ''
    lines.push(`| Staging URL | ${url ? link(url) : '—'}${earlierUrl ? ' (from an earlier run)' : source} |`)
  }
  if (r.stagingSiteId && !removed) lines.push(`| Staging site | ${code(scrub(r.stagingSiteId))} |`)
  if (r.checkpointId) lines.push(checkpointRow(r, scrub(r.checkpointId)))
  if (r.productionCheck)
    lines.push(`| Production | check ${r.productionCheck === 'passed' ? 'passed' : '**failed**'} |`)
  lines.push(`| Duration | ${durationText((Number(r.durationSeconds) || 0) * 1000, 'tenths')} |`)
  lines.push(`| Time | ${noticeTime(r.startedAt)} |`)
  if (extras.owner && !removed && /^[0-9a-f]{7,64}$/.test(extras.owner.sha))
    lines.push(
      `| Staging shows | this pull request at \`${extras.owner.sha.slice(0, 12)}\` (since ${noticeTime(extras.owner.at)}) |`,
    )
  if (runUrl) lines.push(`| Run | [workflow run](${runUrl}) |`)
  lines.push('')
  const said = serverWords(r)
  if (said) lines.push(`> **The server said:** ${md(scrub(said), MAX_MESSAGE_CHARS)}`, '')
  if (r.error) lines.push(`**What to do:** ${md(scrub(r.error.hint), MAX_HINT_CHARS)}`, '')
  const warnings = [...new Set(r.warnings)]
  if (warnings.length > 0) {
    lines.push('**⚠️ Warnings**', '')
    for (const w of warnings.slice(0, MAX_WARNINGS)) lines.push(`- ${md(scrub(w), MAX_WARNING_CHARS)}`)
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

/** The staging URL recorded in an earlier comment, if it is one we could have rendered ourselves (an http(s)
 * URL exactly as `safeHttpUrl` writes it); anything else is ignored. Only call this on a comment written by
 * the comment author: never take anything from somebody else's comment. */
export function stagingUrlFromComment(body: string): string | null {
  const found = URL_MARK.exec(body)?.[1]
  if (!found) return null
  return safeHttpUrl(found) === found ? found : null
}

/** `body` (one of our comments) with `notice` at its top, in place of any earlier notice; the rest of the
 * comment is kept as it was. `notice` is our own Markdown: the caller builds it from values it checked
 * (numbers, times, URLs as `safeHttpUrl` writes them). */
export function withNotice(body: string, notice: string): string {
  const lines = body.split('\n')
  const start = lines.indexOf(NOTICE_OPEN)
  if (start >= 0) {
    let end = start + 1
    while (end < lines.length && lines[end] !== '') end++
    lines.splice(start, end + 1 - start)
  }
  // After the hidden marks (the site's marker, the staging URL), before the heading.
  let at = 0
  while (at < lines.length && /^<!-- site-staging-action:[a-z-]+=/.test(lines[at]!)) at++
  lines.splice(at, 0, NOTICE_OPEN, `> ⚠️ ${notice.replace(/\s+/g, ' ').trim().slice(0, 600)}`, '')
  const out = lines.join('\n')
  return out.length > MAX_COMMENT_CHARS ? `${out.slice(0, MAX_COMMENT_CHARS)}…\n` : out
}

/** Whether `body` carries this project's marker for `siteId` (the marker opens the comment). */
export function isCommentFor(body: string | undefined | null, siteId: string): boolean {
  return typeof body === 'string' && body.trimStart().startsWith(markerFor(siteId))
}

/** Whether `body` carries this project's marker for any site. */
export function hasMarker(body: string | undefined | null): boolean {
  return typeof body === 'string' && body.trimStart().startsWith(MARKER_PREFIX)
}

/** Scrubbed, then made safe; a URL that held a secret is dropped rather than shown broken. */
function cleanUrl(url: string | null | undefined, scrub: (text: string) => string): string | null {
  return url && scrub(url) === url ? safeHttpUrl(url) : null
}

/** `2025-01-15T09:30:00.000Z` -> `2025-01-15 09:30:00 UTC` (a date we wrote, or readOwner checked). */
export function noticeTime(iso: string): string {
  return `${new Date(iso).toISOString().slice(0, 19).replace('T', ' ')} UTC`
}
