import { RETRY_AFTER_MAX_MS } from '../contract.js'
import type { Processing } from './errors.js'

/** What a request does, for deciding whether sending it again can do harm. */
export type RequestKind = 'read' | 'create' | 'pull' | 'push' | 'delete'

/**
 * May a request that failed this way be sent again?
 * - not processed: always (the server said, or the network proved, that nothing happened);
 * - unknown: reads, pull (it only overwrites staging) and create (a 409/422 that follows means the
 *   first try went through, which the operation layer handles); never push or delete;
 * - processed: never (the server answered; sending again would get the same answer or do it twice).
 */
export function mayResend(kind: RequestKind, processing: Processing): boolean {
  if (processing === 'not-processed') return true
  if (processing === 'unknown') return kind === 'read' || kind === 'pull' || kind === 'create'
  return false
}

/**
 * `Retry-After` as delta-seconds or an HTTP date (RFC 9110 §10.2.3), in ms from `nowMs`; a date in
 * the past is 0. Null when absent, unreadable or outside the sane bounds of contract §6
 * (RETRY_AFTER_MAX_MS): a negative or fractional-looking garbage value, NaN, 1e300, a value in
 * milliseconds read as seconds, a date years ahead. The caller then backs off on its own.
 */
export function parseRetryAfter(value: string | string[] | undefined | null, nowMs: number): number | null {
  const text = headerValue(value)
  if (!text) return null
  if (/^\d+(\.\d+)?$/.test(text)) {
    const ms = Math.round(parseFloat(text) * 1000)
    return Number.isFinite(ms) && ms <= RETRY_AFTER_MAX_MS ? ms : null
  }
  if (!HTTP_DATE.some((format) => format.test(text))) return null
  const date = Date.parse(text)
  if (Number.isNaN(date)) return null
  const ms = Math.max(0, date - nowMs)
  return ms <= RETRY_AFTER_MAX_MS ? ms : null
}

/** A header's value, trimmed (the first, when it came more than once); undefined when absent or empty. */
export function headerValue(value: string | string[] | undefined | null): string | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim()
  return text === '' ? undefined : text
}

/** IMF-fixdate, and the obsolete RFC 850 and asctime forms an HTTP date may take. */
const HTTP_DATE = [
  /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/,
  /^[A-Z][a-z]+, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT$/,
  /^[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/,
]
