/**
 * Issue 24 §7: true words on cancel. A push that was waiting out a 429 or a 503 (or a busy 409/423, if-busy: wait) when the run was
 * cancelled was not taken (the contract reads both as "not processed"): the run says so, and not that
 * whether the server took it is unknown.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals'
import nock from 'nock'
import { CancelledError } from '../../src/clock.js'
import { runOperation } from '../../src/staging/operations.js'
import { API, FakeClock, MemoryLogger, config, envelope, redactor } from '../helpers/fakes.js'

beforeAll(() => nock.disableNetConnect())
afterAll(() => {
  nock.enableNetConnect()
  nock.restore()
})
afterEach(() => nock.cleanAll())

/** A clock whose first sleep after `arm()` is where the user cancels. */
class CancelInSleep extends FakeClock {
  armed = false
  constructor(private readonly controller: AbortController) {
    super()
  }
  override async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (this.armed) {
      this.controller.abort()
      throw new CancelledError()
    }
    return super.sleep(ms, signal)
  }
}

async function cancelledWhileWaitingOut(status: number, op: 'push' | 'pull') {
  const controller = new AbortController()
  const clock = new CancelInSleep(controller)
  const path = op === 'push' ? '/v2/sites/1001/staging/push' : '/v2/sites/1001/staging/reset'
  nock(API)
    .post(path)
    .reply(() => {
      clock.armed = true
      return [status, envelope(null, 'Slow down', false), { 'Retry-After': '30' }]
    })
  const result = await runOperation(config({ operation: op }), '1001', {
    clock,
    logger: new MemoryLogger(),
    redactor: redactor(),
    signal: controller.signal,
    random: () => 0.5,
    door: 'cli',
  })
  return result
}

describe('cancelled while waiting out an answer before sending again', () => {
  it.each([429, 503, 409, 423])('push answered %i: not taken, nothing was pushed', async (status) => {
    const r = await cancelledWhileWaitingOut(status, 'push')
    expect(r.result).toBe('cancelled')
    expect(r.httpStatus).toBe(status)
    expect(r.summary).toContain(`Sent: POST /v2/sites/1001/staging/push -> ${status}.`)
    expect(r.summary).toContain(
      `The push request was not taken: the server answered ${status} (not processed) and it was waiting to be sent again, so nothing was pushed to production.`,
    )
    expect(r.summary).not.toMatch(/unknown|still be running there/)
  })
  it('pull answered 429: staging was not refreshed', async () => {
    const r = await cancelledWhileWaitingOut(429, 'pull')
    expect(r.summary).toContain('so staging was not refreshed.')
  })
})
