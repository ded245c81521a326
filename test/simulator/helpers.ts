/** Helpers for the simulator tests: real HTTP requests with global fetch. */
import { SIM_TOKENS, type Simulator } from '../../simulator/server.js'

export const RW = SIM_TOKENS.readWrite
export const RO = SIM_TOKENS.readOnly
export const DATE_FORMAT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/

export interface CallOptions {
  /** Bearer token; null sends no Authorization header. Default: the read-write token. */
  token?: string | null
  /** JSON body (POST default: {} with Content-Type: application/json). */
  body?: unknown
  /** Raw body text, sent as is (with contentType). */
  raw?: string
  contentType?: string | null
  lang?: string
  headers?: Record<string, string>
  timeoutMs?: number
  redirect?: 'manual' | 'follow' | 'error'
}

export interface Reply {
  status: number
  headers: Headers
  text: string
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any
}

export async function call(
  sim: Simulator,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers }
  const token = options.token === undefined ? RW : options.token
  if (token !== null) headers.Authorization = `Bearer ${token}`
  if (options.lang !== undefined) headers['X-localization'] = options.lang
  let body: string | undefined
  if (options.raw !== undefined) body = options.raw
  else if (options.body !== undefined) body = JSON.stringify(options.body)
  else if (method === 'POST') body = ''
  const contentType =
    options.contentType === undefined && method === 'POST' ? 'application/json' : options.contentType
  if (contentType) headers['Content-Type'] = contentType
  const response = await fetch(`${sim.url}${path}`, {
    method,
    headers,
    body,
    redirect: options.redirect ?? 'manual',
    signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
  })
  const text = await response.text()
  let json: unknown = undefined
  try {
    json = text === '' ? undefined : JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: response.status, headers: response.headers, text, json }
}

/** Admin call (/__sim...), plain JSON. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function admin(sim: Simulator, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${sim.url}/__sim${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  })
  return { status: response.status, body: await response.json() }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

export { finishNow } from '../helpers/sim.js'

/** Polls the task until it is no longer in progress; returns its last `data`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function waitForTask(sim: Simulator, taskId: string, timeoutMs = 10_000): Promise<any> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const reply = await call(sim, 'GET', `/v2/tasks/${taskId}/status`)
    if (reply.status === 200 && reply.json.data.status !== 'progress') return reply.json.data
    if (Date.now() > deadline) throw new Error(`task ${taskId} still running: ${reply.text}`)
    await sleep(20)
  }
}

/** Polls the admin state until `predicate` holds. */
export async function until(predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time')
    await sleep(10)
  }
}

/** Short job durations for tests. */
export const FAST = { create: 150, pull: 120, push: 120, delete: 80 }
