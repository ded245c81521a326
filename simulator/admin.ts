/**
 * The admin paths under /__sim: read the state, events, requests and connection counts, bump
 * content versions, read and seed site versions, set a site's tool state, set faults and options,
 * reset. Not part of the v2 API: no auth, no rate limit,
 * not recorded, not counted, plain JSON (no envelope), times as ms epoch.
 */
import { faultsFromJson, ruleToJson, type Faults } from './faults.js'
import type { ApiResponse } from './http.js'
import type { OptionsPatch } from './options.js'
import { addVersion } from './routes/versions.js'
import type {
  ConnectionStats,
  Content,
  EffectiveOptions,
  RequestRecord,
  SimState,
  SiteRequestRecord,
  SiteVersion,
  Task,
  ToolChange,
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
  const versions = /^\/sites\/([^/]+)\/versions$/.exec(route)
  const siteState = /^\/sites\/([^/]+)\/state$/.exec(route)
  if (method === 'GET' && route === '/state') return json(200, snapshot(sim))
  if (method === 'GET' && site?.[1] !== undefined) return siteEntry(sim, site[1])
  if (method === 'POST' && content?.[1] !== undefined) return bumpContent(sim, content[1], parse(body))
  if (method === 'GET' && versions?.[1] !== undefined) return siteVersions(sim, versions[1])
  if (method === 'POST' && versions?.[1] !== undefined) return seedVersion(sim, versions[1], parse(body))
  if (method === 'POST' && siteState?.[1] !== undefined) return setSiteState(sim, siteState[1], parse(body))
  if (method === 'GET' && route === '/outbox') return json(200, sim.state.outbox)
  if (method === 'GET' && route === '/purges') return json(200, sim.state.purges)
  if (method === 'GET' && route === '/tools') return json(200, sim.state.toolChanges)
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
    siteVersions: [...sim.state.siteVersions.values()],
    tasks: tasks(sim),
    outbox: sim.state.outbox,
    purges: sim.state.purges,
    toolChanges: sim.state.toolChanges,
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
  return json(200, { site, staging: sim.state.staging.get(id) ?? null, versions: versionsOf(sim, site.id) })
}

/** A site's versions, newest first (every field, content included). */
function versionsOf(sim: AdminTarget, siteId: number): SiteVersion[] {
  return [...sim.state.siteVersions.values()]
    .filter((v) => v.site_id === siteId)
    .sort((a, b) => b.created_at - a.created_at || b.id - a.id)
}

function siteVersions(sim: AdminTarget, id: string): ApiResponse {
  const site = sim.state.sites.get(id)
  if (!site) return json(404, { error: `site ${id} not found` })
  return json(200, versionsOf(sim, site.id))
}

/**
 * Adds a version to a site at once, without a job (a version a person made, or one to fill the
 * quota): `{ name?, status?: 'completed' | 'progress' | 'failed', content?: { files, database },
 * created_at? }`. Default: completed, unnamed, the site's content now.
 */
function seedVersion(sim: AdminTarget, id: string, body: unknown): ApiResponse {
  const site = sim.state.sites.get(id)
  if (!site) return json(404, { error: `site ${id} not found` })
  const { name, status, content, created_at } = (isObject(body) ? body : {}) as Record<string, unknown>
  if (name !== undefined && name !== null && typeof name !== 'string')
    throw new Error('name must be a string')
  if (status !== undefined && status !== 'completed' && status !== 'progress' && status !== 'failed')
    throw new Error('status must be completed, progress or failed')
  if (content !== undefined && !isContent(content))
    throw new Error('content must be { files, database } strings')
  if (created_at !== undefined && !(typeof created_at === 'number' && Number.isFinite(created_at)))
    throw new Error('created_at must be a number (ms epoch)')
  const now = typeof created_at === 'number' ? created_at : Date.now()
  const version = addVersion(
    { state: sim.state, now },
    site,
    status ?? 'completed',
    typeof name === 'string' ? name : null,
    isContent(content) ? content : site.content,
  )
  return json(200, version)
}

/** Sets a site's tool state directly: `{ maintenance?: boolean, password_protected?: boolean }`. */
function setSiteState(sim: AdminTarget, id: string, body: unknown): ApiResponse {
  const site = sim.state.sites.get(id)
  if (!site) return json(404, { error: `site ${id} not found` })
  const patch = (isObject(body) ? body : {}) as Record<string, unknown>
  const fields = { maintenance: 'maintenance_mode', password_protected: 'password_protection' } as const
  for (const field of Object.keys(fields) as (keyof typeof fields)[]) {
    if (patch[field] !== undefined && typeof patch[field] !== 'boolean')
      throw new Error(`${field} must be a boolean`)
  }
  for (const [field, tool] of Object.entries(fields) as [keyof typeof fields, ToolChange['tool']][]) {
    const value = patch[field]
    if (typeof value !== 'boolean') continue
    site[field] = value
    sim.state.toolChanges.push({
      site_id: site.id,
      tool,
      value: value ? 'on' : 'off',
      source: 'admin',
      at: Date.now(),
    })
  }
  return json(200, { site, staging: sim.state.staging.get(id) ?? null, versions: versionsOf(sim, site.id) })
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isContent(value: unknown): value is Content {
  return isObject(value) && typeof value.files === 'string' && typeof value.database === 'string'
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
