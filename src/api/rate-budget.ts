import {
  RATE_LIMIT_HEADERS,
  RATE_LIMIT_MAX,
  RATE_RESET_MAX_AHEAD_MS,
  RATE_WINDOW_MS,
  RETRY_AFTER_BUDGET_MAX_MS,
} from '../contract.js'
import { headerValue, parseRetryAfter, pauseAfterMs, serverNow } from './retry.js'
import type { Clock } from '../types.js'

type Headers = Record<string, string | string[] | undefined>

/**
 * One rate budget shared by every request of a run (all sites, all workers), learning from what the
 * server says (contract §6) and bounding what it believes.
 *
 * Calls: the server's `X-RateLimit-Remaining` (the lowest of its window, less the requests still
 * in flight) says how many calls may go now. When none is left, a request waits for the window to
 * end (from `X-RateLimit-Reset`, or a minute after the window began) and asks again, so a batch
 * never runs into the limit. Until the first answer, and once a window is only assumed to have
 * begun, one request goes alone to learn the count. A 429 pauses everybody until its
 * `Retry-After` (or for a growing while, at least a second). No header value can make the run idle
 * longer than one window (a minute), unless `Retry-After` says so; values outside the sane bounds
 * of contract §6 are ignored.
 *
 * Status polls are the calls a batch can choose to spend or save (`pollAt`). While the calls left
 * cover every site still to start and every job still followed with room to spare, each follower
 * polls when its planner wants. Otherwise the batch economises: jobs of one batch run the same
 * operation and take similar times, so one follower (the one that started first) keeps polling as
 * its planner wants, and the others wait until a sibling has finished; then each polls when its own
 * job has run as long as the quickest sibling took (then the next quickest, if it was still
 * running). Calls then go where they are likely to see an end; calls left at the end of a window,
 * which nobody else needs, go to the held followers (the first one's job may be a slow one).
 */
export class RateBudget {
  private readonly windowMs: number
  /** Learned from the headers: calls per window, calls left in the current one, when it ends. */
  private limit: number | null = null
  private remaining: number | null = null
  private windowEnd: number | null = null
  /** The server said when the window ends (a reset header, or a 429's Retry-After). */
  private endKnown = false
  /** Since when no call has been left in a window whose end is unstated, or a probe last went (see reserve). */
  private lastProbeAt = -Infinity
  /** The request in flight is such a probe: its answer is the window's present count. */
  private probeInFlight = false
  /** The current window was assumed (a minute passed), not yet confirmed by an answer. */
  private assumed = false
  private answers = 0
  private headersSeen = false
  /** Send times of requests that have no answer yet. */
  private inFlight: number[] = []
  private pausedUntil = 0
  private consecutive429 = 0
  /** Sites of the batch not started yet (the batch keeps this up to date). */
  pendingSites = 0
  private readonly followers = new Map<object, Follower>()
  private readonly unbound: Follower[] = []
  /** Every follower in the order they joined (those that left are dropped from the front). */
  private order: Follower[] = []
  private active = 0
  private readonly durations: number[] = []
  /** Aborted (and replaced) when a follower leaves: the held ones look again at once. */
  private wake = new AbortController()

  constructor(
    private readonly clock: Clock,
    options: { windowMs?: number } = {},
  ) {
    this.windowMs = options.windowMs ?? RATE_WINDOW_MS
  }

  /**
   * A follower of a background job joins the budget for as long as it polls. `key`: what it will
   * pass to pollAt; without one, its first pollAt binds it (the waiting loop polls right after it
   * joins, before anything else runs).
   */
  join(key?: object): () => void {
    const follower: Follower = newFollower(this.clock.now())
    if (key) this.followers.set(key, follower)
    else this.unbound.push(follower)
    this.order.push(follower)
    this.active++
    return () => {
      if (follower.left) return
      follower.left = true
      this.active--
      this.durations.push(this.clock.now() - follower.start)
      this.durations.sort((a, b) => a - b)
      const i = this.unbound.indexOf(follower)
      if (i >= 0) this.unbound.splice(i, 1)
      this.wake.abort()
      this.wake = new AbortController()
    }
  }

  /**
   * 0 when a request may go now (its call is counted), else how long to wait before asking again:
   * until the window ends or a pause is over, or, while the count is being learnt, a moment.
   */
  reserve(): number {
    const now = this.clock.now()
    this.roll(now)
    if (now < this.pausedUntil) return this.pausedUntil - now
    if (this.limit === null) {
      // Nothing known. No header in any answer so far: nothing to respect. Else one request at a
      // time until the first answer tells the count.
      if (this.answers > 0 && !this.headersSeen) return this.send(now)
      return this.inFlight.length === 0 ? this.send(now) : RECHECK_MS
    }
    if (this.available() > 0) return this.send(now)
    // Waiting for an answer that tells the count, or for the window to end.
    if (this.assumed || this.windowEnd === null) return RECHECK_MS
    if (!this.endKnown && this.inFlight.length === 0) {
      // No call left, and the server never said when its window ends (the framework's headers
      // carry a count without a reset): the minute assumed may be far too long. One request now and
      // then finds out: a new count means a new window; a 429 brings Retry-After, the end itself.
      const probeAt = this.lastProbeAt + UNSTATED_WINDOW_PROBE_MS
      if (now >= probeAt) {
        this.lastProbeAt = now
        this.probeInFlight = true
        return this.send(now)
      }
      return Math.max(RECHECK_MS, Math.min(this.windowEnd - now + SLOT_MARGIN_MS, probeAt - now))
    }
    return Math.max(RECHECK_MS, this.windowEnd - now + SLOT_MARGIN_MS)
  }

  /** A request that went got no answer (a network error, a timeout, a cancellation). */
  unanswered(): void {
    this.inFlight.shift()
    this.probeInFlight = false
  }

  /** An answer came: what its status and headers say of the limit. */
  observe(status: number, headers: Headers): void {
    const now = this.clock.now()
    this.roll(now)
    this.inFlight.shift()
    this.answers++
    const probe = this.probeInFlight
    this.probeInFlight = false
    const limit = whole(headers[RATE_LIMIT_HEADERS.limit], 1, RATE_LIMIT_MAX)
    if (limit !== null) this.limit = limit
    const serverWall = serverNow(headers.date, this.clock.wallNow())
    const reset = resetTime(headers[RATE_LIMIT_HEADERS.reset], now, serverWall)
    // A count is only worth its window: when the answer names an end of it that is not sane, the
    // count is ignored too (without any reset, the window is taken to end a minute after it began).
    const badReset = reset === null && headerValue(headers[RATE_LIMIT_HEADERS.reset]) !== undefined
    const remaining = badReset
      ? null
      : whole(headers[RATE_LIMIT_HEADERS.remaining], 0, this.limit ?? RATE_LIMIT_MAX)
    if (limit !== null || remaining !== null) this.headersSeen = true
    if (status === 429) {
      this.consecutive429++
      const said = parseRetryAfter(headers['retry-after'], serverWall)
      // Longer than the budget's cap: ignored here (the client that got it ends its run, saying when).
      const retryAfter = said !== null && said <= RETRY_AFTER_BUDGET_MAX_MS ? said : null
      const pause =
        retryAfter !== null
          ? pauseAfterMs(retryAfter, this.consecutive429 - 1)
          : Math.min(30_000, 500 * 2 ** Math.min(this.consecutive429, 6))
      // Never less than a second: a hostile `Retry-After: 0` cannot make the batch hammer.
      this.pausedUntil = Math.max(this.pausedUntil, now + Math.max(1000, pause))
      this.remaining = 0
      // Retry-After is the server's own word on when calls go again; without it, keep the later end.
      this.windowEnd =
        retryAfter !== null ? this.pausedUntil : Math.max(this.windowEnd ?? 0, this.pausedUntil)
      this.endKnown = retryAfter !== null || reset !== null
      this.assumed = false
      return
    }
    this.consecutive429 = 0
    if (remaining === null) return
    const end = Math.min(reset ?? now + this.windowMs, now + this.windowMs)
    // A new window: the first, one after ours ended, or one whose reset is later than ours. A count
    // higher than ours says nothing (answers arrive in any order, each with the count when its
    // request was counted); without a reset, a window is taken to end a minute after it was first
    // seen, never sooner than it can.
    const current = this.windowEnd !== null && now < this.windowEnd
    const movedOn = reset !== null && this.windowEnd !== null && reset > this.windowEnd + 1000
    // A probe of an unstated window that comes back with calls left: that window has turned.
    const turned = probe && remaining > 0
    if (!current || this.assumed || movedOn || turned) {
      this.remaining = remaining
      this.windowEnd = end
      this.endKnown = reset !== null
      this.assumed = false
    } else {
      // Answers arrive out of order: within one window, the lowest count is the truest.
      this.remaining = Math.min(this.remaining ?? remaining, remaining)
      if (reset !== null) {
        this.windowEnd = end
        this.endKnown = true
      }
    }
    // None left and no end stated: the first probe goes a probe interval from now.
    if (this.remaining === 0 && !this.endKnown) this.lastProbeAt = Math.max(this.lastProbeAt, now)
  }

  /**
   * When the follower of one job (`key`: anything that stays the same while it follows) may poll,
   * wanting to at `wantedAt`. `final`: false when it should ask again by then, or as soon as `wake`
   * aborts (it is held until a sibling ends or the window turns).
   */
  pollAt(key: object, wantedAt: number): { at: number; final: boolean; wake?: AbortSignal } {
    const now = this.clock.now()
    this.roll(now)
    const follower = this.follower(key, now)
    if (follower.wantedAt !== wantedAt) {
      follower.wantedAt = wantedAt
      follower.askedAt = now
    }
    const at = this.pollTime(follower, wantedAt)
    if (at <= now) {
      follower.polledAt = now
      return { at: now, final: true }
    }
    // Decided when the time comes (by then siblings may have joined or ended): until then, wait.
    return { at: at === Infinity ? now + HOLD_RECHECK_MS : at, final: false, wake: this.wake.signal }
  }

  /** When this follower should poll, as things stand (Infinity: held until a sibling ends). */
  private pollTime(follower: Follower, wantedAt: number): number {
    if (this.limit === null || !this.scarce()) return wantedAt
    // Economise: poll where an end is likely.
    const ready = this.readyAt(follower)
    if (ready !== null) return Math.max(wantedAt, ready)
    if (this.scout() !== follower) return this.leftOver(wantedAt) ? wantedAt : Infinity
    // The scout's answer is everybody's: near the end (its planner polls densely), while calls are
    // to spare, it looks four times as often.
    const soon = wantedAt - follower.askedAt
    const eager = soon <= DENSE_MS && this.spare() > this.active / 2
    return eager ? Math.min(wantedAt, follower.askedAt + Math.max(SCOUT_MIN_MS, soon / 4)) : wantedAt
  }

  /**
   * Near the end of a window, calls nobody else needs would be lost: once the first job has run for
   * more than a window (it may be a slow one, while the others' have ended), a held follower may
   * use one.
   */
  private leftOver(wantedAt: number): boolean {
    const now = this.clock.now()
    if (this.windowEnd === null || wantedAt > now) return false
    // Only once the first job has run for more than a window: it may be the slow one.
    const scout = this.scout()
    if (!scout || now - scout.start <= this.windowMs) return false
    const closing = this.windowEnd - now <= Math.max(LAST_CALL_MS, this.windowMs / 10)
    return closing && this.available() > 2 * this.pendingSites + 1
  }

  /**
   * Too few calls left in this window for every site still to start (a create and a status call)
   * and every job followed (a status call), with two to spare for each job followed.
   */
  private scarce(): boolean {
    return this.spare() < this.active * SPARE_PER_FOLLOWER
  }

  /** Calls left in this window beyond one for each job followed and two for each site to start. */
  private spare(): number {
    return this.available() - 2 * this.pendingSites - this.active
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

  private follower(key: object, now: number): Follower {
    let follower = this.followers.get(key)
    if (!follower) {
      // The follower that joined last and has not polled yet is this one (join, then the first poll).
      follower = this.unbound.pop()
      if (!follower) {
        follower = newFollower(now)
        this.order.push(follower)
      }
      this.followers.set(key, follower)
      if (this.followers.size > MAX_FOLLOWERS) this.forgetLeft()
    }
    return follower
  }

  private forgetLeft(): void {
    for (const [key, f] of this.followers) if (f.left) this.followers.delete(key)
  }

  /** Calls that may go now in the current window. */
  private available(): number {
    // A window only assumed to have begun: one request at a time until an answer confirms it.
    if (this.assumed) return this.inFlight.length === 0 ? 1 : 0
    const count = this.remaining ?? this.limit ?? Infinity
    return count - this.inFlight.length
  }

  private send(now: number): number {
    this.inFlight.push(now)
    return 0
  }

  /** Forgets lost requests; moves on once the window has ended. */
  private roll(now: number): void {
    if (this.inFlight.length > 0 && now - this.inFlight[0]! >= REQUEST_TTL_MS)
      this.inFlight = this.inFlight.filter((at) => now - at < REQUEST_TTL_MS)
    if (this.limit === null) return
    if (this.windowEnd !== null && now >= this.windowEnd && now >= this.pausedUntil) {
      // Nobody has confirmed that a new window began: until an answer does, one request at a time.
      this.remaining = this.limit
      this.windowEnd = null
      this.assumed = true
    }
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
  left: boolean
}

function newFollower(start: number): Follower {
  return { start, polledAt: null, wantedAt: null, askedAt: start, left: false }
}

/** A request neither answered nor reported unanswered after this long is forgotten. */
const REQUEST_TTL_MS = 35_000
/** A held follower looks again this often (a sibling may have ended, a window begun). */
const HOLD_RECHECK_MS = 500
/** The scout, with calls to spare, looks four times as often when its planner waits this little... */
const DENSE_MS = 2000
/** ... but never more often than this. */
const SCOUT_MIN_MS = 250
/** The last stretch of a window (at least this, or a tenth of it) when left-over calls go to held followers. */
const LAST_CALL_MS = 2000
/** Status calls to spare per job followed before the batch economises. */
const SPARE_PER_FOLLOWER = 2
/** Requests wait a little past the end of a window (clock differences). */
const SLOT_MARGIN_MS = 50
/** A request that may not go yet asks again this soon when no end of a wait is known. */
const RECHECK_MS = 100
/** With no call left in a window whose end the server never stated: one request this often learns it. */
const UNSTATED_WINDOW_PROBE_MS = 5000
const MAX_FOLLOWERS = 4096

/** A whole number from min to max, or null (absent, not a number, out of bounds). */
function whole(value: string | string[] | undefined, min: number, max: number): number | null {
  const text = headerValue(value)
  if (!text || !/^-?\d+$/.test(text)) return null
  const n = Number(text)
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : null
}

/**
 * `X-RateLimit-Reset` as a time (monotonic clock ms, like `now`), or null when outside the sane
 * bounds of contract §6: epoch seconds (a date, read against the server's `wallNow`: its Date
 * header, else our wall clock; contract §11),
 * or seconds from now, at most RATE_RESET_MAX_AHEAD_MS ahead and not in the past.
 */
function resetTime(value: string | string[] | undefined, now: number, wallNow: number): number | null {
  const text = headerValue(value)
  if (!text || !/^\d+(\.\d+)?$/.test(text)) return null
  const n = Number(text)
  let at: number
  if (n >= 1e9 && n < 1e11) at = now + (n * 1000 - wallNow)
  else if (n * 1000 <= RATE_RESET_MAX_AHEAD_MS) at = now + n * 1000
  else return null
  return at > now - 1000 && at <= now + RATE_RESET_MAX_AHEAD_MS ? Math.max(at, now) : null
}
