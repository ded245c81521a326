import { describe, expect, it } from '@jest/globals'
import {
  EnvelopeSchema,
  TaskStatusSchema,
  formatSpecDateTime,
  formatSpecDateTimeInput,
  parseSpecDateTime,
} from '../../src/api/schemas.js'

describe('the spec date-time format', () => {
  it('parses response values with milliseconds, in UTC', () => {
    expect(parseSpecDateTime('2026-11-22 14:03:07.123')?.toISOString()).toBe('2026-11-22T14:03:07.123Z')
  })
  it('parses values without milliseconds', () => {
    expect(parseSpecDateTime('2026-01-02 00:00:59')?.toISOString()).toBe('2026-01-02T00:00:59.000Z')
  })
  it('refuses other shapes and impossible dates', () => {
    for (const bad of [
      '2026-11-22T14:03:07Z',
      '2026-11-22 14:03',
      '2026-02-30 10:00:00',
      '2026-11-22 24:00:00',
      '',
    ])
      expect(parseSpecDateTime(bad)).toBeNull()
  })
  it('formats inputs without milliseconds and responses with them', () => {
    const d = new Date('2026-11-22T14:03:07.123Z')
    expect(formatSpecDateTimeInput(d)).toBe('2026-11-22 14:03:07')
    expect(formatSpecDateTime(d)).toBe('2026-11-22 14:03:07.123')
  })
})

describe('the envelope', () => {
  it('accepts status/message/data/meta and keeps extra fields', () => {
    const e = EnvelopeSchema.parse({ status: true, message: 'ok', data: { a: 1 }, meta: {}, exception: 'x' })
    expect(e.status).toBe(true)
    expect((e as Record<string, unknown>).exception).toBe('x')
  })
  it('defaults a missing message to empty', () => {
    expect(EnvelopeSchema.parse({ status: false }).message).toBe('')
  })
  it('refuses a body without a boolean status', () => {
    expect(EnvelopeSchema.safeParse({ status: 'true' }).success).toBe(false)
    expect(EnvelopeSchema.safeParse([1, 2]).success).toBe(false)
  })
})

describe('task status data', () => {
  it('reads percentage_complete as a string or a number', () => {
    expect(
      TaskStatusSchema.parse({ status: 'progress', percentage_complete: '42' }).percentage_complete,
    ).toBe(42)
    expect(
      TaskStatusSchema.parse({ status: 'progress', percentage_complete: 42.5 }).percentage_complete,
    ).toBe(42.5)
  })
  it('ignores an unreadable percentage instead of failing', () => {
    expect(
      TaskStatusSchema.parse({ status: 'progress', percentage_complete: 'n/a' }).percentage_complete,
    ).toBeUndefined()
  })
  it('reads its date-times in the spec format, and ignores others', () => {
    const t = TaskStatusSchema.parse({
      status: 'progress',
      created_at: '2026-11-22 10:00:01.250',
      updated_at: '2026-11-22T10:00:01Z',
    })
    expect(t.created_at?.toISOString()).toBe('2026-11-22T10:00:01.250Z')
    expect(t.updated_at).toBeNull()
    expect(t.timeout_at).toBeNull()
  })
  it('clamps to 0-100', () => {
    expect(
      TaskStatusSchema.parse({ status: 'progress', percentage_complete: '150' }).percentage_complete,
    ).toBe(100)
  })
})
