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
