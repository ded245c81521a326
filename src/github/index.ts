/**
 * The GitHub side of a step, behind one small interface the step calls around the operation:
 *
 *   const gh = await githubSideEffects({ ...settings, deadline, clock })
 *   const stop = await gh.before()   // if-staging-taken, then the deployment, in_progress
 *   const results = await runAll(...)
 *   await gh.after(results)          // its final status, or inactive after a delete; the PR comment
 *
 * (`gh.abandon(reason)` instead of `after` when the run broke before it had results.)
 * The jobs live one to a file: run.ts (one run's state and its time limits), claim.ts (who
 * staging shows, the wait, the deployment), after.ts (final status, comment, hand-over),
 * release.ts (`operation: release`). The inputs are checked by src/inputs/ before any of this;
 * nothing here loads Octokit unless they ask for GitHub. Nothing here throws or fails a run by
 * itself: a Stop or a Result is a value the step reports.
 */
import type { Result } from '../types.js'
import { after, abandon, withHandOver } from './after.js'
import { before, type Stop } from './claim.js'
import { lastDeployedStaging } from './known-staging.js'
import { beforePhase, newRun, type GitHubRun, type GitHubSideEffectOptions } from './run.js'

export type { Stop } from './claim.js'
export type { GitHubSideEffectOptions } from './run.js'
export { releaseStaging } from './release.js'

/** The action's outputs set here (after the ones of src/report/outputs.ts). */
export const GITHUB_OUTPUT_NAMES = ['deployment-id'] as const

export interface GitHubSideEffects {
  /**
   * Before the operation: who staging shows (if-staging-taken), then the deployment (create, pull,
   * push). A Stop when the operation must not start. Never throws.
   */
  before(): Promise<Stop | null>
  /**
   * After it: the deployment's final status (`error`, saying `problem`, when the step itself went
   * wrong after the operation, e.g. its outputs could not be written) or the environment's
   * retirement, and the comment. Never throws.
   */
  after(results: Result[], problem?: string | null): Promise<void>
  /** The Results, with the hand-over said in them when this run took staging from another one. */
  withHandOver(results: Result[]): Result[]
  /** Instead of `after`, when the run broke without results: a started deployment gets `error`. */
  abandon(reason: string): Promise<void>
  /**
   * The staging URL an earlier run recorded (the last successful deployment of the environment),
   * for a one-site create, pull or status; null when there is none or nothing may be read. Never throws.
   */
  knownStaging(): Promise<string | null>
}

/** What to do before and after the operation, as the GitHub inputs ask. */
export async function githubSideEffects(o: GitHubSideEffectOptions): Promise<GitHubSideEffects> {
  if (!o.settings.commentAuthor && !o.settings.environment) {
    o.setOutput('deployment-id', '')
    return {
      before: async () => null,
      after: async () => {},
      withHandOver: (results) => results,
      abandon: async () => {},
      knownStaging: async () => null,
    }
  }
  const run = await newRun(o)
  return {
    before: () => before(run),
    after: (results, problem) => after(run, results, problem ?? null),
    withHandOver: (results) => withHandOver(run, results),
    abandon: (reason) => abandon(run, reason),
    knownStaging: () => knownStaging(run),
  }
}

/** The operations that report a staging URL (and so may use one an earlier run recorded). */
const URL_OPERATIONS: readonly string[] = ['create', 'pull', 'status']

async function knownStaging(run: GitHubRun): Promise<string | null> {
  const environment = run.o.settings.environment
  if (!environment || !run.repo || run.o.siteIds.length !== 1 || !URL_OPERATIONS.includes(run.o.operation))
    return null
  // GitHub already refused to say who staging shows: the same read would be refused again.
  if (run.o.signal?.aborted || run.ownerUnknown) return null
  const repo = run.repo
  return beforePhase(run, (signal) =>
    lastDeployedStaging(run.octokit(signal), repo, environment, run.o.siteIds[0]!, run.o.settings.author),
  )
}
