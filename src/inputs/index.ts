import { OPERATIONS, type StagingHint } from '../types.js'
import { setting } from '../words.js'
import { InputError, READERS, choice, readInputs, siteIds } from './fields.js'
import { parseGitHubInputs, type GitHubInputName, type GitHubSettings } from './github.js'
import { DEFAULTS, INPUTS, INPUT_NAMES, type InputName, type InputSpec } from './table.js'
import { z } from 'zod'

export { InputError, normaliseApiUrl } from './fields.js'
export * from './github.js'
export { DEFAULTS, INPUTS, INPUT_NAMES, didYouMean, nearest, type InputName } from './table.js'
/**
 * Every input of every door, read and validated in one place before any request: raw strings (action
 * inputs, CLI flags, the GitLab component's and the pipe's variables, which become CLI flags) become a
 * typed Config, or an InputError that names the input (the fields in fields.ts, GitHub's in github.ts).
 */

/** Raw inputs by their action names (`site-id`, `api-url`...); absent means default. */
export type RawInputs = Partial<Record<InputName, string>>

/** What an input reads as: one of its values, or what its kind's reader makes. */
type Value<S> = S extends { values: readonly (infer V)[] }
  ? V
  : S extends { kind: infer K extends keyof typeof READERS }
    ? z.output<ReturnType<(typeof READERS)[K]>>
    : never
type Values = { [N in InputName]: Value<(typeof INPUTS)[N]> }
type Camel<S extends string> = S extends `${infer A}-${infer B}` ? `${A}${Capitalize<Camel<B>>}` : S
type Field<N extends string, S> = S extends { kind: 'duration' }
  ? `${Camel<N>}Ms`
  : S extends { kind: 'site-ids' }
    ? `${Camel<N>}s`
    : Camel<N>
type Fields = { [N in InputName as Field<N, (typeof INPUTS)[N]>]: Values[N] }
/**
 * Typed settings, made from raw inputs by `parseConfig`: each input is its field by name
 * (`if-exists` is ifExists, a duration in ms, the site ids a list), read as its row of the table says.
 */
export type Config = Fields & {
  /**
   * Staging URLs known from outside this run's answers (issue 20 §1, source 3: an earlier run's
   * GitHub deployment), given by the front door as plain data; each is checked before it is used.
   */
  stagingHints?: StagingHint[]
}

const Schema = z.object(
  Object.fromEntries(INPUT_NAMES.map((n) => [n, READERS[INPUTS[n].kind](INPUTS[n] as InputSpec)])),
)

/** The site-id input alone, checked as parseConfig checks it (the action's release reads only this). */
export function parseSiteIds(raw: string): string[] {
  const parsed = siteIds.safeParse(raw)
  if (!parsed.success) throw new InputError('site-id', parsed.error.issues[0]!.message)
  return parsed.data
}

/** Raw inputs -> Config, or InputError naming the first input that is wrong. */
export function parseConfig(raw: RawInputs): Config {
  const defaults = Object.fromEntries(INPUT_NAMES.map((n) => [n, DEFAULTS[n] ?? '']))
  const c = readInputs(Schema, defaults, raw) as Values
  // A thing named for some operations only (a task, a version, the live site) is refused for the others.
  for (const name of INPUT_NAMES) {
    const only = (INPUTS[name] as InputSpec).for
    if (only && DEFAULTS[name] === '' && c[name] && !only.includes(c.operation))
      throw new InputError(
        name,
        `is for ${only.map((o) => setting('operation', o)).join(' or ')}, not for ${c.operation}`,
      )
  }
  if (c['production-expect'] && !c['production-url'])
    throw new InputError(
      'production-expect',
      `is looked for in the live page: give ${setting('production-url')} with it`,
    )
  // They act when the push's job has ended (a rollback's production-url: its restore's); unwaited, it has not.
  const job = c.operation === 'push' ? 'push' : c.operation === 'rollback' ? 'restore' : ''
  for (const name of ['maintenance', 'protect-production', 'rollback-on-failure', 'production-url'] as const)
    if (c[name] && job && !c.wait && (job === 'push' || name === 'production-url'))
      throw new InputError(name, `acts when the ${job} has ended: it needs ${setting('wait', 'true')}`)
  if (c['rollback-on-failure'] && c.checkpoint === 'none' && c.operation === 'push')
    throw new InputError('rollback-on-failure', `restores nothing with ${setting('checkpoint', 'none')}`)
  if (c['checkpoint-id'] && c['site-id'].length > 1)
    throw new InputError('checkpoint-id', `is one site's version: give one ${setting('site-id')} with it`)
  if (c['staging-url'] && c['site-id'].length > 1)
    throw new InputError('staging-url', `names one staging site: give one ${setting('site-id')} with it`)
  // One live page is one site's: checked for every site, one site's failure would restore the others.
  if (c['production-url'] && c['site-id'].length > 1)
    throw new InputError('production-url', `is one site's live page: give one ${setting('site-id')} with it`)
  if (c['task-id'] && c['site-id'].length > 1)
    throw new InputError('task-id', `follows one job: give one ${setting('site-id')} with it`)
  const field = (n: InputName) =>
    n.replace(/-(.)/g, (_, c: string) => c.toUpperCase()) +
    (({ duration: 'Ms', 'site-ids': 's' } as Record<string, string>)[INPUTS[n].kind] ?? '')
  return Object.fromEntries(INPUT_NAMES.map((n) => [field(n), c[n]])) as Fields
}

/** Every input of the action, checked: a staging run, or `release` (which sends nothing to the service). */
export type ActionInputs =
  | { operation: 'release'; siteIds: string[]; github: GitHubSettings }
  | { operation: Config['operation']; config: Config; github: GitHubSettings }

const actionOperation = choice([...OPERATIONS, 'release'] as const, { reset: 'pull' })

/** The action's raw inputs: the staging run's and GitHub's, by their action.yml names. */
export type ActionRawInputs = RawInputs & Partial<Record<GitHubInputName, string>>

/** The action's `operation` input alone (an operation, or `release`), or InputError. */
export function parseActionOperation(raw: string | undefined): (typeof OPERATIONS)[number] | 'release' {
  const op = actionOperation.safeParse(raw ?? '')
  if (op.success) return op.data
  throw new InputError('operation', (raw ?? '').trim() === '' ? 'is required' : op.error.issues[0]!.message)
}

/** The action's raw inputs -> ActionInputs, or InputError naming the first input that is wrong. */
export function parseActionInputs(raw: ActionRawInputs): ActionInputs {
  if (parseActionOperation(raw.operation) === 'release') {
    const siteIds = parseSiteIds(raw['site-id'] ?? '')
    return {
      operation: 'release',
      siteIds,
      github: parseGitHubInputs(raw, { operation: 'release', siteIds, dryRun: false }),
    }
  }
  const config = parseConfig(raw)
  return { operation: config.operation, config, github: parseGitHubInputs(raw, config) }
}
