import type { JobOperation, Logger } from '../types.js'
import { rollbackCommand, setting, statusCommand } from '../words.js'

/** What the record's functions need of a run: its record, its log, its production site. */
interface RunContext {
  record: RunRecord
  logger: Logger
  siteId: string
}

/** The run's record (design.md, "One wing, one record, one table"), written by this module alone; every sentence
 * the Result says about production comes from `productionWords` (issue 31 §1). */
export interface RunRecord {
  /** The step the run is in, named by a timeout or a cancel ("switching maintenance mode on"). */
  step: string
  httpStatus: number | null
  message: string
  taskId: string | null
  urlReady: boolean | null
  warnings: string[]
  jobs: JobState[]
  /** The site version taken before a push, or restored by a rollback (issue 27). */
  checkpointId: string | null
  /** The version ids sent for deletion (each once a run). */
  deleteSent: string[]
  production: Production
}

/** The jobs a run may start: the staging ones, a checkpoint (a site version) and a restore. */
export type Job = JobOperation | 'checkpoint' | 'restore'

/** What is known of one job the run started, for the cancel and timeout reports (issue 17 §5). */
export interface JobState {
  op: Job
  /** sent: no answer yet; not-taken: answered "not processed" (429, 503, busy), to be sent again at the stop. */
  state: 'sent' | 'accepted' | 'completed' | 'failed' | 'not-taken'
  /** not-taken: the status that said so. */
  status?: number | null
}

/** Production as this run left it: only what a request sent and its answer (or its absence) prove. */
export interface Production {
  content:
    | { is: 'unchanged' }
    /** A push or restore was sent and its end is not known (no answer, not followed, cut). */
    | { is: 'unknown'; by: 'push' | 'restore'; version?: string }
    | { is: 'pushed' }
    | { is: 'push-failed' }
    | { is: 'restored'; version: string }
    | { is: 'restore-failed'; version: string }
  /** null: never switched by this run. */
  maintenance: 'off' | 'on' | 'unknown' | null
  /** null: not asked (protect-production: false) or no push ended. */
  protection: 'off' | 'on-again' | 'unknown' | 'after-push' | null
  check: { passed: boolean; url: string; last: string; cut?: boolean } | null // cut: ProductionCheck's
  /** The check again after rollback-on-failure restored the checkpoint. */
  recheck: { passed: boolean; last: string; cut?: boolean } | null
  /** The checkpoint taken before this run's push (its name null when naming it was refused). */
  checkpoint: { id: string; name: string | null } | null
}

export function newRecord(): RunRecord {
  return {
    step: 'sending the request',
    httpStatus: null,
    message: '',
    taskId: null,
    urlReady: null,
    warnings: [],
    jobs: [],
    checkpointId: null,
    deleteSent: [],
    production: {
      content: { is: 'unchanged' },
      maintenance: null,
      protection: null,
      check: null,
      recheck: null,
      checkpoint: null,
    },
  }
}

/** The step the run is in now. */
export function at(ctx: RunContext, step: string): void {
  ctx.record.step = step
}

/** What a step learnt of production. */
export function learnt(ctx: RunContext, part: Partial<Production>): void {
  Object.assign(ctx.record.production, part)
}

/** What a step learnt of its request: its status, the server's words, its task. */
export function answered(
  ctx: RunContext,
  part: Partial<Pick<RunRecord, 'httpStatus' | 'message' | 'taskId' | 'urlReady' | 'checkpointId'>>,
): void {
  for (const [k, v] of Object.entries(part)) if (v !== undefined) Object.assign(ctx.record, { [k]: v })
}

/** A warning for the log and the Result, once. */
export function warn(ctx: RunContext, text: string): void {
  ctx.logger.warn(text)
  note(ctx, text)
}

/** Warnings a person must read even on success, each once, in the Result (not logged one by one). */
export function note(ctx: RunContext, ...warnings: string[]): void {
  for (const w of warnings) if (!ctx.record.warnings.includes(w)) ctx.record.warnings.push(w)
}

/** Version ids sent for deletion: each is sent once a run, whatever came back (docs/assumptions.md 171). */
export const deletionSent = (ctx: RunContext, ids: string[]): number => ctx.record.deleteSent.push(...ids)

/** The latest state of a job of `op`, as the record holds it (undefined: none was sent). */
export const jobState = (ctx: RunContext, op: Job): JobState['state'] | undefined =>
  ctx.record.jobs.findLast((j) => j.op === op)?.state

/** Records what is known of a job: `sent` starts a new entry (unless one of `op` still waits for its answer),
 * a state moves the latest one on, null forgets a request refused or never sent (no job came of it). */
export function jobIs(
  ctx: RunContext,
  op: Job,
  state: JobState['state'] | null,
  status?: number | null,
): void {
  const jobs = ctx.record.jobs
  const index = jobs.findLastIndex((j) => j.op === op)
  const job = jobs[index]
  if (state === null) {
    if (job?.state === 'sent') jobs.splice(index, 1)
  } else if (state === 'sent') {
    // Sent again after a refusal that was not taken: the same request, sent once more.
    if (job?.state === 'not-taken') jobs[index] = { op, state }
    else if (job?.state !== 'sent') jobs.push({ op, state })
  } else if (job) Object.assign(job, { state, ...(status !== undefined ? { status } : {}) })
  else jobs.push({ op, state, ...(status !== undefined ? { status } : {}) })
  if (op === 'push') learnt(ctx, { content: pushContent(state, job?.state) })
}

function pushContent(state: JobState['state'] | null, before?: JobState['state']): Production['content'] {
  if (state === 'completed') return { is: 'pushed' }
  if (state === 'sent' || state === 'accepted') return { is: 'unknown', by: 'push' }
  // Not taken (429, 503, busy) or refused: nothing was pushed, unless an earlier try may have been.
  return before === 'accepted' ? { is: 'unknown', by: 'push' } : { is: 'unchanged' }
}

/** What the run says of production, from the record alone, on every ending: sentences for the summary, warnings
 * a person must act on, and the step for the hint. Empty when the run never touched production. */
export function productionWords(ctx: RunContext): { summary: string[]; warnings: string[]; hint: string } {
  const { content, maintenance, protection, check, recheck, checkpoint } = ctx.record.production
  const site = ctx.siteId
  const summary: string[] = []
  const warnings: string[] = []
  let hint = ''
  const back = checkpoint ? rollbackCommand(site, checkpoint.id) : ''
  if (content.is === 'unknown' && content.by === 'restore') {
    summary.push(
      `Whether production was restored to version ${content.version} is unknown (the restore was sent; its end was not seen): production may be partly restored.`,
    )
    hint = `The restore may still be running on the server: once the site's tasks in the dashboard show it ended, check the live site, and only if production is wrong try the restore again: ${rollbackCommand(site, content.version!)}.`
  }
  if (content.is === 'restore-failed') {
    summary.push(
      `The restore of version ${content.version} did not complete: production may be partly restored (its files and database may not match).`,
    )
    hint = `Check the live site now; to try the restore again, ${rollbackCommand(site, content.version)}.`
  }
  const restored = content.is === 'restored' ? [`Production was restored to version ${content.version}.`] : []
  const verdict = check?.passed ? 'passed' : 'FAILED'
  const checked = check ? [`Production ${verdict} its check at ${check.url}: ${check.last}.`] : []
  // In the order it happened: a restore after a failed check comes between the check and its recheck.
  summary.push(...(recheck ? [...checked, ...restored] : [...restored, ...checked]))
  const cut = recheck?.cut && !recheck.passed // by the deadline: no verdict that production fails (§16)
  const again = `${recheck?.passed ? 'passes' : cut ? 'did not pass' : 'still fails'} its check${cut ? ' before the timeout' : ''}`
  if (recheck) summary.push(`After the restore, production ${again}: ${recheck.last}.`)
  if (checkpoint) {
    const name = checkpoint.name ? ` ("${checkpoint.name}")` : ''
    const restoredIt = content.is === 'restored' && content.version === checkpoint.id
    const how = restoredIt || content.is === 'unchanged' ? '' : `; to restore it, ${back}`
    summary.push(`Checkpoint ${checkpoint.id}${name} was taken before the push${how}.`)
    if (!hint && content.is === 'unknown') hint = `If production is wrong, ${back}.`
    if (!hint && (content.is === 'push-failed' || (check && !check.passed && content.is === 'pushed')))
      hint = `To restore production as it was before the push, ${back}.`
  }
  if (!hint && check && !check.passed)
    hint = recheck?.passed
      ? `Production is back on version ${content.is === 'restored' ? content.version : '?'} and passes its check: fix what broke it on staging before pushing again.`
      : `Look at the live site now: the ${recheck ? 'restore' : content.is === 'restored' ? 'restore' : 'push'} itself completed, but the site ${cut ? 'was not seen to pass its check before the timeout' : 'fails its check'}.`
  const off = `Visitors may see the maintenance page: switch it off in the dashboard.`
  const tools = {
    on: `Production (site ${site}) is still in maintenance mode: switching it off failed. ${off}`,
    unknown: `Production (site ${site}) may still be in maintenance mode: whether it was switched off is not known. ${off}`,
  }
  const guard = {
    off: `Production (site ${site}) is now NOT password-protected: switching protection back on failed. Turn it on in the dashboard.`,
    unknown: `Production (site ${site}) may not be password-protected: whether switching protection back on went through is not known. Check it in the dashboard.`,
    'after-push': `Password protection was not switched on again: the push's end is not known, and a push switches protection off when it completes. Once it has (${statusCommand(site, ctx.record.taskId)}), turn protection on in the dashboard, or push again with ${setting('protect-production', 'true')}.`,
  }
  if (maintenance === 'on' || maintenance === 'unknown') warnings.push(tools[maintenance])
  if (protection && protection !== 'on-again') warnings.push(guard[protection])
  return { summary, warnings, hint }
}

/** Sentences joined, each ended once (a server's reason may end without a stop, or with one). */
export function sentences(...parts: string[]): string {
  return parts
    .map((p) => p.trim().replace(/\.+$/, '.'))
    .filter(Boolean)
    .map((p) => (/[.!?…:]$/.test(p) ? p : `${p}.`))
    .join(' ')
}
