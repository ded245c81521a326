/**
 * Counting TCP connections and the requests each carried (issue 13: does a client reuse its
 * connections?). Admin requests are not counted, so a test's own /__sim calls do not blur the
 * figures. reset() starts a new count: a kept-alive connection that carries a request after it
 * counts again, as a connection of the new count.
 */
import type { Socket } from 'node:net'
import type { ConnectionStats } from './types.js'

interface PerSocket {
  epoch: number
  requests: number
}

export class ConnectionCounter {
  private epoch = 0
  private readonly sockets = new WeakMap<Socket, PerSocket>()
  private stats: ConnectionStats = empty()

  /** A connection was accepted. */
  accepted(socket: Socket): void {
    this.sockets.set(socket, { epoch: this.epoch, requests: 0 })
    this.stats.acceptedConnections += 1
  }

  /** An API or site request arrived on `socket`. */
  request(socket: Socket): void {
    let entry = this.sockets.get(socket)
    if (entry === undefined || entry.epoch !== this.epoch) {
      entry = { epoch: this.epoch, requests: 0 }
      this.sockets.set(socket, entry)
    }
    if (entry.requests === 0) this.stats.connections += 1
    entry.requests += 1
    this.stats.requests += 1
    this.stats.maxRequestsOnOneConnection = Math.max(this.stats.maxRequestsOnOneConnection, entry.requests)
  }

  snapshot(): ConnectionStats {
    return { ...this.stats }
  }

  reset(): void {
    this.epoch += 1
    this.stats = empty()
  }
}

function empty(): ConnectionStats {
  return { connections: 0, requests: 0, maxRequestsOnOneConnection: 0, acceptedConnections: 0 }
}
