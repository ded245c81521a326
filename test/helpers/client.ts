import { afterEach } from '@jest/globals'
import { StagingApiClient, type ClientSettings } from '../../src/api/client.js'
import { ApiError } from '../../src/api/errors.js'
import { RateWindow } from '../../src/api/rate-window.js'
import { NodeTransport } from '../../src/api/transport.js'
import { API, FakeClock, MemoryLogger, TOKEN, redactor } from './fakes.js'

/** Every transport a test made, closed after each test so no kept-alive socket outlives it. */
const transports: NodeTransport[] = []
afterEach(() => {
  for (const t of transports.splice(0)) t.close()
})

export function client(overrides: Partial<ClientSettings> = {}, clock = new FakeClock()) {
  const logger = new MemoryLogger()
  const red = redactor()
  const c = new StagingApiClient(
    {
      apiUrl: `${API}/v2`,
      token: TOKEN,
      language: 'en',
      maxRetries: 3,
      deadline: clock.now() + 600_000,
      requestTimeoutMs: 2000,
      ...overrides,
    },
    {
      clock,
      logger,
      redactor: red,
      ledger: new RateWindow(clock),
      transport: track(new NodeTransport('test')),
      random: () => 0.5,
    },
  )
  return { c, clock, logger, red }
}

export async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p
  } catch (e) {
    if (e instanceof ApiError) return e
    throw e
  }
  throw new Error('expected an ApiError')
}

function track(t: NodeTransport): NodeTransport {
  transports.push(t)
  return t
}
