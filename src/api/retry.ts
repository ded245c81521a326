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

/** Exponential backoff with full jitter: a random delay in [0, min(cap, base * 2^attempt)]. */
export function backoffMs(
  attempt: number,
  random: () => number = Math.random,
  baseMs = 1000,
  capMs = 30_000,
): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt))
  return Math.floor(random() * ceiling)
}

/** `Retry-After` as delta-seconds or an HTTP date (RFC 9110 §10.2.3); null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined | null, nowMs: number): number | null {
  const text = Array.isArray(value) ? value[0] : value
  if (text === undefined || text === null || text.trim() === '') return null
  const t = text.trim()
  if (/^\d+(\.\d+)?$/.test(t)) return Math.round(parseFloat(t) * 1000)
  const date = Date.parse(t)
  if (Number.isNaN(date)) return null
  return Math.max(0, date - nowMs)
}
