import { isCredentialField, isCredentialQueryParam } from './contract.js'
import { MAX_LINE, MAX_SERVER_TEXT, bound, neutralizeCommands, oneLine } from './text.js'

/** Shortest value ever treated as a secret: masking "1" or "ok" would blank out ordinary text. */
const MIN_SECRET_LENGTH = 4
/** What a removed secret reads as. */
export const MASK = '***'
/** Shortest secret still found when white space was put inside it. */
const SPACED_MIN_LENGTH = 12
/** Response data nested deeper than this is dropped, not walked. */
const MAX_DEPTH = 32

/**
 * Knows every secret of the run and removes it from text before anything is written anywhere.
 *
 * Two kinds of secret:
 * - **strong**: the API token (and the GitHub token), plus response credentials that look like
 *   secrets (long, mixed characters). Scrubbed from every text, ours included, in their common
 *   encodings (raw, JSON-escaped, URL- and percent-encoded, base64 at any alignment, hex), and handed
 *   to the front end's masker (`core.setSecret`) through `onSecret`.
 * - **plain**: a response credential that looks like an ordinary word (`null`, `true`, `succeeded`,
 *   a six-letter word). Scrubbed from server text only, never registered with the runner: masking it
 *   everywhere would turn our own `result: succeeded` into `***`.
 *
 * Response data never needs either list to be safe: `stripCredentials` removes credential values from
 * the parsed data itself (contract §5). The lists are for server *text* that repeats them.
 */
export class Redactor {
  private readonly strong = new PrefixIndex()
  private readonly plain = new PrefixIndex()

  constructor(private readonly onSecret: (value: string) => void = () => {}) {}

  /**
   * A secret of the run (the token): scrubbed everywhere, in every common encoding, and each
   * form handed to the runner's masker.
   */
  add(value: string | undefined | null): void {
    if (typeof value !== 'string') return
    const v = value.trim()
    if (v.length < MIN_SECRET_LENGTH || this.strong.has(v)) return
    for (const variant of encodings(v)) {
      if (variant.length < MIN_SECRET_LENGTH || this.strong.has(variant)) continue
      this.strong.add(variant)
      this.onSecret(variant)
    }
  }

  /**
   * A value found under a credential name in a response (contract §5). It was already removed from
   * the data; this is for server text that repeats it. A secret-looking one is scrubbed everywhere
   * in the forms text carries it in (raw, JSON-escaped, URL-encoded) and handed to the runner once,
   * raw (the runner masks its encodings itself); a run over many sites stays quiet that way.
   */
  addCredential(value: string): void {
    const v = value.trim()
    if (v.length < MIN_SECRET_LENGTH || this.strong.has(v) || this.plain.has(v)) return
    if (!looksSecret(v)) return this.plain.add(v)
    for (const variant of [v, JSON.stringify(v).slice(1, -1), encodeURIComponent(v)]) this.strong.add(variant)
    this.onSecret(v)
  }

  /**
   * Removes every strong secret (for our own text: log lines, outputs, errors), even when white
   * space or a line break was put inside it (a wrapped base64 text, a token split across lines).
   */
  scrub(text: string): string {
    return this.strong.replace(text, true)
  }

  /** One line the action or the CLI writes: inert, without secrets, bounded. */
  inert(text: string, max = MAX_LINE): string {
    return bound(neutralizeCommands(this.scrub(oneLine(text))), max)
  }

  /**
   * Text that came from a server (a message, a reason, a status word, an id): one line, no control
   * characters or escape sequences, no secret of either kind, no credentials in URLs, no workflow
   * command, at most `max` characters. In that order: a secret split by a control character is
   * joined before it is looked for, and the cut comes after the scrub, so no part of a secret survives.
   */
  server(text: unknown, max = MAX_SERVER_TEXT): string {
    if (typeof text !== 'string' && typeof text !== 'number') return ''
    const line = stripUrlCredentialsInText(oneLine(String(text)), (v) => this.addCredential(v))
    return bound(neutralizeCommands(this.plain.replace(this.scrub(line))), max)
  }

  /**
   * A copy of response data with the value of every credential field replaced by `***`, at any
   * depth, in objects and arrays (contract §5); URLs lose user-info and credential query parameters.
   * The removed values are remembered, so server text that repeats them is scrubbed too.
   */
  stripCredentials(data: unknown, depth = 0): unknown {
    if (depth > MAX_DEPTH) return null
    if (Array.isArray(data)) return data.map((item) => this.stripCredentials(item, depth + 1))
    if (data !== null && typeof data === 'object') {
      const out: Record<string, unknown> = {}
      for (const [name, value] of Object.entries(data as Record<string, unknown>)) {
        if (isCredentialField(name)) {
          this.collect(value, depth + 1)
          out[name] = MASK
        } else out[name] = this.stripCredentials(value, depth + 1)
      }
      return out
    }
    if (typeof data === 'string' && URL_START.test(data))
      return stripUrlCredentials(data, (v) => this.addCredential(v))
    return data
  }

  /** Every string inside a credential field's value (which may be an object or an array). */
  private collect(value: unknown, depth: number): void {
    if (depth > MAX_DEPTH) return
    if (typeof value === 'string') this.addCredential(value)
    else if (Array.isArray(value)) for (const item of value) this.collect(item, depth + 1)
    else if (value !== null && typeof value === 'object')
      for (const item of Object.values(value)) this.collect(item, depth + 1)
  }
}

/** Long and mixed enough to be a secret rather than a word: only such values are masked everywhere. */
export function looksSecret(value: string): boolean {
  if (/\s/.test(value)) return false
  if (value.length >= 24) return true
  if (value.length < 8) return false
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9\s_.-]/].filter((c) => c.test(value)).length
  return classes >= 2
}

/**
 * The forms a secret takes when a server or a tool re-encodes it: raw, JSON-escaped, URL-encoded
 * (component, URI, form), strictly percent-encoded (upper and lower case), hex, and base64 (standard
 * and URL-safe) at each of the three byte alignments, so it is found inside a longer base64 text too
 * (`Basic` credentials, a JWT, an encoded blob): only the characters that depend on the secret alone
 * are kept, at least 8 of them.
 */
export function encodings(secret: string): Set<string> {
  const bytes = Buffer.from(secret, 'utf8')
  const out = new Set<string>([secret, oneLine(secret)])
  out.add(JSON.stringify(secret).slice(1, -1))
  out.add(encodeURIComponent(secret))
  out.add(encodeURI(secret))
  out.add(encodeURIComponent(secret).replace(/%20/g, '+'))
  const percent = [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')
  out.add(percent.toUpperCase())
  out.add(percent)
  out.add(bytes.toString('hex'))
  out.add(bytes.toString('hex').toUpperCase())
  for (let offset = 0; offset < 3; offset++) {
    const padded = Buffer.concat([Buffer.alloc(offset), bytes])
    // Characters before `skip` mix in the unknown bytes in front; the last partial group, those after.
    const skip = [0, 2, 3][offset]!
    const whole = Math.floor(padded.length / 3) * 4
    for (const encoded of [padded.toString('base64'), padded.toString('base64url')]) {
      const stable = encoded.slice(skip, whole)
      if (stable.length >= 8) out.add(stable)
    }
  }
  out.delete('')
  return out
}

const URL_START = /^[a-z][a-z0-9+.-]*:\/\//i

/** `https://user:pass@host/?token=x&page=2` -> `https://host/?page=2`; removed values go to `found`. */
export function stripUrlCredentials(text: string, found: (value: string) => void = () => {}): string {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return stripUrlCredentialsInText(text, found)
  }
  let changed = false
  if (url.username || url.password) {
    for (const part of [url.username, url.password]) if (part) found(safeDecode(part))
    url.username = ''
    url.password = ''
    changed = true
  }
  for (const [name, value] of [...url.searchParams]) {
    if (!isCredentialQueryParam(name)) continue
    if (value) found(value)
    url.searchParams.delete(name)
    changed = true
  }
  return changed ? url.toString() : text
}

/** The same inside free text: user-info and credential query values of every URL in it. */
function stripUrlCredentialsInText(text: string, found: (value: string) => void): string {
  return text
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@]+)@/gi, (_, scheme: string, info: string) => {
      for (const part of info.split(':')) if (part) found(safeDecode(part))
      return scheme
    })
    .replace(/([?&;])([^=&\s#]+)=([^&\s#]*)/g, (whole, sep: string, name: string, value: string) => {
      if (!isCredentialQueryParam(safeDecode(name))) return whole
      if (value) found(safeDecode(value))
      return `${sep}${name}=${MASK}`
    })
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/**
 * Secrets looked up by their first four characters: scrubbing stays linear in the text however many
 * secrets a large run has collected (every site's staging credentials), longest match first.
 */
class PrefixIndex {
  private readonly byPrefix = new Map<string, string[]>()
  private readonly all = new Set<string>()

  has(secret: string): boolean {
    return this.all.has(secret)
  }

  add(secret: string): void {
    if (secret.length < MIN_SECRET_LENGTH || this.all.has(secret)) return
    this.all.add(secret)
    const key = secret.slice(0, MIN_SECRET_LENGTH)
    const list = this.byPrefix.get(key) ?? []
    list.push(secret)
    list.sort((a, b) => b.length - a.length)
    this.byPrefix.set(key, list)
  }

  /** `text` with every secret masked; `spaced`: white space inside a match is skipped over. */
  replace(text: string, spaced = false): string {
    if (this.all.size === 0 || text.length < MIN_SECRET_LENGTH) return text
    const strict = this.replaceStrict(text)
    return spaced && /\s/.test(strict) ? this.replaceSpaced(strict) : strict
  }

  private replaceStrict(text: string): string {
    let out = ''
    let copiedTo = 0
    for (let i = 0; i <= text.length - MIN_SECRET_LENGTH;) {
      const candidates = this.byPrefix.get(text.slice(i, i + MIN_SECRET_LENGTH))
      const hit = candidates?.find((s) => text.startsWith(s, i))
      if (hit) {
        out += text.slice(copiedTo, i) + MASK
        i += hit.length
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
    const spans: [number, number][] = []
    for (let j = 0; j <= compact.length - MIN_SECRET_LENGTH;) {
      const candidates = this.byPrefix.get(compact.slice(j, j + MIN_SECRET_LENGTH))
      const hit = candidates?.find((s) => s.length >= SPACED_MIN_LENGTH && compact.startsWith(s, j))
      if (hit) {
        spans.push([at[j]!, at[j + hit.length - 1]! + 1])
        j += hit.length
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
