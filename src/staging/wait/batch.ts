import type { RateWindow } from '../../api/rate-window.js'
import { whenAborted } from '../../clock.js'
import { CALLS_PER_RUN } from '../../contract.js'
import type { Clock } from '../../types.js'

/** What the batch tells the scheduler of the calls still to come (contract §6 r3: every call counted). */
export interface CallPlan {
  /** Sites not started yet. */
  sitesToStart: number
  /** Calls each of them makes: its request, and what follows it (see callsAfterJob). */
  callsPerSite: number
  /** Calls each job followed makes once it has ended: its final status call, and the read after it. */
  callsAfterJob: number
  /** Calls made once per run (the API root check, the site list), not counted in the sites'. */
  perRun: number
}

/** What a job tells the scheduler when it asks to poll. */
export interface PollAsk {
  /** When its own planner wants the next poll. */
  wantedAt: number
  /** When its progress says it ends, earliest and latest (null: nothing tells yet). */
  end: { from: number; to: number } | null
  /** Answers it has had: one more than last time means the poll approved last went. */
  answers: number
}

/** What the scheduler reads of the run's rate window. */
export type CallSupply = Pick<RateWindow, 'limit' | 'windowMs' | 'available' | 'backBy' | 'waiters'>

/**
 * The poll scheduler: which job's status call goes when, within the account's rate window (shared
 * by every job of a run). Lanes, first served first: a site's own request and the read after a job
 * (they wait in the rate window, `waiters`), a job's FINAL poll (where its end is known), a LOOK (a
 * poll that may find the job running), then SPARE calls (a read that only fills a URL: spareNow).
 *
 * Every call the batch will make is in its plan (each site to start, each job's final, the run's
 * own calls, requests waiting for a call), against the calls the window leaves now and gives back.
 * While that leaves PLENTY_PER_JOB looks per job, each polls when its planner wants. Otherwise each
 * job is polled from its own progress: once two readings agree on its end (PINNED), its next poll is
 * the final one, just after its latest end; a job whose end is not pinned gets a look only with
 * calls to spare, keeping one call per RESERVE_PER jobs for finals that find their job running;
 * without one it is asked once, at its own latest end, but not before the longest job expected
 * would have ended (a BLIND final when it has no reading of its own). A final that may miss waits
 * for the answers of the finals already out when the calls left could not pay for all of them
 * missing. What only a batch adds: until one job has told how long such jobs take (two readings
 * agree, or it ended), only the first job (the SCOUT) polls; the others are HELD, each woken alone
 * when one does. A final that found its job running means the bars MISLEAD: the others' finals then
 * wait for every running job's expected end, stretched by how far they misled. Every decision is
 * taken again when its time comes. No job polls twice within MIN_GAP_MS.
 */
export class PollScheduler {
  private plan: CallPlan = { sitesToStart: 0, callsPerSite: 3, callsAfterJob: 2, perRun: CALLS_PER_RUN }
  private readonly jobs = new Map<object, Job>()
  /** Jobs in the order they joined (those that left are dropped from the front). */
  private order: Job[] = []
  private active = 0
  /** Looks approved and not answered yet: they hold calls the window may not count yet. */
  private looksOut = 0
  /** Finals approved and not answered yet: each may find its job running, and cost another. */
  private finalsOut = 0
  private readonly held = new Set<Job>()
  /** What the batch learnt of its jobs' lengths: the shortest the readings allow, the longest that ended. */
  private shortest = Infinity
  private longest = 0
  private longestEnd = 0
  /** A final found its job running (the bars mislead), and how far (a factor on the length). */
  private misled = false
  private stretch = 1

  constructor(
    private readonly clock: Clock,
    private readonly supply: CallSupply,
    /** The run's one deadline (computed once from `timeout`): no wait runs past it. */
    readonly deadline = Infinity,
  ) {}

  /** The batch says what is still to come (sites to start, and the calls each makes). */
  expect(plan: Partial<CallPlan>): void {
    this.plan = { ...this.plan, ...plan }
  }

  /**
   * A job joins for as long as it polls; call the result when it stops (null: `key` follows a job
   * already, as a task's follow turned to the staging probe). `signal` wakes it when held.
   */
  join(key: object, signal?: AbortSignal): (() => void) | null {
    if (this.jobs.has(key)) return null
    const job = newJob(this.clock.now())
    this.jobs.set(key, job)
    this.order.push(job)
    this.active++
    const stopListening = signal && whenAborted(signal, () => wakeUp(job))
    return () => {
      if (job.left) return
      job.left = true
      stopListening?.()
      this.active--
      // Its length as its last poll saw it; a blind final tells nothing new of the longest.
      const seen = (job.polledAt ?? this.clock.now()) - job.start
      const blind = job.approved === 'final' && job.blind
      this.jobs.delete(key)
      this.held.delete(job)
      this.answered(job)
      this.measured(seen, blind ? null : seen)
    }
  }

  /**
   * When the job of `key` may poll. `final`: poll now (`at` is now); else ask again at `at`, or as
   * soon as `wake` aborts (a held job's own wake-up).
   */
  pollAt(key: object, ask: PollAsk): { at: number; final: boolean; wake?: AbortSignal } {
    const now = this.clock.now()
    if (!this.jobs.has(key)) this.join(key) // a single job outside any batch is its own batch
    const job = this.jobs.get(key)!
    const agreed = job.agreed
    if (ask.answers !== job.answers) {
      job.answers = ask.answers
      job.agreed = agrees(job, ask.end, now)
      if (job.approved === 'final' && job.end) {
        this.misled = true
        this.stretch = Math.max(this.stretch, (now - job.start) / Math.max(1, job.end.to - job.start))
      }
      this.answered(job)
    }
    if (ask.end && (!sameEnd(ask.end, job.end) || job.agreed !== agreed)) {
      job.end = ask.end
      // Only an end its readings agree on tells how long such jobs take.
      if (job.agreed) this.measured(ask.end.from - job.start, null, ask.end.to - job.start)
    }
    const decision = this.decide(job, ask, now)
    let at = Math.max(decision.at, (job.polledAt ?? -Infinity) + MIN_GAP_MS)
    if (at <= now && !decision.look && this.finalsOut > 0 && this.spare(now) - this.finalsOut < 1)
      at = Infinity
    if (at <= now) {
      this.held.delete(job)
      job.polledAt = now
      job.approved = decision.look ? 'look' : 'final'
      job.blind = job.end === null || decision.at > ownFinal(job, this.stretchNow())
      if (decision.look) this.looksOut++
      else this.finalsOut++
      return { at: now, final: true }
    }
    if (at !== Infinity) {
      this.held.delete(job)
      return { at, final: false }
    }
    this.held.add(job)
    job.wake ??= new AbortController()
    return { at: now + HOLD_RECHECK_MS, final: false, wake: job.wake.signal }
  }

  /** Whether a best-effort call (a read that only fills a URL) may go now without delaying any job's end. */
  spareNow(): boolean {
    if (this.supply.limit === null) return true
    if (this.active === 0) return this.supply.available() > this.dueNow()
    return this.plenty() || this.lookBudget(this.clock.now()) > 0
  }

  private decide(job: Job, ask: PollAsk, now: number): { at: number; look: boolean } {
    if (this.supply.limit === null || this.plenty()) return { at: ask.wantedAt, look: true }
    const finalAt = this.finalAt(job, now)
    if (pinned(job) && finalAt !== null) return { at: finalAt, look: false }
    // A look where it pins this job's end sooner than the final would (once bars mislead, only the
    // scout looks, until one job has ended).
    const scout = this.scout() === job
    const lookAt =
      this.misled && (this.longest > 0 || !scout)
        ? null
        : job.end
          ? ask.wantedAt
          : this.shortest < Infinity
            ? job.start + FIRST_LOOK * this.shortest
            : scout || this.leftOver(now)
              ? ask.wantedAt
              : null
    if (lookAt !== null && lookAt < (finalAt ?? Infinity)) {
      if (lookAt > now) return { at: lookAt, look: true }
      if (this.lookBudget(now) > 0) return { at: now, look: true }
      // No end known at all: the scout looks anyway (it waits for the call, and may learn a shorter window).
      if (finalAt === null && scout) return { at: now, look: true }
    }
    return { at: finalAt ?? Infinity, look: false }
  }

  /**
   * A job's final: by its own latest end once two readings agree and no bar misled; else not before
   * the longest job expected (ends readings agree on while a call is spare for a final that misses;
   * with none spare, or once bars mislead, every running job's readings, stretched). A job with no
   * reading: when the longest job expected would have ended, once some job told how long they take.
   */
  private finalAt(job: Job, now: number): number | null {
    const told = this.misled || this.longestExpected(false) > 0
    const measured = told ? finalAfter(job.start, this.longestExpected(true)) : null
    if (this.misled && this.longest === 0 && this.scout() !== job) return null
    if (!job.end) return measured
    const own = ownFinal(job, this.stretchNow())
    if (!this.misled && job.agreed) return own
    const careful = this.misled || this.spare(now) <= 0
    const longest = finalAfter(job.start, this.longestExpected(careful))
    return longest === null ? own : Math.max(own, longest)
  }

  /** The longest job expected: the longest that ended, and each running job's latest end (unless `all`, agreed ones only). */
  private longestExpected(all: boolean): number {
    const stretch = all ? this.stretchNow() : 1
    let longest = this.longest
    for (const job of this.jobs.values())
      if (job.end && (all || job.agreed)) longest = Math.max(longest, stretch * (job.end.to - job.start))
    return longest
  }

  private stretchNow(): number {
    return this.misled ? this.stretch : 1
  }

  /** Calls a look may use now: the spare, less one per RESERVE_PER finals due (finals that miss). */
  private lookBudget(now: number): number {
    return this.spare(now) - Math.max(1, Math.ceil(this.finalsDue(now) / RESERVE_PER))
  }

  /** The calls left now, less every call the plan needs before calls come back, less looks out. */
  private spare(now: number): number {
    return this.supply.available() - this.dueNow() - this.finalsDue(now) - this.looksOut
  }

  /** Finals of jobs that may end before calls come back (by their progress, else the shortest job). */
  private finalsDue(now: number): number {
    const back = Math.max(now + 1, this.supply.backBy(this.supply.available() + 1))
    let finals = 0
    for (const job of this.jobs.values()) {
      const from = job.end ? job.end.from : job.start + this.shortest
      if (back === Infinity || from < back || from === Infinity) finals++
    }
    return finals
  }

  private answered(job: Job): void {
    if (job.approved === 'look') this.looksOut--
    if (job.approved === 'final') {
      this.finalsOut--
      this.wakeHeld()
    }
    job.approved = null
  }

  /** Two looks to spare for every job followed, were all to end before calls come back. */
  private plenty(): boolean {
    const spare = this.supply.available() - this.dueNow() - this.active - this.looksOut
    return spare >= this.active * PLENTY_PER_JOB
  }

  /** Calls needed whatever the jobs do: sites to start, the run's own, requests waiting for a call. */
  private dueNow(): number {
    const { sitesToStart, callsPerSite, callsAfterJob, perRun } = this.plan
    return sitesToStart * (callsPerSite - callsAfterJob + 1) + perRun + this.supply.waiters
  }

  /** A job's length as its progress bounds it, or as it ended: news wakes the held. */
  private measured(shortest: number, ended: number | null, latest = ended ?? 0): void {
    const news =
      shortest < this.shortest || (ended !== null && ended > this.longest) || latest > this.longestEnd
    this.shortest = Math.min(this.shortest, Math.max(1, shortest))
    if (ended !== null) this.longest = Math.max(this.longest, ended)
    this.longestEnd = Math.max(this.longestEnd, latest)
    if (news) this.wakeHeld()
  }

  private wakeHeld(): void {
    for (const job of this.held) wakeUp(job)
    this.held.clear()
  }

  /** The scout has run a window with nothing measured: held jobs may look, with calls to spare. */
  private leftOver(now: number): boolean {
    const scout = this.scout()
    return scout !== undefined && now - scout.start > this.supply.windowMs && this.lookBudget(now) > 0
  }

  /** The job that started first among those still followed. */
  private scout(): Job | undefined {
    let i = 0
    while (i < this.order.length && this.order[i]!.left) i++
    if (i > 0) this.order = this.order.slice(i)
    return this.order[0]
  }
}

/** One job as the scheduler follows it. */
interface Job {
  start: number
  polledAt: number | null
  end: { from: number; to: number } | null
  answers: number
  /** Its last two readings agree on its end. */
  agreed: boolean
  /** Its final was timed by the longest job expected, not by its own end. */
  blind: boolean
  /** The poll approved last, until answered. */
  approved: 'look' | 'final' | null
  left: boolean
  wake: AbortController | null
}

function newJob(start: number): Job {
  return {
    start,
    polledAt: null,
    end: null,
    answers: 0,
    agreed: false,
    blind: false,
    approved: null,
    left: false,
    wake: null,
  }
}

/** Two readings in a row agree on the end, the later one past CONFIRM_AFTER of it (a bar need not be linear). */
function agrees(job: Job, end: { from: number; to: number } | null, now: number): boolean {
  if (end === null || job.end === null) return false
  return near(end.to, job.end.to, job.start) && now - job.start >= CONFIRM_AFTER * (end.to - job.start)
}

/** Its end is pinned: two readings agree on it, and its window is narrow. */
function pinned(job: Job): boolean {
  return job.agreed && job.end !== null && near(job.end.from, job.end.to, job.start)
}

function wakeUp(job: Job): void {
  job.wake?.abort()
  job.wake = null
}

function sameEnd(a: { from: number; to: number }, b: { from: number; to: number } | null): boolean {
  return b !== null && a.from === b.from && a.to === b.to
}

/** Its final by its own latest end, stretched by how far the batch's bars misled. */
function ownFinal(job: Job, stretch = 1): number {
  return finalAfter(job.start, stretch * ((job.end?.to ?? Infinity) - job.start)) ?? Infinity
}

/** The final poll of a job that started at `start` and lasts `length` (null: no length known). */
function finalAfter(start: number, length: number): number | null {
  return length > 0 ? start + length + FINAL_MARGIN * length + FINAL_MARGIN_MS : null
}

function near(a: number, b: number, start: number): boolean {
  return Math.abs(b - a) <= NARROW * (Math.max(a, b) - start) + NARROW_MS
}

/** A held job asks again this often (calls may come back). */
const HOLD_RECHECK_MS = 2000
/** No job polls twice within this. */
const MIN_GAP_MS = 250
/** Looks to spare per job, at or above which each polls as its planner wants. */
const PLENTY_PER_JOB = 2
/** A job with no reading of its own first looks at this fraction of the shortest job measured. */
const FIRST_LOOK = 0.6
/** One call kept for every this many finals due (finals that find their job running). */
const RESERVE_PER = 8
/** A final poll goes this late after the latest end (a fraction of the length, plus this). */
const FINAL_MARGIN = 0.01
const FINAL_MARGIN_MS = 100
/** An end is pinned when its window is this narrow (a fraction of its length, plus this). */
const NARROW = 0.04
const NARROW_MS = 400
/** A reading confirms an end only this far (a fraction) into the job it predicts. */
const CONFIRM_AFTER = 0.5
