/**
 * One run's GitHub side, as the facade (index.ts) makes it: the settings the one input schema
 * checked (src/inputs/), the runner's context, the step's one deadline and clock, and what the
 * run made on GitHub so far. The jobs (claim.ts, after.ts, release.ts) take it and return values.
 */
import type { GitHubSettings } from '../inputs/index.js'
import type { Clock, Logger } from '../types.js'
import { repoOf, runContext, type Env, type Repo, type RunContext } from './context.js'
import type { DeploymentContext } from './deployments.js'
import type { GitHubFetch, Octokit } from './octokit.js'
import type { CurrentOwner, Owner } from './ownership.js'
import { LIMITS_MS, phaseSignal, withinPhase, type Limits } from './phase.js'

/** The action's one writer (src/action.ts): every line inert and without secrets. */
export interface StepLog extends Logger {
  error(message: string, title?: string): void
  notice(message: string): void
  warnTitled(message: string, title: string): void
  fail(message: string): void
  /** Sets a step output. Never throws: a failed write is kept in `lostOutputs`. */
  output(name: string, value: string): void
  /** Why the outputs file refused a write (a full disk, say), the first time it did; else null. */
  lostOutputs(): string | null
  /** Whether this warning was already written during the run (the report does not repeat it). */
  warned(message: string): boolean
  /** Writes the job summary (a refused write is a warning). */
  summary(markdown: string): Promise<void>
}

export interface GitHubSideEffectOptions {
  /** The run's operation (`create`, `pull`, `push`, `delete`, `status`, `release`). */
  operation: string
  dryRun: boolean
  siteIds: string[]
  /** The GitHub inputs, as src/inputs/ checked them. */
  settings: GitHubSettings
  /** The step's one deadline (clock ms, computed once when the step started): no wait passes it. */
  deadline: number
  clock: Clock
  /** Every text sent to GitHub or logged goes through it. */
  redactor: { scrub(text: string): string }
  log: Pick<StepLog, 'info' | 'warnTitled' | 'notice'>
  setOutput: (name: 'deployment-id', value: string) => void
  signal?: AbortSignal
  /** The runner's environment (process.env). */
  env?: Env
  /** Time limits of GitHub requests, in milliseconds (tests shorten them). */
  limits?: Partial<Limits>
  /** How requests reach GitHub (tests: an in-process GitHub); the real one by default. */
  fetch?: GitHubFetch
}

export interface GitHubRun {
  o: GitHubSideEffectOptions
  ctx: RunContext
  repo: Repo | null
  limits: Limits
  octokit(signal: AbortSignal): Octokit
  scrub(text: string): string
  warnDeployment(message: string): void
  warnComment(message: string): void
  /** The deployment `before` made, once it exists. */
  deploymentId: number | null
  /** This run takes staging of `siteId` for `owner` (one site, create or pull, a deployment). */
  claim: { siteId: string; owner: Owner } | null
  /** Who staging showed before this run, when that was another pull request (or run). */
  previous: CurrentOwner | null
  /** Why who staging shows could not be read (if-staging-taken: take goes on without it). */
  ownerUnknown?: string
}

export async function newRun(o: GitHubSideEffectOptions): Promise<GitHubRun> {
  // Loaded only when GitHub is asked for something: Octokit would add to the start-up time of every run.
  const asked = o.settings.commentAuthor || o.settings.environment || o.operation === 'release'
  const octokitFor = asked ? (await import('./octokit.js')).octokitFor : null
  const ctx = runContext(o.env ?? process.env)
  return {
    o,
    ctx,
    repo: repoOf(ctx.repository, ctx.payload),
    limits: { ...LIMITS_MS, ...o.limits },
    octokit: (signal) => octokitFor!(o.settings.token, ctx.apiUrl, signal, o.fetch),
    scrub: (t) => o.redactor.scrub(t),
    warnDeployment: (m) => o.log.warnTitled(o.redactor.scrub(m), 'GitHub deployment'),
    warnComment: (m) => o.log.warnTitled(o.redactor.scrub(m), 'Pull-request comment'),
    deploymentId: null,
    claim: null,
    previous: null,
  }
}

/** GitHub requests before the operation: each phase within `limits.before` and the step's deadline (the
 * operation after them gets what is left of the same `timeout`). */
export function beforePhase<T>(run: GitHubRun, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const left = Math.max(0, run.o.deadline - run.o.clock.now())
  return withinPhase(phaseSignal(run.o.signal, Math.min(run.limits.before, left), 0), work)
}

/** GitHub requests after the operation: the short grace the step has to report (30 s, 3 s once cancelled). */
export function afterPhase<T>(run: GitHubRun, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  return withinPhase(phaseSignal(run.o.signal, run.limits.after, run.limits.cancelled), work)
}

/** The deployment's context, or null without a repository or an environment. */
export function deploymentContext(run: GitHubRun, kit: Octokit): DeploymentContext | null {
  if (!run.repo || !run.o.settings.environment) return null
  return {
    octokit: kit,
    repo: run.repo,
    environment: run.o.settings.environment,
    scrub: run.scrub,
    logUrl: run.ctx.runUrl,
  }
}

export function messageOf(e: unknown): string {
  return (e as Error)?.message ?? String(e)
}
