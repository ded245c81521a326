/**
 * The GitHub side of a step, behind one small facade the step (step.ts) calls around the operation:
 * `before()` (if-staging-taken, then the deployment, in_progress), then `after(results)` (its final
 * status, or inactive after a delete; the PR comment), or `abandon(reason)` when the run broke
 * before it had results. The jobs live one to a file: run.ts (one run's state and its time limits),
 * claim.ts (who staging shows, the wait, the deployment), after.ts (final status, comment,
 * hand-over), release.ts (`operation: release`). The inputs are checked by src/inputs/ before any of
 * this; nothing here loads Octokit unless they ask for GitHub. Nothing here throws or fails a run by
 * itself: a Stop or a Result is a value the step reports.
 */
import type { Result } from '../types.js'
import { after, abandon, withHandOver } from './after.js'
import { before } from './claim.js'
import { lastDeployedStaging } from './ownership.js'
import { beforePhase, newRun, type GitHubRun, type GitHubSideEffectOptions } from './run.js'

/** The action's outputs set here (after the ones of src/report/outputs.ts). */
export const GITHUB_OUTPUT_NAMES = ['deployment-id'] as const

/** What to do before and after the operation, as the GitHub inputs ask. Each never throws; `after` takes
 * `problem` when the step itself went wrong after the operation (its outputs not written), and `knownStaging`
 * is the URL an earlier run recorded, for a one-site create, pull or status. */
export async function githubSideEffects(o: GitHubSideEffectOptions) {
  const run = await newRun(o)
  return {
    before: () => before(run),
    after: (results: Result[], problem?: string | null) => after(run, results, problem ?? null),
    withHandOver: (results: Result[]) => withHandOver(run, results),
    abandon: (reason: string) => abandon(run, reason),
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
