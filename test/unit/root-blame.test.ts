/**
 * Issue 24 §3: blame what failed. When the API-root check cannot finish (refused, 5xx until the
 * timeout, a timeout), the run says the 404 was held back because the root could not be checked, not
 * that "sending the pull request" timed out. A 404 not skipped (if-missing: fail) blames the site id
 * only once the root answered as the API; a wrong api-url is named instead, and the hosted service's
 * root is suggested only to a run on the hosted service's host.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals'
import nock from 'nock'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { SERVICE_API_URL } from '../../src/contract.js'
import { runOperation } from '../../src/staging/operations.js'
import type { Config } from '../../src/inputs/index.js'
import { API, FakeClock, MemoryLogger, config, envelope, redactor } from '../helpers/fakes.js'

beforeAll(() => {
  nock.disableNetConnect()
  nock.enableNetConnect('127.0.0.1')
})
afterAll(() => {
  nock.enableNetConnect()
  nock.restore()
})
afterEach(() => nock.cleanAll())

const HOSTED = new URL(SERVICE_API_URL).origin

async function run(over: Partial<Config>, door: 'action' | 'cli' = 'action') {
  const result = await runOperation(config(over), '1001', {
    clock: new FakeClock(),
    logger: new MemoryLogger(),
    redactor: redactor(),
    random: () => 0.5,
    door,
  })
  return result
}

describe('the root check cannot finish: the 404 was held back, said as such', () => {
  it('5xx until the timeout: timed out while checking the API root, not while sending the pull', async () => {
    nock(API)
      .post('/v2/sites/1001/staging/reset')
      .reply(404, envelope(null, 'No staging', false))
    nock(API)
      .persist()
      .get('/v2/sites')
      .reply(503, envelope(null, 'Maintenance', false))
    const r = await run({ operation: 'pull', ifMissing: 'skip', timeoutMs: 60_000, maxRetries: 20 })
    expect(r.result).toBe('timed-out')
    expect(r.summary).not.toMatch(/while sending the pull request/)
    expect(r.summary).toContain(
      'while checking whether api-url is the API root (GET /v2/sites): POST /v2/sites/1001/staging/reset answered 404, and that 404 was held back, not read as "no staging environment", until the root answers',
    )
  })
  it.each([
    ['hangs (no answer within the request time limit)', 'hang'],
    ['drops the connection', 'drop'],
    ['answers 500', '500'],
    ['answers 429', '429'],
  ] as [string, string][])(
    'the root check %s: the 404 was held back because the root could not be checked',
    async (_, how) => {
      // A real server on loopback: the DELETE is answered 404, GET /v2/sites fails as said.
      const server = http.createServer((req, res) => {
        if (req.method === 'DELETE') {
          res.writeHead(404, { 'Content-Type': 'application/json' })
          return res.end(JSON.stringify(envelope(null, 'No staging', false)))
        }
        if (how === 'hang') return
        if (how === 'drop') return req.socket.destroy()
        res.writeHead(Number(how), { 'Content-Type': 'application/json' })
        res.end(JSON.stringify(envelope(null, 'Not now', false)))
      })
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
      const port = (server.address() as AddressInfo).port
      try {
        const result = await runOperation(
          config({
            operation: 'delete',
            ifMissing: 'skip',
            maxRetries: 0,
            apiUrl: `http://127.0.0.1:${port}/v2`,
          }),
          '1001',
          {
            clock: new FakeClock(),
            logger: new MemoryLogger(),
            redactor: redactor(),
            // The limit is every request's, the DELETE's too: only the hung root check should reach
            // it, so it is far above what a loaded machine takes to answer on loopback.
            requestTimeoutMs: how === 'hang' ? 3000 : 60_000,
          },
        )
        expect(result.result).toBe('failed')
        expect(result.summary).toMatch(
          /^DELETE \/v2\/sites\/1001\/staging answered 404; that 404 was held back, not read as "no staging environment", because whether api-url is the API root could not be checked \(GET \/v2\/sites: /,
        )
        expect(result.summary).not.toMatch(/sending/)
      } finally {
        server.closeAllConnections()
        server.close()
      }
    },
  )
})

describe('a 404 with if-missing: fail blames api-url, not the site id, when the root is not the API', () => {
  const notTheApi = (base: string, root = '/api/v2') => {
    nock(base)
      .post(`${root}/sites/1001/staging/reset`)
      .reply(404, { status: false, message: 'Not found here' })
    nock(base).get(`${root}/sites`).reply(404, '<html>Not Found</html>', { 'Content-Type': 'text/html' })
  }
  it('another host: points at the API URL and does not send the user to the hosted service', async () => {
    notTheApi(API)
    const r = await run({ operation: 'pull', apiUrl: `${API}/api/v2` }, 'cli')
    expect(r.result).toBe('failed')
    expect(r.error?.kind).toBe('api-url')
    expect(r.summary).toContain('--api-url (or STAGING_API_URL) looks wrong, not --site-id')
    expect(r.error?.hint).toContain(`The API root ${API}/api/v2 did not answer as the staging API`)
    expect(r.error?.hint).not.toContain(SERVICE_API_URL)
    expect(r.error?.hint).toContain('the address your deployment of the API answers on')
    expect(r.error?.hint).not.toMatch(/PRODUCTION site/)
  })
  it("the hosted service's host: the hosted root is suggested", async () => {
    // The hosted service's host without its /api.
    notTheApi(HOSTED, '/v2')
    const r = await run({ operation: 'pull', apiUrl: `${HOSTED}/v2` })
    expect(r.error?.kind).toBe('api-url')
    expect(r.error?.hint).toContain(`for the hosted service it is ${SERVICE_API_URL}`)
  })
  it('the root answers as the API: the site id is blamed (the not-found hint)', async () => {
    nock(API)
      .post('/v2/sites/1001/staging/reset')
      .reply(404, envelope(null, 'No staging', false))
    nock(API)
      .get('/v2/sites')
      .reply(200, envelope([{ id: 1 }], 'Sites listed'))
    const r = await run({ operation: 'pull' })
    expect(r.error?.kind).toBe('not-found')
    expect(r.error?.hint).toMatch(/check that site-id is the PRODUCTION site's id/)
  })
  it('the root could not be checked: both are named, the 404 stays the answer', async () => {
    nock(API)
      .post('/v2/sites/1001/staging/reset')
      .reply(404, envelope(null, 'No staging', false))
    nock(API).get('/v2/sites').reply(502, 'Bad Gateway')
    const r = await run({ operation: 'pull', maxRetries: 0 })
    expect(r.error?.kind).toBe('not-found')
    expect(r.summary).toMatch(/may come from a wrong api-url as well as from a wrong site-id/)
    expect(r.error?.hint).toBe(
      "Check api-url (the API root, the address your deployment of the API answers on), then that site-id is the PRODUCTION site's id.",
    )
  })
})
