import { durationText } from '../duration.js'
import { HttpClient } from '@actions/http-client'
import http, { type IncomingHttpHeaders } from 'node:http'
import https from 'node:https'
import type { Socket } from 'node:net'
import type { TLSSocket } from 'node:tls'
import { CancelledError, whenAborted } from '../clock.js'

/**
 * One HTTP exchange over connections kept alive for the run. Knows how far each request got, which decides
 * whether it may be sent again: `connecting` (no connection was made: not one byte reached the server) or
 * `connected` (the request can have reached it). Proxies work as self-hosted runners need (the agents are
 * `@actions/http-client`'s). Redirects are never followed; at most MAX_RESPONSE_BYTES of a body are read.
 */
export interface TransportRequest {
  method: string
  url: string
  headers: Record<string, string>
  /** Longest the exchange may take, connecting and the whole answer included. */
  timeoutMs: number
  signal?: AbortSignal
  /** A new connection, for push and delete: a kept-alive socket the server closed while idle fails a request
   * as one lost after it arrived would, and those two are never sent again. */
  fresh?: boolean
  /** The request's JSON body, already serialised (site versions and tools take one: contract §13-14). */
  body?: string
}

export interface TransportResponse {
  status: number
  headers: IncomingHttpHeaders
  body: string
  /** The body was longer than MAX_RESPONSE_BYTES: `body` holds its start only. */
  truncated: boolean
}

export type SendPhase = 'connecting' | 'connected'

/** A request that got no HTTP answer. `phase` says whether it can have reached the server. */
export class TransportError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly phase: SendPhase,
  ) {
    super(message)
    this.name = 'TransportError'
  }
}

export interface Transport {
  request(req: TransportRequest): Promise<TransportResponse>
  /** Closes every kept-alive connection. */
  close(): void
  /** Connections opened so far (kept-alive ones count once). */
  readonly connections: number
}

/** No answer of the v2 API is anywhere near this long; the rest of a longer body is never read. */
export const MAX_RESPONSE_BYTES = 2 * 1024 * 1024
/** Connections one run keeps open at most (many sites share them). */
const MAX_SOCKETS = 8

export class NodeTransport implements Transport {
  connections = 0
  private readonly seen = new WeakSet<Socket>()
  private readonly kept: HttpClient
  private readonly oneShot: HttpClient

  constructor(userAgent: string) {
    const options = { allowRedirects: false, allowRetries: false, maxRetries: 0, maxSockets: MAX_SOCKETS }
    this.kept = new HttpClient(userAgent, [], { ...options, keepAlive: true })
    this.oneShot = new HttpClient(userAgent, [], { ...options, keepAlive: false })
  }

  close(): void {
    this.kept.dispose()
    this.oneShot.dispose()
  }

  request(req: TransportRequest): Promise<TransportResponse> {
    const url = new URL(req.url)
    const agent = (req.fresh ? this.oneShot : this.kept).getAgent(req.url)
    const module = url.protocol === 'https:' ? https : http
    return new Promise<TransportResponse>((resolve, reject) => {
      let phase: SendPhase = 'connecting'
      let settled = false
      let stopListening: (() => void) | undefined
      const finish = (error: Error | null, response?: TransportResponse) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        stopListening?.()
        if (error) {
          request.destroy()
          reject(error)
        } else resolve(response!)
      }
      const fail = (message: string, code: string) => finish(new TransportError(message, code, phase))
      const onAbort = () => finish(new CancelledError())
      const request = module.request(url, { method: req.method, headers: req.headers, agent }, (res) => {
        const chunks: Buffer[] = []
        let size = 0
        let truncated = false
        res.on('data', (chunk: Buffer) => {
          if (truncated) return
          chunks.push(chunk.subarray(0, MAX_RESPONSE_BYTES - size))
          size += chunk.length
          if (size <= MAX_RESPONSE_BYTES) return
          truncated = true
          answer()
          res.destroy()
        })
        const answer = () =>
          finish(null, {
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            truncated,
          })
        res.on('end', answer)
        res.on('error', (e: NodeJS.ErrnoException) =>
          fail(`the answer broke off: ${e.message}`, e.code ?? 'ECONNRESET'),
        )
        res.on('aborted', () => fail('the answer broke off', 'ECONNRESET'))
      })
      request.on('socket', (socket: Socket) => {
        // A kept-alive socket comes from the agent's pool (`reusedSocket`), or from its queue when a
        // request finishes with it (not marked): either way it is counted once.
        if (request.reusedSocket || this.seen.has(socket)) {
          phase = 'connected'
          return
        }
        this.seen.add(socket)
        this.connections++
        const tls = (socket as TLSSocket).encrypted === true
        if (tls) {
          // Over a proxy tunnel the TCP part may be done already; the TLS handshake is what counts.
          const protocol = (socket as TLSSocket).getProtocol?.()
          if (protocol && protocol !== 'unknown' && !socket.connecting) phase = 'connected'
          else socket.once('secureConnect', () => (phase = 'connected'))
        } else if (!socket.connecting) phase = 'connected'
        else socket.once('connect', () => (phase = 'connected'))
      })
      request.on('error', (e: NodeJS.ErrnoException) => fail(e.message, e.code ?? 'ECONNRESET'))
      const timer = setTimeout(() => {
        const what = phase === 'connecting' ? 'connection' : 'answer'
        fail(`no ${what} within ${durationText(req.timeoutMs, 'log')}`, 'ETIMEDOUT')
      }, req.timeoutMs)
      if (req.signal?.aborted) return onAbort()
      if (req.signal) stopListening = whenAborted(req.signal, onAbort)
      request.end(req.body)
    })
  }
}
