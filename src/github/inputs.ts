/**
 * The GitHub side's inputs (pr-comment, comment-author, deployment-environment, github-token), read
 * once into a plan. A bad value is a warning that says nothing was sent, never a failed run.
 */
import { DEFAULT_COMMENT_AUTHOR, parseCommentAuthor } from './comment.js'
import { parseEnvironment } from './deployments.js'
import { IF_TAKEN, type IfTaken } from './ownership.js'

/** The action's inputs for GitHub, with their action.yml defaults (action.yml lists them last). */
export const GITHUB_INPUT_DEFAULTS = {
  'github-token': '${{ github.token }}',
  'pr-comment': 'false',
  'comment-author': DEFAULT_COMMENT_AUTHOR,
  'deployment-environment': '',
  'if-staging-taken': 'take',
} as const
export type GitHubInputName = keyof typeof GITHUB_INPUT_DEFAULTS

export const COMMENT_TITLE = 'Pull-request comment'
export const DEPLOYMENT_TITLE = 'GitHub deployment'
export const GITHUB_TITLE = 'GitHub'

/** What the inputs ask of GitHub: a comment (by `author`), deployments to `environment`, or both. */
export interface GitHubPlan {
  /** The comment author's login when a comment is wanted, else null. */
  commentAuthor: string | null
  environment: string | null
  token: string
  /** comment-author, whether or not a comment is wanted: who writes our deployments too. */
  author: string
}

/** `if-staging-taken`: take, wait or fail; an error sentence for anything else. */
export function parseIfTaken(raw: string): IfTaken | { error: string } {
  const value = raw.trim().toLowerCase() || 'take'
  if ((IF_TAKEN as readonly string[]).includes(value)) return value as IfTaken
  return {
    error: `Input "if-staging-taken": "${value.slice(0, 20).replace(/[^\x20-\x7e]/g, '?')}" is not one of ${IF_TAKEN.join(', ')}.`,
  }
}

/** Reads the GitHub inputs; null when nothing is to be sent to GitHub (warnings say why, if wrong). */
export function readGitHubInputs(
  input: (name: GitHubInputName) => string,
  warn: (message: string, title: string) => void,
): GitHubPlan | null {
  let commentAuthor = wantedCommentAuthor(input, (m) => warn(m, COMMENT_TITLE))
  let environment: string | null = null
  const env = parseEnvironment(input('deployment-environment'))
  if ('error' in env)
    warn(`Input "deployment-environment" ${env.error}: no deployment was made.`, DEPLOYMENT_TITLE)
  else environment = env.environment

  const token = input('github-token').trim()
  if ((commentAuthor || environment) && token === '') {
    const what = [commentAuthor && 'pr-comment is true', environment && 'deployment-environment is set']
    warn(
      `${what.filter(Boolean).join(' and ')} but github-token is empty: nothing was sent to GitHub.`,
      GITHUB_TITLE,
    )
    commentAuthor = null
    environment = null
  }
  if (!commentAuthor && !environment) return null
  return {
    commentAuthor,
    environment,
    token,
    author: parseCommentAuthor(input('comment-author')) ?? DEFAULT_COMMENT_AUTHOR,
  }
}

/** pr-comment and comment-author: the author's login when a comment is wanted and possible. */
function wantedCommentAuthor(
  input: (name: GitHubInputName) => string,
  warn: (m: string) => void,
): string | null {
  if (!parsePrComment(input('pr-comment'), warn)) return null
  const author = parseCommentAuthor(input('comment-author'))
  if (author) return author
  warn(
    'Input "comment-author" must be a GitHub login (letters, digits and -, or an app\'s name[bot]): no comment was posted.',
  )
  return null
}

/** `pr-comment`: true or false; anything else is a warning and no comment. */
function parsePrComment(raw: string, warn: (m: string) => void): boolean {
  const wanted = raw.trim().toLowerCase()
  if (wanted === '' || wanted === 'false') return false
  if (wanted === 'true') return true
  warn(
    `Input "pr-comment" must be true or false, got "${wanted.slice(0, 20).replace(/[^\x20-\x7e]/g, '?')}": no comment was posted.`,
  )
  return false
}
