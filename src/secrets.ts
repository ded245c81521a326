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
/** Shortest form handed to the runner's masker: a shorter one would blank out ordinary words in the log. */
const RUNNER_MIN_LENGTH = 8
/**
 * Shortest part of a secret scrubbed on its own: a piece of a two-part token (`id|secret`, the
 * framework's personal access token, `user:password`) or one line of a multi-line key. Also the
 * shortest secret matched without regard to case (a server that echoes it upper-cased).
 */
const PART_MIN_LENGTH = 16

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
   * form long enough to be a secret handed to the runner's masker. A two-part token (`id|secret`,
   * `user:password`) also has each long part scrubbed on its own: a server may echo only that part.
   */
  add(value: string | undefined | null): void {
    if (typeof value !== 'string') return
    const v = value.trim()
    if (v.length < MIN_SECRET_LENGTH || this.strong.has(v)) return
    for (const part of [v, ...partsOf(v)]) {
      for (const variant of encodings(part)) {
        if (variant.length < MIN_SECRET_LENGTH || this.strong.has(variant)) continue
        this.strong.add(variant)
        if (variant.length >= RUNNER_MIN_LENGTH) this.onSecret(variant)
      }
    }
  }

  /**
   * A value found under a credential name in a response (contract §5). It was already removed from
   * the data; this is for server text that repeats it. A secret-looking one is scrubbed everywhere
   * in the forms text carries it in (raw, JSON-escaped, URL-encoded) and handed to the runner once,
   * raw (the runner masks its encodings itself); a run over many sites stays quiet that way. One
   * with white space in it (an SSH private key, a certificate) goes by `addSpaced`.
   */
  addCredential(value: string): void {
    const v = value.trim()
    if (v.length < MIN_SECRET_LENGTH || this.strong.has(v) || this.plain.has(v)) return
    if (/\s/.test(v)) return this.addSpaced(v)
    if (!looksSecret(v)) return this.plain.add(v)
    for (const part of [v, ...partsOf(v)]) {
      for (const variant of [part, JSON.stringify(part).slice(1, -1), encodeURIComponent(part)])
        this.strong.add(variant)
      this.onSecret(part)
    }
  }

  /**
   * A credential with white space or line breaks in it. Every writer folds it onto one line
   * (`oneLine`: each run of white space becomes one space), a server may print it in a message with
   * its lines joined, escaped or cut, and the runner masks only what one log line holds. So: when it
   * has several secret lines, the whole in its raw, JSON-escaped, one-line and white-space-free forms
   * (scrub() skips white space inside a match, so any folding or re-wrapping is found), and each long
   * secret-looking line or word on its own,
   * also handed to the runner (the armour `-----BEGIN ... KEY-----` is words, not a secret). A value
   * with no such part (a passphrase of words) is scrubbed from server text only, as a plain word is.
   */
  private addSpaced(v: string): void {
    const pieces = v.split(/\s+/).filter((p) => p.length >= PART_MIN_LENGTH && looksSecret(p))
    const folds = [v, oneLine(v), v.replace(/\s+/g, ' '), JSON.stringify(v).slice(1, -1)]
    if (pieces.length === 0) {
      for (const form of folds) this.plain.add(form)
      return
    }
    // A key of several secret lines is also found whole, however it is folded or re-wrapped; one
    // secret word among others (`Bearer <token>`) is found as that word, and the rest stays readable.
    if (pieces.length > 1) for (const form of [...folds, v.replace(/\s+/g, '')]) this.strong.add(form)
    for (const piece of pieces) this.addCredential(piece)
  }

  /** Does `text` hold a strong secret (in any of its registered forms, decoded or not)? */
  holds(text: string): boolean {
    if (this.scrub(text) !== text) return true
    const decoded = safeDecode(text.replace(/\+/g, ' '))
    return decoded !== text && this.scrub(decoded) !== decoded
  }

  /**
   * A URL to use or show (the staging URL; wait-for-url sends requests to it): without user-info,
   * credential query parameters, or any query value or fragment that holds a secret of this run
   * (the API token in `?preview=<token>` must not travel to the staging host). Null when a secret is
   * still in it after that (in the host or path): such a URL is neither used nor shown.
   */
  stripUrl(text: string): string | null {
    const clean = stripUrlCredentials(
      text,
      (v) => this.addCredential(v),
      (v) => this.holds(v),
    )
    return this.holds(clean) ? null : clean
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
   * characters or escape sequences, no secret of either kind, no private key block, no credentials
   * in URLs, no workflow command, at most `max` characters. In that order: a secret split by a control character is
   * joined before it is looked for, and the cut comes after the scrub, so no part of a secret survives.
   */
  server(text: unknown, max = MAX_SERVER_TEXT): string {
    if (typeof text !== 'string' && typeof text !== 'number') return ''
    const line = stripUrlCredentialsInText(oneLine(String(text)).replace(PRIVATE_KEY_BLOCK, MASK), (v) =>
      this.addCredential(v),
    )
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
    if (typeof data === 'string' && URL_START.test(data)) return this.stripUrl(data) ?? MASK
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
 * The long parts of a secret that a server may echo alone: `1|AbC...` (the framework's personal
 * access token: id, then the secret), `user:password`.
 */
function partsOf(secret: string): string[] {
  const parts = secret.split(/[|:\s]+/).filter((p) => p.length >= PART_MIN_LENGTH && p !== secret)
  return parts.filter((p) => looksSecret(p))
}

/** RFC 3986 percent-encoding (PHP `rawurlencode`): everything but `A-Za-z0-9-_.~`, `!*'()` included. */
function rawUrlEncode(secret: string): string {
  return encodeURIComponent(secret).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  )
}

/**
 * The forms a secret takes when a server or a tool re-encodes it: raw, one line, JSON-escaped,
 * URL-encoded (component, URI, form; RFC 3986 as PHP's `rawurlencode` writes it, and PHP's
 * `urlencode`), strictly percent-encoded, each percent form in upper and lower case and encoded
 * twice, PHP's JSON (`\/`), HTML-escaped
 * (`&#039;`, `&quot;`...), hex, and base64 (standard and URL-safe) at each of the three byte
 * alignments, so it is found inside a longer base64 text too (`Basic` credentials, a JWT, an encoded
 * blob): only the characters that depend on the secret alone are kept, at least 8 of them. Secrets
 * of PART_MIN_LENGTH or more are also matched without regard to case (PrefixIndex).
 */
export function encodings(secret: string): Set<string> {
  const bytes = Buffer.from(secret, 'utf8')
  const out = new Set<string>([secret, oneLine(secret)])
  out.add(JSON.stringify(secret).slice(1, -1))
  // PHP's json_encode escapes every slash.
  out.add(JSON.stringify(secret).slice(1, -1).replace(/\//g, '\\/'))
  const raw = rawUrlEncode(secret)
  const percent = [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')
  const percentForms = [
    encodeURIComponent(secret),
    encodeURI(secret),
    encodeURIComponent(secret).replace(/%20/g, '+'),
    raw,
    raw.replace(/~/g, '%7E').replace(/%20/g, '+'),
    percent,
  ]
  for (const form of percentForms) {
    out.add(form)
    // Encoded twice (a URL inside a URL's query): every % becomes %25.
    out.add(form.replace(/%/g, '%25'))
    out.add(form.replace(/%[0-9a-f]{2}/gi, (m) => m.toUpperCase()))
    out.add(form.replace(/%[0-9a-f]{2}/gi, (m) => m.toLowerCase()))
  }
  for (const entities of HTML_ESCAPES) out.add(secret.replace(/[&<>"']/g, (c) => entities[c]!))
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

/** HTML escapes as PHP's htmlspecialchars (ENT_QUOTES) and others write them. */
const HTML_ESCAPES: Record<string, string>[] = [
  { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' },
  { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' },
  { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' },
]

/**
 * A PEM private key (SSH, TLS, PGP), whole or cut short, as server text carries it once folded onto
 * one line: removed whether or not a credential field of the answer named it first.
 */
const PRIVATE_KEY_BLOCK = /-----BEGIN ([A-Z0-9 ]*PRIVATE KEY[A-Z0-9 ]*)-----.*?(?:-----END \1-----|$)/g

const URL_START = /^[a-z][a-z0-9+.-]*:\/\//i

/**
 * `https://user:pass@host/?token=x&page=2` -> `https://host/?page=2`; removed values go to `found`.
 * `known` says whether a value is a secret of the run (in any of its encodings): a query parameter
 * holding one goes whatever its name, and so does a fragment.
 */
export function stripUrlCredentials(
  text: string,
  found: (value: string) => void = () => {},
  known: (value: string) => boolean = () => false,
): string {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return stripUrlCredentialsInText(text, found)
  }
  let changed = false
  for (const [name, value] of [...url.searchParams]) {
    if (!known(value) && !known(name)) continue
    url.searchParams.delete(name)
    changed = true
  }
  if (url.hash && known(url.hash.slice(1))) {
    url.hash = ''
    changed = true
  }
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

/**
 * A value the user gave, as a refusal may quote it (issue 24 §6): at most `max` characters, on one
 * line, with no credentials. Everything before the last `@` of a URL-like value goes (user-info,
 * with or without a scheme, even one that does not parse: `https://user:pa ss@host`,
 * `user:pass@host`), and so does every credential query value (`?token=...`). Cut after the removal,
 * so no part of a password is left at the cut. Every input error (InputError, the CLI's UsageError)
 * passes its whole text through `withoutCredentials` too.
 */
export function echoed(value: string, max = 80): string {
  const line = oneLine(value)
  const noUserInfo = line.includes('@') ? line.replace(/^([a-z][a-z0-9+.-]*:\/\/)?.*@/i, `$1${MASK}@`) : line
  return bound(withoutCredentials(noUserInfo), max)
}

/** Free text with the user-info and credential query values of every URL in it masked. */
export function withoutCredentials(text: string): string {
  return stripUrlCredentialsInText(text, () => {}, MASK)
}

/** The same inside free text: user-info and credential query values of every URL in it. */
function stripUrlCredentialsInText(text: string, found: (value: string) => void, userInfo = ''): string {
  return text
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@]+)@/gi, (_, scheme: string, info: string) => {
      for (const part of info.split(':')) if (part) found(safeDecode(part))
      return userInfo ? `${scheme}${userInfo}@` : scheme
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
class PrefixIndex {
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
