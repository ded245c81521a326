// What a secret looks like and the forms it takes when a server or a tool re-encodes it: the
// Redactor registers each form (src/secrets/redactor.ts), the PrefixIndex finds them in text.
import { oneLine } from '../text.js'

/** Shortest value ever treated as a secret: masking "1" or "ok" would blank out ordinary text. */
export const MIN_SECRET_LENGTH = 4
/** What a removed secret reads as. */
export const MASK = '***'
/**
 * Shortest part of a secret scrubbed on its own: a piece of a two-part token (`id|secret`, the
 * framework's personal access token, `user:password`) or one line of a multi-line key. Also the
 * shortest secret matched without regard to case (a server that echoes it upper-cased).
 */
export const PART_MIN_LENGTH = 16

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
export function partsOf(secret: string): string[] {
  return secret.split(/[|:\s]+/).filter((p) => p.length >= PART_MIN_LENGTH && p !== secret && looksSecret(p))
}

/** RFC 3986 percent-encoding (PHP `rawurlencode`): everything but `A-Za-z0-9-_.~`, `!*'()` included. */
export function rawUrlEncode(secret: string): string {
  return encodeURIComponent(secret).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  )
}

/**
 * The forms a secret takes when a server or a tool re-encodes it: raw, one line, JSON-escaped (PHP's
 * `\/` too), every URL and percent encoding below in both cases and encoded twice, HTML-escaped, hex,
 * and base64 (standard and URL-safe) at each of the three byte alignments, so it is found inside a
 * longer base64 text too (`Basic` credentials, a JWT, an encoded blob): only the characters that
 * depend on the secret alone are kept, at least 8 of them.
 */
export function encodings(secret: string): Set<string> {
  const bytes = Buffer.from(secret, 'utf8')
  const out = new Set<string>([secret, oneLine(secret)])
  out.add(JSON.stringify(secret).slice(1, -1))
  // PHP's json_encode escapes every slash.
  out.add(JSON.stringify(secret).slice(1, -1).replace(/\//g, '\\/'))
  const raw = rawUrlEncode(secret)
  const percent = [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')
  // Component, URI, form; RFC 3986 as PHP's `rawurlencode` writes it, PHP's `urlencode`; strict.
  const percentForms = [
    encodeURIComponent(secret),
    encodeURI(secret),
    encodeURIComponent(secret).replace(/%20/g, '+'),
    raw,
    raw.replace(/~/g, '%7E').replace(/%20/g, '+'),
    percent,
    raw.replace(/%2F/g, '/'), // Python's quote(): "/" kept
    encodeURIComponent(secret).replace(/%(3D|2B|24|26|3A|40)/g, decodeURIComponent), // Go's PathEscape
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
