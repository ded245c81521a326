import { isCredentialField } from '../contract.js'
import { MAX_LINE, MAX_SERVER_TEXT, bound, neutralizeCommands, oneLine } from '../text.js'
import { MASK, MIN_SECRET_LENGTH, PART_MIN_LENGTH, encodings, looksSecret, partsOf } from './encodings.js'
import { PrefixIndex } from './prefix-index.js'
import { URL_START, ownSecrets, safeDecode, stripUrlCredentials, stripUrlCredentialsInText } from './urls.js'

/** Response data nested deeper than this is dropped, not walked. */
const MAX_DEPTH = 32
/** Shortest form handed to the runner's masker: a shorter one would blank out ordinary words in the log. */
const RUNNER_MIN_LENGTH = 8

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
      ownSecrets.add(part)
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
   * secret-looking line or word on its own, also handed to the runner (the armour `-----BEGIN ...
   * KEY-----` is words, not a secret). A value with no such part (a passphrase of words) is scrubbed
   * from server text only, as a plain word is.
   */
  private addSpaced(v: string): void {
    const pieces = v.split(/\s+/).filter((p) => p.length >= PART_MIN_LENGTH && looksSecret(p))
    const folds = [v, oneLine(v), v.replace(/\s+/g, ' '), JSON.stringify(v).slice(1, -1)]
    if (pieces.length === 0) {
      for (const form of folds) this.plain.add(form)
      return
    }
    // One secret word among others (`Bearer <token>`) is found as that word; the rest stays readable.
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

/**
 * A PEM private key (SSH, TLS, PGP), whole or cut short, as server text carries it once folded onto
 * one line: removed whether or not a credential field of the answer named it first.
 */
const PRIVATE_KEY_BLOCK = /-----BEGIN ([A-Z0-9 ]*PRIVATE KEY[A-Z0-9 ]*)-----.*?(?:-----END \1-----|$)/g
