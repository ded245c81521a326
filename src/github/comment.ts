/**
 * Posting the pull-request comment (`pr-comment: true`) that src/report/comment.ts renders: one per
 * production site, created once and updated in place by later runs. A comment is adopted (read, and
 * edited) only when it carries our marker AND was written by the comment author (`comment-author`,
 * default `github-actions[bot]`, the identity GITHUB_TOKEN posts as): anybody can post a comment that
 * starts with our marker; such a comment is never edited and nothing is read from it: a new comment
 * is posted, and the run says so once.
 */
import {
  hasMarker,
  isCommentFor,
  renderComment,
  stagingUrlFromComment,
  withNotice,
  type RenderExtras,
} from '../report/comment.js'
import type { Result } from '../types.js'
import type { PullRequestTarget } from './context.js'
import { githubFailure } from './errors.js'
import type { Octokit } from './octokit.js'

interface IssueComment {
  id: number
  body?: string | null
  html_url?: string
  user?: { login?: unknown; type?: unknown } | null
}

/** Whether `comment` was written by `author`: same login (GitHub logins are case-insensitive), and a bot's
 * login (`name[bot]`) only counts from an account of type Bot, a person's only from a User. */
export function writtenBy(comment: Pick<IssueComment, 'user'>, author: string): boolean {
  const user = comment.user
  if (!user || typeof user.login !== 'string') return false
  if (user.login.toLowerCase() !== author.toLowerCase()) return false
  const expectedType = /\[bot\]$/i.test(author) ? 'Bot' : 'User'
  return user.type === undefined || user.type === expectedType
}

export interface PostOptions extends Omit<RenderExtras, 'previousStagingUrl'> {
  octokit: Octokit
  target: PullRequestTarget
  /** Login of the account that posts the comments (the github-token's). */
  author: string
  scrub: (text: string) => string
}

export type CommentReport =
  | { siteId: string; action: 'created' | 'updated'; id: number; url: string | null }
  | { siteId: string; action: 'failed'; warning: string }

export interface PostOutcome {
  reports: CommentReport[]
  /** Comments that carry our marker but were written by somebody else: left alone, unread. */
  ignored: { id: number; login: string }[]
}

const PERMISSION = '"pull-requests: write" (or "issues: write")'
const FORKS = ' A pull request from a fork gets a read-only token whatever the workflow asks.'

/** Creates or updates one comment per site: PATCHes the ones found, POSTs the rest. Never throws: failures
 * come back as reports with a warning that says what to do. */
export async function postOrUpdateComments(results: Result[], options: PostOptions): Promise<PostOutcome> {
  const { octokit, target, author, scrub } = options
  const repo = { owner: target.owner, repo: target.repo }
  const where = `pull request #${target.number} of ${target.owner}/${target.repo}`
  const siteIds = results.map((r) => r.siteId)
  const own = await findOwnComments(octokit, target, siteIds, author).catch((e: unknown) =>
    githubFailure(e, `read the comments of ${where}`, PERMISSION, scrub, FORKS),
  )
  if (typeof own === 'string')
    return {
      reports: results.map((r) => ({ siteId: r.siteId, action: 'failed', warning: own })),
      ignored: [],
    }
  const { found, ignored } = own

  const reports: CommentReport[] = []
  for (const r of results) {
    const existing = found.get(r.siteId)
    const previousStagingUrl = existing?.body ? stagingUrlFromComment(existing.body) : null
    const body = renderComment(r, scrub, { ...options, previousStagingUrl })
    try {
      const response = existing
        ? await octokit.rest.issues.updateComment({ ...repo, comment_id: existing.id, body })
        : await octokit.rest.issues.createComment({ ...repo, issue_number: target.number, body })
      reports.push({
        siteId: r.siteId,
        action: existing ? 'updated' : 'created',
        id: response.data.id,
        url: typeof response.data.html_url === 'string' ? response.data.html_url : null,
      })
    } catch (e) {
      const doing = existing ? `update the comment on ${where}` : `comment on ${where}`
      reports.push({
        siteId: r.siteId,
        action: 'failed',
        warning: githubFailure(e, doing, PERMISSION, scrub, FORKS),
      })
    }
  }
  return { reports, ignored }
}

/** Our comment (marker AND author) for each of `siteIds`, every page read until each is found; marker
 * comments by anybody else come back in `ignored`. Throws what Octokit throws. */
async function findOwnComments(
  octokit: Octokit,
  target: PullRequestTarget,
  siteIds: string[],
  author: string,
): Promise<{ found: Map<string, IssueComment>; ignored: PostOutcome['ignored'] }> {
  const wanted = new Set(siteIds)
  const found = new Map<string, IssueComment>()
  const ignored: PostOutcome['ignored'] = []
  await octokit.paginate(
    octokit.rest.issues.listComments,
    { owner: target.owner, repo: target.repo, issue_number: target.number, per_page: 100 },
    (response, done) => {
      for (const c of response.data as IssueComment[]) {
        if (!hasMarker(c.body)) continue
        if (!writtenBy(c, author)) {
          ignored.push({ id: c.id, login: typeof c.user?.login === 'string' ? c.user.login : '(unknown)' })
          continue
        }
        for (const id of wanted) if (!found.has(id) && isCommentFor(c.body, id)) found.set(id, c)
      }
      if (found.size === wanted.size) done()
      return []
    },
  )
  return { found, ignored }
}

/** Puts `notice` at the top of our comment for `siteId` on another pull request (staging was taken from it,
 * or released), editing it in place. `none` when that pull request has no comment of ours. */
export async function addNotice(
  octokit: Octokit,
  target: PullRequestTarget,
  siteId: string,
  author: string,
  notice: string,
  scrub: (text: string) => string,
): Promise<{ action: 'updated' | 'none' } | { action: 'failed'; warning: string }> {
  const where = `pull request #${target.number} of ${target.owner}/${target.repo}`
  try {
    const { found } = await findOwnComments(octokit, target, [siteId], author)
    const existing = found.get(siteId)
    if (!existing?.body) return { action: 'none' }
    const body = scrub(withNotice(existing.body, notice))
    const repo = { owner: target.owner, repo: target.repo }
    await octokit.rest.issues.updateComment({ ...repo, comment_id: existing.id, body })
    return { action: 'updated' }
  } catch (e) {
    const doing = `update the comment on ${where}`
    return { action: 'failed', warning: githubFailure(e, doing, PERMISSION, scrub, FORKS) }
  }
}

/** The notice for comments that carry our marker but that somebody else wrote. */
export function ignoredNotice(ignored: PostOutcome['ignored'], author: string, number: number): string {
  // Each login as GitHub allows it, for a log line (anything else is cut).
  const shown = ignored.map((c) => c.login.replace(/[^A-Za-z0-9\-[\]]/g, '').slice(0, 50) || '(unknown)')
  const logins = [...new Set(shown)].slice(0, 5)
  return (
    `pr-comment: ignored ${ignored.length} comment(s) on pull request #${number} that carry this action's marker ` +
    `but were written by ${logins.join(', ')}, not by ${author} (the comment-author input). ` +
    'They were left alone and nothing was read from them. ' +
    'If you post with a personal access token, set comment-author to its login.'
  )
}
