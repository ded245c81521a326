import { PIPE_VARIABLES } from '../../src/cli/pipe.js'

/** The words a user must not read (issue 20 §4), for test/docs/words*.ts. */

/** This team's words, which mean nothing to a user. */
export const INTERNAL: [RegExp, string][] = [
  [/\bcontract\b/i, '"contract"'],
  [/§/, '"§"'],
  [/\(r\d\)|\br\d\b/, 'a revision such as "r2"'],
  [/\bprob(e|es|ed|ing)\b/i, '"probe"'],
  [/spec describes|\bthe spec\b|\bspec's\b|\bper (the )?spec\b/i, '"the spec"'],
  [/\bissue \d+|\bissue #\d+/i, 'an issue number'],
  [/\benvelope\b/i, '"envelope"'],
  [/routing layer/i, '"routing layer"'],
  [/service family/i, '"service family"'],
  // A status run follows a job an earlier run started: there is no "status job" (issue 24 §11).
  [/\bstatus job\b/i, '"the status job"'],
]

/** The internal words `text` holds, each with the line it is on. */
export function internalWords(text: string): string[] {
  const found: string[] = []
  for (const line of text.split('\n'))
    for (const [pattern, name] of INTERNAL)
      if (pattern.test(line)) found.push(`${name}: ${line.trim().slice(0, 200)}`)
  return found
}

/**
 * The action's words, which a CLI user cannot act on. An input named as the action names it
 * (`wait-for-url: true`), not the CLI's flag of the same name followed by a colon in a sentence
 * (`run again later with --wait-for-url: the staging environment...`).
 */
export const ACTION_WORDS =
  /(?<![\w-])(if-missing|if-exists|if-busy|wait|wait-for-url|timeout|max-retries|concurrency|task-id|site-id|api-url|dry-run|fail-fast): |this action|api-token secret|\bmax-parallel\b|\bthe runner\b|\bInput "|\bworkflow\b|\bjob summary\b|\bthe [a-z-]+ output\b|\bstep outputs?\b|\bwith: /
/** The CLI's words, which an action user cannot act on. */
export const CLI_WORDS =
  /(^|[\s(])--[a-z]|STAGING_API_TOKEN|\bsite-staging (create|pull|push|delete|status)\b/m

/** The GitLab component's words, which no other door's user can act on. */
export const GITLAB_WORDS =
  /\bstaging:(rollback|status)\b|\bdotenv report\b|\btoken-variable\b|\bCI\/CD variable\b/
/** The pipe's words: a variable set to a value (`IF_EXISTS: skip`), the pipe itself. */
export const PIPE_WORDS = new RegExp(
  `\\b(${PIPE_VARIABLES.join('|')}): \\S|\\bthe pipe\\b|\\bsecured variable\\b`,
)
/** The CLI's flags and commands, without its token variable (which the pipe shares). */
export const FLAG_WORDS = /(^|[\s(])--[a-z]|\bsite-staging (create|pull|push|delete|status|rollback)\b/m

/** Each door, and the words of the other doors that its user must never read. */
export const FOREIGN_WORDS = {
  action: [CLI_WORDS, GITLAB_WORDS, PIPE_WORDS],
  gitlab: [
    FLAG_WORDS,
    PIPE_WORDS,
    /this action|api-token secret|\bworkflow\b|\bthe [a-z-]+ output\b|STAGING_API_TOKEN environment/,
  ],
  pipe: [FLAG_WORDS, GITLAB_WORDS, ACTION_WORDS],
  cli: [ACTION_WORDS, GITLAB_WORDS, PIPE_WORDS],
} as const
