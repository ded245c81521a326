// The outputs as files: --dotenv (KEY=value lines, for GitLab's dotenv reports) and --shell-env
// (`export KEY='value'` lines, for `source` in a shell: CircleCI's $BASH_ENV, Jenkins, any sh).
// Not `--env-file`: Node reads an `--env-file...` argument even after the script's name
// (nodejs/node#54232) and exits when the file does not exist yet.
import type { OutputName, Outputs } from '../report/outputs.js'
import { neutralizeCommands, oneLine } from '../text.js'
import type { Result } from '../types.js'

/** GitLab refuses dotenv reports of 5 KB or more. */
const DOTENV_LIMIT_BYTES = 5000

/** `staging-url` -> `STAGING_URL`. */
export const dotenvKey = (name: OutputName): string => name.toUpperCase().replace(/-/g, '_')

/**
 * One line per output, each written by `line` from its key and its value as both files write it: one
 * line (`oneLine`), and a logging command the CLI made inert kept inert (`oneLine` drops the
 * zero-width space that `neutralizeCommands` put in `##vso[`).
 */
const fileText = (outputs: Outputs, line: (key: string, value: string) => string): string =>
  Object.entries(outputs)
    .map(([name, value]) => line(dotenvKey(name as OutputName), neutralizeCommands(oneLine(value))))
    .join('\n') + '\n'

/**
 * One line per output, as GitLab's dotenv parser takes them: the key, `=`, the value raw (GitLab
 * keeps quotes literally and strips white space at both ends); no empty line, no comment, no line
 * break or other control character in a value (each becomes a space: `oneLine`). Not for `source`:
 * a shell would run `$(...)` in a value (use envFileText).
 */
export function dotenvText(outputs: Outputs): string {
  return fileText(outputs, (key, value) => `${key}=${value}`)
}

/**
 * The same outputs, safe to `source` in bash, sh, dash or zsh (issue 24 §8): `export KEY='value'`,
 * each value single-quoted (`shellQuoted`), where a shell expands nothing (`$(...)`, backticks, `$VAR`,
 * `\`, `!` are text), and one line as in the dotenv file, so the file reads the same to a person.
 */
export function envFileText(outputs: Outputs): string {
  return fileText(outputs, (key, value) => `export ${key}=${shellQuoted(value)}`)
}

/** `it's` -> `'it'\''s'`: one word to every POSIX shell, with nothing in it expanded. */
export function shellQuoted(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`
}

/**
 * The dotenv file: all outputs; when that passes GitLab's 5 KB limit (many sites), RESULTS keeps
 * only siteId/result/stagingSiteId/stagingUrl per site, and is left empty if even that is too big.
 */
export function dotenvFor(outputs: Outputs, results: Result[]): { text: string; note: string | null } {
  const full = dotenvText(outputs)
  if (Buffer.byteLength(full) < DOTENV_LIMIT_BYTES) return { text: full, note: null }
  const compact = JSON.stringify(
    results.map((r) => ({
      siteId: r.siteId,
      result: r.result,
      stagingSiteId: r.stagingSiteId,
      stagingUrl: r.stagingUrl,
    })),
  )
  const shorter = dotenvText({ ...outputs, results: compact })
  if (Buffer.byteLength(shorter) < DOTENV_LIMIT_BYTES)
    return {
      text: shorter,
      note: 'RESULTS in the dotenv file keeps only siteId, result, stagingSiteId and stagingUrl (5 KB limit); use --json for everything.',
    }
  return {
    text: dotenvText({ ...outputs, results: '' }),
    note: 'RESULTS in the dotenv file is empty: it would pass the 5 KB limit; use --json for per-site results.',
  }
}
