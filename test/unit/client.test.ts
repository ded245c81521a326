import { afterEach, beforeAll, afterAll, describe, expect, it } from '@jest/globals'
import nock from 'nock'
import { DeadlineError } from '../../src/api/client.js'
import { filledHint } from '../../src/api/errors.js'
import { API, FakeClock, TOKEN, envelope } from '../helpers/fakes.js'
import { client, failure } from '../helpers/client.js'
import { inDoorWords } from '../../src/words.js'

beforeAll(() => nock.disableNetConnect())
afterAll(() => {
  nock.enableNetConnect()
  nock.restore()
})
afterEach(() => nock.cleanAll())

describe('requests as the spec says', () => {
  it('POST sends the bearer token, Accept, X-localization, Content-Type JSON and no body', async () => {
    let body = 'unset'
    const scope = nock(API, {
      reqheaders: {
        authorization: `Bearer ${TOKEN}`,
        accept: 'application/json',
        'x-localization': 'es',
        'content-type': 'application/json',
      },
    })
      .post('/v2/sites/1001/staging/push', (b) => {
        body = JSON.stringify(b)
        return true
      })
      .reply(202, envelope({ task_id: 'abc123' }, 'Aceptado'))
    const { c } = client({ language: 'es' })
    const res = await c.call('POST', '/sites/1001/staging/push', 'push')
    expect(res.status).toBe(202)
    expect(res.reply.message).toBe('Aceptado')
    expect(['""', '{}']).toContain(body)
    expect(scope.isDone()).toBe(true)
    expect(c.requests).toBe(1)
    expect(c.sent).toEqual(['POST /v2/sites/1001/staging/push -> 202'])
  })
  it('DELETE sends no Content-Type', async () => {
    const scope = nock(API, { badheaders: ['content-type'] })
      .delete('/v2/sites/1001/staging')
      .reply(200, envelope({ task_id: 'x1' }))
    await client().c.call('DELETE', '/sites/1001/staging', 'delete')
    expect(scope.isDone()).toBe(true)
  })
})

describe('envelope parsing', () => {
  it('treats status:false on a 2xx as a failure with the server message', async () => {
    nock(API)
      .post('/v2/sites/1001/staging/reset')
      .reply(200, envelope(null, 'Could not start the sync', false))
    const e = await failure(client().c.call('POST', '/sites/1001/staging/reset', 'pull'))
    expect(e.httpStatus).toBe(200)
    expect(e.message).toContain('Could not start the sync')
  })
  it.each([
    ['an HTML page', '<!DOCTYPE html><html><body>Bad gateway</body></html>', /HTML page/],
    ['plain text', 'upstream connect error', /not JSON/],
  ])(
    'a 2xx with %s leaves the outcome unknown (§1), with its status, not a crash',
    async (_, body, pattern) => {
      nock(API).post('/v2/sites/1001/staging/push').reply(200, body)
      const { c } = client({ maxRetries: 0 })
      const e = await failure(c.call('POST', '/sites/1001/staging/push', 'push'))
      expect(e.kind).toBe('bad-response')
      expect(e.processing).toBe('unknown')
      expect(e.httpStatus).toBe(200)
      expect(e.message).toMatch(pattern)
    },
  )
  it.each([
    ['an empty body', ''],
    ['JSON without a status field', '{"message":"Sync started","data":{"task_id":"t9"}}'],
    ['a JSON string', '"ok"'],
  ])('a 2xx with %s is accepted (r2 §1)', async (_, body) => {
    nock(API).post('/v2/sites/1001/staging/reset').reply(200, body)
    const res = await client().c.call('POST', '/sites/1001/staging/reset', 'pull')
    expect(res.status).toBe(200)
    if (body.includes('t9')) {
      expect(res.reply.message).toBe('Sync started')
      expect(res.reply.data).toEqual({ task_id: 't9' })
    }
  })
  it('an HTML 502 keeps its status and says what came', async () => {
    nock(API).post('/v2/sites/1001/staging/push').reply(502, '<html>Bad Gateway</html>')
    const e = await failure(client().c.call('POST', '/sites/1001/staging/push', 'push'))
    expect(e.httpStatus).toBe(502)
    expect(e.kind).toBe('server')
    expect(e.message).toMatch(/HTML page/)
  })
})

describe('every error body shape (contract §7, r2)', () => {
  it('the framework\'s {"message"}: the message is the server\'s, and the body is never "not JSON"', async () => {
    nock(API).post('/v2/sites/1001/staging/push').reply(403, { message: 'This action is unauthorized.' })
    const e = await failure(client().c.call('POST', '/sites/1001/staging/push', 'push'))
    expect(e.serverMessage).toBe('This action is unauthorized.')
    expect(e.message).toContain('This action is unauthorized.')
    expect(e.message).not.toMatch(/not JSON/)
  })
  it('{"message", "errors"}: the field errors come along, bounded', async () => {
    nock(API)
      .post('/v2/sites/1001/staging/reset')
      .reply(422, { message: 'The given data was invalid.', errors: { site: ['The site is archived.'] } })
    const e = await failure(client().c.call('POST', '/sites/1001/staging/reset', 'pull'))
    expect(e.kind).toBe('validation')
    expect(e.serverMessage).toBe('The given data was invalid.')
    expect(e.message).toContain('site: The site is archived.')
  })
  it('the debug shape: message and exception, never the trace or the file', async () => {
    nock(API)
      .post('/v2/sites/1001/staging/push')
      .reply(500, {
        message: 'Server Error',
        exception: 'ErrorException',
        file: '/var/www/app/Http/Controllers/StagingController.php',
        line: 42,
        trace: [{ file: '/var/www/vendor/x.php', line: 1, function: 'boom' }],
      })
    const e = await failure(client({ maxRetries: 0 }).c.call('POST', '/sites/1001/staging/push', 'push'))
    expect(e.message).toContain('Server Error')
    expect(e.message).not.toMatch(/StagingController|vendor|boom/)
  })
  it('a 422 that says a sync runs is busy, in English and Spanish; another 422 is a validation error', async () => {
    nock(API)
      .post('/v2/sites/1001/staging/push')
      .reply(422, { message: 'A sync is already in progress. Please wait until it finishes.' })
    nock(API)
      .post('/v2/sites/1001/staging/reset')
      .reply(422, { message: 'Ya hay una sincronización en curso.' })
    nock(API).delete('/v2/sites/1001/staging').reply(422, { message: 'The site id is invalid.' })
    const { c } = client()
    const push = await failure(c.call('POST', '/sites/1001/staging/push', 'push'))
    expect(push.kind).toBe('busy')
    expect(push.processing).toBe('not-processed')
    expect((await failure(c.call('POST', '/sites/1001/staging/reset', 'pull'))).kind).toBe('busy')
    const del = await failure(c.call('DELETE', '/sites/1001/staging', 'delete'))
    expect(del.kind).toBe('validation')
    expect(del.processing).toBe('processed')
  })
  it('a 422 on create: a plan message is "forbidden", a job in progress is "busy", anything else "exists"', async () => {
    nock(API)
      .post('/v2/sites/2001/staging')
      .reply(422, { message: 'Your plan does not include staging sites.' })
    nock(API)
      .post('/v2/sites/1001/staging')
      .reply(422, { message: 'A staging site is already being created, please wait.' })
    nock(API).post('/v2/sites/1002/staging').reply(422, { message: 'Staging site already exists.' })
    const { c } = client()
    expect((await failure(c.call('POST', '/sites/2001/staging', 'create'))).kind).toBe('forbidden')
    expect((await failure(c.call('POST', '/sites/1001/staging', 'create'))).kind).toBe('busy')
    expect((await failure(c.call('POST', '/sites/1002/staging', 'create'))).kind).toBe('exists')
  })
})

describe('a 404 from the routing layer points at api-url, not at site-id (§9)', () => {
  it.each([
    ['an HTML page', '<!DOCTYPE html><title>404 Not Found</title>'],
    ["the framework's route miss", { message: 'The route v2/sites/1001/staging/push could not be found.' }],
    ['an empty body', ''],
  ])('%s', async (_, body) => {
    nock(API).post('/v2/sites/1001/staging/push').reply(404, body)
    const e = await failure(client().c.call('POST', '/sites/1001/staging/push', 'push'))
    expect(e.kind).toBe('api-url')
    expect(e.hint).toMatch(/api-url/)
    // The hosted root is suggested to a run on the hosted service's host only (issue 24 §3).
    expect(filledHint(e.hint, '1001', 'https://app.instawp.io/v2')).toContain(
      'for the hosted service it is https://app.instawp.io/api',
    )
    expect(filledHint(e.hint, '1001', `${API}/v2`)).not.toContain('app.instawp.io')
  })
  it.each([
    ['the envelope', { status: false, message: 'Site 1001 has no staging environment.' }],
    ['a model miss', { message: 'No query results for model [App\\Models\\Site] 1001' }],
  ])('%s is a missing site or staging environment', async (_, body) => {
    nock(API).post('/v2/sites/1001/staging/push').reply(404, body)
    const e = await failure(client().c.call('POST', '/sites/1001/staging/push', 'push'))
    expect(e.kind).toBe('not-found')
    expect(e.hint).toMatch(/site-id/)
  })
})

describe('each status maps to its own error with a hint', () => {
  it.each([
    [401, 'auth', /check that the api-token secret/],
    [403, 'forbidden', /plan may not include staging/],
    [404, 'not-found', /PRODUCTION site's id/],
    [409, 'busy', /if-busy: wait/],
    [423, 'busy', /if-busy: wait/],
    [400, 'validation', /malformed/],
    [500, 'server', /failed on its side/],
  ])('HTTP %i -> %s', async (status, kind, hint) => {
    nock(API)
      .post('/v2/sites/1001/staging/reset')
      .reply(status, envelope(null, `message ${status}`, false))
    const e = await failure(client({ maxRetries: 0 }).c.call('POST', '/sites/1001/staging/reset', 'pull'))
    expect(e.kind).toBe(kind)
    expect(inDoorWords(e.hint, 'action')).toMatch(hint)
    expect(e.message).toContain(`message ${status}`)
  })
  it('422 on create means staging exists; on other operations it is a validation error', async () => {
    nock(API)
      .post('/v2/sites/1001/staging')
      .reply(422, envelope(null, 'exists', false))
    nock(API)
      .post('/v2/sites/1001/staging/push')
      .reply(422, envelope(null, 'invalid', false))
    expect((await failure(client().c.call('POST', '/sites/1001/staging', 'create'))).kind).toBe('exists')
    expect((await failure(client().c.call('POST', '/sites/1001/staging/push', 'push'))).kind).toBe(
      'validation',
    )
  })
  it('includes the exception text the service adds', async () => {
    nock(API)
      .post('/v2/sites/1001/staging')
      .reply(500, { status: false, message: 'Server error', exception: 'QueueUnavailable' })
    const e = await failure(client({ maxRetries: 0 }).c.call('POST', '/sites/1001/staging', 'create'))
    expect(e.message).toContain('QueueUnavailable')
  })
})

describe('retries', () => {
  it('429 honours Retry-After in seconds', async () => {
    nock(API)
      .post('/v2/sites/1001/staging/push')
      .reply(429, envelope(null, 'slow down', false), { 'Retry-After': '7' })
    nock(API)
      .post('/v2/sites/1001/staging/push')
      .reply(202, envelope({ task_id: 't' }))
    const { c, clock } = client()
    const res = await c.call('POST', '/sites/1001/staging/push', 'push')
    expect(res.status).toBe(202)
    expect(clock.slept).toContain(7000)
    expect(c.retries).toBe(1)
    expect(c.requests).toBe(2)
  })
  it('429 honours Retry-After as an HTTP date', async () => {
    const clock = new FakeClock()
    const at = new Date(clock.now() + 12_000).toUTCString()
    nock(API)
      .get('/v2/tasks/t/status')
      .reply(429, envelope(null, 'x', false), { 'Retry-After': at })
    nock(API)
      .get('/v2/tasks/t/status')
      .reply(200, envelope({ status: 'progress' }))
    const { c } = client({}, clock)
    await c.call('GET', '/tasks/t/status', 'read')
    const total = clock.slept.reduce((a, b) => a + b, 0)
    expect(total).toBeGreaterThanOrEqual(11_000)
    expect(total).toBeLessThanOrEqual(12_000)
  })
  it('429 without Retry-After backs off, and gives up after max-retries', async () => {
    nock(API)
      .post('/v2/sites/1001/staging')
      .times(4)
      .reply(429, envelope(null, 'rate limited', false))
    const { c } = client({ maxRetries: 3 })
    const e = await failure(c.call('POST', '/sites/1001/staging', 'create'))
    expect(e.kind).toBe('rate-limited')
    expect(c.requests).toBe(4)
    expect(c.retries).toBe(3)
  })
  it('a Retry-After past the deadline ends at once, saying when the server accepts again', async () => {
    const clock = new FakeClock()
    nock(API)
      .post('/v2/sites/1001/staging')
      .reply(429, envelope(null, 'come back tomorrow', false), { 'Retry-After': '86400' })
    const { c } = client({ deadline: clock.now() + 60_000 }, clock)
    const e = await failure(c.call('POST', '/sites/1001/staging', 'create'))
    expect(e.kind).toBe('rate-limited')
    expect(e.serverMessage).toBe('come back tomorrow')
    expect(e.message).toContain(new Date(clock.wallNow() + 86_400_000).toISOString().slice(0, 19))
    expect(c.requests).toBe(1)
    expect(clock.slept).toEqual([])
  })
  it('stops retrying when its own backoff would pass the deadline', async () => {
    const clock = new FakeClock()
    nock(API).post('/v2/sites/1001/staging').times(2).reply(503, '')
    const { c } = client({ deadline: clock.now() + 1500 }, clock)
    await expect(c.call('POST', '/sites/1001/staging', 'create')).rejects.toBeInstanceOf(DeadlineError)
  })
  it('a Retry-After date an hour in the past (a slow server clock) is a short pause that grows, not a loop', async () => {
    const clock = new FakeClock()
    const past = new Date(clock.wallNow() - 3_600_000 + 5_000).toUTCString()
    nock(API)
      .post('/v2/sites/1001/staging/push')
      .times(6)
      .reply(429, envelope(null, 'x', false), { 'Retry-After': past })
    const { c } = client({ maxRetries: 5, deadline: clock.now() + 600_000 }, clock)
    const e = await failure(c.call('POST', '/sites/1001/staging/push', 'push'))
    expect(e.kind).toBe('rate-limited')
    const retrySleeps = clock.slept.filter((ms) => ms >= 1000)
    expect(retrySleeps.length).toBeGreaterThanOrEqual(5)
    expect(Math.min(...clock.slept.slice(0, 1))).toBeGreaterThanOrEqual(1000)
    expect(clock.slept.reduce((a, b) => a + b, 0)).toBeGreaterThan(20_000)
  })
  it('reads a Retry-After date by the wall clock, a deadline by the monotonic one', async () => {
    const clock = new FakeClock()
    // The wall clock is an hour behind (stepped back): a date 12 s ahead of it is a 12 s wait.
    clock.wallShift = -3_600_000
    const at = new Date(clock.wallNow() + 12_000).toUTCString()
    nock(API)
      .get('/v2/tasks/t/status')
      .reply(429, envelope(null, 'x', false), { 'Retry-After': at })
    nock(API)
      .get('/v2/tasks/t/status')
      .reply(200, envelope({ status: 'progress' }))
    const { c } = client({ deadline: clock.now() + 60_000 }, clock)
    await c.call('GET', '/tasks/t/status', 'read')
    const total = clock.slept.reduce((a, b) => a + b, 0)
    expect(total).toBeGreaterThanOrEqual(11_000)
    expect(total).toBeLessThanOrEqual(12_000)
  })
  it('503 is retried even for a push (the server did not process it)', async () => {
    nock(API).post('/v2/sites/1001/staging/push').reply(503, '')
    nock(API)
      .post('/v2/sites/1001/staging/push')
      .reply(202, envelope({ task_id: 't' }))
    const { c } = client()
    expect((await c.call('POST', '/sites/1001/staging/push', 'push')).status).toBe(202)
    expect(c.requests).toBe(2)
  })
  it.each([500, 502, 504])('%i is never sent again for a push or a delete', async (status) => {
    nock(API)
      .post('/v2/sites/1001/staging/push')
      .reply(status, envelope(null, 'boom', false))
    nock(API)
      .delete('/v2/sites/1001/staging')
      .reply(status, envelope(null, 'boom', false))
    const push = client()
    const del = client()
    expect((await failure(push.c.call('POST', '/sites/1001/staging/push', 'push'))).processing).toBe(
      'unknown',
    )
    expect((await failure(del.c.call('DELETE', '/sites/1001/staging', 'delete'))).processing).toBe('unknown')
    expect(push.c.requests + del.c.requests).toBe(2)
  })
  it('500 is retried for a pull', async () => {
    nock(API)
      .post('/v2/sites/1001/staging/reset')
      .reply(500, envelope(null, 'boom', false))
    nock(API)
      .post('/v2/sites/1001/staging/reset')
      .reply(202, envelope({ task_id: 't' }))
    const { c } = client()
    const res = await c.call('POST', '/sites/1001/staging/reset', 'pull')
    expect(res.reply.data).toEqual({ task_id: 't' })
    expect(c.requests).toBe(2)
  })
  it('a hung request ends at the per-request time limit as a timeout of unknown outcome', async () => {
    nock(API)
      .post('/v2/sites/1001/staging/push')
      .delay(900)
      .reply(202, envelope({ task_id: 't' }))
    const { c } = client({ requestTimeoutMs: 200 })
    // The 202 would have come after 900 ms: a timeout error shows the limit cut the exchange first.
    const e = await failure(c.call('POST', '/sites/1001/staging/push', 'push'))
    expect(e.kind).toBe('timeout')
    expect(e.processing).toBe('unknown')
  })
})

describe('redirects and secrets', () => {
  it('never follows a redirect, and names the target', async () => {
    nock(API)
      .post('/v2/sites/1001/staging/push')
      .reply(307, '', { Location: 'https://evil.example.net/collect?x=1' })
    const other = nock('https://evil.example.net').post(/.*/).reply(200, envelope({}))
    const e = await failure(client().c.call('POST', '/sites/1001/staging/push', 'push'))
    expect(e.kind).toBe('redirect')
    expect(e.message).toContain('https://evil.example.net/collect')
    expect(other.isDone()).toBe(false)
  })
  it('scrubs the token when the server echoes it, and masks credentials in data', async () => {
    nock(API)
      .post('/v2/sites/1001/staging')
      .reply(401, { status: false, message: `Token ${TOKEN} is invalid`, data: { wp_password: 'pw-999999' } })
    const { c, red } = client()
    const e = await failure(c.call('POST', '/sites/1001/staging', 'create'))
    expect(e.message).not.toContain(TOKEN)
    expect(e.message).toContain('***')
    expect(red.scrub('pw-999999')).toBe('***')
  })
})
