import { sharedController } from '../clock.js'
import { RATE_WINDOW_MS } from '../contract.js'
import type { Clock } from '../types.js'
import { limitHeaders, pauseAfter429, type Headers } from './retry.js'

/** `onShared`: said once, when the run learns it shares the account's limit. */
type Options = { windowMs?: number; signal?: AbortSignal; onShared?: (perMinute: number) => void }

/** A call the server counts, ours or another run's (`early`: seen at the run's first answer, maybe
 * made before it started); `until`: when it stops counting; `probe`: sent to learn a shorter window. */
interface Call {
  sentAt: number
  answeredAt: number | null
  until: number
  others: boolean
  early?: boolean
  probe?: boolean
}

/**
 * The account's rate window (contract §6), one per run: the calls the limit leaves this run now, and when more come
 * back. The client asks `reserve` before each request. A call holds the window until a window after its answer (fixed
 * or sliding), so nothing goes that the server will refuse. `X-RateLimit-Remaining` corrects it: lower than the run's
 * own calls explain, other runs share the account (r5); higher, the window has turned. A 429 pauses every request; no
 * header makes the run idle longer than a window unless `Retry-After` says so.
 */
export class RateWindow {
  /** How long a call counts after its answer: the window assumed, or a shorter one learnt. */
  windowMs: number
  private readonly assumedWindowMs: number
  /** Calls per window, once an answer has said (null: not known, or no limit). */
  limit: number | null = null
  /** The calls that hold the window, in the order they went; none stops counting before `nextExpiry`. */
  private calls: Call[] = []
  private nextExpiry = Infinity
  private flyingFrom = 0 // every call of the run before this index is answered
  private answers = 0
  private headersSeen = false
  /** When the server said calls come back; until an answer after it, one request at a time goes. */
  private statedReset: number | null = null
  private pausedUntil = 0
  private lastSentAt = -Infinity
  /** The run's first answer; its last (not a 429), when a call counted then comes back, others' calls per ms before it. */
  private firstAnsweredAt = Infinity
  private answeredAt = -Infinity
  private turnsAt = -Infinity
  private othersRate = 0
  /** A probe may learn a shorter window (see reserve); the first one refused ends probing. */
  private probing = true
  private consecutive429 = 0
  private wake = sharedController()
  /** Aborted when an answer may have given calls back, or the run is cancelled: a request waiting on `reserve` asks again at once. */
  changed = this.wake.signal
  /** Requests waiting for a call now (theirs before any look); the calls the run still needs (its scheduler counts
   * them); other runs' calls in the window, a minute's worth; how long requests waited while those held part of it. */
  waiters = 0
  needs = (): number => Infinity
  othersPerMinute = 0
  sharedWaitMs = 0
  private waitingSince: number | null = null
  constructor(
    private readonly clock: Clock,
    readonly options: Options = {},
  ) {
    this.windowMs = this.assumedWindowMs = options.windowMs ?? RATE_WINDOW_MS
    options.signal?.addEventListener('abort', () => this.notify(), { once: true })
  }

  /** 0 when a request may go now (its call is counted), else how long to wait (`read`: a GET, which may find out). */
  reserve(deadline = Infinity, read = true): number {
    const now = this.clock.now()
    this.expire(now)
    if (now < this.pausedUntil) return this.pausedUntil - now
    // No header in any answer: nothing to respect; else one request at a time until an answer tells the count.
    if (this.limit === null)
      return (this.answers > 0 && !this.headersSeen) || !this.flying() ? this.send(now) : ASK_AGAIN_MS
    const reset = this.statedReset
    if (reset !== null && now >= reset) return this.flying(reset) ? ASK_AGAIN_MS : this.send(now)
    // Sharing, one call at a time, SHARED_SPACING_MS apart: the answers show each run the others' calls in time.
    const spaced = this.lastSentAt + SHARED_SPACING_MS
    if (now < spaced && this.startedTogether()) return spaced - now
    // Runs see others' calls only in answers, so several may take one last call: in its first window a run leaves one
    // for each other run (unless all runs' needs, each as much as its own, fit FITS times in what is left), later one
    // per others' call in the last RECENT_MS (dated when heard of). Hearing nothing that long, one goes first (never
    // the last: the others' view is as old), the rest after its answer (or 2 s); until `turnsAt`, others' pace holds.
    const recent = this.calls.filter((c) => c.others && c.sentAt >= now - RECENT_MS)
    const stale = this.othersPerMinute > 0 && now - this.answeredAt > RECENT_MS
    if (stale && this.flying(Math.max(this.answeredAt, now - RECENT_MS))) return SHARED_SPACING_MS
    const unseen = stale && now < this.turnsAt ? Math.ceil(this.othersRate * (now - this.answeredAt)) : 0
    const full = this.sharers * this.needs() > FITS * this.available(now)
    const leave =
      now < this.firstAnsweredAt + this.windowMs && full ? Infinity : Math.max(recent.length, unseen)
    const needed = Math.max(stale ? 2 : 1, 1 + Math.min(leave, Math.ceil(this.sharers) - 1))
    if (this.available(now) >= needed) return this.send(now)
    // Ask again when a call comes back (what is needed changes with it), or when the others' calls are no longer recent.
    const quiet = recent.length > 0 && this.available(now) > 0 ? recent[0]!.sentAt + RECENT_MS : Infinity
    let until = Math.min(this.backBy(this.available(now) + 1, now), this.statedReset ?? Infinity, quiet)
    // Waiting would reach the deadline (a probe: it may learn a shorter window), or ends with calls a late start saw
    // (their time a guess, maybe a window old): nothing stated, sent or in flight for PROBE_AFTER_MS, one request
    // finds out whether the window turned (it may draw a 429, which says when; only a read, for a late start).
    const late =
      this.counts.early > this.limit * FEW_EARLY && this.calls.some((c) => c.early && c.until <= until)
    const near = until + MARGIN_MS >= deadline
    if (reset === null && this.probing && (near || (read && late))) {
      const probeAt = this.lastSentAt + PROBE_AFTER_MS
      if (now >= probeAt && !this.flying()) return this.send(now, near)
      until = Math.min(until, Math.max(probeAt, now + MIN_WAIT_MS))
    }
    return until === Infinity ? ASK_AGAIN_MS : Math.max(MIN_WAIT_MS, until - now + MARGIN_MS)
  }

  /** A request starts (+1) or stops (-1) waiting for a call: the scheduler leaves it the calls that come. */
  waiting(delta: number): void {
    const now = this.clock.now()
    if (this.waitingSince !== null && this.othersInWindow) this.sharedWaitMs += now - this.waitingSince
    this.waiters = Math.max(0, this.waiters + delta)
    this.waitingSince = this.waiters > 0 ? now : null
  }
  /** A request that went got no answer: the server may or may not have counted it. */
  unanswered(): void {
    this.answerOldest(this.clock.now())
    this.notify()
  }
  /** An answer came: what its status and headers say of the limit. */
  observe(status: number, headers: Headers): void {
    const now = this.clock.now()
    this.expire(now)
    if (this.answers++ === 0) this.firstAnsweredAt = now
    const knewLimit = this.limit !== null
    const before = this.available(now)
    const backBefore = this.backBy(1, now)
    const stated = this.statedReset
    // Answers come in any order; the request this one answers is taken to be the oldest in flight.
    const mine = this.answerOldest(now)
    const wallNow = this.clock.wallNow()
    const { limit, remaining, reset } = limitHeaders(headers, now, wallNow, this.limit)
    if (limit !== null) this.limit = limit
    if (limit !== null || remaining !== null) this.headersSeen = true
    if (status === 429) {
      // A probe refused: the window is as long as assumed. Any 429 puts the assumed window back.
      if (mine?.probe) this.probing = false
      this.windowMs = Math.max(this.windowMs, this.assumedWindowMs)
      const pause = pauseAfter429(headers, wallNow, ++this.consecutive429, reset && reset - now)
      this.pausedUntil = Math.max(this.pausedUntil, now + pause)
      this.statedReset = this.pausedUntil
      this.notify()
      return
    }
    this.consecutive429 = 0
    if (this.statedReset !== null && mine && mine.sentAt >= this.statedReset) this.statedReset = null
    if (reset !== null && remaining === 0) this.statedReset = Math.min(reset, now + this.windowMs)
    if (remaining !== null && this.limit !== null && mine) {
      const oldest = this.correct(this.limit - remaining, mine, now)
      if (oldest !== null) this.statedReset = null
      // A probe let through with calls given back: the window lasts at most since the oldest of them.
      if (mine.probe && oldest !== null)
        this.windowMs = Math.max(MIN_LEARNT_WINDOW_MS, Math.min(this.windowMs, now - oldest.sentAt))
      // The only call counted, with the window's end stated: no longer than to that end (and a second);
      // calls already answered come back sooner too.
      const learnt = reset === null ? Infinity : reset - mine.sentAt + RESET_ROUNDING_MS
      if (remaining === this.limit - 1 && learnt < this.windowMs) {
        this.windowMs = Math.max(MIN_LEARNT_WINDOW_MS, learnt)
        for (const c of this.calls)
          if (c.answeredAt !== null) this.holdUntil(c, Math.min(c.until, c.answeredAt + this.windowMs))
      }
    }
    this.answeredAt = now
    this.turnsAt = this.nextExpiry
    const learnt = !knewLimit || (stated !== null && this.statedReset === null)
    if (learnt || this.available(now) > before || this.backBy(1, now) < backBefore) this.notify()
  }

  /** How many runs share the account (§6 r5): one, and others' calls since the first answer per own call. */
  get sharers(): number {
    const { own, others, early } = this.counts
    return 1 + (others + (this.startedTogether() ? early : 0)) / Math.max(1, own)
  }
  /** Whether the window holds calls this run did not make (at its first answer, or since). */
  get othersInWindow(): boolean {
    return this.counts.others + this.counts.early > 0
  }
  /** Others' calls seen since the first answer, or a few at it (runs that started with this one). */
  private startedTogether(): boolean {
    const { others, early } = this.counts
    return others > 0 || (early > 0 && early <= (this.limit ?? 0) * FEW_EARLY)
  }

  /** The calls in the window by whose they are (all its own went by now): kept, counted anew when calls go. */
  private counts = { own: 0, others: 0, early: 0 }
  private count(calls: Call[], anew = false): void {
    if (anew) this.counts = { own: 0, others: 0, early: 0 }
    for (const c of calls) this.counts[!c.others ? 'own' : c.early ? 'early' : 'others']++
  }

  /** Calls that may go now. */
  available(now = this.clock.now()): number {
    if (this.limit === null) return Infinity
    this.expire(now)
    return this.limit - this.calls.length
  }

  /** When `n` more calls than now will have come back (now when they are there already). */
  backBy(n: number, now = this.clock.now()): number {
    const short = n - this.available(now) // no limit known: none short
    return short <= 0 ? now : (this.calls.map((c) => c.until).sort((a, b) => a - b)[short - 1] ?? Infinity)
  }

  /** The server counted `count` with `mine`: fewer than before it, the window turned; more than ours, others'. */
  private correct(count: number, mine: Call, now: number): Call | null {
    const before = this.calls.filter(
      (c) => c !== mine && c.answeredAt !== null && c.answeredAt <= mine.sentAt,
    )
    const surely = before.length + 1
    if (count < surely) {
      const given = before.sort((a, b) => a.sentAt - b.sentAt).slice(0, surely - count)
      const gone = new Set(given)
      this.calls = this.calls.filter((c) => !gone.has(c))
      this.flyingFrom = 0
      this.count(this.calls, true)
      return given[0] ?? null
    }
    let others = this.counts.others + this.counts.early
    const early = this.answers === 1
    const unseen = count - this.counts.own - others
    for (let extra = unseen; extra > 0; extra--, others++)
      this.add({ sentAt: now, answeredAt: now, until: now + this.windowMs, others: true, early })
    this.othersRate = Math.max(0, unseen) / Math.max(1, now - this.answeredAt)
    this.othersPerMinute = Math.round((others * RATE_WINDOW_MS) / this.windowMs)
    if (others > 0 && this.options.onShared) {
      this.options.onShared(this.othersPerMinute)
      delete this.options.onShared
    }
    return null
  }

  private add(call: Call): void {
    this.calls.push(call)
    this.count([call])
    this.holdUntil(call, call.until)
  }
  private holdUntil(call: Call, until: number): void {
    call.until = until
    this.nextExpiry = Math.min(this.nextExpiry, until)
  }

  /** Drops the calls that stopped counting by `now` (a batch makes thousands: no scan per answer). */
  private expire(now: number): void {
    if (now < this.nextExpiry) return
    this.calls = this.calls.filter((c) => c.until > now)
    this.flyingFrom = 0
    this.count(this.calls, true)
    this.nextExpiry = this.calls.reduce((min, c) => Math.min(min, c.until), Infinity)
  }

  /** Answers the oldest of the run's calls in flight (answers go to it), found with no scan from the start. */
  private answerOldest(now: number): Call | undefined {
    const calls = this.calls
    let i = Math.min(this.flyingFrom, calls.length)
    while (i < calls.length && (calls[i]!.answeredAt !== null || calls[i]!.others)) i++
    this.flyingFrom = i
    if (calls[i]) this.holdUntil(Object.assign(calls[i]!, { answeredAt: now }), now + this.windowMs)
    return calls[i]
  }

  private flying(since = -Infinity): boolean {
    return this.calls.some((c) => c.answeredAt === null && c.sentAt >= since)
  }

  private send(now: number, probe = false): number {
    this.lastSentAt = now
    const until = now + UNANSWERED_AFTER_MS + this.windowMs
    this.add({ sentAt: now, answeredAt: null, until, others: false, probe })
    return 0
  }

  private notify(): void {
    this.wake.abort(WOKEN)
    this.wake = sharedController()
    this.changed = this.wake.signal
  }
}

const WOKEN = new Error('the calls to spare changed')
/** A request to learn a shorter window goes only after this long with nothing sent; it learns no less than a second. */
const PROBE_AFTER_MS = 1000
const MIN_LEARNT_WINDOW_MS = 1000
/** A stated reset is in whole seconds, and so may the server's timer be. */
const RESET_ROUNDING_MS = 1000
/** A request neither answered nor reported unanswered after this long is taken as answered. */
const UNANSWERED_AFTER_MS = 35_000
/** Requests wait a little past the time a call comes back (at least MIN_WAIT_MS); ASK_AGAIN_MS while an answer is awaited. */
const MARGIN_MS = 50
const MIN_WAIT_MS = 10
const ASK_AGAIN_MS = 1000
/** Sharing, requests go this far apart; at most FEW_EARLY of the limit at the first answer is runs that started
 * together; other runs' calls in the last RECENT_MS show they are calling; FITS: see reserve. */
const SHARED_SPACING_MS = 150
const FEW_EARLY = 0.25
const RECENT_MS = 2000
const FITS = 2
