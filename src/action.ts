import * as core from '@actions/core'
import { INPUT_NAMES, InputError, parseConfig, type RawInputs } from './inputs.js'
import { renderSummary } from './report/summary.js'
import { failedOutputs, outputsFor, type Outputs } from './report/outputs.js'
import { Redactor } from './secrets.js'
import { isFailure, overallOutcome, runAll } from './staging/batch.js'
import type { Logger, Result } from './types.js'

/**
 * The GitHub Action: read inputs -> run -> report. Everything it writes (log, annotations,
 * outputs, summary) goes through the redactor first.
 */
export async function runAction(redactor: Redactor, signal: AbortSignal): Promise<void> {
  redactor.add(core.getInput('github-token'))
  const logger: Logger = {
    info: (m) => core.info(redactor.scrub(m)),
    warn: (m) => core.warning(redactor.scrub(m)),
    debug: (m) => core.debug(redactor.scrub(m)),
  }
  const raw: RawInputs = {}
  for (const name of INPUT_NAMES) raw[name] = core.getInput(name)
  let config
  try {
    config = parseConfig(raw)
  } catch (e) {
    if (!(e instanceof InputError)) throw e
    const message = redactor.scrub(e.message)
    setOutputs(failedOutputs(message), redactor)
    await writeSummary(`## ❌ Staging: invalid input\n\n> ${message}\n\nNo request was sent.\n`)
    core.setFailed(message)
    return
  }
  const started = Date.now()
  const results = await runAll(config, { logger, redactor, signal })
  const outputs = outputsFor(results, Math.round((Date.now() - started) / 100) / 10)
  setOutputs(outputs, redactor)
  for (const w of new Set(results.flatMap((r) => r.warnings)))
    core.warning(redactor.scrub(w), { title: 'Staging' })
  await writeSummary(redactor.scrub(renderSummary(results)))
  await prComment(results, redactor, signal)
  finish(results, outputs, redactor)
}

/** `pr-comment: true`: one comment per site on the pull request. Its failures are warnings only. */
async function prComment(results: Result[], redactor: Redactor, signal: AbortSignal): Promise<void> {
  const wanted = core.getInput('pr-comment').trim().toLowerCase()
  if (wanted === '' || wanted === 'false') return
  if (wanted !== 'true') {
    core.warning(
      `Input "pr-comment" must be true or false, got "${wanted.slice(0, 20)}": no comment was posted.`,
    )
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
      info: (m) => core.info(redactor.scrub(m)),
      warn: (m) => core.warning(redactor.scrub(m), { title: 'Pull-request comment' }),
      notice: (m) => core.notice(redactor.scrub(m)),
    },
  }).catch((e: unknown) =>
    core.warning(redactor.scrub(`Pull-request comment: ${(e as Error)?.message ?? e}`)),
  )
}

function finish(results: Result[], outputs: Outputs, redactor: Redactor): void {
  const outcome = overallOutcome(results)
  const line = redactor.scrub(outputs.message)
  if (isFailure(outcome)) {
    for (const r of results.filter((x) => isFailure(x.result) && x.error))
      core.error(redactor.scrub(r.error!.hint), {
        title: `Staging ${r.operation} ${r.result} (site ${r.siteId})`,
      })
    core.setFailed(`Staging ${results[0]!.operation} ${outcome}: ${line}`)
  } else {
    core.info(`Staging ${results[0]!.operation} ${outcome}: ${line}`)
  }
}

function setOutputs(outputs: Outputs, redactor: Redactor): void {
  for (const [name, value] of Object.entries(outputs)) core.setOutput(name, redactor.scrub(value))
}

async function writeSummary(markdown: string): Promise<void> {
  if (!process.env.GITHUB_STEP_SUMMARY) return
  try {
    await core.summary.addRaw(markdown, true).write()
  } catch (e) {
    core.warning(`Could not write the job summary: ${(e as Error).message}`)
  }
}
