import { describe, expect, it } from '@jest/globals'
import http from 'node:http'
import net from 'node:net'
import { NodeTransport, MAX_RESPONSE_BYTES } from '../../src/api/transport.js'
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
    expect(e.message).toMatch(/\(ECONNREFUSED\)\.$/)
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

/** A TCP server on loopback; `onSocket` decides what it does with each connection. */
async function tcpServer(onSocket: (socket: net.Socket) => void) {
  const sockets = new Set<net.Socket>()
  const server = net.createServer((socket) => {
    sockets.add(socket)
    onSocket(socket)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => {
      for (const s of sockets) s.destroy()
      server.close()
    },
  }
}

describe('how far a request got decides what can have happened', () => {
  it('a TLS handshake that fails (no HTTP byte sent) is "nothing was sent", and a push may be sent again', async () => {
    const srv = await tcpServer((socket) => socket.once('data', () => socket.destroy()))
    try {
      const { c } = client({ apiUrl: `https://127.0.0.1:${srv.port}/v2`, maxRetries: 1 })
      const e = await failure(c.call('POST', '/sites/1001/staging/push', 'push'))
      expect(e.processing).toBe('not-processed')
      expect(e.message).toMatch(/could not reach the server, so nothing was sent/)
      expect(c.requests).toBe(2)
      expect(c.sent[0]).toMatch(/not delivered/)
    } finally {
      srv.close()
    }
  })
  it('a server that accepts the request and never answers is "reached the server, no answer": unknown', async () => {
    const srv = await tcpServer(() => {})
    try {
      const { c } = client({ apiUrl: `http://127.0.0.1:${srv.port}/v2`, requestTimeoutMs: 300 })
      const e = await failure(c.call('POST', '/sites/1001/staging/push', 'push'))
      expect(e.kind).toBe('timeout')
      expect(e.processing).toBe('unknown')
      expect(e.message).toMatch(/reached the server but got no answer/)
      expect(c.requests).toBe(1)
    } finally {
      srv.close()
    }
  })
})

describe('connections (NodeTransport)', () => {
  async function httpServer(handler: http.RequestListener) {
    const server = http.createServer({ keepAliveTimeout: 5000 }, handler)
    let connections = 0
    server.on('connection', () => connections++)
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`
    return {
      url,
      connections: () => connections,
      close: () => {
        server.closeAllConnections()
        server.close()
      },
    }
  }
  const ok: http.RequestListener = (_req, res) => res.end('{"status":true,"message":"ok","data":{}}')

  it('reuses one kept-alive connection for request after request', async () => {
    const srv = await httpServer(ok)
    const transport = new NodeTransport('test')
    try {
      for (let i = 0; i < 5; i++) {
        const r = await transport.request({
          method: 'GET',
          url: `${srv.url}/v2/x`,
          headers: {},
          timeoutMs: 2000,
        })
        expect(r.status).toBe(200)
      }
      expect(srv.connections()).toBe(1)
      expect(transport.connections).toBe(1)
    } finally {
      transport.close()
      srv.close()
    }
  })
  it('counts a connection once when it passes from one queued request to the next', async () => {
    const srv = await httpServer(ok)
    const transport = new NodeTransport('test')
    try {
      // More requests at once than the run keeps connections: the rest queue for a socket.
      const answers = await Promise.all(
        Array.from({ length: 40 }, () =>
          transport.request({ method: 'GET', url: `${srv.url}/v2/x`, headers: {}, timeoutMs: 5000 }),
        ),
      )
      expect(answers.every((r) => r.status === 200)).toBe(true)
      expect(srv.connections()).toBeLessThan(40)
      expect(transport.connections).toBe(srv.connections())
    } finally {
      transport.close()
      srv.close()
    }
  })
  it('gives a push or delete a connection of its own (never a socket that sat idle)', async () => {
    const srv = await httpServer(ok)
    const transport = new NodeTransport('test')
    try {
      await transport.request({ method: 'GET', url: `${srv.url}/v2/x`, headers: {}, timeoutMs: 2000 })
      await transport.request({
        method: 'POST',
        url: `${srv.url}/v2/x`,
        headers: {},
        timeoutMs: 2000,
        fresh: true,
      })
      expect(srv.connections()).toBe(2)
    } finally {
      transport.close()
      srv.close()
    }
  })
  it('reads at most MAX_RESPONSE_BYTES of a body, and says it stopped', async () => {
    const srv = await httpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      const chunk = 'x'.repeat(64 * 1024)
      let sent = 0
      const more = () => {
        while (sent < MAX_RESPONSE_BYTES * 2) {
          sent += chunk.length
          if (!res.write(chunk)) return res.once('drain', more)
        }
        res.end()
      }
      more()
    })
    const transport = new NodeTransport('test')
    try {
      const r = await transport.request({
        method: 'GET',
        url: `${srv.url}/v2/x`,
        headers: {},
        timeoutMs: 5000,
      })
      expect(r.truncated).toBe(true)
      expect(r.body.length).toBe(MAX_RESPONSE_BYTES)
    } finally {
      transport.close()
      srv.close()
    }
  })
})
