import { overrun, type Follower } from './poll-follower.js'

/**
 * What a batch's poll scheduler (poll-scheduler.ts) has learnt of how long its jobs take (ms): from
 * the ends its jobs' readings agree on, from the jobs that ended, and from the finals that found
 * their job still running (how far the bars misled).
 */
export class JobLengths {
  /** The shortest job the readings allow (ends two readings agree on). */
  shortest = Infinity
  /** The longest job that ended. */
  longest = 0
  /** The longest job any confirmed end or ended job gave: more is news for held followers. */
  private longestEnd = 0
  /** A final poll found its job still running: progress alone is not trusted for the others' finals. */
  misled = false
  /** How far such finals found their jobs past the ends their readings gave (a factor on the length). */
  private stretch = 1

  /** A job's length as bounded by its own progress (`shortest`), or as it ended (both): whether that is news. */
  measured(shortest: number, ended: number | null, latest = ended ?? 0): boolean {
    const news =
      shortest < this.shortest || (ended !== null && ended > this.longest) || latest > this.longestEnd
    this.shortest = Math.min(this.shortest, Math.max(1, shortest))
    if (ended !== null) this.longest = Math.max(this.longest, ended)
    this.longestEnd = Math.max(this.longestEnd, latest)
    return news
  }

  /** The final poll of `f`, answered at `now`, found its job still running. */
  missed(f: Follower, now: number): void {
    this.misled = true
    this.stretch = Math.max(this.stretch, overrun(f, now))
  }

  /** The factor on the lengths that readings give: 1 until a bar has misled. */
  stretchNow(): number {
    return this.misled ? this.stretch : 1
  }

  /**
   * The longest job the batch expects now: the longest that ended, and every running job's latest
   * end by its current readings (a reading its later ones superseded predicts nothing any more),
   * stretched by how far the bars misled; unless `all`, only ends that two readings agree on (one
   * reading tells little of how long such jobs take: a plateau of the bar makes it late, a burst early).
   */
  longestExpected(followers: Iterable<Follower>, all: boolean): number {
    const stretch = all ? this.stretchNow() : 1
    let longest = this.longest
    for (const f of followers)
      if (f.end && (all || f.agreed)) longest = Math.max(longest, stretch * (f.end.to - f.start))
    return longest
  }
}
