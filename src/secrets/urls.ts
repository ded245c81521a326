// Credentials in URLs: removed from a URL we use or show, from free text, and from a value the
// user gave that a refusal quotes (`echoed`, issue 24 §6).
import { fragmentCredentials, isCredentialQueryParam } from '../contract.js'
import { bound, oneLine } from '../text.js'
import { MASK, looksSecret } from './encodings.js'
import { PrefixIndex } from './prefix-index.js'

/** A query value that is the mask followed only by closing punctuation (`***"`, `***).`). */
const MASKED_ALREADY = /^\*\*\*["'`)\]>.,:;!?…]*$/

/** The run's tokens (Redactor.add), for `echoed`. */
export const ownSecrets = new PrefixIndex()

export const URL_START = /^[a-z][a-z0-9+.-]*:\/\//i

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
  // Whatever is removed changes the URL as written: unchanged, the text is returned as it came.
  const before = url.href
  for (const [name, value] of [...url.searchParams])
    if (known(value) || known(name)) url.searchParams.delete(name)
  if (url.hash && known(url.hash.slice(1))) url.hash = ''
  if (fragmentCredentials(url).length) {
    for (const value of new URLSearchParams(url.hash.slice(1)).values()) if (value) found(value)
    url.hash = ''
  }
  for (const part of [url.username, url.password]) if (part) found(safeDecode(part))
  url.username = ''
  url.password = ''
  for (const [name, value] of [...url.searchParams]) {
    if (!isCredentialQueryParam(name)) continue
    if (value) found(value)
    url.searchParams.delete(name)
  }
  return url.href === before ? text : url.href
}

/**
 * A value the user gave, as a refusal may quote it (issue 24 §6): at most `max` characters, on one
 * line, with no credentials. Everything before the last `@` of a URL-like value goes (user-info,
 * with or without a scheme, even one that does not parse: `https://user:pa ss@host`,
 * `user:pass@host`), and so does every credential query value (`?token=...`). Cut after the removal,
 * so no part of a password is left at the cut, nor of the run's token (masked first: cut, it is not found whole). Every
 * input error (InputError, the CLI's UsageError) passes its whole text through `withoutCredentials` too.
 */
export function echoed(value: string, max = 80): string {
  const line = ownSecrets.replace(oneLine(value))
  const noUserInfo = line.includes('@') ? line.replace(/^([a-z][a-z0-9+.-]*:\/\/)?.*@/i, `$1${MASK}@`) : line
  return bound(withoutCredentials(noUserInfo), max)
}

/** Free text with the user-info and credential query values of every URL in it masked. */
export function withoutCredentials(text: string): string {
  return stripUrlCredentialsInText(text, () => {}, MASK)
}

/** The same inside free text: user-info and credential query values of every URL in it. */
export function stripUrlCredentialsInText(
  text: string,
  found: (value: string) => void,
  userInfo = '',
  nested = false,
): string {
  return text
    .replace(USER_INFO, (_, scheme = '', slashes: string, info: string) => {
      for (const part of info.split(':')) if (part) found(safeDecode(part))
      return `${scheme}${slashes}${userInfo ? `${userInfo}@` : ''}`
    })
    .replace(SECRET_WORD, (whole, word: string, value: string) =>
      tokenLike(value) ? (found(value), `${word}${MASK}`) : whole,
    )
    .replace(KEY_VALUE, (whole, q: string, key: string, sep: string, vq: string, raw: string) => {
      // Quoted on both sides, a password key's value is one whatever it looks like, but a plain word ("required").
      const value = raw.replace(/:+$/, '') // `token=abc123: expired`
      const quoted = q !== '' && vq !== '' && /[^a-z]/.test(value)
      if (value === MASK || !(quoted || tokenLike(value))) return whole
      found(value)
      return `${q}${key}${q}${sep}${vq}${MASK}${raw.slice(value.length)}${vq}`
    })
    .replace(/([?&;#])([^=&\s#]+)=([^&\s#]*)/g, (whole, sep: string, name: string, value: string) => {
      if (!isCredentialQueryParam(safeDecode(name))) {
        // A URL percent-encoded inside a value (`?next=https%3A%2F%2F…%3Ftoken%3D…`): its credentials too, once.
        const url = !nested && /%3A%2F%2F|%40/i.test(value)
        const inner = url ? stripUrlCredentialsInText(safeDecode(value), found, userInfo, true) : ''
        return inner && inner !== safeDecode(value) ? `${sep}${name}=${encodeURIComponent(inner)}` : whole
      }
      // Masked already (an echoed value inside a refusal, masked again as a whole): keep the closing
      // quote or bracket after it. Nothing but punctuation follows the mask, so nothing is left.
      if (MASKED_ALREADY.test(value)) return whole
      if (value) found(safeDecode(value))
      return `${sep}${name}=${MASK}`
    })
}
/** User-info with a scheme or without (`//user:pass@`), its slashes JSON-escaped or not (`https:\/\/`); a credential in
 * words (`Authorization: Bearer <token>`, `"password":"..."`, `session=<value>`). Bounded: no long scan per position. */
const USER_INFO = /(\b[a-z][a-z0-9+.-]{0,31}:)?((?:\\?\/){2})([^\s/\\?#@]+)@/gi
const SECRET_WORD = /\b((?:Bearer|Basic|Token)(?:\s+|%20|\+))([\w~+/-](?:[\w.~+/-]*[\w~+/-])?=*)/gi
// A key that names a password, secret, token, session, cookie or API key (`X-Api-Key`, `DB_PASSWORD`), and its value.
const KEY_VALUE =
  /(?<![\w.-])(["']?)([\w.-]{0,40}(?:pass|pwd|secret|token|session|cookie|api[_-]?key|private)[\w.-]{0,40})\1(\s{0,3}[:=]\s{0,3})(["']?)([^\s"',;&})\]]+)\4/gi
/** A value that reads as a credential, not a word (`Provided`), a host name or a date: mixed and with a digit, or long. */
const tokenLike = (v: string) =>
  looksSecret(v) &&
  (/\d/.test(v) || v.length >= 24) &&
  !/^([a-z0-9-]{1,63}\.)+[a-z]{2,24}$|^\d{4}-\d\d-\d\d(?!\d)/i.test(v)

export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}
