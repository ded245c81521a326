// Secrets found in text: the index the Redactor (src/secrets/redactor.ts) scrubs with.
import { MASK, MIN_SECRET_LENGTH, PART_MIN_LENGTH } from './encodings.js'

/** Shortest secret still found when white space was put inside it. */
const SPACED_MIN_LENGTH = 12

/** ASCII letters in lower case, every other character kept: the same length, so positions still match. */
function fold(text: string): string {
  return text.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32))
}

/**
 * The key of the characters at `i` and `i + 1` of `text` (positions must exist): a number, so a
 * lookup at every position of a long text creates nothing. Two pairs may share a key; a hit is
 * always checked whole.
 */
function pairAt(text: string, i: number): number {
  return (text.charCodeAt(i) & 0x7fff) * 0x8000 + (text.charCodeAt(i + 1) & 0x7fff)
}

/**
 * Secrets looked up by their first characters: scrubbing stays linear in the text however many
 * secrets a large run has collected (every site's staging credentials), longest match first, and
 * creates no string per position (a run's outputs of a thousand sites are scrubbed whole). Those
 * of PART_MIN_LENGTH or more match without regard to (ASCII) case: a server that echoes the token
 * upper-cased still echoes it, and nothing that long matches ordinary text by chance.
 */
export class PrefixIndex {
  private readonly byPrefix = new Map<number, string[]>()
  private readonly byFoldedPrefix = new Map<number, string[]>()
  private readonly all = new Set<string>()

  has(secret: string): boolean {
    return this.all.has(secret)
  }

  add(secret: string): void {
    if (secret.length < MIN_SECRET_LENGTH || this.all.has(secret)) return
    this.all.add(secret)
    const caseless = secret.length >= PART_MIN_LENGTH
    const stored = caseless ? fold(secret) : secret
    const index = caseless ? this.byFoldedPrefix : this.byPrefix
    const key = pairAt(stored, 0)
    const list = index.get(key) ?? []
    if (list.includes(stored)) return
    list.push(stored)
    list.sort((a, b) => b.length - a.length)
    index.set(key, list)
  }

  /** `text` with every secret masked; `spaced`: white space inside a match is skipped over. */
  replace(text: string, spaced = false): string {
    if (this.all.size === 0 || text.length < MIN_SECRET_LENGTH) return text
    const strict = masked(text, this.spans(text, 0))
    return spaced && /\s/.test(strict) ? this.replaceSpaced(strict) : strict
  }

  /** The length of the longest secret at `i` of `text` (`folded` is fold(text)), at least `min` long; 0 if none. */
  private hitAt(text: string, folded: string | null, i: number, min: number): number {
    const exact = this.byPrefix.get(pairAt(text, i))?.find((s) => s.length >= min && text.startsWith(s, i))
    const caseless =
      folded === null
        ? undefined
        : this.byFoldedPrefix.get(pairAt(folded, i))?.find((s) => s.length >= min && folded.startsWith(s, i))
    return Math.max(exact?.length ?? 0, caseless?.length ?? 0)
  }

  /** Where the secrets in `text` are (at least `min` long), the longest at each place, left to right. */
  private spans(text: string, min: number): [number, number][] {
    // The text in lower case, when some secret is matched without regard to case.
    const folded = this.byFoldedPrefix.size > 0 ? fold(text) : null
    const spans: [number, number][] = []
    for (let i = 0; i <= text.length - MIN_SECRET_LENGTH;) {
      const hit = this.hitAt(text, folded, i, min)
      if (hit > 0) {
        spans.push([i, i + hit])
        i += hit
      } else i++
    }
    return spans
  }

  /**
   * Matches on the text without its white space, then masks the original span of each match. Only
   * secrets of SPACED_MIN_LENGTH or more: a short one would match ordinary words across a space.
   */
  private replaceSpaced(text: string): string {
    // The text's runs without white space, put together; where each run starts in both.
    let compact = ''
    const from: number[] = []
    const to: number[] = []
    for (const run of text.matchAll(/\S+/g)) {
      from.push(compact.length)
      to.push(run.index)
      compact += run[0]
    }
    /** Where the `j`th character of `compact` is in `text`. */
    const original = (j: number): number => {
      let lo = 0
      let hi = from.length - 1
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1
        if (from[mid]! <= j) lo = mid
        else hi = mid - 1
      }
      return to[lo]! + (j - from[lo]!)
    }
    const spans = this.spans(compact, SPACED_MIN_LENGTH)
    return masked(
      text,
      spans.map(([start, end]) => [original(start), original(end - 1) + 1]),
    )
  }
}

/** `text` with each span (in order, not overlapping) replaced by the mask. */
function masked(text: string, spans: [number, number][]): string {
  if (spans.length === 0) return text
  let out = ''
  let copied = 0
  for (const [start, end] of spans) {
    out += text.slice(copied, start) + MASK
    copied = end
  }
  return out + text.slice(copied)
}
