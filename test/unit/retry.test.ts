import { describe, expect, it } from '@jest/globals'
import { ApiError, processingOf } from '../../src/api/errors.js'
import {
  durationWords,
  mayResend,
  parseRetryAfter,
  pauseAfterMs,
  refusedUntil,
  type RequestKind,
} from '../../src/api/retry.js'

describe('what the server can have done (processingOf)', () => {
  it.each([
    [429, 'not-processed'],
    [503, 'not-processed'],
    [409, 'not-processed'],
    [423, 'not-processed'],
    [500, 'unknown'],
    [502, 'unknown'],
    [504, 'unknown'],
    [400, 'processed'],
    [401, 'processed'],
    [403, 'processed'],
    [404, 'processed'],
    [422, 'processed'],
  ])('HTTP %i is %s', (status, expected) => {
    expect(processingOf({ httpStatus: status })).toBe(expected)
  })
  it.each<['connecting' | 'connected' | null, string]>([
    ['connecting', 'not-processed'],
    ['connected', 'unknown'],
    [null, 'unknown'],
  ])('no answer, the request got as far as %s: %s', (phase, expected) => {
    expect(processingOf({ phase })).toBe(expected)
  })
})

describe('what may be sent again (mayResend): the whole table', () => {
  const table: Array<[RequestKind, 'not-processed' | 'unknown' | 'processed', boolean]> = [
    ['read', 'not-processed', true],
    ['read', 'unknown', true],
    ['read', 'processed', false],
    ['create', 'not-processed', true],
    ['create', 'unknown', true],
    ['create', 'processed', false],
    ['pull', 'not-processed', true],
    ['pull', 'unknown', true],
    ['pull', 'processed', false],
    ['push', 'not-processed', true],
    ['push', 'unknown', false],
    ['push', 'processed', false],
    ['delete', 'not-processed', true],
    ['delete', 'unknown', false],
    ['delete', 'processed', false],
  ]
  it.each(table)('%s after a %s failure: %s', (kind, processing, expected) => {
    expect(mayResend(kind, processing)).toBe(expected)
  })
})

describe('Retry-After', () => {
  const now = Date.parse('2026-11-22T10:00:00Z')
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('7', now)).toBe(7000)
    expect(parseRetryAfter(['2'], now)).toBe(2000)
  })
  it('reads an HTTP date', () => {
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:30 GMT', now)).toBe(30_000)
  })
  it('gives 0 for a date in the past and null for nothing or garbage', () => {
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0)
    expect(parseRetryAfter(undefined, now)).toBeNull()
    expect(parseRetryAfter('soon', now)).toBeNull()
  })
  it('reads the obsolete HTTP date forms too', () => {
    expect(parseRetryAfter('Sunday, 22-Nov-26 10:00:30 GMT', now)).toBe(30_000)
    expect(parseRetryAfter('Sun Nov 22 10:00:30 2026', now)).toBe(30_000)
  })
  // Contract §6: values outside sane bounds are ignored (the caller backs off on its own).
  it.each([
    ['NaN', 'NaN'],
    ['a negative number', '-30'],
    ['a signed number', '+30'],
    ['1e300', '1e300'],
    ['a number with 300 digits', '9'.repeat(300)],
    ['more than a week', String(7 * 86_400 + 1)],
    ['a date years ahead', 'Fri, 01 Jan 2100 00:00:00 GMT'],
    ['a date eight days ahead', 'Mon, 30 Nov 2026 10:00:00 GMT'],
    ['a date a JavaScript parser would take but HTTP does not', '2026-11-22T10:00:30Z'],
    ['text with a newline', '5\n::error::boom'],
  ])('ignores %s', (_, value) => {
    expect(parseRetryAfter(value, now)).toBeNull()
  })
  it("reads up to a week (the server's word; the client ends a run it cannot wait for), fractions included", () => {
    expect(parseRetryAfter('3600', now)).toBe(3_600_000)
    expect(parseRetryAfter('86400', now)).toBe(86_400_000)
    expect(parseRetryAfter('Sun, 22 Nov 2026 12:00:00 GMT', now)).toBe(7_200_000)
    expect(parseRetryAfter('0', now)).toBe(0)
    expect(parseRetryAfter('1.5', now)).toBe(1500)
    expect(parseRetryAfter(' 7 ', now)).toBe(7000)
  })
})

describe('Retry-After dates from a server whose clock is off (contract §11)', () => {
  const now = Date.parse('2026-11-22T10:00:00Z')
  it("reads a date against the answer's own Date header: an hour fast or slow, 30 s is 30 s", () => {
    expect(parseRetryAfter('Sun, 22 Nov 2026 11:00:30 GMT', now, 'Sun, 22 Nov 2026 11:00:00 GMT')).toBe(
      30_000,
    )
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:30 GMT', now, 'Sun, 22 Nov 2026 09:00:00 GMT')).toBe(
      30_000,
    )
  })
  it('without a readable Date header, reads it against our wall clock', () => {
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:30 GMT', now, 'yesterday')).toBe(30_000)
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:30 GMT', now, undefined)).toBe(30_000)
  })
  it('seconds never depend on any clock', () => {
    expect(parseRetryAfter('30', now, 'Fri, 01 Jan 2100 00:00:00 GMT')).toBe(30_000)
  })
})

describe('Retry-After "soon" (contract §6 r3)', () => {
  it('0 or a date in the past is a 1-2 s pause that grows like a backoff, never 0', () => {
    for (const random of [() => 0, () => 0.5, () => 0.999]) {
      const pauses = [0, 1, 2, 3, 4].map((retry) => pauseAfterMs(0, retry, random))
      expect(pauses[0]).toBeGreaterThanOrEqual(1000)
      expect(pauses[0]).toBeLessThanOrEqual(2000)
      for (let i = 1; i < pauses.length; i++) expect(pauses[i]).toBeGreaterThan(pauses[i - 1]!)
      // Five retries take more than 20 s: max-retries are not burnt in a loop.
      expect(pauses.reduce((a, b) => a + b, 0)).toBeGreaterThan(20_000)
      expect(Math.max(...pauses)).toBeLessThanOrEqual(40_000)
    }
  })
  it('a date an hour in the past (the server clock is slow) reads as 0, which pauses like "soon"', () => {
    const now = Date.parse('2026-11-22T10:00:00Z')
    const ms = parseRetryAfter('Sun, 22 Nov 2026 09:00:30 GMT', now)
    expect(ms).toBe(0)
    expect(pauseAfterMs(ms!, 0, () => 0.5)).toBe(1500)
  })
  it("a stated wait of a second or more is the server's, unchanged", () => {
    expect(pauseAfterMs(1000, 4)).toBe(1000)
    expect(pauseAfterMs(7000, 0)).toBe(7000)
  })
})

describe('a Retry-After longer than the run has left', () => {
  it("says when the server accepts again, in words and ISO, with the server's words kept", () => {
    const error = new ApiError({
      kind: 'rate-limited',
      httpStatus: 429,
      processing: 'not-processed',
      serverMessage: 'Too Many Attempts.',
      message: 'POST /v2/sites/1002/staging/push was answered HTTP 429: "Too Many Attempts."',
    })
    const e = refusedUntil(error, 86_400_000, 20_000, Date.parse('2026-11-24T11:40:00Z'))
    expect(e.kind).toBe('rate-limited')
    expect(e.processing).toBe('not-processed')
    expect(e.serverMessage).toBe('Too Many Attempts.')
    expect(e.message).toContain('Too Many Attempts.')
    expect(e.message).toContain('on Wednesday 25 November 2026 at 11:40 UTC (2026-11-25T11:40:00Z)')
    expect(e.message).toContain('about 24 hours')
    expect(e.message).toContain('20 seconds left')
    expect(e.hint).toContain('Run again after 2026-11-25T11:40:00Z')
  })
  it.each([
    [40_000, '40 seconds'],
    [300_000, '5 minutes'],
    [7_199_000, 'about 2 hours'],
    [3 * 3_600_000, 'about 3 hours'],
    [3 * 86_400_000, 'about 3 days'],
  ])('%i ms reads "%s"', (ms, words) => {
    expect(durationWords(ms)).toBe(words)
  })
})
