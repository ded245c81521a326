import { ApiError, filledHint } from '../api/errors.js'
import { DeadlineError, type StagingApiClient } from '../api/client.js'
import { CancelledError } from '../clock.js'
import { durationText, roundedSeconds } from '../duration.js'
import { newResult, type Operation, type Outcome, type Result } from '../types.js'
import type { RunContext } from './context.js'
import { checkLaterHint, pushWarnings } from './endpoints.js'
import { productionWords, sentences, warn, type Job, type JobState } from './record.js'
import { fillStagingFields, STAGING_READ, TASK } from './staging-fields.js'
import { claimFor, type WaitOutcome } from './wait/follow.js'
import { inDoorWords, jobOf, setting } from '../words.js'

/** How a run ended, as a value: every path of an operation returns one, a thrown timeout, cancel or error becomes
 * one in `endingOf`, and `writeResult` alone turns it into the Result. */
export interface Ending {
  outcome: Outcome
  summary: string
  error?: { kind: string; hint: string }
  /** The server's words, when this ending knows them better than the run's record. */
  message?: string
}

/** An ending that is an error of the API (ours or the server's), with its hint. */
export function failure(e: ApiError): Ending {
  return {
    outcome: 'failed',
    summary: e.message,
    error: { kind: e.kind, hint: e.hint },
    ...(e.serverMessage ? { message: e.serverMessage } : {}),
  }
}

/** A background job that ended failed on the server (`what`: "The pull", ...), with its reason. */
export function taskFailed(what: string, reason: string): ApiError {
  return new ApiError({
    kind: 'task-failed',
    processing: 'processed',
    serverMessage: reason,
    message: `${what} failed on the server: ${reason}`,
  })
}

/** What a thrown timeout, cancellation or error means for the run. */
export function endingOf(ctx: RunContext, e: unknown): Ending {
  const { client, record } = ctx
  if (e instanceof DeadlineError) {
    const last = e.lastError ? ` The last answer was: ${e.lastError.message}` : ''
    // A job the server took or may have (`sent`: a try with no answer or a 5xx, sendJob), whose end was not seen.
    const mayRun = record.jobs.some((j) => j.state === 'accepted' || j.state === 'sent')
    const counted = e.callsBackAt && new Date(e.callsBackAt).toISOString().replace(/\.\d{3}Z$/, 'Z')
    const until = e.lastError?.acceptsAgainAt ?? counted
    const timeout = durationText(ctx.config.timeoutMs)
    return {
      outcome: 'timed-out',
      summary:
        (until
          ? `Stopped while ${record.step}: ${until === counted ? "the account's rate limit, as this run reads it (its own calls, the 429s it heard), lets the next request go" : 'the server accepts requests again'} only at ${until}, after this run's timeout (${timeout}).`
          : `The timeout (${timeout}) was reached while ${record.step}.`) +
        (mayRun ? ' The job may still be running on the server.' : '') +
        last,
      error: {
        kind: 'timeout',
        hint: mayRun
          ? `${until ? `Requests go again after ${until}. ` : `Raise ${setting('timeout')}, or run with ${setting('wait', 'false')}. `}${checkLaterHint(ctx.siteId, record.taskId)}`
          : `Raise ${setting('timeout')}, or try again later.`,
      },
      ...(e.lastError?.serverMessage ? { message: e.lastError.serverMessage } : {}),
    }
  }
  if (e instanceof CancelledError) return { outcome: 'cancelled', summary: cancelReport(ctx, client) }
  // A job the server took, then a read while following it failed (a 401): the job may still run; the read's words
  // are not the operation's answer (`message`).
  const taken = record.jobs.find((j) => j.state === 'accepted')
  if (e instanceof ApiError && taken) {
    const summary = `${e.message} The ${taken.op} job the server accepted may still be running there.`
    const hint = `${e.hint ? `${e.hint} ` : ''}${checkLaterHint(ctx.siteId, record.taskId)}`
    return { outcome: 'failed', summary, error: { kind: e.kind, hint } }
  }
  if (e instanceof ApiError) return failure(e)
  return {
    outcome: 'failed',
    summary: `Unexpected error: ${(e as Error)?.message ?? String(e)}`,
    error: { kind: 'internal', hint: 'This is a bug in site-staging-action: please report it.' },
  }
}

/** What was sent, and what is known of each job it started: completed, still running, or unknown. */
function cancelReport(ctx: RunContext, client: StagingApiClient): string {
  const step = ctx.record.step
  if (client.sent.length === 0) return `Cancelled while ${step}; nothing had been sent.`
  // Only what the record says of each job: a request with no answer is unknown, never "running".
  return sentences(`Cancelled while ${step}. Sent: ${SENT}`, ...ctx.record.jobs.map(jobReport))
}
/** Filled when the Result is written (what went after the cancel too); a control character: no server text has one. */
const SENT = '\u0001sent\u0001'

const HAPPENED: Record<Job, string> = {
  create: 'staging was created',
  pull: 'staging was refreshed from production',
  push: 'staging was pushed to production',
  delete: 'staging was deleted',
  checkpoint: 'the checkpoint was made',
  restore: 'production was restored',
}

const NOT_DONE: Record<Job, string> = {
  create: 'no staging was created',
  pull: 'staging was not refreshed',
  push: 'nothing was pushed to production',
  delete: 'staging was not deleted',
  checkpoint: 'no checkpoint was started',
  restore: 'production was not restored',
}

function jobReport(job: JobState): string {
  // 429 and 503 mean "not processed" (contract §6): the request was not taken, whatever came after.
  if (job.state === 'not-taken')
    return `The ${job.op} request was not taken: the server answered ${job.status ?? 'that it was busy'} (not processed) and it was waiting to be sent again, so ${NOT_DONE[job.op]}.`
  if (job.state === 'completed') return `The ${job.op} job had completed: ${HAPPENED[job.op]}.`
  if (job.state === 'failed') return `The ${job.op} job had ended: it failed on the server.`
  // Its last answer may have been a word not known here ("finished" at 100%): never said to be running.
  if (job.state === 'accepted') return `The ${job.op} job the server accepted may still be running there.`
  return `Whether the server took the ${job.op} request is unknown: no answer had come.`
}

/** The one writer of a run's Result: what the run knew, how it ended, what it cost. */
export function writeResult(ctx: RunContext, ending: Ending): Result {
  const { client, clock, config, siteId, started, startedWall, redactor, door, record } = ctx
  const facts = ctx.facts.view()
  const said = productionWords(ctx)
  const error =
    ending.error && said.hint && !ending.error.hint.includes(said.hint)
      ? { ...ending.error, hint: sentences(ending.error.hint, said.hint) }
      : ending.error
  // Our words in the door's (src/words.ts), before the text is made inert; the hint's placeholders filled.
  const words = (text: string) => inDoorWords(text, door)
  const hint = (text: string) => filledHint(words(text), siteId, config.apiUrl)
  return {
    ...newResult(config.operation, siteId, startedWall),
    result: ending.outcome,
    httpStatus: record.httpStatus,
    message: ending.message ?? record.message,
    summary: redactor.inert(
      // Without an error (a cancel) the step that tries again goes in the summary: never lost.
      words(
        (said.summary.length
          ? sentences(ending.summary, ...said.summary, ...(ending.error ? [] : [said.hint]))
          : ending.summary
        ).replaceAll(SENT, client.sent.join('; ')),
      ),
    ),
    taskId: record.taskId,
    stagingSiteId: facts.stagingSiteId,
    stagingUrl: facts.stagingUrl,
    // The state is the point of `status` only: a job's run does not report one (a delete's "none" included).
    stagingState: config.operation === 'status' ? facts.stagingState : null,
    urlReady: record.urlReady,
    durationSeconds: roundedSeconds(clock.now() - started),
    requests: client.requests,
    retries: client.retries + ctx.busy.retries,
    warnings: [...pushWarnings(record, ending.error?.kind === 'task-failed'), ...said.warnings].map(words),
    sent: client.sent,
    error: error ? { ...error, hint: hint(error.hint) } : null,
    checkpointId: record.checkpointId,
    productionCheck: record.production.check ? (record.production.check.passed ? 'passed' : 'failed') : null,
    stagingFrom: {
      siteId: facts.stagingFrom.siteId ? words(facts.stagingFrom.siteId) : null,
      url: facts.stagingFrom.url ? words(facts.stagingFrom.url) : null,
      notes: facts.stagingFrom.notes.map((n) => redactor.inert(words(n))),
    },
  }
}

/** A followed job's end: succeeded on evidence only, accepted when nothing can tell, failed with the server's
 * reason. A create's completion names the staging site (from a task only its `resource_id`: contract §5). */
export function settle(ctx: RunContext, op: Operation, outcome: WaitOutcome): Ending {
  const what = jobOf(op)
  if (outcome.kind === 'failed') return failure(taskFailed(`The ${what}`, outcome.reason))
  if (outcome.kind === 'untrackable' || outcome.kind === 'unconfirmed') {
    const how = outcome.kind === 'untrackable' ? 'cannot be tracked' : 'could not be confirmed'
    const warning = `The ${what} was accepted, but its completion ${how}: ${outcome.reason}.`
    warn(ctx, warning)
    return { outcome: 'accepted', summary: `${warning} ${checkLaterHint(ctx.siteId, ctx.record.taskId)}` }
  }
  // A staging read that said it ended, but whose record is a production site's (contract §5 r3): no evidence.
  // (This job's own task that ended is, whatever its resource field says: then only its fields go unused.)
  const from = outcome.from === 'task' ? TASK : STAGING_READ
  if (op === 'create' && !fillStagingFields(ctx, outcome.data, from) && from === STAGING_READ)
    return settle(ctx, op, {
      kind: 'unconfirmed',
      reason: "the staging read answered with a production site's record",
    })
  // One staging named for two sites of the run (spec §2: a staging belongs to one production site) is neither's.
  const other = op === 'create' && ctx.facts.id && claimFor(ctx.polls, `staging ${ctx.facts.id}`, ctx.siteId)
  if (other) {
    ctx.facts.disown(`is also named as the staging of ${other}`)
    return settle(ctx, op, { kind: 'unconfirmed', reason: `the staging it names is also named for ${other}` })
  }
  return { outcome: 'succeeded', summary: '' }
}
