import * as core from '@actions/core'
import { realClock } from './clock.js'
import { forkOf, runContext } from './github/context.js'
import { githubSideEffects, releaseStaging } from './github/index.js'
import { INPUT_NAMES, InputError, parseConfig, parseSiteIds, type RawInputs } from './inputs.js'
import { assembleReport, type Report } from './report/assembly.js'
import { renderSummary } from './report/summary.js'
import { failedOutputs, type Outputs } from './report/outputs.js'
import { md } from './report/markdown.js'
import type { Redactor } from './secrets.js'
import { runAll } from './staging/batch.js'
import type { Config, Logger, Outcome, Result } from './types.js'

/**
 * The one writer of the action: every log line, annotation and output goes through it, made inert
 * (one line, no control characters, no workflow command) and without secrets. Nothing else in the
 * action calls `core.info` and its kin with text.
 */
interface ActionLog extends Logger {
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
}

function actionLog(redactor: Redactor): ActionLog {
  const line = (m: string) => redactor.inert(m)
  let lost: string | null = null
  const warned = new Set<string>()
  return {
    info: (m) => core.info(line(m)),
    warn: (m) => {
      warned.add(line(m))
      core.warning(line(m))
    },
    warnTitled: (m, title) => core.warning(line(m), { title: redactor.inert(title, 200) }),
    debug: (m) => core.debug(line(m)),
    error: (m, title) => core.error(line(m), title ? { title: redactor.inert(title, 200) } : {}),
    notice: (m) => core.notice(line(m)),
    fail: (m) => core.setFailed(line(m)),
    output: (name, value) => {
      try {
        core.setOutput(name, redactor.scrub(value))
      } catch (e) {
        lost ??= writeError(e)
      }
    },
    lostOutputs: () => lost,
    warned: (m) => warned.has(line(m)),
  }
}

/** `ENOSPC: no space left on device, write` and the like, bounded. */
function writeError(e: unknown): string {
  return String((e as Error)?.message ?? e).slice(0, 300)
}

/** The GitHub Action: read inputs -> run -> report. */
export async function runAction(redactor: Redactor, signal: AbortSignal): Promise<void> {
  redactor.add(core.getInput('github-token'))
  const log = actionLog(redactor)
  const raw: RawInputs = {}
  for (const name of INPUT_NAMES) raw[name] = core.getInput(name)
  if (raw.operation?.trim().toLowerCase() === 'release') return runRelease(raw, redactor, log, signal)
  const fork = forkOf(process.env.GITHUB_EVENT_NAME, runContext(process.env).payload)
  if (fork && !raw['api-token']?.trim()) {
    await notStarted(
      'skipped',
      `This pull request comes from the fork ${fork}. GitHub gives a fork's workflow run no secrets and a read-only ` +
        'github-token, so api-token is empty: nothing was sent to the staging service or to GitHub. To preview it, ' +
        'push the branch to this repository; to skip forks quietly, add to the job: if: github.event.pull_request.head.repo.full_name == github.repository',
      log,
    )
    return
  }
  let config: Config
  try {
    config = parseConfig(raw)
  } catch (e) {
    if (!(e instanceof InputError)) throw e
    await notStarted('failed', redactor.inert(e.message), log, 'invalid input', 'No request was sent.')
    return
  }
  const gh = await githubSide(config, redactor, log, signal)
  const stop = await gh.before()
  if (stop) {
    await notStarted(stop.result, stop.message, log)
    return
  }
  // Source 3 of the staging URL (issue 20 §1): what an earlier run's deployment recorded, as plain data.
  const earlier = await gh.knownStaging()
  if (earlier)
    config = {
      ...config,
      stagingHints: [
        {
          url: earlier.url,
          from: `the last successful GitHub deployment of environment "${core.getInput('deployment-environment').trim()}"`,
        },
      ],
    }
  let results: Result[]
  let report: Report
  try {
    const started = realClock.now()
    results = await runAll(config, { logger: log, redactor, signal })
    report = assembleReport(results, realClock.now() - started)
    setOutputs(report.outputs, log)
    // Each warning once: those the run already wrote as they happened are not repeated.
    for (const w of report.warnings) if (!log.warned(w)) log.warnTitled(w, 'Staging')
    await writeSummary(redactor.scrub(renderSummary(results)), log)
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

/** The GitHub side of the run (PR comment, deployments): src/github/, writing through the one writer. */
function githubSide(config: Config, redactor: Redactor, log: ActionLog, signal: AbortSignal) {
  return githubSideEffects({
    operation: config.operation,
    dryRun: config.dryRun,
    siteIds: config.siteIds,
    input: (name) => core.getInput(name),
    redactor,
    signal,
    timeoutMs: config.timeoutMs,
    log: {
      info: (m) => log.info(m),
      warn: (m, title) => (title ? log.warnTitled(m, title) : log.warn(m)),
      notice: (m) => log.notice(m),
    },
    setOutput: (name, value) => log.output(name, value),
  })
}

/**
 * A run that did not start (bad input, a fork without secrets, staging taken by another pull
 * request): every output set, one summary paragraph, and the step fails unless it was `skipped`.
 */
async function notStarted(
  result: Outcome,
  message: string,
  log: ActionLog,
  what = result === 'skipped' ? 'skipped' : 'not started',
  after = '',
): Promise<void> {
  setOutputs({ ...failedOutputs(message), result }, log)
  await writeSummary(
    `## ${result === 'skipped' ? '⏭️' : '❌'} Staging: ${what}\n\n> ${md(message)}\n${after ? `\n${after}\n` : ''}`,
    log,
  )
  if (result === 'skipped') log.warnTitled(message, 'Staging skipped')
  else log.fail(message)
}

/**
 * `operation: release` (the action only, on a closed pull request): hands staging back on GitHub's
 * side; nothing is sent to the staging service, so no api-token or api-url is read.
 */
async function runRelease(
  raw: RawInputs,
  redactor: Redactor,
  log: ActionLog,
  signal: AbortSignal,
): Promise<void> {
  let siteIds: string[]
  try {
    siteIds = parseSiteIds(raw['site-id'] ?? '')
  } catch (e) {
    if (!(e instanceof InputError)) throw e
    await notStarted('failed', redactor.inert(e.message), log, 'invalid input', 'Nothing was sent.')
    return
  }
  const outcomes = await releaseStaging({
    siteIds,
    input: (name) => core.getInput(name),
    redactor,
    signal,
    log: {
      info: (m) => log.info(m),
      warn: (m, title) => log.warnTitled(m, title),
      notice: (m) => log.notice(m),
    },
  })
  const worst =
    outcomes.find((x) => x.result === 'failed') ??
    outcomes.find((x) => x.result === 'skipped') ??
    outcomes[0]!
  const message = outcomes.map((x) => x.message).join(' ')
  setOutputs(
    {
      ...failedOutputs(message),
      result: worst.result,
      results: JSON.stringify(outcomes.map((x) => ({ operation: 'release', ...x }))),
    },
    log,
  )
  for (const x of outcomes) log.info(x.message)
  await writeSummary(
    redactor.scrub(
      `## Staging release: ${worst.result}\n\n${outcomes.map((x) => `- Site ${md(x.siteId)}: ${md(x.message)}`).join('\n')}\n`,
    ),
    log,
  )
  if (worst.result === 'failed') log.fail(worst.message)
}

/**
 * The run's last lines. Outputs that could not be written fail the step (later steps would read
 * empty values), after the operation's own result is printed as it was.
 */
function finish(report: Report, log: ActionLog, lostOutputs: string | null): void {
  for (const e of report.errors) log.error(e.hint, e.title)
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

function setOutputs(outputs: Outputs, log: ActionLog): void {
  for (const [name, value] of Object.entries(outputs)) log.output(name, value)
}

/** The job summary; a summary the runner's file refuses is a warning (the log has the same result). */
async function writeSummary(markdown: string, log: ActionLog): Promise<void> {
  if (!process.env.GITHUB_STEP_SUMMARY) return
  try {
    await core.summary.addRaw(markdown, true).write()
  } catch (e) {
    log.warnTitled(
      `Could not write the job summary to the file GITHUB_STEP_SUMMARY names (${writeError(e)}). ` +
        'The result is in this log and in the step outputs.',
      'Job summary not written',
    )
  }
}
