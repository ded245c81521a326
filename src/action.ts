import * as core from '@actions/core'
import { githubSideEffects } from './github/index.js'
import { INPUT_NAMES, InputError, parseConfig, type RawInputs } from './inputs.js'
import { renderSummary } from './report/summary.js'
import { failedOutputs, outputsFor, type Outputs } from './report/outputs.js'
import { Redactor } from './secrets.js'
import { isFailure, overallOutcome, runAll } from './staging/batch.js'
import type { Config, Logger, Result } from './types.js'

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
  const gh = await githubSide(config, redactor, signal)
  await gh.before()
  const started = Date.now()
  const results = await runAll(config, { logger, redactor, signal })
  const outputs = outputsFor(results, Math.round((Date.now() - started) / 100) / 10)
  setOutputs(outputs, redactor)
  for (const w of new Set(results.flatMap((r) => r.warnings)))
    core.warning(redactor.scrub(w), { title: 'Staging' })
  await writeSummary(redactor.scrub(renderSummary(results)))
  await gh.after(results)
  finish(results, outputs, redactor)
}

/** The GitHub side of the run (PR comment, deployments): src/github/, wired to @actions/core. */
function githubSide(config: Config, redactor: Redactor, signal: AbortSignal) {
  return githubSideEffects({
    operation: config.operation,
    dryRun: config.dryRun,
    siteCount: config.siteIds.length,
    input: (name) => core.getInput(name),
    redactor,
    signal,
    log: {
      info: (m) => core.info(redactor.scrub(m)),
      warn: (m, title) => core.warning(redactor.scrub(m), { title }),
      notice: (m) => core.notice(redactor.scrub(m)),
    },
    setOutput: (name, value) => core.setOutput(name, redactor.scrub(value)),
  })
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
