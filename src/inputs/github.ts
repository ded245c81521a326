import { z } from 'zod'
import { hasControl } from '../text.js'
import { InputError, boolean, choice, readBy, readInputs } from './fields.js'

// ---- The action's GitHub inputs and `operation: release` (issue 25 §1): the same schema, read
// ---- with the rest before any request; a wrong value fails the step, nothing sent anywhere.

/** The action's inputs for GitHub, with their action.yml defaults (action.yml lists them last). */
export const GITHUB_INPUT_DEFAULTS = {
  'github-token': '${{ github.token }}',
  'pr-comment': 'false',
  'comment-author': 'github-actions[bot]',
  'deployment-environment': '',
  'if-staging-taken': 'take',
} as const
export type GitHubInputName = keyof typeof GITHUB_INPUT_DEFAULTS
export const GITHUB_INPUT_NAMES = Object.keys(GITHUB_INPUT_DEFAULTS) as GitHubInputName[]
/** `if-staging-taken`: what a create or pull does when staging shows another open pull request. */
export const IF_TAKEN = ['take', 'wait', 'fail'] as const

/** What the GitHub inputs ask: a comment, deployments, and who may take staging from whom. */
export interface GitHubSettings {
  token: string
  /** The comment author's login when pr-comment is true, else null. */
  commentAuthor: string | null
  /** comment-author, whether or not a comment is wanted: who writes our deployments too. */
  author: string
  environment: string | null
  ifTaken: (typeof IF_TAKEN)[number]
}

/** A GitHub login, or an app's bot login (`name[bot]`). */
const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?$/

/** comment-author: a login; '' is the default (who posts when the github-token is the workflow's own). */
export function parseCommentAuthor(raw: string): string | null {
  const login = raw.trim() || GITHUB_INPUT_DEFAULTS['comment-author']
  return LOGIN.test(login) ? login : null
}

const GitHubSchema = z.object({
  'github-token': z.string().transform((v) => v.trim()),
  'pr-comment': boolean,
  'comment-author': readBy((v) => {
    const login = parseCommentAuthor(v)
    if (login) return login
    throw new Error("must be a GitHub login (letters, digits and -, or an app's name[bot])")
  }),
  'deployment-environment': readBy((v) => {
    const name = v.trim()
    if (hasControl(name)) throw new Error('contains control characters or new lines')
    if (name.length > 255) throw new Error('is longer than 255 characters')
    return name === '' ? null : name
  }),
  'if-staging-taken': choice(IF_TAKEN),
})

/** The operations that take staging for their pull request (and so read `if-staging-taken`). */
export const CLAIMING_OPERATIONS: readonly string[] = ['create', 'pull']

/**
 * The GitHub inputs -> GitHubSettings, or InputError naming the input. `run`: what the step does
 * (`release` needs a token; `if-staging-taken` other than take needs to know who staging shows).
 */
export function parseGitHubInputs(
  raw: Partial<Record<GitHubInputName, string>>,
  run: { operation: string; siteIds: string[]; dryRun: boolean },
): GitHubSettings {
  const g = readInputs(GitHubSchema, { ...GITHUB_INPUT_DEFAULTS, 'github-token': '' }, raw)
  const settings: GitHubSettings = {
    token: g['github-token'],
    commentAuthor: g['pr-comment'] ? g['comment-author'] : null,
    author: g['comment-author'],
    environment: g['deployment-environment'],
    ifTaken: g['if-staging-taken'],
  }
  if (run.operation === 'release' && settings.token === '')
    throw new InputError('github-token', 'is empty: release needs a token that may write deployments')
  if ((settings.commentAuthor || settings.environment) && settings.token === '') {
    const why = [
      settings.commentAuthor && 'pr-comment is true',
      settings.environment && 'deployment-environment is set',
    ]
    throw new InputError(
      'github-token',
      `is empty, but ${why.filter(Boolean).join(' and ')}: give a token (the default is the workflow's own)`,
    )
  }
  const claims = CLAIMING_OPERATIONS.includes(run.operation) && !run.dryRun
  if (claims && settings.ifTaken !== 'take' && (!settings.environment || run.siteIds.length !== 1))
    throw new InputError(
      'if-staging-taken',
      `is ${settings.ifTaken}, which needs to know who staging shows: set deployment-environment (and a github-token that may write deployments) and give one site-id`,
    )
  return settings
}
