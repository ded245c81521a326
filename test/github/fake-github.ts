/**
 * A fake of the few GitHub REST endpoints this project uses, on 127.0.0.1: issue comments (list,
 * paginated with Link headers as GitHub does; create; update), deployments (create with a task and
 * a payload, list by environment and task newest first and paginated, create and list statuses),
 * a pull request's state and a workflow run's status. It checks what GitHub checks that
 * matters here (a description of at most 140 characters, a known state, a body that parses) and
 * records every request, so tests can count them and search their bodies.
 */
import { writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'

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
  const file = path.join(dir, `${eventName}-${Date.now()}.json`)
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

export async function startFakeGitHub(owner = 'octo-org', repo = 'site-repo'): Promise<FakeGitHub> {
  const comments: FakeComment[] = []
  const deployments: FakeDeployment[] = []
  const pulls = new Map<number, 'open' | 'closed'>()
  const runs = new Map<number, string>()
  const requests: RecordedRequest[] = []
  let refusal: Refusal | null = null
  let nextId = 5000
  let base = ''

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

  const json = (res: ServerResponse, status: number, data: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers })
    res.end(JSON.stringify(data))
  }

  /** One page of `all`, with GitHub's Link header. */
  const page = (res: ServerResponse, url: URL, all: unknown[]) => {
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
      res,
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

  const handle = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const url = new URL(req.url ?? '/', base)
    requests.push({
      method: req.method ?? '',
      path: url.pathname + url.search,
      at: Date.now(),
      authorization: req.headers.authorization,
      body,
    })
    if (
      refusal &&
      (!refusal.method || refusal.method === req.method) &&
      (!refusal.path || refusal.path.test(url.pathname))
    )
      return json(res, refusal.status, {
        message: refusal.message,
        documentation_url: 'https://docs.github.com/rest',
      })
    const prefix = `/repos/${owner}/${repo}/`
    if (!url.pathname.startsWith(prefix)) return json(res, 404, { message: 'Not Found' })
    const rest = url.pathname.slice(prefix.length)
    const parsed = req.method === 'POST' || req.method === 'PATCH' ? parse(body) : {}
    if (!parsed) return json(res, 400, { message: 'Problems parsing JSON' })

    // Issue comments.
    let m = /^issues\/(\d+)\/comments$/.exec(rest)
    if (m && req.method === 'GET')
      return page(
        res,
        url,
        comments.filter((c) => c.issue === Number(m![1])),
      )
    if (m && req.method === 'POST') {
      if (typeof parsed.body !== 'string') return json(res, 422, { message: 'body is required' })
      return json(res, 201, addComment(Number(m[1]), parsed.body, BOT))
    }
    m = /^issues\/comments\/(\d+)$/.exec(rest)
    if (m && req.method === 'PATCH') {
      const c = comments.find((x) => x.id === Number(m![1]))
      if (!c) return json(res, 404, { message: 'Not Found' })
      if (typeof parsed.body !== 'string') return json(res, 422, { message: 'body is required' })
      c.body = parsed.body
      return json(res, 200, c)
    }

    // Deployments.
    if (rest === 'deployments' && req.method === 'GET') {
      const env = url.searchParams.get('environment')
      const task = url.searchParams.get('task')
      const list = deployments
        .filter((d) => (env === null || d.environment === env) && (task === null || d.task === task))
        .reverse()
      return page(res, url, list.map(publicDeployment))
    }
    if (rest === 'deployments' && req.method === 'POST') {
      if (typeof parsed.ref !== 'string' || parsed.ref === '')
        return json(res, 422, { message: 'ref is required' })
      if (typeof parsed.description === 'string' && parsed.description.length > 140)
        return json(res, 422, { message: 'description is too long (maximum is 140 characters)' })
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
            return json(res, 422, { message: 'payload is not valid JSON' })
          }
        } else d.payload = parsed.payload
      }
      d.auto_merge = parsed.auto_merge as boolean | undefined
      d.required_contexts = parsed.required_contexts
      d.production_environment = parsed.production_environment as boolean | undefined
      d.transient_environment = parsed.transient_environment as boolean | undefined
      return json(res, 201, publicDeployment(d))
    }
    m = /^deployments\/(\d+)\/statuses$/.exec(rest)
    if (m && req.method === 'GET') {
      const d = deployments.find((x) => x.id === Number(m![1]))
      if (!d) return json(res, 404, { message: 'Not Found' })
      return page(res, url, [...d.statuses].reverse())
    }
    m = /^pulls\/(\d+)$/.exec(rest)
    if (m && req.method === 'GET') {
      const state = pulls.get(Number(m[1]))
      if (!state) return json(res, 404, { message: 'Not Found' })
      return json(res, 200, { number: Number(m[1]), state })
    }
    m = /^actions\/runs\/(\d+)$/.exec(rest)
    if (m && req.method === 'GET') {
      const status = runs.get(Number(m[1]))
      if (!status) return json(res, 404, { message: 'Not Found' })
      return json(res, 200, {
        id: Number(m[1]),
        status,
        conclusion: status === 'completed' ? 'success' : null,
      })
    }
    m = /^deployments\/(\d+)\/statuses$/.exec(rest)
    if (m && req.method === 'POST') {
      const d = deployments.find((x) => x.id === Number(m![1]))
      if (!d) return json(res, 404, { message: 'Not Found' })
      if (typeof parsed.state !== 'string' || !STATES.has(parsed.state))
        return json(res, 422, { message: 'state is not included in the list' })
      if (typeof parsed.description === 'string' && parsed.description.length > 140)
        return json(res, 422, { message: 'description is too long (maximum is 140 characters)' })
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
      return json(res, 201, { ...s, deployment_url: `${base}${prefix}deployments/${d.id}` })
    }
    return json(res, 404, { message: 'Not Found' })
  }

  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (d: Buffer) => (body += d.toString()))
    req.on('end', () => handle(req, res, body))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
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
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
