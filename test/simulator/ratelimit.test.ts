import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import type { ManualClock, Simulator } from '../../simulator/server.js'
import { call, RO, startOnClock } from './helpers.js'

// Windows roll only when the test moves the clock: what a window's end is, is exact.
let sim: Simulator
let clock: ManualClock
beforeAll(async () => {
  ;({ sim, clock } = await startOnClock({ rateLimit: { limit: 3, windowMs: 60_000 } }))
})
afterAll(() => sim.stop())
beforeEach(() => {
  sim.reset()
  sim.setOptions({ rateLimit: { limit: 3, windowMs: 60_000 } })
})

describe('rate limiting per token', () => {
  it('sends X-RateLimit-* on every response and 429 with Retry-After in seconds over the limit', async () => {
    const remaining: (string | null)[] = []
    for (let i = 0; i < 3; i++) {
      const reply = await call(sim, 'GET', '/v2/sites')
      expect(reply.status).toBe(200)
      expect(reply.headers.get('x-ratelimit-limit')).toBe('3')
      remaining.push(reply.headers.get('x-ratelimit-remaining'))
    }
    expect(remaining).toEqual(['2', '1', '0'])
    const refused = await call(sim, 'GET', '/v2/sites')
    expect(refused.status).toBe(429)
    expect(refused.json).toEqual({
      status: false,
      message: expect.stringMatching(/too many requests/i),
      data: null,
    })
    // the window started at the first request, and the clock has not moved since
    expect(refused.headers.get('retry-after')).toBe('60')
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0')
    const reset = Number(refused.headers.get('x-ratelimit-reset'))
    expect(reset).toBe(Math.ceil((clock.now() + 60_000) / 1000))
    clock.advance(20_500)
    expect((await call(sim, 'GET', '/v2/sites')).headers.get('retry-after')).toBe('40')
  })

  it('does not process a rate-limited request and records it as 429', async () => {
    for (let i = 0; i < 3; i++) await call(sim, 'GET', '/v2/sites')
    const refused = await call(sim, 'POST', '/v2/sites/1001/staging')
    expect(refused.status).toBe(429)
    expect(sim.state.staging.has('1001')).toBe(false)
    expect(sim.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: '/v2/sites/1001/staging',
      status: 429,
      processed: false,
      faulted: false,
    })
  })

  it('counts each token separately', async () => {
    for (let i = 0; i < 4; i++) await call(sim, 'GET', '/v2/sites')
    const other = await call(sim, 'GET', '/v2/sites', { token: RO })
    expect(other.status).toBe(200)
    expect(other.headers.get('x-ratelimit-remaining')).toBe('2')
  })

  it('counts one limit across every client of a token (a CI matrix: contract §6 r5)', async () => {
    const runner = (n: number) => ({ headers: { 'User-Agent': `site-staging runner ${n}` } })
    const first = await call(sim, 'GET', '/v2/sites', runner(1))
    const second = await call(sim, 'GET', '/v2/sites', runner(2))
    expect([first, second].map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['2', '1'])
    expect((await call(sim, 'GET', '/v2/sites', runner(3))).status).toBe(200)
    // The third client spent the last call: the first one hears 429 though it made one call only.
    expect((await call(sim, 'GET', '/v2/sites', runner(1))).status).toBe(429)
  })

  it('can send Retry-After as an HTTP date, or not at all', async () => {
    sim.setOptions({ rateLimit: { limit: 1, windowMs: 30_000, retryAfter: 'http-date' } })
    await call(sim, 'GET', '/v2/sites')
    const refused = await call(sim, 'GET', '/v2/sites')
    expect(refused.status).toBe(429)
    const header = refused.headers.get('retry-after') ?? ''
    expect(header).toMatch(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/)
    expect(Date.parse(header)).toBe(Math.ceil((clock.now() + 30_000) / 1000) * 1000)

    sim.setOptions({ rateLimit: { limit: 1, windowMs: 30_000, retryAfter: 'none' } })
    await call(sim, 'GET', '/v2/sites')
    const bare = await call(sim, 'GET', '/v2/sites')
    expect(bare.status).toBe(429)
    expect(bare.headers.get('retry-after')).toBeNull()
    expect(bare.headers.get('x-ratelimit-limit')).toBe('1')
  })

  it('opens again when the window ends', async () => {
    sim.setOptions({ rateLimit: { limit: 1, windowMs: 600 } })
    expect((await call(sim, 'GET', '/v2/sites')).status).toBe(200)
    expect((await call(sim, 'GET', '/v2/sites')).status).toBe(429)
    clock.advance(599)
    expect((await call(sim, 'GET', '/v2/sites')).status).toBe(429)
    clock.advance(1)
    expect((await call(sim, 'GET', '/v2/sites')).status).toBe(200)
  })

  it('sends no rate-limit headers when no limit is set, and localizes the 429 message', async () => {
    sim.setOptions({ rateLimit: null })
    const free = await call(sim, 'GET', '/v2/sites')
    expect(free.headers.get('x-ratelimit-limit')).toBeNull()
    sim.setOptions({ rateLimit: { limit: 0, windowMs: 1000 } })
    const spanish = await call(sim, 'GET', '/v2/sites', { lang: 'es' })
    expect(spanish.status).toBe(429)
    expect(spanish.json.message).toMatch(/^Demasiadas solicitudes/)
  })
})
