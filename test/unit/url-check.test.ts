import { describe, expect, it } from '@jest/globals'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { CancelledError } from '../../src/clock.js'
import { answers, waitForUrl } from '../../src/staging/url-check.js'
import { FakeClock, MemoryLogger } from '../helpers/fakes.js'

describe('what counts as answering', () => {
  it.each([200, 204, 301, 302, 304, 401, 403])('%i answers', (s) => expect(answers(s)).toBe(true))
  it.each([404, 410, 429, 500, 502, 503, 0])('%i does not yet', (s) => expect(answers(s)).toBe(false))
})

describe('waitForUrl (virtual time)', () => {
  function deps(statuses: (number | Error)[], deadlineInMs = 120_000) {
    const clock = new FakeClock()
    const logger = new MemoryLogger()
    const asked: number[] = []
    const get = async () => {
      asked.push(clock.now())
      const next = statuses.length > 1 ? statuses.shift()! : statuses[0]!
      if (next instanceof Error) throw next
      return { status: next }
    }
    return { clock, logger, asked, deadline: clock.now() + deadlineInMs, siteGet: get }
  }
  const refused = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })

  it('asks again after connection errors and 404s, with growing pauses, until the site answers', async () => {
    const d = deps([refused(), refused(), 404, 503, 401])
    expect(await waitForUrl('https://staging.example.test/', d, d)).toBe(true)
    expect(d.asked).toHaveLength(5)
    const gaps = d.asked.slice(1).map((t, i) => t - d.asked[i]!)
    for (let i = 1; i < gaps.length; i++) expect(gaps[i]!).toBeGreaterThanOrEqual(gaps[i - 1]!)
    expect(d.logger.text).toMatch(/answers \(HTTP 401\)/)
  })
  it('gives up exactly at the deadline: false, never a request after it', async () => {
    const d = deps([404], 60_000)
    expect(await waitForUrl('https://staging.example.test/', d, d)).toBe(false)
    expect(d.clock.now()).toBeLessThanOrEqual(d.deadline)
    expect(d.asked.every((t) => t < d.deadline)).toBe(true)
    expect(d.logger.text).toMatch(/does not answer yet/)
  })
  it('plain http to a host that is not loopback is not checked (null); loopback http is', async () => {
    const d = deps([200])
    expect(await waitForUrl('http://staging.example.test/', d, d)).toBeNull()
    expect(d.asked).toHaveLength(0)
    expect(await waitForUrl('http://127.0.0.1:9/x', d, d)).toBe(true)
  })
  it('stops at once when cancelled', async () => {
    const d = deps([404])
    const controller = new AbortController()
    controller.abort()
    await expect(
      waitForUrl('https://staging.example.test/', { ...d, signal: controller.signal }, d),
    ).rejects.toBeInstanceOf(CancelledError)
  })
})

describe('the request itself (a real server on loopback)', () => {
  it('is a plain GET with only our User-Agent: no token, no header of ours; a redirect is not followed', async () => {
    const seen: http.IncomingHttpHeaders[] = []
    const server = http.createServer((req, res) => {
      seen.push(req.headers)
      res.writeHead(302, { location: 'https://elsewhere.example.test/' }).end()
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const port = (server.address() as AddressInfo).port
    try {
      const clock = new FakeClock()
      const ok = await waitForUrl(
        `http://127.0.0.1:${port}/site/`,
        { clock, logger: new MemoryLogger() },
        { deadline: clock.now() + 10_000 },
      )
      expect(ok).toBe(true)
      expect(seen).toHaveLength(1)
      const names = Object.keys(seen[0]!).sort()
      expect(names).toEqual(['accept', 'connection', 'host', 'user-agent'])
      expect(seen[0]!['user-agent']).toMatch(/^site-staging-action\//)
    } finally {
      server.close()
    }
  })
})
