import { sharedController } from '../clock.js'
import type { CallSupply } from '../api/window-ledger.js'
import { CALLS_PER_RUN } from '../contract.js'
import type { Clock } from '../types.js'

/** What the batch tells the scheduler of the calls still to come (contract §6 r3, CALLS_PER_RUN: every call counted). */
export interface CallPlan {
  /** Sites not started yet. */
  sitesToStart: number
  /** Calls each of them makes: its request, and what follows it (see callsAfterJob). */
  callsPerSite: number
  /** Calls each job followed makes once it has ended: its final status call, and the read after it. */
  callsAfterJob: number
  /** Calls made once per run (the API root check), not counted in the sites'. */
  perRun: number
}

/** What the waiting loop asks of the scheduler. */
export interface PollGate {
  /**
   * A follower of one job joins for as long as it polls; call the result when it stops.
   * `callsAfterJob`: the calls it makes once its job has ended (default: the plan's).
   */
  join(key: object, callsAfterJob?: number): () => void
  /** When the follower of `key` may poll, wanting to at `wantedAt` (see PollScheduler.pollAt). */
  pollAt(key: object, wantedAt: number): { at: number; final: boolean; wake?: AbortSignal }
}

/**
 * The poll scheduler: status polls are the calls a batch can choose to spend or save. Every call
 * the batch will make is in its plan: each site still to start (its request, its final status call,
 * the staging read after its job), each job followed (its final status call and that read), and the
 * run's own calls. While the calls left cover all that with room to spare, each follower polls when
 * its planner wants. Otherwise the batch economises: jobs of one batch run the same operation and
 * take similar times, so one follower (the one that started first) keeps polling as its planner
 * wants, and the others wait until a sibling has finished; then each polls when its own job has run
 * as long as the quickest sibling took (then the next quickest, if it was still running). Once the
 * first job has run for more than a window (it may be a slow one), calls nobody needs (more are left
 * than the plan needs) go to held followers whose planner wants a poll.
 *
 * No burst: the scout looks early at most once per time its planner aims at, and no follower polls
 * twice within SCOUT_MIN_MS however its planner aims.
 */
export class PollScheduler implements PollGate {
  private plan: CallPlan = { sitesToStart: 0, callsPerSite: 3, callsAfterJob: 2, perRun: CALLS_PER_RUN }
  private readonly followers = new Map<object, Follower>()
  /** Every follower in the order they joined (those that left are dropped from the front). */
  private order: Follower[] = []
  private active = 0
  /** The calls the jobs followed make once they have ended. */
  private callsAfter = 0
  private readonly durations: number[] = []
  /** Aborted (and replaced) when a follower leaves: the held ones look again at once. */
  private wake = sharedController()

  constructor(
    private readonly clock: Clock,
    private readonly supply: CallSupply,
  ) {}

  /** The batch says what is still to come (sites to start, and the calls each makes). */
  expect(plan: Partial<CallPlan>): void {
    this.plan = { ...this.plan, ...plan }
  }

  join(key: object, callsAfterJob = this.plan.callsAfterJob): () => void {
    const follower: Follower = newFollower(this.clock.now(), callsAfterJob)
    this.followers.set(key, follower)
    this.order.push(follower)
    this.active++
    this.callsAfter += follower.callsAfter
    return () => {
      if (follower.left) return
      follower.left = true
      this.active--
      this.callsAfter -= follower.callsAfter
      this.followers.delete(key)
      this.durations.push(this.clock.now() - follower.start)
      this.durations.sort((a, b) => a - b)
      this.wake.abort()
      this.wake = sharedController()
    }
  }

  /**
   * When the follower of one job (`key`: what it joined with) may poll, wanting to at `wantedAt`.
   * `final`: false when it should ask again by then, or as soon as `wake` aborts (it is held until a
   * sibling ends or calls are to spare).
   */
  pollAt(key: object, wantedAt: number): { at: number; final: boolean; wake?: AbortSignal } {
    const now = this.clock.now()
    let follower = this.followers.get(key)
    if (!follower) {
      // Not joined (a single job outside any batch): it is its own batch.
      this.join(key)
      follower = this.followers.get(key)!
    }
    if (follower.wantedAt !== wantedAt) {
      follower.wantedAt = wantedAt
      follower.askedAt = now
    }
    const earliest = (follower.polledAt ?? -Infinity) + SCOUT_MIN_MS
    const at = Math.max(this.pollTime(follower, wantedAt, now), earliest)
    if (at <= now) {
      follower.polledAt = now
      // One early look per time the planner aims at: aimed at again, it waits for that time.
      if (now < wantedAt) follower.earlyFor = wantedAt
      return { at: now, final: true }
    }
    // Decided when the time comes (by then siblings may have joined or ended): until then, wait.
    return { at: at === Infinity ? now + HOLD_RECHECK_MS : at, final: false, wake: this.wake.signal }
  }

  /** When this follower should poll, as things stand (Infinity: held until a sibling ends). */
  private pollTime(follower: Follower, wantedAt: number, now: number): number {
    if (this.supply.limit === null || this.spare() >= this.active * SPARE_PER_FOLLOWER) return wantedAt
    // Economise: poll where an end is likely.
    const ready = this.readyAt(follower)
    if (ready !== null) return Math.max(wantedAt, ready)
    const scout = this.scout()
    if (scout !== follower) return this.leftOver(scout, wantedAt, now) ? wantedAt : Infinity
    // The scout's answer is everybody's: near the end (its planner polls densely), while calls are
    // to spare, it looks four times as often.
    const soon = wantedAt - follower.askedAt
    const eager = soon <= DENSE_MS && this.spare() > this.active / 2 && follower.earlyFor !== wantedAt
    return eager ? Math.min(wantedAt, follower.askedAt + Math.max(SCOUT_MIN_MS, soon / 4)) : wantedAt
  }

  /**
   * A held follower may use a call nobody needs (more are left than the plan needs) once the first
   * job has run for more than a window: that one may be the slow one, while others have ended.
   */
  private leftOver(scout: Follower | undefined, wantedAt: number, now: number): boolean {
    if (wantedAt > now || !scout || now - scout.start <= this.supply.windowMs) return false
    return this.spare() > 0
  }

  /** Calls left now beyond every call the plan still needs. */
  private spare(): number {
    const { sitesToStart, callsPerSite, perRun } = this.plan
    return this.supply.available() - sitesToStart * callsPerSite - this.callsAfter - perRun
  }

  /**
   * When siblings suggest this job has ended: when it has run as long as the quickest sibling took
   * (to its end as seen), or, if it was still running then, the next quickest, and so on.
   */
  private readyAt(follower: Follower): number | null {
    const polled = follower.polledAt ?? -Infinity
    const d = this.durations.find((d) => follower.start + d > polled)
    // Longer than every sibling: no hint left; it polls as its planner wants.
    return d === undefined ? null : follower.start + d
  }

  /** The follower that started first among those still following. */
  private scout(): Follower | undefined {
    let i = 0
    while (i < this.order.length && this.order[i]!.left) i++
    if (i > 0) this.order = this.order.slice(i)
    return this.order[0]
  }
}

interface Follower {
  /** When it joined: about when its job was accepted. */
  start: number
  /** When it last polled. */
  polledAt: number | null
  /** The poll it is waiting for: when its planner wants it, and since when it has asked. */
  wantedAt: number | null
  askedAt: number
  /** The planner's time it has already looked early for (the scout looks early once per time aimed at). */
  earlyFor: number | null
  /** The calls it makes once its job has ended (its final status call, the read after it). */
  callsAfter: number
  left: boolean
}

function newFollower(start: number, callsAfter: number): Follower {
  return { start, polledAt: null, wantedAt: null, askedAt: start, earlyFor: null, callsAfter, left: false }
}

/** A held follower looks again this often (a sibling may have ended, calls come back). */
const HOLD_RECHECK_MS = 500
/** The scout, with calls to spare, looks four times as often when its planner waits this little... */
const DENSE_MS = 2000
/** ... but never more often than this; no follower polls twice within it. */
const SCOUT_MIN_MS = 250
/** Status calls to spare per job followed before the batch economises. */
const SPARE_PER_FOLLOWER = 2
