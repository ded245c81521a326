import { describe, expect, it } from '@jest/globals'
import { processingOf } from '../../src/api/errors.js'
import { mayResend, parseRetryAfter, type RequestKind } from '../../src/api/retry.js'

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
    ['milliseconds read as seconds', '60000'],
    ['more than an hour', '3601'],
    ['a date years ahead', 'Fri, 01 Jan 2100 00:00:00 GMT'],
    ['a date two hours ahead', 'Sun, 22 Nov 2026 12:00:00 GMT'],
    ['a date a JavaScript parser would take but HTTP does not', '2026-11-22T10:00:30Z'],
    ['text with a newline', '5\n::error::boom'],
  ])('ignores %s', (_, value) => {
    expect(parseRetryAfter(value, now)).toBeNull()
  })
  it('honours up to an hour, fractions of a second included', () => {
    expect(parseRetryAfter('3600', now)).toBe(3_600_000)
    expect(parseRetryAfter('0', now)).toBe(0)
    expect(parseRetryAfter('1.5', now)).toBe(1500)
    expect(parseRetryAfter(' 7 ', now)).toBe(7000)
  })
})
