/**
 * The reference v2 API simulator: a stateful HTTP server on 127.0.0.1. `start()` for tests and
 * scripts; main.ts for the command line. Each request goes: admin paths (/__sim) aside; record it;
 * apply a fault if one fires (latency, hang, drop, redirect, status); else the v2 API.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { ADMIN_PREFIX, handleAdmin, type AdminTarget } from './admin.js'
import { Api, tokenOf } from './api.js'
import { faultResponse } from './fault-response.js'
import { Faults } from './faults.js'
import { BodyTooLarge, fail, readBody, send } from './http.js'
import { langOf, t } from './i18n.js'
import { Jobs } from './jobs.js'
import { applyOptions, resolveOptions, type OptionsPatch } from './options.js'
import { RateLimiter } from './ratelimit.js'
import { emptyState, seedState } from './seed.js'
import type { EffectiveOptions, FaultRule, RequestRecord, SimState, SimulatorOptions } from './types.js'

export type { FaultRule, RequestRecord, SimState, SimulatorOptions, EffectiveOptions } from './types.js'
export { SIM_TOKENS, SIM_SITES, SIM_ACCOUNT_EMAIL } from './seed.js'

export interface Simulator {
  /** 'http://127.0.0.1:PORT' (no /v2). */
  url: string
  /** Closes the server, destroys open and hung sockets, clears timers. Safe to call twice. */
  stop(): Promise<void>
  addFault(rule: FaultRule): void
  clearFaults(): void
  /** Every non-admin request that reached the server, in order of arrival. */
  requests: RequestRecord[]
  /** The live state (read it; the same object across reset()). */
  state: SimState
  /** The options in force (read it; change it with setOptions). */
  options: EffectiveOptions
  /** Changes options at run time, as POST /__sim/options does. Throws on a bad value. */
  setOptions(patch: OptionsPatch): void
  /** Back to the seeded state: sites, staging, tasks, outbox, purges, requests, faults, rate windows. */
  reset(): void
}

export async function start(options: SimulatorOptions = {}): Promise<Simulator> {
  const state = emptyState()
  seedState(state)
  const effective = resolveOptions(options)
  const jobs = new Jobs(state, effective)
  const limiter = new RateLimiter(() => effective.rateLimit)
  const faults = new Faults()
  const api = new Api(state, effective, jobs, limiter)
  const requests: RequestRecord[] = []
  const sockets = new Set<Socket>()
  /** Wakers of requests sleeping on a latency fault: stop() wakes them so nothing is left pending. */
  const sleepers = new Set<() => void>()
  let stopped = false

  const admin: AdminTarget = {
    state,
    options: effective,
    faults,
    requests,
    jobs,
    reset,
    setOptions,
  }

  function reset(): void {
    jobs.clearTimers()
    seedState(state)
    requests.length = 0
    faults.clear()
    limiter.reset()
  }

  function setOptions(patch: OptionsPatch): void {
    applyOptions(effective, patch)
    if (patch.rateLimit !== undefined) limiter.reset()
  }

  function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer)
        sleepers.delete(wake)
        resolve()
      }
      const timer = setTimeout(wake, ms)
      sleepers.add(wake)
    })
  }

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase()
    const rawPath = req.url ?? '/'
    const url = new URL(rawPath, 'http://127.0.0.1')
    if (url.pathname === ADMIN_PREFIX || url.pathname.startsWith(`${ADMIN_PREFIX}/`)) {
      const body = await readBody(req)
      send(res, handleAdmin(admin, method, url.pathname, body))
      return
    }
    const record: RequestRecord = {
      method,
      path: rawPath,
      status: 'pending',
      at: Date.now(),
      faulted: false,
      processed: false,
      token: tokenOf(req.headers.authorization).kind,
    }
    if (req.headers['content-type'] !== undefined) record.contentType = req.headers['content-type']
    const localization = req.headers['x-localization']
    if (typeof localization === 'string') record.localization = localization
    requests.push(record)

    const rule = faults.take(method, rawPath)
    if (rule) record.faulted = true
    if (rule?.latencyMs) await sleep(rule.latencyMs)
    if (stopped) return
    if (rule?.hang) {
      record.status = 'hung'
      return
    }
    if (rule?.drop === 'before') {
      record.status = 'dropped'
      req.socket.destroy()
      return
    }
    let body: string
    try {
      body = await readBody(req)
    } catch (e) {
      if (!(e instanceof BodyTooLarge)) {
        record.status = 'dropped'
        return
      }
      record.status = 400
      send(res, fail(400, t(langOf(req.headers['x-localization']), 'invalid_json'), { body: ['too large'] }))
      return
    }
    const lang = langOf(req.headers['x-localization'])
    if (rule?.redirect !== undefined) {
      record.status = 307
      send(
        res,
        fail(307, t(lang, 'redirect', { location: rule.redirect }), undefined, { Location: rule.redirect }),
      )
      return
    }
    const injected = rule ? faultResponse(rule, lang, req.headers.authorization) : null
    if (injected && !rule?.process && rule?.drop !== 'after') {
      record.status = injected.status
      send(res, injected)
      return
    }
    const result = api.handle(
      { method, path: url.pathname, query: url.searchParams, headers: req.headers, body },
      rule?.taskError ?? null,
    )
    record.processed = result.processed
    if (rule?.drop === 'after') {
      record.status = 'dropped'
      req.socket.destroy()
      return
    }
    const response = injected ?? result.response
    record.status = response.status
    send(res, response)
  }

  const server = createServer({ requestTimeout: 0 }, (req, res) => {
    onRequest(req, res).catch((error: unknown) => {
      if (stopped || res.headersSent || res.destroyed) return
      send(res, fail(500, `Simulator error: ${(error as Error).message}`))
    })
  })
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo

  let stopping: Promise<void> | null = null
  function stop(): Promise<void> {
    stopping ??= new Promise<void>((resolve) => {
      stopped = true
      jobs.clearTimers()
      for (const wake of [...sleepers]) wake()
      server.close(() => resolve())
      for (const socket of sockets) socket.destroy()
      sockets.clear()
    })
    return stopping
  }

  return {
    url: `http://127.0.0.1:${port}`,
    stop,
    addFault: (rule) => faults.add(rule),
    clearFaults: () => faults.clear(),
    requests,
    state,
    options: effective,
    setOptions,
    reset,
  }
}
