/**
 * The production check (contract §16): the live site asked until healthy or its window ends, on a
 * virtual clock with a fake GET; against the simulator's production page after a push that broke it
 * (virtual time); the GET itself (its bounded body) against a real loopback server.
 */
import { describe, expect, it } from '@jest/globals'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { CancelledError } from '../../src/clock.js'
import { PAGE_BYTES_MAX, VERIFY_TIMEOUT_MS } from '../../src/contract.js'
import type { RunContext } from '../../src/staging/context.js'
import { checkProduction } from '../../src/staging/production-check.js'
import type { SiteAnswer } from '../../src/staging/url-check.js'
import { parseConfig, type Config } from '../../src/inputs/index.js'
import { productionPageUrl, SIM_SITES } from '../../simulator/seed.js'
import type { SimulatorOptions } from '../../simulator/types.js'
import { FakeClock, MemoryLogger, TOKEN, config, redactor } from '../helpers/fakes.js'
import { FAST, RW } from '../helpers/sim.js'
import { VirtualFaultSim } from '../helpers/virtual-action.js'

const LIVE = 'https://www.example.test/'
type Step = number | SiteAnswer | Error

/** A run's context as the check reads it: the answers in order, the last one repeated. */
function run(answers: Step[], over: Partial<Config> = {}, deadlineInMs = 30 * 60_000) {
  const clock = new FakeClock()
  const logger = new MemoryLogger()
  const asked: { at: number; bodyBytes: number | undefined }[] = []
  const controller = new AbortController()
  const siteGet = async (_url: string, _t: number, _s?: AbortSignal, bodyBytes?: number) => {
    asked.push({ at: clock.now(), bodyBytes })
    const next = answers.length > 1 ? answers.shift()! : answers[0]!
    if (next instanceof Error) throw next
    return typeof next === 'number' ? { status: next } : next
  }
  const ctx = {
    config: config({ operation: 'push', productionUrl: LIVE, ...over }),
    clock,
    logger,
    redactor: redactor(),
    client: { deadline: clock.now() + deadlineInMs },
    signal: controller.signal,
    siteGet,
  } as unknown as RunContext
  return { ctx, clock, logger, asked, controller, start: clock.now() }
}
const refused = () => Object.assign(new Error('connect ECONNREFUSED 192.0.2.1:443'), { code: 'ECONNREFUSED' })

describe('checkProduction', () => {
  it('passes once a page that served 503s after the push recovers', async () => {
    const r = run([503, 503, refused(), 502, 200])
    expect(await checkProduction(r.ctx, LIVE)).toEqual({
      passed: true,
      last: 'HTTP 200',
      tries: 5,
      cut: false,
    })
    // Asked again with growing pauses, never all at once.
    const gaps = r.asked.slice(1).map((a, i) => a.at - r.asked[i]!.at)
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1000)
    expect(r.logger.text).toMatch(/answers \(HTTP 200\)/)
  })

  it('a page that stays broken fails with the last answer, after many tries within verify-timeout', async () => {
    const r = run([503, 500, 503], { verifyTimeoutMs: 120_000 })
    const check = await checkProduction(r.ctx, LIVE)
    expect(check).toMatchObject({ passed: false, last: 'HTTP 503' })
    expect(check.tries).toBeGreaterThan(5)
    expect(r.asked.every((a) => a.at < r.start + 120_000)).toBe(true)
    expect(r.clock.now() - r.start).toBeGreaterThan(100_000)
  })

  it('without verify-timeout the window is five minutes', async () => {
    const r = run([refused()])
    const check = await checkProduction(r.ctx, LIVE)
    expect(check).toMatchObject({ passed: false, last: 'no answer: connection refused' })
    expect(VERIFY_TIMEOUT_MS).toBe(300_000)
    expect(parseConfig({ operation: 'push', 'site-id': '1', 'api-token': TOKEN }).verifyTimeoutMs).toBe(
      VERIFY_TIMEOUT_MS,
    )
    expect(r.clock.now() - r.start).toBeGreaterThan(240_000)
    expect(r.clock.now() - r.start).toBeLessThanOrEqual(300_000)
  })

  it('a 200 without the production-expect text is the wrong page; the page with it passes', async () => {
    const maintenance = { status: 200, body: '<h1>Briefly unavailable for scheduled maintenance</h1>' }
    const broken = run([maintenance], { productionExpect: 'Welcome to Acme', verifyTimeoutMs: 60_000 })
    const check = await checkProduction(broken.ctx, LIVE)
    expect(check).toMatchObject({ passed: false, last: 'HTTP 200 without the expected text' })
    expect(check.tries).toBeGreaterThan(1)
    expect(broken.asked.every((a) => a.bodyBytes === PAGE_BYTES_MAX)).toBe(true)

    const good = { status: 200, body: '<html><h1>Welcome to Acme</h1></html>' }
    const fixed = run([maintenance, maintenance, good], { productionExpect: 'Welcome to Acme' })
    expect(await checkProduction(fixed.ctx, LIVE)).toEqual({
      passed: true,
      last: 'HTTP 200',
      tries: 3,
      cut: false,
    })
  })

  it('a 3xx passes (a redirect is the site answering), without reading the body', async () => {
    const r = run([503, 302])
    expect(await checkProduction(r.ctx, LIVE)).toEqual({
      passed: true,
      last: 'HTTP 302',
      tries: 2,
      cut: false,
    })
    expect(r.asked.every((a) => a.bodyBytes === undefined)).toBe(true)
  })

  it('with production-expect, a 3xx is asked again; a window that ends on one is no verdict (tries 0)', async () => {
    const r = run([503, 301], { productionExpect: 'My Site', verifyTimeoutMs: 20_000 })
    expect(await checkProduction(r.ctx, LIVE)).toEqual({
      passed: false,
      last: 'HTTP 301, a redirect',
      tries: 0,
      cut: false,
      undecided: {
        said: 'not checked',
        hint: expect.stringMatching(/to the final address/),
      },
    })
    expect(r.asked.length).toBeGreaterThan(2)
    // A redirect for a moment after the push, then the page: passed.
    const later = run([302, { status: 200, body: '<title>My Site</title>' }], { productionExpect: 'My Site' })
    expect(await checkProduction(later.ctx, LIVE)).toMatchObject({ passed: true, tries: 1 })
  })

  it("redirects, then one 503 at the window's end: one answer decides nothing, nothing to restore on", async () => {
    const r = run([301], { productionExpect: 'My Site', verifyTimeoutMs: 20_000 })
    r.ctx.siteGet = async () => ({ status: r.clock.now() - r.start >= 19_000 ? 503 : 301 })
    expect(await checkProduction(r.ctx, LIVE)).toMatchObject({
      passed: false,
      last: 'HTTP 503',
      tries: 0,
      undecided: { said: 'checked once only, which decides nothing' },
    })
  })

  it("a first GET that takes most of the window: one last, shorter try before the window's end", async () => {
    const r = run([200], { verifyTimeoutMs: 12_000 })
    r.ctx.siteGet = async () => {
      r.asked.push({ at: r.clock.now(), bodyBytes: 0 })
      if (r.asked.length > 1) return { status: 200 }
      await r.clock.sleep(10_000) // no answer within the GET's own limit
      throw Object.assign(new Error('no answer'), { code: 'ETIMEDOUT' })
    }
    expect(await checkProduction(r.ctx, LIVE)).toMatchObject({ passed: true, tries: 2 })
    expect(r.asked[1]!.at - r.start).toBeLessThan(12_000)
  })

  it('a window with room for one answer only (the user set it so) is decided by that answer', async () => {
    const r = run([200], { verifyTimeoutMs: 5000 })
    r.ctx.siteGet = async () => {
      await r.clock.sleep(5000) // the page hangs for the whole window
      throw Object.assign(new Error('no answer'), { code: 'ETIMEDOUT' })
    }
    const check = await checkProduction(r.ctx, LIVE)
    expect(check).toMatchObject({ passed: false, tries: 1, last: 'no answer: timed out' })
    expect(check.undecided).toBeUndefined()
  })

  it('401, 404 and a maintenance 503 are not healthy', async () => {
    for (const status of [401, 404, 503]) {
      const r = run([status], { verifyTimeoutMs: 10_000 })
      expect(await checkProduction(r.ctx, LIVE)).toMatchObject({ passed: false, last: `HTTP ${status}` })
    }
  })

  it('the window ends at the run deadline when that is sooner than verify-timeout', async () => {
    const r = run([503], { verifyTimeoutMs: 300_000 }, 45_000)
    const check = await checkProduction(r.ctx, LIVE)
    expect(check.passed).toBe(false)
    expect(r.clock.now()).toBeLessThanOrEqual(r.start + 45_000)
    expect(r.asked.every((a) => a.at < r.start + 45_000)).toBe(true)
  })

  it('with no time left, production is never asked: tries 0, no evidence either way, cut by the deadline', async () => {
    const r = run([200], {}, 0)
    expect(await checkProduction(r.ctx, LIVE)).toMatchObject({ passed: false, tries: 0, cut: true })
    expect(r.asked).toHaveLength(0)
  })

  it('plain http to a host that is not loopback is not asked', async () => {
    const r = run([200])
    const check = await checkProduction(r.ctx, 'http://www.example.test/')
    expect(check).toEqual({
      passed: false,
      last: expect.stringMatching(/^not asked: plain http/),
      tries: 0,
      cut: false,
    })
    expect(r.asked).toHaveLength(0)
  })

  it('stops at once when the run is cancelled', async () => {
    const r = run([503])
    const checking = checkProduction(r.ctx, LIVE)
    r.controller.abort()
    await expect(checking).rejects.toBeInstanceOf(CancelledError)
    expect(r.asked.length).toBeLessThanOrEqual(1)
  })

  it('the last answer is inert words of ours: an odd error code never reaches it, nor the token', async () => {
    const odd = Object.assign(new Error(`::set-output name=x::${TOKEN}`), { code: `::warning::${TOKEN}` })
    const r = run([odd], { verifyTimeoutMs: 5_000 })
    const check = await checkProduction(r.ctx, LIVE)
    expect(check.last).toBe('no answer: no connection')
    expect(r.logger.text).not.toContain(TOKEN)
  })
})

describe("against the simulator's production page, after a push (virtual time)", () => {
  const BLOG = SIM_SITES.withStaging
  /** A push of site 1002 completed, then the check of its production page. */
  async function checkAfterPush(options: SimulatorOptions, over: Partial<Config> = {}) {
    const sim = new VirtualFaultSim({ ...FAST, ...options })
    const headers = { authorization: `Bearer ${RW}`, 'content-type': 'application/json' }
    const pushed = sim.core.handle({
      method: 'POST',
      path: `/v2/sites/${BLOG}/staging/push`,
      headers,
      body: '',
    })
    expect(pushed.status).toBe(202)
    await sim.clock.run(sim.clock.sleep(FAST.durationsMs!.push!))
    const start = sim.clock.now()
    const ctx = {
      config: config({ operation: 'push', verifyTimeoutMs: 120_000, ...over }),
      clock: sim.clock,
      logger: new MemoryLogger(),
      redactor: redactor(),
      client: { deadline: start + 600_000 },
      siteGet: sim.siteGet,
    } as unknown as RunContext
    const check = await sim.clock.run(checkProduction(ctx, productionPageUrl(sim.url, BLOG)))
    return { check, tookMs: sim.clock.now() - start, visits: sim.siteRequests.map((v) => v.status) }
  }

  it('a page that answers 500 for 40 s after the push passes once it recovers', async () => {
    const r = await checkAfterPush({ livePage: 'down', livePageRecoversMs: 40_000 })
    expect(r.check).toMatchObject({ passed: true, last: 'HTTP 200' })
    expect(r.visits.slice(0, -1).every((s) => s === 500)).toBe(true)
    expect(r.tookMs).toBeGreaterThanOrEqual(40_000)
    expect(r.tookMs).toBeLessThan(60_000)
  })

  it('a page that stays broken fails at verify-timeout with its last answer', async () => {
    const r = await checkAfterPush({ livePage: 'down' })
    expect(r.check).toMatchObject({ passed: false, last: 'HTTP 500' })
    expect(r.tookMs).toBeLessThanOrEqual(120_000)
    expect(r.visits.length).toBe(r.check.tries)
  })

  it('the wrong page answers 200: only production-expect tells it from the site', async () => {
    const expectText = { productionExpect: `Production site ${BLOG}` }
    const wrong = await checkAfterPush({ livePage: 'wrong-page' }, expectText)
    expect(wrong.check).toMatchObject({ passed: false, last: 'HTTP 200 without the expected text' })
    expect((await checkAfterPush({ livePage: 'wrong-page' })).check).toMatchObject({ passed: true })
    expect((await checkAfterPush({}, expectText)).check).toEqual({
      passed: true,
      last: 'HTTP 200',
      tries: 1,
      cut: false,
    })
  })
})

describe('the GET of the live page (a real server on loopback)', () => {
  async function serve(handler: http.RequestListener, check: (url: string) => Promise<void>) {
    const server = http.createServer(handler)
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    try {
      await check(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
    } finally {
      server.closeAllConnections()
      await new Promise((r) => server.close(r))
    }
  }
  function realRun(over: Partial<Config>) {
    const clock = new FakeClock()
    return {
      config: config({ operation: 'push', ...over }),
      clock,
      logger: new MemoryLogger(),
      redactor: redactor(),
      client: { deadline: clock.now() + 60_000 },
    } as unknown as RunContext
  }

  it('finds the expected text in the page, and not past the first PAGE_BYTES_MAX bytes', async () => {
    await serve(
      (req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' })
        if (req.url === '/') return void res.end('<p>Welcome to Acme</p>')
        res.end(`${'x'.repeat(PAGE_BYTES_MAX)}Welcome to Acme`)
      },
      async (url) => {
        const ctx = realRun({ productionExpect: 'Welcome to Acme', verifyTimeoutMs: 1500 })
        expect(await checkProduction(ctx, url)).toEqual({
          passed: true,
          last: 'HTTP 200',
          tries: 1,
          cut: false,
        })
        const far = await checkProduction(ctx, `${url}long`)
        expect(far).toMatchObject({ passed: false, last: 'HTTP 200 without the expected text' })
      },
    )
  })

  // A page that never ends its body: what came before the request's time ran out is the page.
  it.each([
    [
      'without the text: cut by the request time limit',
      '<p>loading',
      { passed: false, last: 'HTTP 200 without the expected text in what came in time' },
    ],
    ['whose text came in time: healthy', '<title>Welcome to Acme</title><p>loading', { passed: true }],
  ])('a page that never ends its body, %s', async (_, first, verdict) => {
    await serve(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' })
        res.write(first)
      },
      async (url) => {
        const ctx = realRun({ productionExpect: 'Welcome to Acme', verifyTimeoutMs: 1200 })
        expect(await checkProduction(ctx, url)).toMatchObject(verdict)
      },
    )
  })
})
