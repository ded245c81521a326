import * as core from '@actions/core'
import { realClock } from './clock.js'
import type { StepLog } from './github/run.js'
import { runStep, type StepDeps } from './github/step.js'
import { GITHUB_INPUT_NAMES, INPUT_NAMES, type ActionRawInputs } from './inputs/index.js'
import type { Redactor } from './secrets/redactor.js'

/** The one writer of the action: every log line, annotation and output goes through it, made inert (one line,
 * no control characters, no workflow command) and without secrets. Nothing else in the action calls
 * `core.info` and its kin with text. */
function actionLog(redactor: Redactor): StepLog {
  const line = (m: string) => redactor.inert(m)
  let lost: string | null = null
  const warned = new Set<string>()
  const log: StepLog = {
    info: (m) => core.info(line(m)),
    warn: (m) => {
      warned.add(line(m))
      core.warning(line(m))
    },
    warnTitled: (m, title) => core.warning(line(m), { title: redactor.inert(title, 200) }),
    // The runner shows `::debug::` lines only with debug logging on, and sets RUNNER_DEBUG then (its
    // runner.debug): without it a line would cost its scrubbing and a write (one per request) for nothing.
    debug: (m) => void (core.isDebug() && core.debug(line(m))),
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
    // The job summary; a summary the runner's file refuses is a warning (the log has the same result).
    summary: async (markdown) => {
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
    },
  }
  return log
}

/** `ENOSPC: no space left on device, write` and the like, bounded. */
function writeError(e: unknown): string {
  return String((e as Error)?.message ?? e).slice(0, 300)
}

/** The GitHub Action: the action's inputs and its one writer, then one step (src/github/step.ts). `seams`:
 * tests run this same step in virtual time (a clock, the core's transport, GitHub's fetch). */
export async function runAction(
  redactor: Redactor,
  signal: AbortSignal,
  seams: Pick<StepDeps, 'clock' | 'core' | 'fetch'> = { clock: realClock },
): Promise<void> {
  redactor.add(core.getInput('github-token'))
  const raw: ActionRawInputs = {}
  for (const name of [...INPUT_NAMES, ...GITHUB_INPUT_NAMES]) raw[name] = core.getInput(name)
  await runStep(raw, { ...seams, log: actionLog(redactor), redactor, signal, env: process.env })
}
