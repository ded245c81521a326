/**
 * The simulator's rate limiter in each of its ways (issue 17 §1, contract §6 r3), its spread of
 * job lengths and its answers without a staging URL, on the API core with a hand-moved clock.
 */
import { describe, expect, it } from '@jest/globals'
import { ManualClock } from '../../simulator/clock.js'
import { createApiCore, type CoreRequest } from '../../simulator/core.js'
import type { Profile, RateLimitOptions } from '../../simulator/types.js'
import { RW } from './helpers.js'

// Half a second into a second: the framework's whole-second timer shows.
const T0 = Date.UTC(2026, 10, 22, 20, 0, 0) + 500

function setup(rateLimit: RateLimitOptions, profile: Profile = 'spec') {
  const clock = new ManualClock(T0)
  const core = createApiCore({ rateLimit, profile }, clock)
  const prefix = profile === 'service' ? '/api' : ''
  const get = (path = '/v2/sites') => core.handle(req('GET', `${prefix}${path}`))
  return { clock, core, get, prefix }
}

function req(method: string, path: string): CoreRequest {
  const headers: Record<string, string> = { authorization: `Bearer ${RW}`, accept: 'application/json' }
  if (method === 'POST') headers['content-type'] = 'application/json'
  return { method, path, headers, body: '' }
}

const header = (reply: { headers: Record<string, string> }, name: string) =>
  Object.entries(reply.headers).find(([k]) => k.toLowerCase() === name)?.[1]

describe('limiter: fixed (a window from the first request, to the millisecond)', () => {
  it('opens again exactly a window after the first request', () => {
    const { clock, get } = setup({ limit: 2, windowMs: 10_000, kind: 'fixed' })
    expect(get().status).toBe(200)
    clock.advance(4000)
    expect(get().status).toBe(200)
    const refused = get()
    expect(refused.status).toBe(429)
    expect(header(refused, 'retry-after')).toBe('6')
    clock.advance(5999)
    expect(get().status).toBe(429)
    clock.advance(1)
    expect(get().status).toBe(200)
  })
})

describe('limiter: framework (whole-second timer from the first request, decay time)', () => {
  it('ends its window at the whole second: up to a second sooner than to the millisecond', () => {
    const { clock, get } = setup({ limit: 2, windowMs: 10_000, kind: 'framework' })
    expect(get().status).toBe(200)
    expect(get().status).toBe(200)
    clock.advance(9000)
    const refused = get()
    expect(refused.status).toBe(429)
    // Timer: the first request's second + 10 s; Retry-After: the timer less the current second.
    expect(header(refused, 'retry-after')).toBe('1')
    expect(Number(header(refused, 'x-ratelimit-reset')) * 1000).toBe(T0 - 500 + 10_000)
    clock.advance(499)
    expect(get().status).toBe(429)
    // 9.5 s after the first request, the window has ended (fixed would wait until 10 s).
    clock.advance(1)
    expect(get().status).toBe(200)
  })
  it('in the service profile: Limit and Remaining on every answer, no reset; the framework 429', () => {
    const { get } = setup({ limit: 1, windowMs: 60_000, kind: 'framework' }, 'service')
    const ok = get()
    expect(ok.status).toBe(200)
    expect(header(ok, 'x-ratelimit-limit')).toBe('1')
    expect(header(ok, 'x-ratelimit-remaining')).toBe('0')
    expect(header(ok, 'x-ratelimit-reset')).toBeUndefined()
    const refused = get()
    expect(refused.status).toBe(429)
    expect(JSON.parse(refused.body)).toEqual({ message: 'Too Many Attempts.' })
    expect(header(refused, 'retry-after')).toBe('60')
    expect(header(refused, 'x-ratelimit-remaining')).toBe('0')
    expect(Number(header(refused, 'x-ratelimit-reset')) * 1000).toBe(T0 - 500 + 60_000)
  })
})

describe('limiter: sliding (the requests of the last window)', () => {
  it('gives each call back a window after the request that used it, not all at once', () => {
    const { clock, get } = setup({ limit: 3, windowMs: 10_000, kind: 'sliding' })
    expect(header(get(), 'x-ratelimit-remaining')).toBe('2')
    clock.advance(3000)
    expect(get().status).toBe(200)
    clock.advance(3000)
    expect(get().status).toBe(200)
    const refused = get()
    expect(refused.status).toBe(429)
    // The first request leaves the window 10 s after it came: 4 s from now.
    expect(header(refused, 'retry-after')).toBe('4')
    clock.advance(4000)
    const back = get()
    expect(back.status).toBe(200)
    expect(header(back, 'x-ratelimit-remaining')).toBe('0')
    // Only one came back: a fixed window would have given all three.
    expect(get().status).toBe(429)
    clock.advance(3000)
    expect(get().status).toBe(200)
  })
  it('does not count refused requests', () => {
    const { clock, get } = setup({ limit: 1, windowMs: 10_000, kind: 'sliding' })
    get()
    for (let i = 0; i < 5; i++) {
      clock.advance(1000)
      expect(get().status).toBe(429)
    }
    clock.advance(5000)
    expect(get().status).toBe(200)
  })
})

describe('the reset header: present on every answer or only on a 429, whatever the profile', () => {
  it.each<[Profile, 'always' | 'on-429' | undefined, boolean]>([
    ['spec', 'on-429', false],
    ['service', 'always', true],
    ['spec', undefined, true],
    ['service', undefined, false],
  ])('%s profile, resetHeader %s: on an ordinary answer %s', (profile, resetHeader, present) => {
    const { get } = setup(
      { limit: 2, windowMs: 60_000, kind: 'framework', ...(resetHeader ? { resetHeader } : {}) },
      profile,
    )
    const ok = get()
    expect(header(ok, 'x-ratelimit-reset') !== undefined).toBe(present)
    expect(header(ok, 'x-ratelimit-remaining')).toBe('1')
    get()
    // A 429 always says when (the framework's own 429 does).
    expect(header(get(), 'x-ratelimit-reset')).toBeDefined()
  })
})

describe('jobs: a spread of lengths, and create answers without a staging URL', () => {
  it('spreads job lengths evenly within ±durationSpread of the duration', () => {
    const clock = new ManualClock(T0)
    const core = createApiCore({ durationsMs: { create: 10_000 }, durationSpread: 0.3 }, clock)
    const ids: string[] = []
    for (let i = 0; i < 40; i++) {
      const site = core.handle({ ...req('POST', '/v2/sites'), body: JSON.stringify({ site_name: `s${i}` }) })
      ids.push(String(JSON.parse(site.body).data.id))
    }
    for (const id of ids) expect(core.handle(req('POST', `/v2/sites/${id}/staging`)).status).toBe(202)
    const lengths = [...core.state.tasks.values()].map((t) => t.ends_at - t.started_at)
    expect(Math.min(...lengths)).toBeGreaterThanOrEqual(7000)
    expect(Math.max(...lengths)).toBeLessThanOrEqual(13_000)
    // Spread over the whole range, not bunched: each fifth of it holds some.
    for (let k = 0; k < 5; k++)
      expect(lengths.some((l) => l >= 7000 + k * 1200 && l < 7000 + (k + 1) * 1200)).toBe(true)
  })
  it('without durationSpread every job lasts its duration', () => {
    const clock = new ManualClock(T0)
    const core = createApiCore({ durationsMs: { create: 10_000 } }, clock)
    core.handle(req('POST', '/v2/sites/1001/staging'))
    expect([...core.state.tasks.values()].map((t) => t.ends_at - t.started_at)).toEqual([10_000])
  })
  it.each(['spec', 'service'] as const)(
    'urlInAnswers: false leaves the URL out of the %s create answer',
    (profile) => {
      const clock = new ManualClock(T0)
      const core = createApiCore({ profile, urlInAnswers: false }, clock)
      const prefix = profile === 'service' ? '/api' : ''
      const answer = JSON.parse(core.handle(req('POST', `${prefix}/v2/sites/1001/staging`)).body)
      expect(answer.data.task_id).toBeDefined()
      expect(answer.data).not.toHaveProperty('staging_url')
      expect(answer.data).not.toHaveProperty('wp_url')
      const withUrl = createApiCore({ profile }, clock)
      const full = JSON.parse(withUrl.handle(req('POST', `${prefix}/v2/sites/1001/staging`)).body)
      expect(full.data.staging_url ?? full.data.wp_url).toMatch(/^http/)
    },
  )
})
