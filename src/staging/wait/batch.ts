import type { RateWindow } from '../../api/rate-window.js'
import { sharedController, whenAborted } from '../../clock.js'
import { CALLS_PER_RUN } from '../../contract.js'
import type { Clock } from '../../types.js'
import { agrees, narrow, type PollAsk } from './planner.js'
/** What the poll scheduler reads of the run's rate window, and `needs`, which it answers. */
export type CallSupply = Pick<
  RateWindow,
  'limit' | 'windowMs' | 'available' | 'backBy' | 'waiters' | 'sharers' | 'othersInWindow' | 'needs'
>
/**
 * The poll scheduler: when each job's status call goes, within the account's rate window, lanes first served first:
 * a site's own request (it waits in the window: `waiters`), a job's final, a look, a spare call (spareNow). Every
 * call the batch will make is in its plan, against the calls the window leaves. The words (plenty, pinned, scout,
 * held, misled) and the whole policy: docs/development.md, "The waiting wing".
 */
export class PollScheduler {
  /** Calls due whatever the jobs do: the sites still to start (its request, its final each) and the run's own (§6 r3). */
  due = CALLS_PER_RUN
  /** Calls kept for what comes after a job (a checkpoint's push; the site list, SiteList.plan): added, then taken back. */
  after = 0
  private readonly jobs = new Map<object, Job>()
  /** Looks and finals approved and not answered yet (a final may find its job running: another call). */
  private readonly out = { look: 0, final: 0 }
  private readonly held = new Set<Job>()
  /** The batch's lengths: the shortest its readings allow, the longest that ended, the longest end agreed. */
  private shortest = Infinity
  private longest = 0
  private longestEnd = 0
  /** A final found its job running, how far past its end (a factor on the length; 1 until then); `noProgress`:
   * a job ended after readings that never told its end (the batch's report no progress). */
  private misled = false
  private noProgress = false
  private stretch = 1
  private quiet: AbortController | null = null
  private firstJoin = Infinity
  constructor(
    private readonly clock: Clock,
    private readonly supply: CallSupply,
    readonly deadline = Infinity, // the run's one, computed once from `timeout`: no wait runs past it
  ) {
    supply.needs = () => this.due + this.after + this.jobs.size // what it still needs: the window plans with it
  }
  /** A job joins while it polls (null: `key` is followed already); call the result when it stops. */
  join(key: object, signal?: AbortSignal): (() => void) | null {
    if (this.jobs.has(key)) return null
    const job = new Job(this.clock.now())
    this.firstJoin = Math.min(this.firstJoin, job.start)
    this.jobs.set(key, job)
    const stopListening = signal && whenAborted(signal, () => wakeUp(job))
    return () => {
      if (this.jobs.get(key) !== job) return // left already
      stopListening?.()
      // Its length as its last poll saw it; a blind final tells nothing new of the longest.
      const seen = (job.polledAt ?? this.clock.now()) - job.start
      if (job.answers >= 2 && job.end === null) this.noProgress = true
      this.jobs.delete(key)
      if (this.jobs.size === 0) this.quiet?.abort()
      this.held.delete(job)
      this.measured(seen, job.approved === 'final' && job.blind ? null : seen)
      this.answered(job)
    }
  }
  /** When `key`'s job may poll: now (`final`), at `at`, or when `wake` aborts (a held job's own wake-up). */
  pollAt(key: object, ask: PollAsk): { at: number; final: boolean; wake?: AbortSignal } {
    const now = this.clock.now()
    if (!this.jobs.has(key)) this.join(key) // a single job outside any batch is its own batch
    const job = this.jobs.get(key)!
    const agreed = job.agreed
    if (ask.answers !== job.answers) {
      job.answers = ask.answers
      // Sharing, one narrow reading pins a job's end (a look to confirm it costs others a call), until a final misled.
      const onePins = this.sharing && !this.misled && ask.end !== null && narrow(ask.end, job.start)
      job.agreed = agrees(job.start, job.end, ask.end, now) || onePins
      if (job.approved === 'final' && !ask.end) job.runningAt = now - job.start
      if (job.approved === 'final' && job.end) {
        this.misled = true
        this.stretch = Math.max(this.stretch, (now - job.start) / Math.max(1, job.end.to - job.start))
      }
      this.answered(job)
    }
    const newEnd = ask.end && (ask.end.from !== job.end?.from || ask.end.to !== job.end.to)
    job.end = ask.end ?? job.end
    // Only an end its readings agree on tells how long such jobs take.
    if (job.end && job.agreed && (newEnd || !agreed))
      this.measured(job.end.from - job.start, null, job.end.to - job.start)
    const decision = this.decide(job, ask, now)
    let at = Math.max(decision.at, (job.polledAt ?? -Infinity) + MIN_GAP_MS)
    if (at <= now && !decision.look && this.out.final > 0 && this.spare(now) - this.out.final < 1)
      at = Infinity
    if (at === Infinity) {
      this.held.add(job)
      job.wake ??= new AbortController()
      return { at: now + HOLD_RECHECK_MS, final: false, wake: job.wake.signal }
    }
    this.held.delete(job)
    // A final timed by other jobs, planned while calls are scarce: asked anew when calls come back.
    if (at > now && !decision.look && job.end === null && !this.plenty())
      at = Math.min(at, Math.max(this.supply.backBy(this.supply.available() + 1), now + HOLD_RECHECK_MS))
    if (at > now) return { at, final: false }
    job.polledAt = now
    job.approved = decision.look ? 'look' : 'final'
    job.blind = job.end === null || decision.at > ownFinal(job, this.stretch)
    this.out[job.approved]++
    return { at: now, final: true }
  }
  /** No job of the run is followed and no site is still to start: a read now delays no call of theirs. */
  get idle(): boolean {
    return this.jobs.size === 0 && this.due <= CALLS_PER_RUN
  }
  /** Resolves when idle (a read that serves every site, the site list, goes once, after the jobs), at once
   * while sites are still to start, and QUIET_MARGIN_MS before the deadline. */
  async untilQuiet(): Promise<void> {
    if (this.idle || this.due > CALLS_PER_RUN) return
    this.quiet ??= sharedController()
    const left = Math.min(this.deadline - this.clock.now(), 2 ** 31 - 1)
    await this.clock.sleep(left - Math.min(QUIET_MARGIN_MS, left / 2), this.quiet.signal).catch(() => {})
    if (this.quiet?.signal.aborted) this.quiet = null
  }
  /** Whether other runs share the account's rate window (contract §6 r5). */
  get sharing(): boolean {
    return this.supply.sharers > 1
  }
  /** Whether a best-effort call (a read that only fills a URL) may go now without delaying any job's end. */
  spareNow(): boolean {
    if (this.supply.limit === null) return true
    if (this.jobs.size === 0) return this.supply.available() > this.due + this.supply.waiters
    return this.plenty() || this.lookBudget(this.clock.now()) > 0
  }
  private decide(job: Job, ask: PollAsk, now: number): { at: number; look: boolean } {
    if (this.supply.limit === null) return { at: ask.wantedAt, look: true }
    const scout = this.scout() === job
    // No first look before FIRST_LOOK_MS (rarely telling), but the scout's while the window holds only this run's
    // calls: the calls may be another run's, one that starts a moment later (no answer shows it yet) or before.
    const early = job.answers === 0 && (!scout || this.supply.othersInWindow)
    const wanted = early ? Math.max(ask.wantedAt, job.start + FIRST_LOOK_MS) : ask.wantedAt
    if (this.plenty()) return { at: wanted, look: true }
    const finalAt = this.finalAt(job, now)
    // Pinned (its readings agree on its end, and its window is narrow): its next call is its final.
    if (job.agreed && job.end && narrow(job.end, job.start) && finalAt !== null)
      return { at: finalAt, look: false }
    // A look where it pins the end sooner than the final would (misled: only the scout, until one ended).
    const first = this.shortest < Infinity ? job.start + FIRST_LOOK * this.shortest : null
    // Before any job is measured: the scout looks, and the held too once it ran a window, with calls to spare.
    const heldMayLook = () => now - this.scout()!.start > this.supply.windowMs && this.lookBudget(now) > 0
    let lookAt = job.end ? wanted : (first ?? (scout || heldMayLook() ? wanted : null))
    if (this.misled && (this.longest > 0 || !scout)) lookAt = null
    if (this.noProgress && !job.end) lookAt = null
    if (lookAt !== null && lookAt < (finalAt ?? Infinity)) {
      if (lookAt > now) return { at: lookAt, look: true }
      if (this.lookBudget(now, scout) > 0) return { at: now, look: true }
      // No end known at all: the scout looks anyway (it waits for the call, and may learn a shorter window).
      if (finalAt === null && scout) return { at: now, look: true }
    }
    return { at: finalAt ?? Infinity, look: false }
  }
  /** A job's final: at its own latest end once two readings agree and no bar misled; else not before
   * the longest job expected (stretched once bars mislead); with no reading, once some job told. */
  private finalAt(job: Job, now: number): number | null {
    const told = this.misled || this.longestExpected(false) > 0
    // Sharing the account, a final timed by other jobs goes later (10%, at most 10 s): a miss costs a call the others need.
    const expected = this.longestExpected(true)
    const blind = Math.min((this.sharing ? BLIND_SHARING : 1) * expected, expected + BLIND_SHARING_MS)
    const measured = told ? finalAfter(job.start, blind) : null
    if (this.misled && this.longest === 0 && this.scout() !== job) return null
    if (!job.end) {
      // Not before MISS_GROWTH × how long it ran (no progress: the longest ended), unless all may miss once.
      const ran = Math.max(job.runningAt, this.noProgress ? this.longest : 0)
      const growth = this.spare(now) >= this.jobs.size ? 1 + FINAL_MARGIN : MISS_GROWTH
      return measured === null ? null : Math.max(measured, job.start + growth * ran)
    }
    const own = ownFinal(job, this.stretch)
    if (!this.misled && job.agreed) return own
    const careful = this.misled || this.spare(now) <= 0
    const longest = finalAfter(job.start, this.longestExpected(careful))
    return longest === null ? own : Math.max(own, longest)
  }
  /** The longest job expected: the longest that ended, and each running job's latest end (unless `all`, agreed ones only). */
  private longestExpected(all: boolean): number {
    const stretch = all ? this.stretch : 1
    let longest = this.longest
    for (const job of this.jobs.values())
      if (job.end && (all || job.agreed)) longest = Math.max(longest, stretch * (job.end.to - job.start))
    return longest
  }
  /** Calls a look may use now: the spare, less one per RESERVE_PER finals due (finals that miss), less those kept. */
  private lookBudget(now: number, scout = false): number {
    const due = this.finalsDue(now)
    return this.free() - due - Math.max(1, Math.ceil(due / RESERVE_PER)) - this.kept(now, scout)
  }
  /** Calls kept out of looks: KEPT_SHARING while sharing; in the run's first window, for a run that starts later, its
   * part of LATE_RUN while sharing, else LONE_KEPT of the limit until a job ended, but not from the scout's looks. */
  private kept(now: number, scout = false): number {
    const s = this.supply
    if (now >= this.firstJoin + s.windowMs) return this.sharing ? KEPT_SHARING : 0
    if (this.sharing) return KEPT_SHARING + Math.ceil(Math.min(s.available(), LATE_RUN) / s.sharers)
    return scout || this.longest > 0 ? 0 : Math.min(s.available(), Math.floor((s.limit ?? 0) * LONE_KEPT))
  }
  private spare(now: number): number {
    return this.free() - this.finalsDue(now)
  }
  /** Finals of jobs that may end (progress, else the shortest job) before calls come back (within a window). */
  private finalsDue(now: number): number {
    const next = Math.min(this.supply.backBy(this.supply.available() + 1), now + this.supply.windowMs)
    const back = Math.max(now + 1, next)
    let finals = 0
    for (const job of this.jobs.values()) {
      const from = job.end ? job.end.from : job.start + this.shortest
      if (back === Infinity || from < back || from === Infinity) finals++
    }
    return finals
  }
  private answered(job: Job): void {
    if (job.approved) this.out[job.approved]--
    if (job.approved === 'final') this.wakeHeld()
    job.approved = null
  }
  /** Two looks to spare for every job followed, were all to end before calls come back; never while the window
   * holds other runs' calls, which this run cannot foresee (a run that joined late sees them at its start). */
  private plenty(): boolean {
    const left = this.free() - this.kept(this.clock.now()) - this.jobs.size
    return !this.supply.othersInWindow && left >= this.jobs.size * PLENTY_PER_JOB
  }
  /** This run's share of the calls left (all of them while it is alone on the account), less the
   * calls due whatever the jobs do (sites to start, the run's own, requests waiting) and looks out. */
  private free(): number {
    const share = Math.floor(this.supply.available() / this.supply.sharers)
    return share - this.due - this.after - this.supply.waiters - this.out.look
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
  /** The first job still followed (a Map keeps the order they joined). */
  private scout(): Job | undefined {
    return this.jobs.values().next().value
  }
}
/** One job as the scheduler follows it: `agreed`, its last two readings agree on its end; `blind`, its final was
 * timed by the longest job expected; `approved`, its poll approved last; `runningAt`, its age when a final missed. */
class Job {
  polledAt: number | null = null
  end: { from: number; to: number } | null = null
  answers = 0
  agreed = false
  blind = false
  approved: 'look' | 'final' | null = null
  wake: AbortController | null = null
  runningAt = 0
  constructor(readonly start: number) {}
}
function wakeUp(job: Job): void {
  job.wake?.abort()
  job.wake = null
}
/** Its final by its own latest end, stretched by how far the batch's bars misled. */
function ownFinal(job: Job, stretch: number): number {
  return finalAfter(job.start, stretch * ((job.end?.to ?? Infinity) - job.start)) ?? Infinity
}
/** The final of a job that started at `start` and lasts `length` (null: no length known). */
function finalAfter(start: number, length: number): number | null {
  return length > 0 ? start + length + FINAL_MARGIN * length + FINAL_MARGIN_MS : null
}
/** A held job asks again this often (calls may come back); no job polls twice within MIN_GAP_MS. */
const HOLD_RECHECK_MS = 2000
const MIN_GAP_MS = 250
/** Looks to spare per job at or above which each polls as its planner wants; one call kept per RESERVE_PER finals due. */
const PLENTY_PER_JOB = 2
const RESERVE_PER = 8
/** A site waits for the run's other jobs until this long before the deadline (or half the time left). */
const QUIET_MARGIN_MS = 60_000
/** Sharing (contract §6 r5): calls kept out of looks, how much later a blind final goes (at most _MS). */
const KEPT_SHARING = 3
/** What a run of five sites that starts later needs in the first window (creates, finals, a look, 2 pages); a run
 * alone keeps LONE_KEPT of the limit (a matrix's other runs may not have started yet). */
const LATE_RUN = 15
const LONE_KEPT = 0.5
const BLIND_SHARING = 1.1
const BLIND_SHARING_MS = 10_000
/** A job with no reading of its own first looks at this fraction of the shortest job measured; else not before _MS. */
const FIRST_LOOK = 0.6
const FIRST_LOOK_MS = 5000
/** A final poll goes this late after the latest end (a fraction of the length, plus this). */
const FINAL_MARGIN = 0.01
const FINAL_MARGIN_MS = 100
/** A job with no end to read is polled again this much later than it was last found running. */
const MISS_GROWTH = 1.3
