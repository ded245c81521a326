/**
 * The admin paths under /__sim: read the state, events, requests and connection counts, bump
 * content versions, set faults and options, reset. Not part of the v2 API: no auth, no rate limit,
 * not recorded, not counted, plain JSON (no envelope), times as ms epoch.
 */
import { faultsFromJson, ruleToJson, type Faults } from './faults.js'
import type { ApiResponse } from './http.js'
import type { OptionsPatch } from './options.js'
import type {
  ConnectionStats,
  EffectiveOptions,
  RequestRecord,
  SimState,
  SiteRequestRecord,
  Task,
} from './types.js'

export interface AdminTarget {
  state: SimState
  options: EffectiveOptions
  faults: Faults
  requests: RequestRecord[]
  siteRequests: SiteRequestRecord[]
  stats(): ConnectionStats
  /** Ends the jobs that are due. */
  settle(): void
  percentageOf(task: Task): number | null
  reset(): void
  setOptions(patch: OptionsPatch): void
}

export const ADMIN_PREFIX = '/__sim'

export function handleAdmin(sim: AdminTarget, method: string, path: string, body: string): ApiResponse {
  sim.settle()
  const route = path.slice(ADMIN_PREFIX.length).replace(/\/+$/, '') || '/'
  try {
    return dispatch(sim, method, route, body)
  } catch (e) {
    return json(400, { error: (e as Error).message })
  }
}

function dispatch(sim: AdminTarget, method: string, route: string, body: string): ApiResponse {
  const site = /^\/sites\/([^/]+)$/.exec(route)
  const content = /^\/sites\/([^/]+)\/content$/.exec(route)
  if (method === 'GET' && route === '/state') return json(200, snapshot(sim))
  if (method === 'GET' && site?.[1] !== undefined) return siteEntry(sim, site[1])
  if (method === 'POST' && content?.[1] !== undefined) return bumpContent(sim, content[1], parse(body))
  if (method === 'GET' && route === '/outbox') return json(200, sim.state.outbox)
  if (method === 'GET' && route === '/purges') return json(200, sim.state.purges)
  if (method === 'GET' && route === '/requests') return json(200, sim.requests)
  if (method === 'GET' && route === '/site-requests') return json(200, sim.siteRequests)
  if (method === 'GET' && route === '/stats') return json(200, sim.stats())
  if (method === 'GET' && route === '/tasks') return json(200, tasks(sim))
  if (method === 'GET' && route === '/faults') return json(200, faultList(sim))
  if (method === 'POST' && route === '/faults') {
    for (const rule of faultsFromJson(parse(body))) sim.faults.add(rule)
    return json(200, faultList(sim))
  }
  if (method === 'DELETE' && route === '/faults') {
    sim.faults.clear()
    return json(200, [])
  }
  if (method === 'POST' && route === '/reset') {
    sim.reset()
    return json(200, snapshot(sim))
  }
  if (method === 'GET' && route === '/options') return json(200, sim.options)
  if (method === 'POST' && route === '/options') {
    const patch = parse(body)
    if (typeof patch !== 'object' || patch === null || Array.isArray(patch))
      throw new Error('options must be an object')
    sim.setOptions(patch as OptionsPatch)
    return json(200, sim.options)
  }
  return json(404, { error: `no admin route ${method} ${ADMIN_PREFIX}${route}` })
}

/** The whole state as JSON. */
export function snapshot(sim: AdminTarget): Record<string, unknown> {
  return {
    sites: [...sim.state.sites.values()],
    staging: [...sim.state.staging.values()],
    tasks: tasks(sim),
    outbox: sim.state.outbox,
    purges: sim.state.purges,
    options: sim.options,
    faults: faultList(sim),
    requests: sim.requests.length,
  }
}

function tasks(sim: AdminTarget): (Task & { percentage_complete: number | null })[] {
  return [...sim.state.tasks.values()].map((task) => ({
    ...task,
    percentage_complete: sim.percentageOf(task),
  }))
}

function faultList(sim: AdminTarget): Record<string, unknown>[] {
  return sim.faults
    .list()
    .map(({ rule, left }) => ({ ...ruleToJson(rule), left: left === Infinity ? 'Infinity' : left }))
}

function siteEntry(sim: AdminTarget, id: string): ApiResponse {
  const site = sim.state.sites.get(id)
  if (!site) return json(404, { error: `site ${id} not found` })
  return json(200, { site, staging: sim.state.staging.get(id) ?? null })
}

function bumpContent(sim: AdminTarget, id: string, body: unknown): ApiResponse {
  const site = sim.state.sites.get(id)
  if (!site) return json(404, { error: `site ${id} not found` })
  const { target, part } = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>
  if (target !== 'production' && target !== 'staging') throw new Error('target must be production or staging')
  if (part !== undefined && part !== 'files' && part !== 'database')
    throw new Error('part must be files or database')
  const staging = sim.state.staging.get(id)
  if (target === 'staging' && !staging) return json(409, { error: `site ${id} has no staging site` })
  const key = `${id}:${target}`
  const version = (sim.state.versions.get(key) ?? 1) + 1
  sim.state.versions.set(key, version)
  const value = `${target === 'production' ? 'prod' : 'staging'}-v${version}`
  const record = target === 'production' ? site : staging
  if (record) {
    if (part === undefined || part === 'files') record.content.files = value
    if (part === undefined || part === 'database') record.content.database = value
  }
  return json(200, { site, staging: staging ?? null })
}

function parse(body: string): unknown {
  if (body.trim() === '') return {}
  try {
    return JSON.parse(body)
  } catch (e) {
    throw new Error(`invalid JSON body: ${(e as Error).message}`)
  }
}

function json(status: number, body: unknown): ApiResponse {
  return { status, headers: {}, body }
}
