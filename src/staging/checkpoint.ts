import { ApiError } from '../api/errors.js'
import { DeadlineError } from '../api/client.js'
import { CancelledError } from '../clock.js'
import {
  CHECKPOINT_PREFIX,
  VERSION_NAME_MAX,
  VERSIONS_NOT_OFFERED,
  VERSIONS_PATH,
  taskIdOf,
  versionBody,
  versionIdOf,
  versionListPath,
  versionPath,
  versionSiteOf,
  taskState,
  isProductionId,
  TASK_INVISIBLE_GRACE_MS,
  saysPlan,
  saysQuota,
  field,
  versionTime,
} from '../contract.js'
import type { Config } from '../inputs/index.js'
import type { RunContext } from './context.js'
import { answered, at, jobIs, learnt, sentences, warn, type Production } from './record.js'
import { sendJob } from './jobs.js'
import { makeRoom } from './versions.js'
import { endingOf, failure, type Ending } from './ending.js'
import { claimFor, follow, waitForTask, type WaitDeps, type WaitOutcome } from './wait/follow.js'
import { readSiteList } from './site-list.js'
import { setting } from '../words.js'

/** The calls a push or a rollback makes besides the job's own, for the batch's call plan (contract §6 r3): the
 * version, its name, its task's last status and the list before pruning; each toggle; a rollback's list. */
export function extraCalls(config: Config): number {
  if (config.dryRun) return 0
  if (config.operation === 'rollback') return 1
  if (config.operation !== 'push') return 0
  const { checkpoint, maintenance, protectProduction } = config
  return (checkpoint === 'version' ? 4 : 0) + (maintenance ? 2 : 0) + (protectProduction ? 1 : 0)
}

/** The checkpoint taken before the push, as the record holds it. */
export type Checkpoint = NonNullable<Production['checkpoint']>

/** `ssa~cp~123456789-1`: this tool's name for a checkpoint, at most 25 characters (contract §13). */
export function checkpointName(env: NodeJS.ProcessEnv, wallNow: number): string {
  const github = env.GITHUB_RUN_ID ? `${env.GITHUB_RUN_ID}-${env.GITHUB_RUN_ATTEMPT ?? '1'}` : null
  const runId = github ?? env.CI_PIPELINE_ID ?? env.BITBUCKET_BUILD_NUMBER ?? wallNow.toString(36)
  return `${CHECKPOINT_PREFIX}${runId.replace(/[^A-Za-z0-9_-]/g, '')}`.slice(0, VERSION_NAME_MAX)
}

const NO_PUSH = 'The push was not sent: no checkpoint, no push.'
const WITHOUT = `or run with ${setting('checkpoint', 'none')} to push without a way back`

/** Issue 27 §1-2: a site version of production, named as this tool's, followed to completed as any job. Returns
 * the checkpoint, or the run's ending when there is none (then the push must not be sent). */
export async function takeCheckpoint(ctx: RunContext): Promise<Checkpoint | Ending> {
  try {
    return await make(ctx)
  } catch (e) {
    if (e instanceof ApiError) {
      const blamed = await withRootEvidence(ctx, e)
      return refused(ctx, blamed, blamed !== e)
    }
    if (!(e instanceof DeadlineError) && !(e instanceof CancelledError)) throw e
    const ending = endingOf(ctx, e)
    const hint = `A version takes longer the larger the site: raise ${setting('timeout')}, ${WITHOUT}.`
    return {
      ...ending,
      summary: sentences(ending.summary, NO_PUSH),
      ...(e instanceof DeadlineError ? { error: { kind: 'timeout', hint } } : {}),
    }
  }
}

async function make(ctx: RunContext): Promise<Checkpoint | Ending> {
  const { client, siteId, logger } = ctx
  logger.info(`Site ${siteId}: making a checkpoint of production before the push (a site version).`)
  const quota = (e: ApiError) => saysQuota(`${e.serverMessage} ${e.message}`)
  const request = () => client.call('POST', VERSIONS_PATH, 'version', { body: versionBody(siteId) })
  let made
  for (let roomMade = false; ; roomMade = true) {
    at(ctx, 'making the checkpoint (a site version of production)')
    try {
      // Busy ("already in progress", contract §13 r5): waited out under if-busy, never made room for.
      made = await sendJob(ctx, 'checkpoint', request, (e) => !quota(e))
      break
    } catch (e) {
      // A quota (422) only: the checkpoints keep-checkpoints deletes after the push go now, then one more ask.
      if (!(e instanceof ApiError) || e.httpStatus !== 422 || !quota(e) || roomMade) throw e
      if (!(await makeRoom(ctx, ctx.config.keepCheckpoints))) throw e
    }
  }
  const id = versionIdOf(made.reply.data)
  const task = taskIdOf(made.reply.data)
  const taskId = task && 'id' in task ? task.id : null
  // No way back for this site (never named, followed, restored nor pushed after): a version of another site (its
  // record says so, or another site of the run holds it: contract §13 r5), or one the answer shows made before
  // (a date over a day before the run: a server's clock may be hours off, §11; a name may be the service's default).
  const said = versionSiteOf(made.reply.data)
  const other =
    id &&
    (said !== null && !isProductionId(said, siteId)
      ? `site ${said}`
      : claimFor(ctx.polls, `version ${id}`, siteId))
  const when = field(made.reply.data, 'created_at')
  const old =
    typeof when === 'string' && versionTime(when) < ctx.startedWall - 86_400_000
      ? `made ${ctx.redactor.server(when, 40)}`
      : null
  if (!id || other || old)
    return {
      outcome: 'failed',
      summary: `The checkpoint was started, but ${!id ? 'the answer did not say its id' : other ? `the answer names version ${id} of ${other}, not of site ${siteId}` : `the answer names an existing version ${id} (${old}), not a new one`}, so it cannot be followed nor restored. ${NO_PUSH}`,
      error: { kind: 'bad-response', hint: `Look at the site's versions in the dashboard, ${WITHOUT}.` },
    }
  const name = await nameIt(ctx, id)
  answered(ctx, { taskId })
  // No task id (contract §13 names one; a service may leave it out): the version's own status in
  // the site's version list, with the same waiting (docs/assumptions.md 120).
  at(ctx, `waiting for the checkpoint (version ${id}${taskId ? `, task ${taskId}` : ''}) to complete`)
  // While it runs, the calls that go the moment it completes (the push, the toggles) are in the
  // run's plan; the push's final and the list come a push later (issue 33: 10 pushes at once).
  const after = Math.max(0, extraCalls(ctx.config) - 3)
  ctx.polls.after += after
  const outcome = await (
    taskId ? waitForTask(ctx, 'checkpoint', siteId, taskId, ctx.clock.now()) : waitForVersion(ctx, siteId, id)
  ).finally(() => (ctx.polls.after -= after))
  if (outcome.kind === 'completed') {
    // Only a completed version is a checkpoint: the output never names one that cannot be restored.
    jobIs(ctx, 'checkpoint', 'completed')
    answered(ctx, { checkpointId: id, taskId: null })
    learnt(ctx, { checkpoint: { id, name } })
    logger.info(`Checkpoint ${id}${name ? ` ("${name}")` : ''} is complete: sending the push.`)
    return { id, name }
  }
  if (outcome.kind === 'failed') jobIs(ctx, 'checkpoint', 'failed')
  const why =
    outcome.kind === 'failed'
      ? `${taskId ? 'its task' : 'it'} failed on the server: ${outcome.reason}`
      : `its completion cannot be confirmed: ${outcome.reason}`
  return {
    outcome: 'failed',
    summary: sentences(`The checkpoint (version ${id}) did not complete: ${why}`, NO_PUSH),
    error: {
      kind: outcome.kind === 'failed' ? 'task-failed' : 'checkpoint',
      hint: `Run again; if it keeps failing, delete old versions of site ${siteId} in the dashboard, ${WITHOUT}.`,
    },
    ...(outcome.kind === 'failed' ? { message: outcome.reason } : {}),
  }
}

/** Names the version as this tool's; a refusal leaves it usable by its id (a warning says so). */
async function nameIt(ctx: RunContext, id: string): Promise<string | null> {
  const name = checkpointName(process.env, ctx.clock.wallNow())
  try {
    await ctx.client.call('PUT', versionPath(id), 'setting', { body: { name } })
    return name
  } catch (e) {
    if (!(e instanceof ApiError)) throw e
    warn(
      ctx,
      `The checkpoint (version ${id}) could not be named "${name}" (${e.message}): it is restored by its id only, and it is never deleted by ${setting('keep-checkpoints')}.`,
    )
    return null
  }
}

/** A 404 on a versions route says "no versions here" only once the API root answered as the API (contract §4 r3):
 * the error ApiRoot.blame makes of it (the same one when the root is right). */
export async function withRootEvidence(ctx: RunContext, e: ApiError): Promise<ApiError> {
  return e.httpStatus === 404 ? ctx.root.blame(ctx.client, e) : e
}

/** A version that could not be started: the service's words, and what to do (`rootSaid`: the root check's). */
function refused(ctx: RunContext, e: ApiError, rootSaid: boolean): Ending {
  if (e.kind === 'auth') throw e
  const status = e.httpStatus
  const site = ctx.siteId
  let hint: string
  if (rootSaid) hint = e.hint
  else if (status !== null && VERSIONS_NOT_OFFERED.includes(status))
    hint = `The service answered as if it offers no site versions (HTTP ${status}): check ${setting('api-url')}, ${WITHOUT}.`
  else if (e.kind === 'forbidden' && !saysPlan(`${e.serverMessage} ${e.message}`))
    hint = `${e.hint} Here it was the checkpoint (a site version) that was refused: the token may not be allowed to make versions (a read-only token). Use a token that may change the site; a token refused here is refused on the push too.`
  else if (status === 403)
    hint = `${e.hint} Here it was the checkpoint (a site version) that was refused: the plan may not include versions. Upgrade the plan, ${WITHOUT}.`
  else if (e.kind === 'busy' && !saysQuota(`${e.serverMessage} ${e.message}`))
    hint = `Another version of site ${site} is being made: run again once it has completed (${setting('if-busy', 'wait')} waits for it).`
  else if (status === 422)
    hint = `The service refused a new version (often its quota of versions per site): delete old versions of site ${site} in the dashboard (${setting('keep-checkpoints')} keeps fewer), ${WITHOUT}.`
  else if (e.processing === 'unknown')
    hint = `Whether a version was started is unknown; it was not asked for again. Look at site ${site}'s versions in the dashboard, and run again.`
  else hint = `${e.hint} Or run with ${setting('checkpoint', 'none')} to push without a way back.`
  const summary = sentences(`The checkpoint could not be made: ${e.message}`, NO_PUSH)
  return { ...failure(e), summary, error: { kind: e.kind, hint } }
}

/** Follows a site version started with no task id through its site's version list (contract §13). */
function waitForVersion(deps: WaitDeps, siteId: string, versionId: string): Promise<WaitOutcome> {
  const { client, redactor, logger, clock } = deps
  logger.info(`Waiting for version ${versionId} to complete (read from the site's version list)…`)
  return follow(deps, 'checkpoint', siteId, `site ${siteId}'s versions`, clock.now(), async (elapsed) => {
    const list = { path: (p: number, n: number) => versionListPath(siteId, p, n), maxRetries: 2 } // read whole
    const read = await readSiteList(client, { list })
    // Another site's record of that id is not this version (contract §13 r5).
    const ours = (r: Record<string, unknown>) => isProductionId(versionSiteOf(r) ?? siteId, siteId)
    const record =
      'records' in read ? read.records.find((r) => versionIdOf(r) === versionId && ours(r)) : undefined
    if (!record)
      return elapsed < TASK_INVISIBLE_GRACE_MS || !('records' in read) || read.stoppedBy
        ? 'waiting'
        : { kind: 'untrackable', reason: `version ${versionId} is not in site ${siteId}'s version list` }
    const state = taskState(record.status)
    if (state === 'completed') return { kind: 'completed', data: record, from: 'probe' }
    if (state === 'failed')
      return {
        kind: 'failed',
        reason: `version ${versionId} has the status "${redactor.server(String(record.status), 60)}"`,
      }
    return state === 'running' ? { percent: undefined } : 'waiting'
  })
}
