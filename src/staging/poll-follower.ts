/** One job's follower, as the poll scheduler (poll-scheduler.ts) keeps it. */
export interface Follower {
  /** When it joined: about when its job was accepted. */
  start: number
  /** When it last polled. */
  polledAt: number | null
  /** Its job's end by its own progress. */
  end: { from: number; to: number } | null
  answers: number
  /** Its last two readings agree on its end (see agrees). */
  agreed: boolean
  /** Its final was timed by the longest job expected, not by its own end. */
  blind: boolean
  /** The poll approved last, until it is answered: a look (counted against the spare) or the final one. */
  approved: 'look' | 'final' | null
  left: boolean
  /** Its own wake-up while held (the run's cancellation aborts it too). */
  wake: AbortController | null
}

export function newFollower(start: number): Follower {
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

/**
 * Whether a new reading's end agrees with the one before: a job's end is pinned only once two
 * readings in a row agree on it, the later one past half of it (a bar need not be linear: one
 * reading, or early readings of one straight stretch, may agree with nothing later).
 */
export function agrees(f: Follower, end: { from: number; to: number } | null, now: number): boolean {
  if (end === null || f.end === null) return false
  return near(end.to, f.end.to, f.start) && now - f.start >= CONFIRM_AFTER * (end.to - f.start)
}

/** Its end is pinned: two readings agree on it, and its window is narrow. */
export function pinned(f: Follower): boolean {
  return f.agreed && f.end !== null && near(f.end.from, f.end.to, f.start)
}

export function wakeUp(f: Follower): void {
  f.wake?.abort()
  f.wake = null
}

export function sameEnd(a: { from: number; to: number }, b: { from: number; to: number } | null): boolean {
  return b !== null && a.from === b.from && a.to === b.to
}

/**
 * Its final poll by its own latest end, a margin after it; `stretch`: a factor on the length its
 * readings give (how far the batch's bars have misled).
 */
export function ownFinal(f: Follower, stretch = 1): number {
  return finalAfter(f.start, stretch * ((f.end?.to ?? Infinity) - f.start)) ?? Infinity
}

/** The final poll of a job that started at `start` and lasts `length` (null: no length known). */
export function finalAfter(start: number, length: number): number | null {
  return length > 0 ? start + length + FINAL_MARGIN * length + FINAL_MARGIN_MS : null
}

/** A final poll at `now` found its job running: how far past the end its readings gave (a factor). */
export function overrun(f: Follower, now: number): number {
  return f.end ? (now - f.start) / Math.max(1, f.end.to - f.start) : 1
}

/** Two ends of a job that started at `start` within NARROW of its length (and NARROW_MS) of each other. */
function near(a: number, b: number, start: number): boolean {
  return Math.abs(b - a) <= NARROW * (Math.max(a, b) - start) + NARROW_MS
}

/** The final poll goes this much after the latest end (a fraction of the length, plus this). */
const FINAL_MARGIN = 0.01
const FINAL_MARGIN_MS = 100
/** A job's end is pinned when its window is this narrow (a fraction of its length, plus this). */
const NARROW = 0.04
const NARROW_MS = 400
/** A reading confirms an end only this far (a fraction) into the job it predicts. */
const CONFIRM_AFTER = 0.5
