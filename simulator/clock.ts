/**
 * Where the simulator's API core reads the time. The HTTP server uses the real clock; a benchmark or
 * a test can pass a fake one and move it by hand: jobs end and rate windows roll at that clock's times.
 */
export interface Clock {
  /** ms since the epoch. */
  now(): number
}

export const realClock: Clock = { now: () => Date.now() }

/** A clock that moves only when told: for running the API core in virtual time. */
export class ManualClock implements Clock {
  constructor(private current = Date.UTC(2026, 0, 1)) {}

  now(): number {
    return this.current
  }

  /** Moves the clock forward by `ms` (never backwards). */
  advance(ms: number): number {
    if (!(ms >= 0)) throw new Error('a clock only moves forward')
    this.current += ms
    return this.current
  }

  set(ms: number): void {
    if (ms < this.current) throw new Error('a clock only moves forward')
    this.current = ms
  }
}
