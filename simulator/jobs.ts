/**
 * Background jobs as tasks, on a clock: on a staging site (create, pull, push, delete) or on a
 * production site itself (version: make a site version; restore: put one back, contract §13). A
 * job ends exactly when its duration has elapsed on that clock: whoever reads the state first
 * settles the jobs that are due (`settle()`), so a read never sees a finished job as running, and
 * no timer is needed for correctness (the HTTP server adds one only so that the state moves without
 * any request). A job planned to fail (fault `taskError`) ends in 'error' halfway through its
 * duration and changes nothing.
 */
import type { Clock } from './clock.js'
import { newTaskId } from './ids.js'
import { percentage } from './progress.js'
import { SIM_ACCOUNT_EMAIL } from './seed.js'
import { RESTORE_HALF_ERROR } from './options.js'
import { brokenPage } from './site-host.js'
import type {
  EffectiveOptions,
  JobKind,
  SimState,
  SiteJobKind,
  StagingJobKind,
  StagingSite,
  StagingStatus,
  Task,
} from './types.js'

/** What the staging site's status is while a job of each kind runs. */
export const BUSY_STATUS_OF: Readonly<Record<StagingJobKind, StagingStatus>> = {
  create: 'creating',
  pull: 'syncing',
  push: 'pushing',
  delete: 'deleting',
}

/** A task's `timeout_at`: four times the job's duration, at least 30 minutes. */
const MIN_TIMEOUT_MS = 30 * 60 * 1000

export class Jobs {
  constructor(
    private readonly state: SimState,
    private readonly options: EffectiveOptions,
    private readonly clock: Clock,
  ) {}

  /** Starts a job on `staging` (already in the state). `failWith`: the task will end in error. */
  start(kind: StagingJobKind, staging: StagingSite, failWith: string | null, now = this.clock.now()): Task {
    const task = this.newTask(kind, staging.site_id, failWith, now)
    task.staging_site_id = staging.id
    staging.status = BUSY_STATUS_OF[kind]
    staging.task_id = task.id
    staging.updated_at = now
    if (kind === 'create') staging.ready_at = null
    if (task.ends_at <= now) this.finish(task)
    return task
  }

  /**
   * Starts a job on production site `siteId` that makes or restores version `versionId`.
   * `durationMs` replaces the kind's duration (a slow version).
   */
  startOnSite(
    kind: SiteJobKind,
    siteId: number,
    versionId: number,
    failWith: string | null,
    now = this.clock.now(),
    durationMs?: number,
  ): Task {
    const task = this.newTask(kind, siteId, failWith, now, durationMs)
    task.version_id = versionId
    if (task.ends_at <= now) this.finish(task)
    return task
  }

  private newTask(
    kind: JobKind,
    siteId: number,
    failWith: string | null,
    now: number,
    durationMs?: number,
  ): Task {
    const duration = durationMs ?? this.lengthOf(kind, this.state.nextTaskRowId)
    const runFor = failWith === null ? duration : Math.round(duration / 2)
    const task: Task = {
      id: this.uniqueId(),
      row_id: this.state.nextTaskRowId++,
      kind,
      site_id: siteId,
      staging_site_id: '',
      status: 'progress',
      started_at: now,
      duration_ms: duration,
      ends_at: now + runFor,
      visible_at: now + this.options.taskVisibilityDelayMs,
      timeout_at: now + Math.max(4 * duration, MIN_TIMEOUT_MS),
      updated_at: now,
      fail_with: failWith,
      comment: null,
      failed_at_percentage: null,
    }
    this.state.tasks.set(task.id, task)
    return task
  }

  /** Ends every running job whose time has come, in the order they end. */
  settle(now = this.clock.now()): void {
    const due = [...this.state.tasks.values()]
      .filter((task) => task.status === 'progress' && task.ends_at <= now)
      .sort((a, b) => a.ends_at - b.ends_at)
    for (const task of due) this.finish(task)
  }

  /** When the next running job ends (ms epoch), or null when none runs. */
  nextDueAt(): number | null {
    let next: number | null = null
    for (const task of this.state.tasks.values()) {
      if (task.status === 'progress' && (next === null || task.ends_at < next)) next = task.ends_at
    }
    return next
  }

  /** `percentage_complete` of a task now, or null when progress is 'none'. */
  percentageOf(task: Task, now = this.clock.now()): number | null {
    if (this.options.progress === 'none') return null
    if (task.status === 'completed') return 100
    if (task.status === 'error') return task.failed_at_percentage ?? 0
    const fraction = task.duration_ms <= 0 ? 1 : (now - task.started_at) / task.duration_ms
    return percentage(this.options.progress, fraction)
  }

  /**
   * The length of the job of `kind` with row `row`: its duration, spread by `durationSpread` (each
   * fraction of the spread taken in turn, by the golden ratio, so any run of jobs covers it evenly;
   * with `durationSeed`, at random from that seed).
   */
  private lengthOf(kind: JobKind, row: number): number {
    const nominal = this.options.durationsMs[kind]
    const spread = this.options.durationSpread
    if (spread === 0) return nominal
    const seed = this.options.durationSeed
    const phase = seed === null ? (row * 0.6180339887 + 0.31) % 1 : seededFraction(seed, row)
    return Math.round(nominal * (1 - spread + 2 * spread * phase))
  }

  private uniqueId(): string {
    let id = newTaskId()
    while (this.state.tasks.has(id)) id = newTaskId()
    return id
  }

  private finish(task: Task): void {
    if (task.status !== 'progress') return
    const at = task.ends_at
    const key = String(task.site_id)
    const staging = this.state.staging.get(key)
    const ownsStaging = staging !== undefined && staging.task_id === task.id
    task.updated_at = at
    if (task.fail_with !== null) {
      task.failed_at_percentage = this.options.progress === 'none' ? null : this.percentageOf(task, at)
      task.status = 'error'
      task.comment = `Error: ${task.fail_with}`
      if (task.kind === 'version' || task.kind === 'restore') return this.finishOnSite(task, at, false)
      if (ownsStaging && task.kind === 'create') this.state.staging.delete(key)
      else if (ownsStaging) release(staging, at)
      return
    }
    task.status = 'completed'
    if (task.kind === 'version' || task.kind === 'restore') return this.finishOnSite(task, at, true)
    if (!ownsStaging) return
    const site = this.state.sites.get(key)
    switch (task.kind) {
      case 'create':
        if (site) staging.content = { ...site.content }
        staging.ready_at = at
        release(staging, at)
        this.state.outbox.push({
          to: SIM_ACCOUNT_EMAIL,
          subject: `Your staging site ${staging.site_name} is ready`,
          site_id: task.site_id,
          staging_site_id: staging.id,
          at,
        })
        break
      case 'pull':
        if (site) staging.content = { ...site.content }
        release(staging, at)
        break
      case 'push':
        if (site) {
          site.content = { ...staging.content }
          if (site.password_protected) {
            const change = { site_id: site.id, at, source: 'push' as const }
            this.state.toolChanges.push({ ...change, tool: 'password_protection', value: 'off' })
          }
          site.password_protected = false
          site.broken_page = brokenPage(this.options, at)
          site.updated_at = at
          this.state.purges.push({ site_id: site.id, at })
        }
        release(staging, at)
        break
      case 'delete':
        this.state.staging.delete(key)
        break
    }
  }

  /**
   * A version or restore job ended at `at`: a version becomes completed (or failed); a completed
   * restore puts the version's content back on production (its files and database), purges its cache.
   */
  private finishOnSite(task: Task, at: number, succeeded: boolean): void {
    const version = this.state.siteVersions.get(task.version_id ?? -1)
    const site = this.state.sites.get(String(task.site_id))
    if (task.kind === 'version') {
      if (!version) return
      version.status = succeeded ? 'completed' : 'failed'
      version.updated_at = at
      return
    }
    if (!version || !site) return
    // A restore that fails half-way (`versions: 'restore-half'`) has put the files back, not the database.
    if (!succeeded && task.fail_with === RESTORE_HALF_ERROR)
      site.content = { ...site.content, files: version.content.files }
    if (!succeeded) return
    site.content = { ...version.content }
    site.broken_page = null
    site.updated_at = at
    this.state.purges.push({ site_id: site.id, at })
  }
}

function release(staging: StagingSite, at: number): void {
  staging.status = 'ready'
  staging.task_id = null
  staging.updated_at = at
}

/** A fraction in [0, 1) drawn from (seed, n): the same for the same pair, unrelated for neighbours. */
function seededFraction(seed: number, n: number): number {
  let h = (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) + Math.imul(n + 1, 0xc2b2ae35)) >>> 0
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b) >>> 0
  return ((h ^ (h >>> 16)) >>> 0) / 2 ** 32
}
