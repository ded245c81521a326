import { sharedController } from '../clock.js'
import { RATE_LIMIT_HEADERS, RATE_LIMIT_MAX, RATE_WINDOW_MS, RETRY_AFTER_BUDGET_MAX_MS } from '../contract.js'
import { exponential } from '../backoff.js'
import { headerValue, parseRetryAfter, pauseAfterMs, serverNow } from './retry.js'
import type { Clock } from '../types.js'
import type { CallSupply, Headers, RequestLedger } from './call-ledger.js'
import { resetTime, whole } from './rate-headers.js'
import { Slots, type Slot } from './window-slots.js'

/**
 * The window ledger: how many calls the server's rate limit leaves this run, learnt from what the
 * server says (contract §6) and from the calls the run itself made, and bounded by what it
 * believes. One ledger is shared by every request of a run (all sites, all workers).
 *
 * Each call the run makes holds a slot until a window after its answer: whether the server counts
 * in fixed windows that start with a key's first request (the framework's limiter) or over the last
 * window (a sliding window, as gateways do), a call answered at `a` stops counting by `a + W`. That
 * alone never sends a request the server will refuse, and needs no reset header. The server's
 * `X-RateLimit-Remaining` corrects it both ways: a count higher than the run's own calls means
 * another client uses the token (its calls hold slots for a window); a count lower than the calls
 * the run made before this request was sent means the window has turned (the oldest slots are
 * given back at once). So a fixed window's turn is learnt from the first answer after it, and
 * nobody waits on a guess: whoever waits is woken by every answer that gives calls back.
 *
 * A reset the server states (`X-RateLimit-Reset`, or a 429's `Retry-After`) lets one request go
 * when it comes, to learn the new count (the server said calls come back then; it did not say how
 * many). A 429 pauses everybody until its `Retry-After` (without one, for a growing while, at least
 * a second). No header value can make the run idle longer than one window unless `Retry-After`
 * says so; values outside the sane bounds of contract §6 are ignored.
 */
export class WindowLedger implements RequestLedger, CallSupply {
  /** How long a call counts after its answer: the window assumed, or a shorter one learnt. */
  windowMs: number
  private readonly assumedWindowMs: number
  limit: number | null = null
  private readonly slots = new Slots()
  /** An answer has come without any rate-limit header: nothing to respect until one says otherwise. */
  private answers = 0
  private headersSeen = false
  /** When the server said calls come back; until an answer after it, one request at a time goes. */
  private statedReset: number | null = null
  private pausedUntil = 0
  private lastSentAt = -Infinity
  /**
   * Whether a request may go to find out if the server's window is shorter than the one assumed
   * (the framework's decay time can be anything; contract §6 assumes a minute): only when waiting
   * for a call to come back would reach the run's deadline (the alternative is to give up), no
   * reset is stated, and nothing was sent for PROBE_AFTER_MS. Such a probe may draw a 429, never
   * otherwise; the first one refused ends probing for the run (the window is as long as assumed,
   * and the refusal's Retry-After says when it ends).
   */
  private probing = true
  private consecutive429 = 0
  private wake = sharedController()
  waiters = 0

  readonly cancelledBy?: AbortSignal

  constructor(
    private readonly clock: Clock,
    options: { windowMs?: number; signal?: AbortSignal } = {},
  ) {
    this.windowMs = options.windowMs ?? RATE_WINDOW_MS
    this.assumedWindowMs = this.windowMs
    if (options.signal) {
      this.cancelledBy = options.signal
      // Whoever waits for a call wakes at a cancellation (and finds the run's signal aborted).
      options.signal.addEventListener('abort', () => this.notify(), { once: true })
    }
  }

  get changed(): AbortSignal {
    return this.wake.signal
  }

  reserve(deadline = Infinity): number {
    const now = this.clock.now()
    this.slots.expire(now)
    if (now < this.pausedUntil) return this.pausedUntil - now
    if (this.limit === null) {
      // Nothing known. No header in any answer so far: nothing to respect. Else one request at a
      // time until the first answer tells the count.
      if (this.answers > 0 && !this.headersSeen) return this.send(now)
      return this.inFlight() === 0 ? this.send(now) : WAIT_FOR_ANSWER_MS
    }
    if (this.statedReset !== null && now >= this.statedReset) {
      // The server said calls are back by now: one request learns how many.
      return this.slots.all.some((s) => s.answeredAt === null && s.sentAt >= this.statedReset!)
        ? WAIT_FOR_ANSWER_MS
        : this.send(now)
    }
    if (this.available(now) > 0) return this.send(now)
    const back = this.backBy(1, now)
    let until = Math.min(back, this.statedReset ?? Infinity)
    if (this.statedReset === null && this.probing && until + SLOT_MARGIN_MS >= deadline) {
      // Waiting out the window assumed (a minute) would end the run, yet the server's may be
      // shorter: after a pause with nothing sent and nothing in flight, one request finds out.
      const probeAt = this.lastSentAt + PROBE_AFTER_MS
      if (now >= probeAt && this.inFlight() === 0) {
        this.send(now)
        this.slots.all.at(-1)!.probe = true
        return 0
      }
      until = Math.min(until, Math.max(probeAt, now + MIN_WAIT_MS))
    }
    return until === Infinity ? WAIT_FOR_ANSWER_MS : Math.max(MIN_WAIT_MS, until - now + SLOT_MARGIN_MS)
  }

  waiting(delta: number): void {
    this.waiters = Math.max(0, this.waiters + delta)
  }

  unanswered(): void {
    const now = this.clock.now()
    // The oldest request in flight: with no answer, the server may or may not have counted it.
    const slot = this.slots.oldestInFlight()
    if (slot) {
      slot.answeredAt = now
      this.slots.holdUntil(slot, now + this.windowMs)
    }
    this.notify()
  }

  observe(status: number, headers: Headers): void {
    const now = this.clock.now()
    this.slots.expire(now)
    this.answers++
    const knewLimit = this.limit !== null
    const before = this.available(now)
    const backBefore = this.backBy(1, now)
    const stated = this.statedReset
    // Answers come in any order; the request this one answers is taken to be the oldest in flight.
    const mine = this.slots.oldestInFlight()
    if (mine) {
      mine.answeredAt = now
      this.slots.holdUntil(mine, now + this.windowMs)
    }
    const limit = whole(headers[RATE_LIMIT_HEADERS.limit], 1, RATE_LIMIT_MAX)
    if (limit !== null) this.limit = limit
    const serverWall = serverNow(headers.date, this.clock.wallNow())
    const reset = resetTime(headers[RATE_LIMIT_HEADERS.reset], now, serverWall)
    // A count is only worth its window: when the answer names an end of it that is not sane, the
    // count is ignored too.
    const badReset = reset === null && headerValue(headers[RATE_LIMIT_HEADERS.reset]) !== undefined
    const remaining = badReset
      ? null
      : whole(headers[RATE_LIMIT_HEADERS.remaining], 0, this.limit ?? RATE_LIMIT_MAX)
    if (limit !== null || remaining !== null) this.headersSeen = true
    if (status === 429) {
      // A probe refused: the window is as long as assumed (the server's Retry-After says when it
      // ends); the run stops probing. Any 429 puts back the window of contract §6 if a shorter one
      // was learnt.
      if (mine?.probe) this.probing = false
      this.windowMs = Math.max(this.windowMs, this.assumedWindowMs)
      this.consecutive429++
      const said = parseRetryAfter(headers['retry-after'], serverWall)
      // Longer than the ledger's cap: ignored here (the client that got it ends its run, saying when).
      const retryAfter = said !== null && said <= RETRY_AFTER_BUDGET_MAX_MS ? said : null
      const pause =
        retryAfter !== null
          ? pauseAfterMs(retryAfter, this.consecutive429 - 1)
          : PAUSE_429(this.consecutive429, 0, () => 0)
      // Never less than a second: a hostile `Retry-After: 0` cannot make the batch hammer.
      this.pausedUntil = Math.max(this.pausedUntil, now + Math.max(1000, pause))
      // Then one request learns the count.
      this.statedReset = this.pausedUntil
      this.notify()
      return
    }
    this.consecutive429 = 0
    if (this.statedReset !== null && mine && mine.sentAt >= this.statedReset) this.statedReset = null
    if (reset !== null && remaining !== null && remaining === 0)
      this.statedReset = Math.min(reset, now + this.windowMs)
    if (remaining !== null && this.limit !== null && mine) {
      const oldest = this.correct(this.limit - remaining, mine, now)
      // The window has turned (calls given back): an end stated for the last one is past news.
      if (oldest !== null) this.statedReset = null
      // A probe let through with calls given back: the window is shorter than assumed, and lasts at
      // most from the oldest call given back to this answer.
      if (mine.probe && oldest !== null)
        this.windowMs = Math.max(MIN_LEARNT_WINDOW_MS, Math.min(this.windowMs, now - oldest.sentAt))
      // The only call counted, with the window's end stated: a window (fixed from its first
      // request, or sliding) lasts no longer than from this request to that end, and a second more
      // (a reset in whole seconds; a timer in whole seconds starts windows on the second).
      const learnt = reset === null ? Infinity : reset - mine.sentAt + RESET_ROUNDING_MS
      if (remaining === this.limit - 1 && learnt < this.windowMs)
        this.learnWindow(Math.max(MIN_LEARNT_WINDOW_MS, learnt))
    }
    // Wake the waiting only when calls came back or come back sooner, or a count was learnt they wait for.
    const learnt = !knewLimit || (stated !== null && this.statedReset === null)
    if (learnt || this.available(now) > before || this.backBy(1, now) < backBefore) this.notify()
  }

  /** A window no longer than `ms`: calls already answered come back sooner too. */
  private learnWindow(ms: number): void {
    this.windowMs = ms
    for (const slot of this.slots.all)
      if (slot.answeredAt !== null) this.slots.holdUntil(slot, Math.min(slot.until, slot.answeredAt + ms))
  }

  available(now = this.clock.now()): number {
    if (this.limit === null) return Infinity
    this.slots.expire(now)
    return this.limit - this.slots.length
  }

  backBy(n: number, now = this.clock.now()): number {
    if (this.limit === null) return now
    this.slots.expire(now)
    const short = n - (this.limit - this.slots.length)
    if (short <= 0) return now
    const untils = this.slots.all.map((s) => s.until).sort((a, b) => a - b)
    return untils[short - 1] ?? Infinity
  }

  backWithin(t: number, now = this.clock.now()): number {
    if (this.limit === null) return 0
    this.slots.expire(now)
    let n = 0
    for (const slot of this.slots.all) if (slot.until <= t) n++
    return n
  }

  /**
   * The server counted `count` calls when it counted `mine`. Fewer than the calls it must have
   * counted before (answered, or seen as another client's, before `mine` went): the window has
   * turned for the oldest of them. More than every call the run may have made by then: another client's calls.
   */
  private correct(count: number, mine: Slot, now: number): Slot | null {
    const before = this.slots.all.filter(
      (s) => s !== mine && s.answeredAt !== null && s.answeredAt <= mine.sentAt,
    )
    const surely = before.length + 1
    if (count < surely) {
      const given = before.sort((a, b) => a.sentAt - b.sentAt).slice(0, surely - count)
      const gone = new Set(given)
      this.slots.remove(gone)
      return given[0] ?? null
    }
    const possibly = this.slots.all.filter((s) => !s.foreign && s.sentAt <= now).length
    const foreign = this.slots.all.filter((s) => s.foreign).length
    for (let extra = count - possibly - foreign; extra > 0; extra--)
      this.slots.add({ sentAt: now, answeredAt: now, until: now + this.windowMs, foreign: true })
    return null
  }

  private inFlight(): number {
    return this.slots.all.filter((s) => s.answeredAt === null).length
  }

  private send(now: number): number {
    this.lastSentAt = now
    const until = now + REQUEST_TTL_MS + this.windowMs
    this.slots.add({ sentAt: now, answeredAt: null, until, foreign: false })
    return 0
  }

  private notify(): void {
    // A reason of our own: the default one is a new DOMException at every wake.
    this.wake.abort(WOKEN)
    this.wake = sharedController()
  }
}

/** Why a wake-up aborts `changed` (any waiter only needs to know that it did). */
const WOKEN = new Error('the calls to spare changed')

/** A 429 without Retry-After pauses 0.5 s · 2ⁿ (n: 429s in a row, from 1), up to 30 s. */
const PAUSE_429 = exponential({ firstMs: 500, factor: 2, capMs: 30_000, jitter: 0 })
/** A probe (see WindowLedger.probing) goes only after this long with nothing sent. */
const PROBE_AFTER_MS = 1000
/** A stated reset is in whole seconds, and so may the server's timer be. */
const RESET_ROUNDING_MS = 1000
/** The shortest window a probe can teach. */
const MIN_LEARNT_WINDOW_MS = 1000
/** A request neither answered nor reported unanswered after this long is taken as answered. */
const REQUEST_TTL_MS = 35_000
/** Requests wait a little past the time a call comes back (clock differences, rounding). */
const SLOT_MARGIN_MS = 50
const MIN_WAIT_MS = 10
/** Waiting for an answer that tells the count: an answer wakes the waiter sooner. */
const WAIT_FOR_ANSWER_MS = 1000
