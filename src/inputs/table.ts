import { SERVICE_API_URL } from '../contract.js'
import { OPERATIONS, type Operation } from '../types.js'

/**
 * Every input of the staging run, declared once: how it is read, its default, its allowed values,
 * the operations it is for, and its name on each door. The zod schema (src/inputs/index.ts), the
 * CLI's flags and --help (src/cli/args.ts), the pipe's variables (src/cli/pipe.ts) and every hint
 * that names a setting (src/words.ts) are made from it; test/unit/input-table.test.ts fails when
 * action.yml, pipe/pipe.yml or a GitLab component's spec says otherwise.
 */
export interface InputSpec {
  /** How the text is read: one reader per kind (READERS in fields.ts). */
  kind: InputKind
  /** The default as the action writes it (absent: required); a choice's values; a count's range. */
  default?: string
  values?: readonly string[]
  range?: readonly [number, number]
  /** The operations it is for (absent: all), as --help says it. */
  for?: readonly Operation[]
  /** The CLI: no flag (false), the environment variable it also reads, the value's name in --help. */
  flag?: false
  env?: string
  arg?: string
  help: string
  /** The pipe's variable (false: none; default: NAME_IN_CAPITALS); templates/staging.yml's input. */
  pipe?: string | false
  gitlab?: boolean
}

/** The kinds of input, each read by its reader (READERS in fields.ts). */
// prettier-ignore
export type InputKind = 'operation' | 'site-ids' | 'token' | 'api-url' | 'switch' | 'duration' | 'language'
  | 'count' | 'choice' | 'task-id' | 'url' | 'checkpoint-id' | 'text'

const PUSH = ['push'] as const
const AFTER_PUSH = ['push', 'rollback'] as const
const G = { gitlab: true } as const

// prettier-ignore
export const INPUTS = {
  operation: { kind: 'operation', values: OPERATIONS, flag: false, help: '', ...G },
  'site-id': { kind: 'site-ids', arg: 'ID', help: 'production site id; repeat it or separate ids with commas or spaces to run several sites (then --json prints an array)', ...G },
  'api-token': { kind: 'token', flag: false, env: 'STAGING_API_TOKEN', help: '', pipe: 'STAGING_API_TOKEN' },
  'api-url': { kind: 'api-url', default: SERVICE_API_URL, env: 'STAGING_API_URL', arg: 'URL', help: 'API root (/v2 is appended unless present)', pipe: 'STAGING_API_URL', ...G },
  wait: { kind: 'switch', default: 'true', help: 'wait for the background job to finish', ...G },
  timeout: { kind: 'duration', default: '30m', arg: 'TIME', help: 'overall limit: 90s, 20m, 30 min, 1h, 2 hours or seconds', ...G },
  'task-id': { kind: 'task-id', default: '', for: ['status'], arg: 'ID', help: 'status: follow that earlier job (the task-id of the run that started it) to its end', pipe: 'FOLLOW_TASK_ID', ...G },
  'wait-for-url': { kind: 'switch', default: 'false', for: ['create', 'pull'], help: 'after a create or pull, wait until the staging URL answers', ...G },
  // STAGING_URL is the pipe's output: a variable named like it would change the next run.
  'staging-url': { kind: 'url', default: '', arg: 'URL', help: "the staging site's URL, if you know it: used when the service's answers do not say it, once it answers", pipe: false },
  'production-url': { kind: 'url', default: '', for: AFTER_PUSH, arg: 'URL', help: 'push, rollback: check the live site after it until it is healthy', ...G },
  'production-expect': { kind: 'text', default: '', for: AFTER_PUSH, arg: 'TEXT', help: 'with --production-url: text the healthy live page contains', ...G },
  'verify-timeout': { kind: 'duration', default: '5m', for: AFTER_PUSH, arg: 'TIME', help: 'with --production-url: how long to recheck the live site, within --timeout', ...G },
  language: { kind: 'language', default: 'en', values: ['en', 'es'], help: "language of the server's messages, es-ES works too", ...G },
  'if-exists': { kind: 'choice', default: 'fail', values: ['fail', 'skip', 'recreate'], for: ['create'], help: 'create when staging exists', ...G },
  'if-missing': { kind: 'choice', default: 'fail', values: ['fail', 'skip'], for: ['pull', 'push', 'delete'], help: 'pull/push/delete when there is no staging', ...G },
  'if-busy': { kind: 'choice', default: 'wait', values: ['wait', 'fail'], help: 'when another job runs on the site', ...G },
  'max-retries': { kind: 'count', default: '5', range: [0, 20], arg: 'N', help: 'retries of one request' },
  concurrency: { kind: 'count', default: '100', range: [1, 1000], arg: 'N', help: 'sites run at once', ...G },
  'fail-fast': { kind: 'switch', default: 'false', help: 'start no new site after the first failure' },
  'dry-run': { kind: 'switch', default: 'false', help: 'print what would be sent; change nothing', ...G },
  checkpoint: { kind: 'choice', default: 'version', values: ['version', 'none'], for: PUSH, help: 'push: first a site version of production (the way back), followed to completed; no version, no push', ...G },
  'checkpoint-id': { kind: 'checkpoint-id', default: '', for: ['rollback'], arg: 'ID', help: 'rollback: the version to restore (default: the newest checkpoint a push made)', pipe: 'RESTORE_CHECKPOINT_ID', ...G },
  'rollback-on-failure': { kind: 'switch', default: 'false', for: PUSH, help: 'push: restore the checkpoint at once if the push fails', ...G },
  'keep-checkpoints': { kind: 'count', default: '3', range: [1, 100], for: PUSH, arg: 'N', help: 'push: keep this many of its checkpoints per site', ...G },
  maintenance: { kind: 'switch', default: 'false', for: PUSH, help: 'push: maintenance mode on during the push, off after', ...G },
  'protect-production': { kind: 'switch', default: 'false', for: PUSH, help: 'push: password protection back on after the push', ...G },
} as const satisfies Record<string, InputSpec>

export type InputName = keyof typeof INPUTS
export const INPUT_NAMES = Object.keys(INPUTS) as InputName[]
/** An input's row; a name outside the table (the action's GitHub inputs) reads as a plain text input. */
const spec = (name: InputName): InputSpec =>
  (INPUTS as Record<string, InputSpec>)[name] ?? { kind: 'text', help: '' }

/** Defaults by input name (the required inputs have none). */
export const DEFAULTS = Object.fromEntries(
  INPUT_NAMES.flatMap((n) => (spec(n).default === undefined ? [] : [[n, spec(n).default!]])),
) as Record<InputName, string>

/** The inputs that are true/false switches (the CLI's `--x` / `--no-x`). */
export const SWITCH_INPUTS = INPUT_NAMES.filter((n) => spec(n).kind === 'switch')

/** The CLI's flag for an input (`site-id` -> `site-id`), or null when it has none. */
export const cliFlag = (name: InputName): string | null => (spec(name).flag === false ? null : name)

/** The CLI's environment variable for an input, if any (`api-token` -> `STAGING_API_TOKEN`). */
export const cliEnv = (name: InputName): string | undefined => spec(name).env

/** The pipe's variable for an input (`if-exists` -> `IF_EXISTS`), or null when the pipe does not take it. */
export const pipeVariable = (name: InputName): string | null =>
  spec(name).pipe === false ? null : spec(name).pipe || name.toUpperCase().replace(/-/g, '_')

/** The CLI's --help lines for the inputs that have a flag: the flag, then its help wrapped at 84. */
export function usageLines(): string[] {
  return INPUT_NAMES.filter((n) => cliFlag(n) !== null).flatMap((name) => {
    const s = spec(name)
    const on = s.kind === 'switch' && s.default === 'true'
    const left =
      s.kind === 'switch'
        ? `--${name}${on ? `, --no-${name}` : ''}`
        : `--${name} ${s.values?.join('|') ?? s.arg}`
    const plain = s.default && s.kind !== 'api-url' && s.kind !== 'switch'
    const def = on ? ` (default: ${name})` : plain ? ` (default: ${s.default})` : ''
    const text = `${s.help}${s.range ? `, ${s.range[0]}-${s.range[1]}` : ''}${def}`
    const lines = [left.length >= 25 ? `  ${left}  ` : `  ${left.padEnd(24)}`]
    for (const word of text.split(' '))
      if (lines.at(-1)!.length + word.length < 84 || (lines.length === 1 && lines[0]!.trim() === left))
        lines[lines.length - 1] += ` ${word}`
      else lines.push(`${' '.repeat(26)} ${word}`)
    return lines
  })
}

// Names close to a typed one: "did you mean" for every door's refused input or variable.

/** ` (did you mean "pull"?)` when one choice is close to what was typed, else ''. */
export function didYouMean(typed: string, choices: readonly string[]): string {
  const t = typed.trim().toLowerCase()
  const best = nearest(t, choices)
  const near =
    best && (best.distance <= Math.max(1, Math.floor(best.choice.length / 3)) || best.choice.startsWith(t))
  return t !== '' && near ? ` (did you mean "${best.choice}"?)` : ''
}

/** The choice fewest edits away from `typed` (compared without regard to case), and how many. */
type Near = { choice: string; distance: number } | null
export function nearest(typed: string, choices: readonly string[]): Near {
  let best: Near = null
  for (const choice of choices) {
    const distance = editDistance(typed.toLowerCase(), choice.toLowerCase())
    if (!best || distance < best.distance) best = { choice, distance }
  }
  return best
}

/** Edits (insert, delete, replace, swap two neighbours) from `a` to `b`. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  )
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1)
      d[i]![j] = best
    }
  return d[a.length]![b.length]!
}
