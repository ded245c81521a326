// What the waiting loop (poll-loop.ts) and the batch (batch.ts) tell and ask of the poll scheduler
// (poll-scheduler.ts), which decides when each job's status call may go.

/** What the batch tells the scheduler of the calls still to come (contract §6 r3, CALLS_PER_RUN: every call counted). */
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

/** What a follower tells the scheduler when it asks to poll. */
export interface PollAsk {
  /** When its own planner wants the next poll. */
  wantedAt: number
  /** When its own job's progress says it ends, at the earliest and at the latest (null: nothing tells yet). */
  end: { from: number; to: number } | null
  /** Answers it has had: one more than last time means the poll approved last went. */
  answers: number
}

/** What the waiting loop asks of the scheduler. */
export interface PollGate {
  /**
   * A follower of one job joins for as long as it polls; call the result when it stops. `signal`:
   * the run's cancellation, which wakes it wherever it is held.
   */
  join(key: object, signal?: AbortSignal): () => void
  /**
   * When the follower of `key` may poll. `final`: poll now (`at` is now); else ask again at `at`, or
   * as soon as `wake` aborts (only a follower held for news gets one: it is woken alone).
   */
  pollAt(key: object, ask: PollAsk): { at: number; final: boolean; wake?: AbortSignal }
  /** Whether a best-effort call (a read that only fills a URL) may go now without delaying any job's end. */
  spareNow(): boolean
}
