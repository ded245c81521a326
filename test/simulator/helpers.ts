/**
 * Helpers for the simulator tests: real HTTP requests with global fetch. No test here depends on
 * how fast the machine is: a state that must be seen (a job running, a site not live yet, a window
 * still closed) is held by a ManualClock or a long duration, never by a short one raced against
 * HTTP round trips; waits end on events, with generous limits that only a broken behaviour reaches.
 */
import {
  ManualClock,
  SIM_TOKENS,
  start,
  type Simulator,
  type SimulatorOptions,
} from '../../simulator/server.js'

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
  /** Aborts the request (instead of timeoutMs): a test that must see a request left unanswered. */
  signal?: AbortSignal
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
    signal: options.signal ?? AbortSignal.timeout(options.timeoutMs ?? WAIT_MS),
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

/**
 * A v2 API caller for one profile's prefix ('' or '/api'): JSON accepted, and a JSON body's content
 * type on every method but GET (the site-versions and tools routes take bodies).
 */
export function callJson(
  sim: Simulator,
  prefix: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Reply> {
  return call(sim, method, `${prefix}/v2${path}`, {
    contentType: method === 'GET' ? null : 'application/json',
    ...options,
    headers: { Accept: 'application/json', ...options.headers },
  })
}
/** Admin call (/__sim...), plain JSON. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function admin(sim: Simulator, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${sim.url}/__sim${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(WAIT_MS),
  })
  return { status: response.status, body: await response.json() }
}

/**
 * How long a wait on an event may take before the test fails: far beyond what any machine, however
 * busy, needs, and within Jest's 60 s test timeout.
 */
export const WAIT_MS = 30_000

/**
 * A simulator whose API runs on a ManualClock: jobs end, staging sites go live, tasks become
 * visible and rate windows roll only when the test moves `clock` (every request settles what is
 * due first, and the server's job timer settles it without any request).
 */
export async function startOnClock(
  options: SimulatorOptions = {},
): Promise<{ sim: Simulator; clock: ManualClock }> {
  const clock = new ManualClock()
  return { sim: await start(options, clock), clock }
}

/**
 * On a simulator started with startOnClock: moves `clock` to the end of task `taskId` (not at all
 * if it has ended) and reads the task once over HTTP at the profile's API root, which settles it.
 * Its `data`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function endTask(sim: Simulator, clock: ManualClock, taskId: string): Promise<any> {
  const task = sim.state.tasks.get(taskId)
  if (!task) throw new Error(`no task ${taskId}`)
  if (task.ends_at > clock.now()) clock.set(task.ends_at)
  const root = sim.apiUrl.slice(sim.url.length)
  const reply = await call(sim, 'GET', `${root}/v2/tasks/${taskId}/status`, {
    headers: { Accept: 'application/json' },
  })
  if (reply.status !== 200) throw new Error(`task ${taskId}: ${reply.status} ${reply.text}`)
  return reply.json.data
}

/** What became of `promise` so far: 'pending' until it settles. */
export async function stateOf(promise: Promise<unknown>): Promise<'pending' | 'resolved' | 'rejected'> {
  const pending = Symbol('pending')
  return Promise.race([promise, Promise.resolve(pending)]).then(
    (value) => (value === pending ? 'pending' : 'resolved'),
    () => 'rejected',
  )
}

/** True when `promise` settles within `ms` (its own outcome aside); the timer is cleared either way. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)))
  const settled = promise.then(
    () => true as const,
    () => true as const,
  )
  try {
    return await Promise.race([settled, late])
  } finally {
    clearTimeout(timer)
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

export { finishNow } from '../helpers/sim.js'

/** Polls the task until it is no longer in progress; returns its last `data`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function waitForTask(sim: Simulator, taskId: string, timeoutMs = WAIT_MS): Promise<any> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const reply = await call(sim, 'GET', `/v2/tasks/${taskId}/status`)
    if (reply.status === 200 && reply.json.data.status !== 'progress') return reply.json.data
    if (Date.now() > deadline) throw new Error(`task ${taskId} still running: ${reply.text}`)
    await sleep(20)
  }
}

/** Polls the admin state until `predicate` holds. */
export async function until(predicate: () => boolean, timeoutMs = WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time')
    await sleep(10)
  }
}

/** Short job durations for tests. */
export const FAST = { create: 150, pull: 120, push: 120, delete: 80 }
