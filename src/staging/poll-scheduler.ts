import type { CallSupply } from '../api/call-ledger.js'
import { whenAborted } from '../clock.js'
import { CALLS_PER_RUN } from '../contract.js'
import type { Clock } from '../types.js'
import {
  agrees,
  finalAfter,
  newFollower,
  ownFinal,
  pinned,
  sameEnd,
  wakeUp,
  type Follower,
} from './poll-follower.js'
import type { CallPlan, PollAsk, PollGate } from './poll-gate.js'
import { JobLengths } from './poll-lengths.js'

/**
 * The poll scheduler: status polls are the calls a batch can choose to spend or save. Every call
 * the batch will make is in its plan (each site still to start, each job's final status call, the
 * run's own calls, requests waiting for a call), against the calls the limiter leaves now and gives
 * back. While that leaves two calls or more per job followed, each polls when its planner wants.
 * Otherwise each job is polled from its OWN progress: once two readings pin its end (agrees), its
 * next poll is the final one, at the latest time that allows; a job whose end is not pinned gets a
 * look (its planner's time, or FIRST_LOOK of the shortest job measured) only with calls to spare,
 * keeping a few for finals that find their job running; without one, it is asked once, at its own
 * latest end but not before the longest job expected would have ended (see finalAt; what the
 * batch knows of its jobs' lengths is in poll-lengths.ts). A final that may miss waits for the
 * answers of the finals already out when the calls left could not pay for all of them missing.
 * Only the first job polls before any job has told how long such jobs take (two of its readings
 * agree, or it ended); the others are held, and woken (each alone) when one does. Every decision
 * is taken again when its time comes (a poll planned before the calls ran out is planned anew, not
 * sent late). No follower polls twice within MIN_GAP_MS.
 */
export class PollScheduler implements PollGate {
  private plan: CallPlan = { sitesToStart: 0, callsPerSite: 3, callsAfterJob: 2, perRun: CALLS_PER_RUN }
  private readonly followers = new Map<object, Follower>()
  /** Followers in the order they joined (those that left are dropped from the front). */
  private order: Follower[] = []
  private active = 0
  /** Looks approved that have not been answered yet: they hold calls the ledger may not count yet. */
  private outstanding = 0
  /** Final polls approved that have not been answered yet: each may find its job running, and cost another. */
  private finalsOut = 0
  /** Held followers: no reading of their own and nothing the batch measured yet. */
  private readonly held = new Set<Follower>()
  /** What the batch has learnt of how long its jobs take. */
  private readonly lengths = new JobLengths()

  constructor(
    private readonly clock: Clock,
    private readonly supply: CallSupply,
  ) {}

  /** The batch says what is still to come (sites to start, and the calls each makes). */
  expect(plan: Partial<CallPlan>): void {
    this.plan = { ...this.plan, ...plan }
  }

  join(key: object, signal?: AbortSignal): () => void {
    const follower = newFollower(this.clock.now())
    this.followers.set(key, follower)
    this.order.push(follower)
    this.active++
    const stopListening = signal && whenAborted(signal, () => wakeUp(follower))
    return () => {
      if (follower.left) return
      follower.left = true
      stopListening?.()
      this.active--
      // Its length as its last poll saw it (not counting a wait for a call); a final asked blind,
      // at the longest length expected (not its own), tells nothing new of the longest.
      const seen = (follower.polledAt ?? this.clock.now()) - follower.start
      const blind = follower.approved === 'final' && follower.blind
      this.followers.delete(key)
      this.held.delete(follower)
      this.answered(follower)
      this.measured(seen, blind ? null : seen)
    }
  }

  pollAt(key: object, ask: PollAsk): { at: number; final: boolean; wake?: AbortSignal } {
    const now = this.clock.now()
    let follower = this.followers.get(key)
    if (!follower) {
      // Not joined (a single job outside any batch): it is its own batch.
      this.join(key)
      follower = this.followers.get(key)!
    }
    const agreed = follower.agreed
    if (ask.answers !== follower.answers) {
      follower.answers = ask.answers
      follower.agreed = agrees(follower, ask.end, now)
      // A final poll from its own progress that found its job still running: this batch's bars mislead.
      if (follower.approved === 'final' && follower.end) this.lengths.missed(follower, now)
      this.answered(follower)
    }
    if (ask.end && (!sameEnd(ask.end, follower.end) || follower.agreed !== agreed)) {
      follower.end = ask.end
      // Only an end its readings agree on tells how long such jobs take.
      if (follower.agreed) this.measured(ask.end.from - follower.start, null, ask.end.to - follower.start)
    }
    const decision = this.decide(follower, ask, now)
    let at = Math.max(decision.at, (follower.polledAt ?? -Infinity) + MIN_GAP_MS)
    // A final that may find its job running while others are unanswered, with no call to spare
    // should all of them: it waits for their answers (they may tell that the bars mislead).
    if (at <= now && !decision.look && this.finalsOut > 0 && this.spare(now) - this.finalsOut < 1)
      at = Infinity
    if (at <= now) {
      this.held.delete(follower)
      follower.polledAt = now
      follower.approved = decision.look ? 'look' : 'final'
      follower.blind = follower.end === null || decision.at > ownFinal(follower, this.lengths.stretchNow())
      if (decision.look) this.outstanding++
      else this.finalsOut++
      return { at: now, final: true }
    }
    if (at !== Infinity) {
      this.held.delete(follower)
      return { at, final: false }
    }
    // Held until the batch learns how long its jobs take (or calls are to spare): woken alone.
    this.held.add(follower)
    follower.wake ??= new AbortController()
    return { at: now + HOLD_RECHECK_MS, final: false, wake: follower.wake.signal }
  }

  spareNow(): boolean {
    if (this.supply.limit === null) return true
    // With no job followed, a call that is there now (the batch's last reads never wait a window).
    if (this.active === 0) return this.supply.available() > this.dueNow()
    return this.plenty() || this.lookBudget(this.clock.now()) > 0
  }

  /** When this follower should poll, and whether that poll is a look (it may find the job running). */
  private decide(f: Follower, ask: PollAsk, now: number): { at: number; look: boolean } {
    if (this.supply.limit === null) return { at: ask.wantedAt, look: true }
    if (this.plenty()) return { at: ask.wantedAt, look: true }
    // Economise: the final poll where this job's own progress says it has ended.
    const finalAt = this.finalAt(f, now)
    if (pinned(f) && finalAt !== null) return { at: finalAt, look: false }
    // A look where it pins this job's end sooner than the final poll would (once bars have misled,
    // a look pins nothing: only the first job looks, until one has ended).
    const lookAt =
      this.lengths.misled && (this.lengths.longest > 0 || this.scout() !== f)
        ? null
        : f.end
          ? ask.wantedAt
          : this.lengths.shortest < Infinity
            ? f.start + FIRST_LOOK * this.lengths.shortest
            : this.scout() === f || this.leftOver(now)
              ? ask.wantedAt
              : null
    if (lookAt !== null && lookAt < (finalAt ?? Infinity)) {
      if (lookAt > now) return { at: lookAt, look: true }
      if (this.lookBudget(now) > 0) return { at: now, look: true }
      // No call to spare: the final poll. With no end known at all, the first job looks anyway
      // (the client waits for the call, and learns a window shorter than assumed); another is held
      // until a job ends or calls are to spare.
      if (finalAt === null && this.scout() === f) return { at: now, look: true }
    }
    return { at: finalAt ?? Infinity, look: false }
  }

  /**
   * When this job has ended by its own progress (its latest end), else by the longest job expected
   * (its siblings' own latest ends, or their lengths). A job's own end is trusted alone only once
   * two of its readings agree on it and no bar has misled (a final poll from its own progress found
   * its job running). Else its final waits for the longest job expected too: by the ends the
   * batch's readings agree on while a call is to spare for a final that misses; with none to spare,
   * or once a bar has misled, by every running job's current readings, each (and its own) stretched
   * by as much as the bars have misled so far.
   */
  private finalAt(f: Follower, now: number): number | null {
    const measured = this.measuredAt(f)
    // Misled with nothing to go by for a job with no reading: only the first job is followed.
    if (this.lengths.misled && this.lengths.longest === 0 && this.scout() !== f) return null
    if (!f.end) return measured
    const own = ownFinal(f, this.lengths.stretchNow())
    if (!this.lengths.misled && f.agreed) return own
    const careful = this.lengths.misled || this.spare(now) <= 0
    const longest = finalAfter(f.start, this.lengths.longestExpected(this.followers.values(), careful))
    return longest === null ? own : Math.max(own, longest)
  }

  /**
   * A job with no reading of its own (a blind final) is asked when the longest job expected by
   * every running job's current readings would have ended, had it started with `f`: once some job
   * has told how long such jobs take (its readings agree on its end, or it ended), or a bar misled.
   */
  private measuredAt(f: Follower): number | null {
    const told = this.lengths.misled || this.lengths.longestExpected(this.followers.values(), false) > 0
    return told ? finalAfter(f.start, this.lengths.longestExpected(this.followers.values(), true)) : null
  }

  /** Calls a look may use now: the spare, less a few kept for finals that find their job still running. */
  private lookBudget(now: number): number {
    return this.spare(now) - Math.max(1, Math.ceil(this.finalsDue(now) / RESERVE_PER))
  }

  /**
   * The calls the limiter leaves now, less every call the plan needs before calls come back (see
   * dueNow; the final status call of every job that may end by then: by its own progress, else the
   * shortest job measured, or when nothing tells), less the looks approved and not yet counted.
   * Reads that only fill a URL are not needs: they go only with calls to spare (spareNow).
   */
  private spare(now: number): number {
    return this.supply.available() - this.dueNow() - this.finalsDue(now) - this.outstanding
  }

  private finalsDue(now: number): number {
    const back = this.callsBackAt(now)
    let finals = 0
    for (const f of this.followers.values()) {
      const from = f.end ? f.end.from : f.start + this.lengths.shortest
      if (back === Infinity || from < back || from === Infinity) finals++
    }
    return finals
  }

  /** The poll approved last for this follower was answered (or it left): what it held is free. */
  private answered(f: Follower): void {
    if (f.approved === 'look') this.outstanding--
    // Finals held for its answer may go, or learn from it.
    if (f.approved === 'final') {
      this.finalsOut--
      this.wakeHeld()
    }
    f.approved = null
  }

  /** Whether calls are plenty: two to spare for every job followed, were all to end before calls come back. */
  private plenty(): boolean {
    const spare = this.supply.available() - this.dueNow() - this.active - this.outstanding
    return spare >= this.active * PLENTY_PER_FOLLOWER
  }

  /**
   * Calls needed whatever the jobs do: the sites still to start (their request and final status
   * call), the run's own, and every request waiting for a call now (a site's request, a final poll).
   */
  private dueNow(): number {
    const { sitesToStart, callsPerSite, callsAfterJob, perRun } = this.plan
    return sitesToStart * (callsPerSite - callsAfterJob + 1) + perRun + this.supply.waiters
  }

  private callsBackAt(now: number): number {
    return Math.max(now + 1, this.supply.backBy(this.supply.available() + 1))
  }

  /** A job's length as bounded by its own progress, or as it ended: held followers learn from news. */
  private measured(shortest: number, ended: number | null, latest = ended ?? 0): void {
    if (this.lengths.measured(shortest, ended, latest)) this.wakeHeld()
  }

  private wakeHeld(): void {
    for (const f of this.held) wakeUp(f)
    this.held.clear()
  }

  /** The first job of the batch has run a window with nothing measured: held followers may look, with calls to spare. */
  private leftOver(now: number): boolean {
    const scout = this.scout()
    return scout !== undefined && now - scout.start > this.supply.windowMs && this.lookBudget(now) > 0
  }

  /** The follower that started first among those still following. */
  private scout(): Follower | undefined {
    let i = 0
    while (i < this.order.length && this.order[i]!.left) i++
    if (i > 0) this.order = this.order.slice(i)
    return this.order[0]
  }
}

/** A held follower asks again this often (calls may come back). */
const HOLD_RECHECK_MS = 2000
/** No follower polls twice within this. */
const MIN_GAP_MS = 250
/** Looks to spare per job followed, at or above which each polls as its planner wants. */
const PLENTY_PER_FOLLOWER = 2
/** A job with no reading of its own first looks at this fraction of the shortest job measured. */
const FIRST_LOOK = 0.6
/** One call kept for every this many jobs followed (finals that find the job running). */
const RESERVE_PER = 8
