import { SERVICE_API_URL } from '../contract.js'
import { OPERATIONS, type Config } from '../types.js'
import { perDoor, setting } from '../words.js'
import {
  InputError,
  MAX_SITES,
  apiUrl,
  boolean,
  checkpointId,
  choice,
  duration,
  integer,
  language,
  operation,
  siteIds,
  taskId,
  token,
  userUrl,
} from './fields.js'
import { parseGitHubInputs, type GitHubInputName, type GitHubSettings } from './github.js'
import { z } from 'zod'

export { InputError, MAX_SITES, didYouMean, normaliseApiUrl } from './fields.js'
export { parseDuration } from '../duration.js'
export * from './github.js'
/**
 * Every input of every door, read and validated in one place before any request: raw strings (action
 * inputs, CLI flags, the GitLab component's and the pipe's variables, which become CLI flags) become
 * a typed Config, or an InputError that names the input. The fields are in fields.ts, the action's
 * GitHub inputs in github.ts. Nothing here sends a request.
 */

/** Raw inputs by their action names (`site-id`, `api-url`...); absent means default. */
export type RawInputs = Partial<Record<InputName, string>>
/**
 * The inputs of the staging run, by their action name, as parseConfig reads them (the action and
 * the CLI). action.yml declares these and the GitHub side's own (github-token, pr-comment,
 * comment-author, deployment-environment), which src/github/ reads.
 */
export const INPUT_NAMES = [
  'operation',
  'site-id',
  'api-token',
  'api-url',
  'wait',
  'timeout',
  'language',
  'max-retries',
  'if-exists',
  'if-missing',
  'if-busy',
  'dry-run',
  'concurrency',
  'fail-fast',
  'task-id',
  'wait-for-url',
  'staging-url',
  'production-url',
  // Issue 27: the checkpoint before a push, rollback, and production guarded during the push.
  'checkpoint',
  'checkpoint-id',
  'rollback-on-failure',
  'keep-checkpoints',
  'maintenance',
  'protect-production',
] as const
export type InputName = (typeof INPUT_NAMES)[number]

/** Defaults, as in action.yml (a test checks they agree). */
export const DEFAULTS = {
  'api-url': SERVICE_API_URL,
  wait: 'true',
  timeout: '30m',
  language: 'en',
  'max-retries': '5',
  'if-exists': 'fail',
  'if-missing': 'fail',
  'if-busy': 'wait',
  'dry-run': 'false',
  concurrency: '100',
  'fail-fast': 'false',
  'task-id': '',
  'wait-for-url': 'false',
  'staging-url': '',
  'production-url': '',
  checkpoint: 'version',
  'checkpoint-id': '',
  'rollback-on-failure': 'false',
  'keep-checkpoints': '3',
  maintenance: 'false',
  'protect-production': 'false',
} as const satisfies RawInputs

const Schema = z.object({
  operation,
  'site-id': siteIds,
  'api-token': token,
  'api-url': apiUrl,
  wait: boolean,
  timeout: duration,
  language: language,
  'max-retries': integer(0, 20),
  'if-exists': choice(['fail', 'skip', 'recreate'] as const),
  'if-missing': choice(['fail', 'skip'] as const),
  'if-busy': choice(['wait', 'fail'] as const),
  'dry-run': boolean,
  concurrency: integer(1, MAX_SITES),
  'fail-fast': boolean,
  'task-id': taskId,
  'wait-for-url': boolean,
  'staging-url': userUrl,
  'production-url': userUrl,
  checkpoint: choice(['version', 'none'] as const),
  'checkpoint-id': checkpointId,
  'rollback-on-failure': boolean,
  'keep-checkpoints': integer(1, 100),
  maintenance: boolean,
  'protect-production': boolean,
})

/** The site-id input alone, checked as parseConfig checks it (the action's release reads only this). */
export function parseSiteIds(raw: string): string[] {
  const parsed = siteIds.safeParse(raw)
  if (!parsed.success) throw new InputError('site-id', parsed.error.issues[0]!.message)
  return parsed.data
}

/** Raw inputs -> Config, or InputError naming the first input that is wrong. */
export function parseConfig(raw: RawInputs): Config {
  const filled: Record<string, string> = { ...DEFAULTS }
  for (const [k, v] of Object.entries(raw)) if (v !== undefined && v.trim() !== '') filled[k] = v
  for (const required of ['operation', 'site-id', 'api-token']) filled[required] ??= ''
  const parsed = Schema.safeParse(filled)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    const input = String(issue.path[0] ?? 'input')
    const message =
      filled[input] === '' && input !== 'api-token' && issue.code !== 'custom' ? 'is required' : issue.message
    throw new InputError(input, message)
  }
  const c = parsed.data
  if (c['task-id'] && c.operation !== 'status')
    throw new InputError(
      'task-id',
      `is for ${perDoor('operation: status', 'the status operation')} (it follows an earlier job), not for ${c.operation}`,
    )
  if (c['production-url'] && c.operation !== 'push' && c.operation !== 'rollback')
    throw new InputError('production-url', `is checked after a push or a rollback, not after ${c.operation}`)
  if (c['checkpoint-id'] && c.operation !== 'rollback')
    throw new InputError('checkpoint-id', `names the version a rollback restores, not one for ${c.operation}`)
  // They act when the push's job has ended: a push not waited for has not.
  for (const name of ['maintenance', 'protect-production', 'rollback-on-failure'] as const)
    if (c[name] && c.operation === 'push' && !c.wait)
      throw new InputError(name, `acts when the push has ended: it needs ${setting('wait', 'true')}`)
  if (c['checkpoint-id'] && c['site-id'].length > 1)
    throw new InputError('checkpoint-id', `is one site's version: give one ${setting('site-id')} with it`)
  if (c['staging-url'] && c['site-id'].length > 1)
    throw new InputError('staging-url', 'names one staging site: give one site-id with it')
  if (c['task-id'] && c['site-id'].length > 1)
    throw new InputError('task-id', `follows one job: give one ${setting('site-id')} with it`)
  return {
    operation: c.operation,
    siteIds: c['site-id'],
    apiToken: c['api-token'],
    apiUrl: c['api-url'],
    wait: c.wait,
    timeoutMs: c.timeout,
    language: c.language,
    maxRetries: c['max-retries'],
    ifExists: c['if-exists'],
    ifMissing: c['if-missing'],
    ifBusy: c['if-busy'],
    dryRun: c['dry-run'],
    concurrency: c.concurrency,
    failFast: c['fail-fast'],
    taskId: c['task-id'],
    waitForUrl: c['wait-for-url'],
    stagingUrl: c['staging-url'],
    productionUrl: c['production-url'],
    checkpoint: c.checkpoint,
    checkpointId: c['checkpoint-id'],
    rollbackOnFailure: c['rollback-on-failure'],
    keepCheckpoints: c['keep-checkpoints'],
    maintenance: c.maintenance,
    protectProduction: c['protect-production'],
  }
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
