// What the client (client.ts) and the poll scheduler (staging/poll-scheduler.ts) ask of the run's
// window ledger (window-ledger.ts): a call for each request, and how many calls are left and when
// more come back.

export type Headers = Record<string, string | string[] | undefined>

/** What the client asks of the ledger around each request it sends. */
export interface RequestLedger {
  /**
   * 0 when a request may go now (its call is counted), else how long to wait before asking again.
   * `deadline`: when the request must have gone (the run's timeout).
   */
  reserve(deadline?: number): number
  /** Aborted when an answer may have given calls back: a request waiting on `reserve` asks again at once. */
  readonly changed: AbortSignal
  /** An answer came: what its status and headers say of the limit. */
  observe(status: number, headers: Headers): void
  /** A request that went got no answer (a network error, a timeout, a cancellation). */
  unanswered(): void
  /** A request starts (+1) or stops (-1) waiting for a call: the scheduler leaves it the calls that come. */
  waiting?(delta: number): void
  /** The run's cancellation, when it aborts `changed` too (a waiter then needs no other signal). */
  readonly cancelledBy?: AbortSignal
}

/** What the poll scheduler reads of the ledger. */
export interface CallSupply {
  /** Calls per window, once an answer has said (null: not known, or no limit). */
  readonly limit: number | null
  readonly windowMs: number
  /** Calls that may go now. */
  available(): number
  /** When `n` more calls than now will have come back (now when they are there already). */
  backBy(n: number): number
  /** How many more calls than now will have come back by `t` (within a window from now). */
  backWithin(t: number): number
  /** Requests waiting for a call now (the sites' requests, polls, reads): theirs before any look. */
  readonly waiters: number
}
