import { describe, expect, it } from '@jest/globals'
import net from 'node:net'
import { client, failure } from '../helpers/client.js'

// Real sockets on loopback (no nock): how connection failures are classified.
async function closedPort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const port = (server.address() as net.AddressInfo).port
  await new Promise((r) => server.close(r))
  return port
}

describe('connection failures', () => {
  it('a refused connection (nothing sent) is retried for a push', async () => {
    // A real refused connection: a port on loopback where nothing listens.
    const port = await closedPort()
    const { c } = client({ apiUrl: `http://127.0.0.1:${port}/v2`, maxRetries: 2 })
    const e = await failure(c.call('POST', '/sites/1001/staging/push', 'push'))
    expect(e.code).toBe('ECONNREFUSED')
    expect(e.processing).toBe('not-processed')
    expect(c.requests).toBe(3)
    expect(c.sent[0]).toMatch(/not delivered \(ECONNREFUSED\)/)
  })
  it('a connection dropped after sending (maybe processed) is not retried for a push', async () => {
    const server = net.createServer((socket) => socket.once('data', () => socket.destroy()))
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const port = (server.address() as net.AddressInfo).port
    try {
      const { c } = client({ apiUrl: `http://127.0.0.1:${port}/v2` })
      const e = await failure(c.call('POST', '/sites/1001/staging/push', 'push'))
      expect(e.processing).toBe('unknown')
      expect(c.requests).toBe(1)
      expect(c.sent[0]).toMatch(/no answer/)
    } finally {
      server.close()
    }
  })
})
