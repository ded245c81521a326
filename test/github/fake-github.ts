/**
 * A fake of the few GitHub REST endpoints this project uses, on 127.0.0.1: issue comments (list,
 * paginated with Link headers as GitHub does; create; update), deployments (create with a task and
 * a payload, list by environment and task newest first and paginated, create and list statuses),
 * a pull request's state and a workflow run's status. It checks what GitHub checks that
 * matters here (a description of at most 140 characters, a known state, a body that parses) and
 * records every request, so tests can count them and search their bodies. Reached over HTTP
 * (startFakeGitHub, for dist/index.js) or in this process through the action's GitHub fetch seam,
 * on a virtual clock (virtualFakeGitHub).
 */
import { writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import type { GitHubFetch } from '../../src/github/octokit.js'
import type { Clock } from '../../src/types.js'

export interface FakeUser {
  login: string
  type: string
}

export interface FakeComment {
  id: number
  body: string
  issue: number
  html_url: string
  user: FakeUser | null
}

export interface FakeDeploymentStatus {
  id: number
  state: string
  created_at: string
  description?: string
  log_url?: string
  environment_url?: string
  auto_inactive?: boolean
}

export interface FakeDeployment {
  id: number
  sha: string
  ref: string
  environment: string
  task: string
  payload: unknown
  /** GitHub leaves it null when the account is gone. */
  creator: FakeUser | null
  created_at: string
  description: string | null
  auto_merge?: boolean
  required_contexts?: unknown
  production_environment?: boolean
  transient_environment?: boolean
  statuses: FakeDeploymentStatus[]
}

export interface RecordedRequest {
  method: string
  path: string
  /** ms epoch when it arrived. */
  at: number
  authorization: string | undefined
  body: string
}

export interface Refusal {
  method?: string
  /** Only requests whose path matches. */
  path?: RegExp
  status: number
  message: string
}

export interface FakeGitHub {
  /** Use as GITHUB_API_URL. */
  url: string
  owner: string
  repo: string
  comments: FakeComment[]
  deployments: FakeDeployment[]
  /** Pull requests by number: 'open' or 'closed' (any other number: 404). */
  pulls: Map<number, 'open' | 'closed'>
  /** Workflow runs by id: their `status` (queued, in_progress, completed). */
  runs: Map<number, string>
  requests: RecordedRequest[]
  /** Answer matching requests with this status from now on (null: stop refusing). */
  refuse(refusal: Refusal | null): void
  /** Adds comments by other people, so the project's comment lands on a later page. */
  addOthers(issue: number, count: number): void
  /** Adds a comment by anyone (a forged one, say). */
  addComment(issue: number, body: string, user: FakeUser | null): FakeComment
  /** Adds a deployment made earlier (by an earlier run, say). */
  addDeployment(environment: string, sha?: string, over?: Partial<FakeDeployment>): FakeDeployment
  stop(): Promise<void>
}

export const BOT: FakeUser = { login: 'github-actions[bot]', type: 'Bot' }

/** Event files written so far (each call writes a file of its own). */
let eventFiles = 0

/**
 * The environment the runner gives an action for an event: `payload` written to a file in `dir`,
 * the API pointed at the fake `gh`, plus `extra` (e.g. GITHUB_SHA).
 */
export function eventEnv(
  gh: FakeGitHub,
  dir: string,
  eventName: string,
  payload: unknown,
  extra: Record<string, string> = {},
): Record<string, string> {
  // In virtual time several runs fit in one millisecond: the time alone would not tell them apart.
  const file = path.join(dir, `${eventName}-${Date.now()}-${++eventFiles}.json`)
  writeFileSync(file, JSON.stringify(payload))
  return {
    GITHUB_API_URL: gh.url,
    GITHUB_SERVER_URL: 'https://github.example',
    GITHUB_EVENT_NAME: eventName,
    GITHUB_EVENT_PATH: file,
    GITHUB_REPOSITORY: `${gh.owner}/${gh.repo}`,
    GITHUB_RUN_ID: '4242',
    ...extra,
  }
}
const STATES = new Set(['error', 'failure', 'inactive', 'in_progress', 'queued', 'pending', 'success'])

/** A request as the fake reads it, however it arrived (over HTTP or through an in-process fetch). */
interface FakeRequest {
  method: string
  url: URL
  authorization: string | undefined
  body: string
}

/** The fake's answer: a status, its headers, a JSON body. */
interface FakeAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

/**
 * The fake's state and its answers, with no transport: `base` is the URL it is reached at (for
 * Link headers), `now` the clock its records are stamped with.
 */
function fakeGitHubCore(
  owner: string,
  repo: string,
  base: string,
  now: () => number,
): FakeGitHub & { handle(req: FakeRequest): FakeAnswer } {
  const comments: FakeComment[] = []
  const deployments: FakeDeployment[] = []
  const pulls = new Map<number, 'open' | 'closed'>()
  const runs = new Map<number, string>()
  const requests: RecordedRequest[] = []
  let refusal: Refusal | null = null
  let nextId = 5000

  const addComment = (issue: number, body: string, user: FakeUser | null): FakeComment => {
    const id = nextId++
    const c: FakeComment = {
      id,
      body,
      issue,
      html_url: `https://github.example/${owner}/${repo}/pull/${issue}#issuecomment-${id}`,
      user,
    }
    comments.push(c)
    return c
  }

  /** Strictly increasing times, as GitHub's own records are ordered. */
  let clock = Date.parse('2026-11-24T14:00:00Z')
  const stamp = () => new Date((clock += 1000)).toISOString().replace(/\.\d{3}Z$/, 'Z')

  const addDeployment = (
    environment: string,
    sha = 'a'.repeat(40),
    over: Partial<FakeDeployment> = {},
  ): FakeDeployment => {
    const d: FakeDeployment = {
      id: nextId++,
      sha,
      ref: sha,
      environment,
      task: 'deploy',
      payload: {},
      creator: BOT,
      created_at: stamp(),
      description: null,
      statuses: [],
      ...over,
    }
    deployments.push(d)
    return d
  }

  const json = (status: number, data: unknown, headers: Record<string, string> = {}): FakeAnswer => ({
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(data),
  })

  /** One page of `all`, with GitHub's Link header. */
  const page = (url: URL, all: unknown[]): FakeAnswer => {
    const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? 30))
    const n = Number(url.searchParams.get('page') ?? 1)
    const last = Math.max(1, Math.ceil(all.length / perPage))
    const links: string[] = []
    const keep = new URLSearchParams(url.searchParams)
    const pageUrl = (p: number) => {
      keep.set('page', String(p))
      return `<${base}${url.pathname}?${keep.toString()}>`
    }
    if (n < last) links.push(`${pageUrl(n + 1)}; rel="next"`, `${pageUrl(last)}; rel="last"`)
    if (n > 1) links.push(`${pageUrl(1)}; rel="first"`, `${pageUrl(n - 1)}; rel="prev"`)
    return json(
      200,
      all.slice((n - 1) * perPage, n * perPage),
      links.length ? { link: links.join(', ') } : {},
    )
  }

  const parse = (body: string): Record<string, unknown> | null => {
    try {
      const v = JSON.parse(body) as unknown
      return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null
    } catch {
      return null
    }
  }

  const publicDeployment = (d: FakeDeployment) => {
    const { statuses: _statuses, ...rest } = d
    return rest
  }

  const handle = (req: FakeRequest): FakeAnswer => {
    const { url, body } = req
    requests.push({
      method: req.method,
      path: url.pathname + url.search,
      at: now(),
      authorization: req.authorization,
      body,
    })
    if (
      refusal &&
      (!refusal.method || refusal.method === req.method) &&
      (!refusal.path || refusal.path.test(url.pathname))
    )
      return json(refusal.status, {
        message: refusal.message,
        documentation_url: 'https://docs.github.com/rest',
      })
    const prefix = `/repos/${owner}/${repo}/`
    if (!url.pathname.startsWith(prefix)) return json(404, { message: 'Not Found' })
    const rest = url.pathname.slice(prefix.length)
    const parsed = req.method === 'POST' || req.method === 'PATCH' ? parse(body) : {}
    if (!parsed) return json(400, { message: 'Problems parsing JSON' })

    // Issue comments.
    let m = /^issues\/(\d+)\/comments$/.exec(rest)
    if (m && req.method === 'GET')
      return page(
        url,
        comments.filter((c) => c.issue === Number(m![1])),
      )
    if (m && req.method === 'POST') {
      if (typeof parsed.body !== 'string') return json(422, { message: 'body is required' })
      return json(201, addComment(Number(m[1]), parsed.body, BOT))
    }
    m = /^issues\/comments\/(\d+)$/.exec(rest)
    if (m && req.method === 'PATCH') {
      const c = comments.find((x) => x.id === Number(m![1]))
      if (!c) return json(404, { message: 'Not Found' })
      if (typeof parsed.body !== 'string') return json(422, { message: 'body is required' })
      c.body = parsed.body
      return json(200, c)
    }

    // Deployments.
    if (rest === 'deployments' && req.method === 'GET') {
      const env = url.searchParams.get('environment')
      const task = url.searchParams.get('task')
      const list = deployments
        .filter((d) => (env === null || d.environment === env) && (task === null || d.task === task))
        .reverse()
      return page(url, list.map(publicDeployment))
    }
    if (rest === 'deployments' && req.method === 'POST') {
      if (typeof parsed.ref !== 'string' || parsed.ref === '')
        return json(422, { message: 'ref is required' })
      if (typeof parsed.description === 'string' && parsed.description.length > 140)
        return json(422, { message: 'description is too long (maximum is 140 characters)' })
      const d = addDeployment(
        typeof parsed.environment === 'string' ? parsed.environment : 'production',
        parsed.ref,
      )
      d.description = typeof parsed.description === 'string' ? parsed.description : null
      if (typeof parsed.task === 'string') d.task = parsed.task
      if (parsed.payload !== undefined) {
        if (typeof parsed.payload === 'string') {
          try {
            d.payload = JSON.parse(parsed.payload)
          } catch {
            return json(422, { message: 'payload is not valid JSON' })
          }
        } else d.payload = parsed.payload
      }
      d.auto_merge = parsed.auto_merge as boolean | undefined
      d.required_contexts = parsed.required_contexts
      d.production_environment = parsed.production_environment as boolean | undefined
      d.transient_environment = parsed.transient_environment as boolean | undefined
      return json(201, publicDeployment(d))
    }
    m = /^deployments\/(\d+)\/statuses$/.exec(rest)
    if (m && req.method === 'GET') {
      const d = deployments.find((x) => x.id === Number(m![1]))
      if (!d) return json(404, { message: 'Not Found' })
      return page(url, [...d.statuses].reverse())
    }
    m = /^pulls\/(\d+)$/.exec(rest)
    if (m && req.method === 'GET') {
      const state = pulls.get(Number(m[1]))
      if (!state) return json(404, { message: 'Not Found' })
      return json(200, { number: Number(m[1]), state })
    }
    m = /^actions\/runs\/(\d+)$/.exec(rest)
    if (m && req.method === 'GET') {
      const status = runs.get(Number(m[1]))
      if (!status) return json(404, { message: 'Not Found' })
      return json(200, {
        id: Number(m[1]),
        status,
        conclusion: status === 'completed' ? 'success' : null,
      })
    }
    m = /^deployments\/(\d+)\/statuses$/.exec(rest)
    if (m && req.method === 'POST') {
      const d = deployments.find((x) => x.id === Number(m![1]))
      if (!d) return json(404, { message: 'Not Found' })
      if (typeof parsed.state !== 'string' || !STATES.has(parsed.state))
        return json(422, { message: 'state is not included in the list' })
      if (typeof parsed.description === 'string' && parsed.description.length > 140)
        return json(422, { message: 'description is too long (maximum is 140 characters)' })
      const s: FakeDeploymentStatus = { id: nextId++, state: parsed.state, created_at: stamp() }
      for (const k of ['description', 'log_url', 'environment_url'] as const)
        if (typeof parsed[k] === 'string') s[k] = parsed[k]
      if (typeof parsed.auto_inactive === 'boolean') s.auto_inactive = parsed.auto_inactive
      d.statuses.push(s)
      // As GitHub does: a success retires the environment's earlier deployments (unless told not to).
      if (s.state === 'success' && s.auto_inactive !== false)
        for (const other of deployments)
          if (
            other !== d &&
            other.environment === d.environment &&
            other.statuses.at(-1)?.state === 'success'
          )
            other.statuses.push({
              id: nextId++,
              state: 'inactive',
              created_at: stamp(),
              description: 'auto-inactive',
            })
      return json(201, { ...s, deployment_url: `${base}${prefix}deployments/${d.id}` })
    }
    return json(404, { message: 'Not Found' })
  }

  return {
    url: base,
    owner,
    repo,
    comments,
    deployments,
    pulls,
    runs,
    requests,
    refuse: (r) => (refusal = r),
    addOthers: (issue, count) => {
      for (let i = 0; i < count; i++)
        addComment(issue, `Looks good to me (${i})`, { login: `reviewer-${i % 3}`, type: 'User' })
    },
    addComment,
    addDeployment,
    stop: async () => {},
    handle,
  }
}

/** The fake on 127.0.0.1, over HTTP (for dist/index.js in a child process). */
export async function startFakeGitHub(owner = 'octo-org', repo = 'site-repo'): Promise<FakeGitHub> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const { handle, ...gh } = fakeGitHubCore(owner, repo, base, Date.now)
  server.on('request', (req, res) => {
    let body = ''
    req.on('data', (d: Buffer) => (body += d.toString()))
    req.on('end', () => {
      const answer = handle({
        method: req.method ?? '',
        url: new URL(req.url ?? '/', base),
        authorization: req.headers.authorization,
        body,
      })
      res.writeHead(answer.status, answer.headers)
      res.end(answer.body)
    })
  })
  return {
    ...gh,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Round trip of one GitHub exchange in virtual time. */
const GITHUB_RTT_MS = 40

/**
 * The fake in this process, for a step run in virtual time: `fetch` (the action's GitHub seam)
 * answers each request as the HTTP one would, half a round trip after it is sent and half after
 * it arrives, on `clock`; a request whose signal aborts fails as a fetch does. No socket.
 */
export function virtualFakeGitHub(
  clock: Pick<Clock, 'sleep' | 'wallNow'>,
  owner = 'octo-org',
  repo = 'site-repo',
): FakeGitHub & { fetch: GitHubFetch } {
  const { handle, ...gh } = fakeGitHubCore(owner, repo, 'https://api.github.example', () => clock.wallNow())
  const fetch: GitHubFetch = async (url, init) => {
    const aborted = () => init.signal?.reason ?? new DOMException('This operation was aborted', 'AbortError')
    const half = async () => {
      try {
        await clock.sleep(GITHUB_RTT_MS / 2, init.signal ?? undefined)
      } catch {
        throw aborted()
      }
    }
    await half()
    const answer = handle({
      method: (init.method ?? 'GET').toUpperCase(),
      url: new URL(url),
      authorization: new Headers(init.headers).get('authorization') ?? undefined,
      body: typeof init.body === 'string' ? init.body : '',
    })
    await half()
    // A 204, 205 or 304 has no body (the Response constructor refuses one).
    const body = [204, 205, 304].includes(answer.status) ? null : answer.body
    return new Response(body, { status: answer.status, headers: answer.headers })
  }
  return { ...gh, fetch }
}
