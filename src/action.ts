import * as core from '@actions/core'
import { INPUT_NAMES, InputError, parseConfig, type RawInputs } from './inputs.js'
import { finalLine } from './report/lines.js'
import { renderSummary } from './report/summary.js'
import { failedOutputs, outputsFor, type Outputs } from './report/outputs.js'
import type { Redactor } from './secrets.js'
import { isFailure, overallOutcome, runAll } from './staging/batch.js'
import type { Logger, Result } from './types.js'

/**
 * The one writer of the action: every log line, annotation and output goes through it, made inert
 * (one line, no control characters, no workflow command) and without secrets. Nothing else in the
 * action calls `core.info` and its kin with text.
 */
export interface ActionLog extends Logger {
  error(message: string, title?: string): void
  notice(message: string): void
  warnTitled(message: string, title: string): void
  fail(message: string): void
  output(name: string, value: string): void
}

export function actionLog(redactor: Redactor): ActionLog {
  const line = (m: string) => redactor.inert(m)
  return {
    info: (m) => core.info(line(m)),
    warn: (m) => core.warning(line(m)),
    warnTitled: (m, title) => core.warning(line(m), { title: redactor.inert(title, 200) }),
    debug: (m) => core.debug(line(m)),
    error: (m, title) => core.error(line(m), title ? { title: redactor.inert(title, 200) } : {}),
    notice: (m) => core.notice(line(m)),
    fail: (m) => core.setFailed(line(m)),
    output: (name, value) => core.setOutput(name, redactor.scrub(value)),
  }
}

/** The GitHub Action: read inputs -> run -> report. */
export async function runAction(redactor: Redactor, signal: AbortSignal): Promise<void> {
  redactor.add(core.getInput('github-token'))
  const log = actionLog(redactor)
  const raw: RawInputs = {}
  for (const name of INPUT_NAMES) raw[name] = core.getInput(name)
  let config
  try {
    config = parseConfig(raw)
  } catch (e) {
    if (!(e instanceof InputError)) throw e
    const message = redactor.inert(e.message)
    setOutputs(failedOutputs(message), log)
    await writeSummary(`## ❌ Staging: invalid input\n\n> ${message}\n\nNo request was sent.\n`, log)
    log.fail(message)
    return
  }
  const started = Date.now()
  const results = await runAll(config, { logger: log, redactor, signal })
  const outputs = outputsFor(results, Math.round((Date.now() - started) / 100) / 10)
  setOutputs(outputs, log)
  for (const w of new Set(results.flatMap((r) => r.warnings))) log.warnTitled(w, 'Staging')
  await writeSummary(redactor.scrub(renderSummary(results)), log)
  await prComment(results, redactor, log, signal)
  finish(results, log)
}

/** `pr-comment: true`: one comment per site on the pull request. Its failures are warnings only. */
async function prComment(
  results: Result[],
  redactor: Redactor,
  log: ActionLog,
  signal: AbortSignal,
): Promise<void> {
  const wanted = core.getInput('pr-comment').trim().toLowerCase()
  if (wanted === '' || wanted === 'false') return
  if (wanted !== 'true') {
    log.warn(`Input "pr-comment" must be true or false, got "${wanted.slice(0, 20)}": no comment was posted.`)
    return
  }
  // Loaded only when asked for: Octokit would add to every run's start-up time.
  const [{ commentOnPullRequest }, github] = await Promise.all([
    import('./report/comment.js'),
    import('@actions/github'),
  ])
  await commentOnPullRequest(results, {
    token: core.getInput('github-token'),
    eventName: github.context.eventName,
    payload: github.context.payload,
    env: process.env,
    redactor,
    signal,
    log: {
      info: (m) => log.info(m),
      warn: (m) => log.warnTitled(m, 'Pull-request comment'),
      notice: (m) => log.notice(m),
    },
  }).catch((e: unknown) => log.warn(`Pull-request comment: ${(e as Error)?.message ?? e}`))
}

function finish(results: Result[], log: ActionLog): void {
  const outcome = overallOutcome(results)
  if (isFailure(outcome)) {
    for (const r of results.filter((x) => isFailure(x.result) && x.error))
      log.error(r.error!.hint, `Staging ${r.operation} ${r.result} (site ${r.siteId})`)
    log.fail(finalLine(results))
  } else log.info(finalLine(results))
}

function setOutputs(outputs: Outputs, log: ActionLog): void {
  for (const [name, value] of Object.entries(outputs)) log.output(name, value)
}

async function writeSummary(markdown: string, log: ActionLog): Promise<void> {
  if (!process.env.GITHUB_STEP_SUMMARY) return
  try {
    await core.summary.addRaw(markdown, true).write()
  } catch (e) {
    log.warn(`Could not write the job summary: ${(e as Error).message}`)
  }
}
