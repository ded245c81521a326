// The calls that hold the rate window, as the window ledger (window-ledger.ts) keeps them.

/** A call the server counts: ours (sent, maybe answered) or another client's on the same token. */
export interface Slot {
  sentAt: number
  answeredAt: number | null
  /** When it stops counting, as far as we can tell (Infinity while in flight). */
  until: number
  foreign: boolean
  /** Sent to learn whether the window is shorter than assumed (see WindowLedger.probing). */
  probe?: boolean
}

/**
 * The slots of the window, in the order the calls were sent. A batch makes thousands of calls a
 * minute where no limit is stated, so no answer looks through all of them: the earliest end is
 * known (expiry looks only once it is reached), and the search for the oldest call in flight starts
 * where the last one ended (answers go to the oldest, so every call of the run before it is answered).
 */
export class Slots {
  private list: Slot[] = []
  /** No slot stops counting before this (a lower bound). */
  private nextExpiry = Infinity
  /** Every call of the run before this index is answered. */
  private flyingFrom = 0

  get all(): readonly Slot[] {
    return this.list
  }

  get length(): number {
    return this.list.length
  }

  add(slot: Slot): Slot {
    this.list.push(slot)
    this.nextExpiry = Math.min(this.nextExpiry, slot.until)
    return slot
  }

  /** The slot counts until `until`. */
  holdUntil(slot: Slot, until: number): void {
    slot.until = until
    this.nextExpiry = Math.min(this.nextExpiry, until)
  }

  remove(gone: ReadonlySet<Slot>): void {
    this.list = this.list.filter((s) => !gone.has(s))
    this.flyingFrom = 0
  }

  /** Drops the slots that stopped counting by `now`. */
  expire(now: number): void {
    if (now < this.nextExpiry) return
    this.list = this.list.filter((s) => s.until > now)
    this.flyingFrom = 0
    this.nextExpiry = this.list.reduce((min, s) => Math.min(min, s.until), Infinity)
  }

  /** The request an answer (or a failure) is taken to be for: the oldest of the run's in flight. */
  oldestInFlight(): Slot | undefined {
    for (let i = Math.min(this.flyingFrom, this.list.length); i < this.list.length; i++) {
      const s = this.list[i]!
      if (s.answeredAt === null && !s.foreign) {
        this.flyingFrom = i
        return s
      }
    }
    this.flyingFrom = this.list.length
    return undefined
  }
}
