import { CancelledError } from '../clock.js'
import { DeadlineError, type StagingApiClient } from '../api/client.js'
import { durationText } from '../duration.js'
import type { Redactor } from '../secrets/redactor.js'
import type { Clock, Followed as Operation, Logger } from '../types.js'
import { jobOf } from '../words.js'
import type { PollPlanner } from './poll-planner.js'
import type { PollGate } from './poll-gate.js'

// What every follower of a background job shares (wait.ts follows a task, wait-reads.ts a read):
// its deps and outcome, the batch's poll gate, the one sleep before each poll, the progress lines.

export interface WaitDeps {
  client: StagingApiClient
  /** The batch's poll scheduler: when a status call may go (shared by every job of a run). */
  polls: PollGate
  clock: Clock
  logger: Logger
  redactor: Redactor
  signal?: AbortSignal
  /** Minimum time between two plain progress lines in the log (when the logger shows no live line). */
  progressEveryMs?: number
}

/** How following a job ended; timeouts and cancellation are thrown (DeadlineError, CancelledError). */
export type WaitOutcome =
  /** The server said so (task completed, probe ready after the job was seen busy, gone after a delete). */
  | { kind: 'completed'; data: unknown; from: 'task' | 'probe' }
  | { kind: 'failed'; reason: string }
  /** Nothing can tell how the job went (no probe, no task). */
  | { kind: 'untrackable'; reason: string }
  /** The probe says "ready", but this run never saw the job running: no evidence it ran (contract §3). */
  | { kind: 'unconfirmed'; reason: string }

/** Transient trouble while polling: keep waiting rather than fail a job that may be fine. */
export const TRANSIENT = new Set(['server', 'network', 'timeout', 'bad-response', 'rate-limited'])

/**
 * Counts this follower in the batch's poll scheduler for as long as it polls, and ends its live
 * progress however following ends (done, failed, timed out, cancelled).
 */
export async function sharingPolls<T>(
  deps: WaitDeps,
  operation: Operation,
  siteId: string,
  follow: () => Promise<T>,
): Promise<T> {
  // Keyed by these deps, as sleepWithin asks pollAt with them.
  const leave = deps.polls.join(deps, deps.signal)
  const started = deps.clock.now()
  try {
    return await follow()
  } finally {
    leave()
    const elapsedMs = deps.clock.now() - started
    deps.logger.progress?.({ operation, siteId, percent: null, elapsedMs, etaMs: null, ended: true })
  }
}

/**
 * Sleeps before the next poll: `wanted` (what the planner asks), or when the batch's poll scheduler
 * says (PollScheduler.pollAt), which decides again whenever the time it gave comes (a poll planned
 * before calls ran out is planned anew, not sent late). A follower held for news sleeps on its own
 * wake-up, which the scheduler aborts for it alone (and the run's cancellation too): no signal is
 * composed per wait. No wait runs past the deadline: then DeadlineError at once, with no pointless sleep.
 */
export async function sleepWithin(deps: WaitDeps, wanted: number, planner: PollPlanner): Promise<void> {
  const { clock, client, signal, polls } = deps
  const wantedAt = clock.now() + Math.max(0, wanted)
  for (;;) {
    const now = clock.now()
    const left = client.deadline - now
    if (left <= 0) throw new DeadlineError()
    const { at, final, wake } = polls.pollAt(deps, {
      wantedAt,
      end: planner.end(now),
      answers: planner.answers,
    })
    if (at <= now) return
    const ms = at - now
    if (ms >= left) {
      await clock.sleep(left, signal)
      throw new DeadlineError()
    }
    if (!wake) {
      await clock.sleep(ms, signal)
      if (final) return
      continue
    }
    try {
      await clock.sleep(ms, wake)
    } catch (e) {
      if (!(e instanceof CancelledError)) throw e
    }
    if (signal?.aborted) throw new CancelledError()
  }
}

/**
 * Progress of one job: a live update at every answer for a front end that shows one (the CLI on a
 * terminal), else a plain line now and then, never at every poll.
 */
export class Progress {
  private lastLineAt: number
  constructor(
    private readonly deps: WaitDeps,
    private readonly operation: Operation,
    private readonly siteId: string,
    private readonly startedAt: number,
  ) {
    this.lastLineAt = startedAt
  }
  update(percent: number | undefined): void {
    const now = this.deps.clock.now()
    const elapsedMs = now - this.startedAt
    const { logger } = this.deps
    if (logger.progress) {
      // A naive end estimate for people (the planner has its own): the average rate so far.
      const etaMs = percent && percent > 0 && percent < 100 ? (elapsedMs * (100 - percent)) / percent : null
      logger.progress({
        operation: this.operation,
        siteId: this.siteId,
        percent: percent ?? null,
        elapsedMs,
        etaMs,
      })
      return
    }
    if (now - this.lastLineAt < (this.deps.progressEveryMs ?? 15_000)) return
    this.lastLineAt = now
    const pct = percent === undefined ? '' : ` ${Math.round(percent)}%,`
    logger.info(
      `… ${this.operation} on site ${this.siteId}:${pct} still running after ${durationText(elapsedMs)}`,
    )
  }
  done(): void {
    const { logger, clock } = this.deps
    const elapsedMs = clock.now() - this.startedAt
    logger.progress?.({
      operation: this.operation,
      siteId: this.siteId,
      percent: 100,
      elapsedMs,
      etaMs: 0,
      ended: true,
    })
    logger.info(
      `The ${jobOf(this.operation)} on site ${this.siteId} finished after ${durationText(clock.now() - this.startedAt)}.`,
    )
  }
}
