/**
 * A fake of the few GitHub REST endpoints the pull-request comment uses, on 127.0.0.1:
 * list (paginated with Link headers, as GitHub does), create and update issue comments.
 * It records every request so tests can count POSTs and PATCHes.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface FakeComment {
  id: number
  body: string
  issue: number
  html_url: string
  user: { login: string; type: string }
}

export interface RecordedRequest {
  method: string
  path: string
  authorization: string | undefined
  body: string
}

export interface Refusal {
  method?: string
  status: number
  message: string
}

export interface FakeGitHub {
  /** Use as GITHUB_API_URL. */
  url: string
  owner: string
  repo: string
  comments: FakeComment[]
  requests: RecordedRequest[]
  /** Answer matching requests with this status from now on (null: stop refusing). */
  refuse(refusal: Refusal | null): void
  /** Adds comments by other people, so the project's comment lands on a later page. */
  addOthers(issue: number, count: number): void
  stop(): Promise<void>
}

export async function startFakeGitHub(owner = 'octo-org', repo = 'site-repo'): Promise<FakeGitHub> {
  const comments: FakeComment[] = []
  const requests: RecordedRequest[] = []
  let refusal: Refusal | null = null
  let nextId = 5000
  let base = ''

  const add = (issue: number, body: string, login = 'github-actions[bot]'): FakeComment => {
    const c: FakeComment = {
      id: nextId++,
      body,
      issue,
      html_url: `https://github.example/${owner}/${repo}/pull/${issue}#issuecomment-${nextId - 1}`,
      user: { login, type: login.endsWith('[bot]') ? 'Bot' : 'User' },
    }
    comments.push(c)
    return c
  }

  const json = (res: ServerResponse, status: number, data: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers })
    res.end(JSON.stringify(data))
  }

  const handle = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const url = new URL(req.url ?? '/', base)
    requests.push({
      method: req.method ?? '',
      path: url.pathname + url.search,
      authorization: req.headers.authorization,
      body,
    })
    if (refusal && (!refusal.method || refusal.method === req.method))
      return json(res, refusal.status, {
        message: refusal.message,
        documentation_url: 'https://docs.github.com/rest',
      })
    const prefix = `/repos/${owner}/${repo}/issues/`
    if (!url.pathname.startsWith(prefix)) return json(res, 404, { message: 'Not Found' })
    const rest = url.pathname.slice(prefix.length)
    let m = /^(\d+)\/comments$/.exec(rest)
    if (m && req.method === 'GET') {
      const issue = Number(m[1])
      const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? 30))
      const page = Number(url.searchParams.get('page') ?? 1)
      const all = comments.filter((c) => c.issue === issue)
      const last = Math.max(1, Math.ceil(all.length / perPage))
      const links: string[] = []
      const pageUrl = (p: number) => `<${base}${url.pathname}?per_page=${perPage}&page=${p}>`
      if (page < last) links.push(`${pageUrl(page + 1)}; rel="next"`, `${pageUrl(last)}; rel="last"`)
      if (page > 1) links.push(`${pageUrl(1)}; rel="first"`, `${pageUrl(page - 1)}; rel="prev"`)
      return json(
        res,
        200,
        all.slice((page - 1) * perPage, page * perPage),
        links.length ? { link: links.join(', ') } : {},
      )
    }
    if (m && req.method === 'POST') {
      const parsed = JSON.parse(body) as { body?: string }
      if (typeof parsed.body !== 'string') return json(res, 422, { message: 'body is required' })
      return json(res, 201, add(Number(m[1]), parsed.body))
    }
    m = /^comments\/(\d+)$/.exec(rest)
    if (m && req.method === 'PATCH') {
      const c = comments.find((x) => x.id === Number(m![1]))
      if (!c) return json(res, 404, { message: 'Not Found' })
      const parsed = JSON.parse(body) as { body?: string }
      if (typeof parsed.body !== 'string') return json(res, 422, { message: 'body is required' })
      c.body = parsed.body
      return json(res, 200, c)
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
    requests,
    refuse: (r) => (refusal = r),
    addOthers: (issue, count) => {
      for (let i = 0; i < count; i++) add(issue, `Looks good to me (${i})`, `reviewer-${i % 3}`)
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
