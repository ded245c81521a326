// Secrets found in text: the index the Redactor (src/secrets/redactor.ts) scrubs with.
import { MASK, MIN_SECRET_LENGTH, PART_MIN_LENGTH } from './encodings.js'

/** Shortest secret still found when white space was put inside it. */
const SPACED_MIN_LENGTH = 12

/** ASCII letters in lower case, every other character kept: the same length, so positions still match. */
function fold(text: string): string {
  return text.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32))
}

/**
 * Secrets looked up by their first four characters: scrubbing stays linear in the text however many
 * secrets a large run has collected (every site's staging credentials), longest match first. Those
 * of PART_MIN_LENGTH or more match without regard to (ASCII) case: a server that echoes the token
 * upper-cased still echoes it, and nothing that long matches ordinary text by chance.
 */
export class PrefixIndex {
  private readonly byPrefix = new Map<string, string[]>()
  private readonly byFoldedPrefix = new Map<string, string[]>()
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
    const key = stored.slice(0, MIN_SECRET_LENGTH)
    const list = index.get(key) ?? []
    if (list.includes(stored)) return
    list.push(stored)
    list.sort((a, b) => b.length - a.length)
    index.set(key, list)
  }

  /** `text` with every secret masked; `spaced`: white space inside a match is skipped over. */
  replace(text: string, spaced = false): string {
    if (this.all.size === 0 || text.length < MIN_SECRET_LENGTH) return text
    const strict = this.replaceStrict(text)
    return spaced && /\s/.test(strict) ? this.replaceSpaced(strict) : strict
  }

  /** The length of the longest secret at `i` of `text` (`folded` is fold(text)), at least `min` long; 0 if none. */
  private hitAt(text: string, folded: string, i: number, min = 0): number {
    const exact = this.byPrefix
      .get(text.slice(i, i + MIN_SECRET_LENGTH))
      ?.find((s) => s.length >= min && text.startsWith(s, i))
    const caseless = this.byFoldedPrefix
      .get(folded.slice(i, i + MIN_SECRET_LENGTH))
      ?.find((s) => s.length >= min && folded.startsWith(s, i))
    return Math.max(exact?.length ?? 0, caseless?.length ?? 0)
  }

  private replaceStrict(text: string): string {
    const folded = fold(text)
    let out = ''
    let copiedTo = 0
    for (let i = 0; i <= text.length - MIN_SECRET_LENGTH;) {
      const hit = this.hitAt(text, folded, i)
      if (hit > 0) {
        out += text.slice(copiedTo, i) + MASK
        i += hit
        copiedTo = i
      } else i++
    }
    return copiedTo === 0 ? text : out + text.slice(copiedTo)
  }

  /**
   * Matches on the text without its white space, then masks the original span of each match. Only
   * secrets of SPACED_MIN_LENGTH or more: a short one would match ordinary words across a space.
   */
  private replaceSpaced(text: string): string {
    const at: number[] = []
    let compact = ''
    for (let i = 0; i < text.length; i++)
      if (!/\s/.test(text[i]!)) {
        at.push(i)
        compact += text[i]
      }
    const folded = fold(compact)
    const spans: [number, number][] = []
    for (let j = 0; j <= compact.length - MIN_SECRET_LENGTH;) {
      const hit = this.hitAt(compact, folded, j, SPACED_MIN_LENGTH)
      if (hit > 0) {
        spans.push([at[j]!, at[j + hit - 1]! + 1])
        j += hit
      } else j++
    }
    if (spans.length === 0) return text
    let out = ''
    let from = 0
    for (const [start, end] of spans) {
      out += text.slice(from, start) + MASK
      from = end
    }
    return out + text.slice(from)
  }
}
