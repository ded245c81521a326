/**
 * One step of the action, one program (issue 25): every input checked by the one schema
 * (src/inputs/) before any request -> one deadline, computed once -> GitHub's side before the
 * operation -> the core run -> GitHub's side after it -> one report of Results (src/report/).
 * A run not started, a refusal and `release` end as Results too, rendered by the same report.
 * src/action.ts gives it the action's one writer; tests give it fakes (a clock, an env).
 */
import { runAll } from '../staging/batch.js'
import type { RunDeps } from '../staging/operations.js'
import {
  InputError,
  parseActionInputs,
  parseActionOperation,
  parseSiteIds,
  type ActionInputs,
  type ActionRawInputs,
} from '../inputs/index.js'
import { assembleReport, type Report } from '../report/assembly.js'
import { renderInvalidInput, renderSummary } from '../report/summary.js'
import { failedOutputs, type Outputs } from '../report/outputs.js'
import type { Redactor } from '../secrets/redactor.js'
import type { Clock, Result } from '../types.js'
import { forkOf, runContext, type Env } from './context.js'
import { githubSideEffects } from './index.js'
import { releaseStaging } from './release.js'
import type { Limits } from './phase.js'
import type { GitHubFetch } from './octokit.js'
import { notStartedResults } from './results.js'
import type { StepLog } from './run.js'

export interface StepDeps {
  log: StepLog
  redactor: Redactor
  signal: AbortSignal
  clock: Clock
  /** The runner's environment (process.env). */
  env: Env
  /** Tests: the core's own fakes (a transport, `random`), GitHub's shorter time limits. */
  core?: Partial<RunDeps>
  limits?: Partial<Limits>
  /** Tests: how requests reach GitHub (an in-process GitHub). */
  fetch?: GitHubFetch
}

const FORK =
  "GitHub gives a fork's workflow run no secrets and a read-only github-token, so api-token is empty: nothing was sent to the staging service or to GitHub. To preview it, push the branch to this repository; to skip forks quietly, add to the job: if: github.event.pull_request.head.repo.full_name == github.repository"

export async function runStep(raw: ActionRawInputs, deps: StepDeps): Promise<void> {
  const { clock, log, redactor } = deps
  const startedAt = clock.now()
  const done = async (results: Result[]) => {
    finish(await publish(results, deps, clock.now() - startedAt), log, log.lostOutputs())
  }
  let inputs: ActionInputs
  try {
    const operation = parseActionOperation(raw.operation)
    const fork = operation !== 'release' && forkOf(deps.env.GITHUB_EVENT_NAME, runContext(deps.env).payload)
    if (fork && !raw['api-token']?.trim()) {
      const message = `This pull request comes from the fork ${fork}. ${FORK}`
      const siteIds = parseSiteIds(raw['site-id'] ?? '')
      return done(notStartedResults(operation, siteIds, 'skipped', message, clock))
    }
    inputs = parseActionInputs(raw)
  } catch (e) {
    if (!(e instanceof InputError)) throw e
    const message = redactor.inert(e.message)
    setOutputs(failedOutputs(message), log)
    await log.summary(renderInvalidInput(message))
    log.fail(message)
    return
  }
  // GitHub's side has the step's own deps, but for the core's fakes.
  const { core: _core, ...shared } = deps
  const common = { ...shared, settings: inputs.github }
  if (inputs.operation === 'release') {
    // Nothing waits here: each GitHub request is within its short limit (src/github/phase.ts).
    return done(
      await releaseStaging({ ...common, siteIds: inputs.siteIds, deadline: Number.POSITIVE_INFINITY }),
    )
  }
  let config = inputs.config
  // The step's one deadline (issue 25 §2), computed once: the owner's run (if-staging-taken: wait),
  // GitHub's requests before the operation, the API jobs and the URL checks all end by it.
  const deadline = startedAt + config.timeoutMs
  const gh = await githubSideEffects({
    ...common,
    operation: config.operation,
    dryRun: config.dryRun,
    siteIds: config.siteIds,
    deadline,
    setOutput: (name, value) => log.output(name, value),
  })
  const stop = await gh.before()
  if (stop) return done(notStartedResults(config.operation, config.siteIds, stop.result, stop.message, clock))
  // Source 3 of the staging URL (issue 20 §1): what an earlier run's deployment recorded, as plain data.
  const earlier = await gh.knownStaging()
  const from = `the last successful GitHub deployment of environment "${common.settings.environment}"`
  if (earlier) config = { ...config, stagingHints: [{ url: earlier, from }] }
  let results: Result[]
  let report: Report
  try {
    results = gh.withHandOver(
      await runAll(config, {
        ...deps.core,
        logger: log,
        redactor: deps.redactor,
        signal: deps.signal,
        clock,
        deadline,
      }),
    )
    report = await publish(results, deps, clock.now() - startedAt)
  } catch (e) {
    // Whatever broke, a deployment this run started does not stay in progress.
    await gh.abandon(`Staging ${config.operation} stopped by an unexpected error.`)
    throw e
  }
  const lost = log.lostOutputs()
  await gh.after(
    results,
    lost ? `Staging ${config.operation} ended, but the step's outputs were lost.` : null,
  )
  finish(report, log, lost)
}

/** Outputs, each warning once (not those the run already wrote as they happened), and the job summary: the
 * same for every Result, whatever made it. */
async function publish(results: Result[], deps: StepDeps, elapsedMs: number): Promise<Report> {
  const report = assembleReport(results, elapsedMs)
  setOutputs(report.outputs, deps.log)
  for (const w of report.warnings) if (!deps.log.warned(w)) deps.log.warnTitled(w, 'Staging')
  await deps.log.summary(deps.redactor.scrub(renderSummary(results)))
  return report
}

/** The run's last lines. Outputs that could not be written fail the step (later steps would read empty
 * values), after the operation's own result is printed as it was. */
function finish(report: Report, log: StepLog, lostOutputs: string | null): void {
  // Each error once: a hint the final line already says whole (a run not started) is not repeated.
  for (const e of report.errors) if (!report.finalLine.includes(e.hint)) log.error(e.hint, e.title)
  if (lostOutputs) {
    log.info(report.finalLine)
    log.error(
      `Could not write the step's outputs to the file GITHUB_OUTPUT names (${lostOutputs}): later steps ` +
        "cannot read this step's result, staging-url or other outputs. Free space on the runner (or " +
        'use a runner with more disk) and run the workflow again. The staging result above is what happened.',
      'Step outputs not written',
    )
    log.fail(`The step's outputs could not be written (${lostOutputs}); staging: ${report.finalLine}`)
  } else if (report.failed) log.fail(report.finalLine)
  else log.info(report.finalLine)
}

function setOutputs(outputs: Outputs, log: StepLog): void {
  for (const [name, value] of Object.entries(outputs)) log.output(name, value)
}
