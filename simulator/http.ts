/** Responses as values (so a fault can discard a processed one), the envelope, and body reading. */
import type { IncomingMessage, ServerResponse } from 'node:http'

export interface ApiResponse {
  status: number
  headers: Record<string, string>
  /** Serialised as JSON; undefined: no body. A string is sent as is. */
  body?: unknown
}

export interface Envelope {
  status: boolean
  message: string
  data: unknown
  meta?: unknown
  errors?: unknown
}

export function ok(status: number, message: string, data: unknown, meta?: unknown): ApiResponse {
  const body: Envelope = { status: true, message, data }
  if (meta !== undefined) body.meta = meta
  return { status, headers: {}, body }
}

export function fail(
  status: number,
  message: string,
  errors?: unknown,
  headers: Record<string, string> = {},
): ApiResponse {
  const body: Envelope = { status: false, message, data: null }
  if (errors !== undefined) body.errors = errors
  return { status, headers, body }
}

/**
 * A response as bytes go out: the body as a string (JSON bodies serialised, with Content-Type:
 * application/json unless a header says otherwise) and Content-Length set.
 */
export function serialize(response: ApiResponse): {
  status: number
  headers: Record<string, string>
  body: string
} {
  const headers: Record<string, string> = { ...response.headers }
  let payload = ''
  if (response.body !== undefined) {
    if (typeof response.body === 'string') {
      payload = response.body
    } else {
      payload = JSON.stringify(response.body)
      if (!hasHeader(headers, 'content-type')) headers['Content-Type'] = 'application/json'
    }
  }
  for (const name of Object.keys(headers)) if (name.toLowerCase() === 'content-length') delete headers[name]
  headers['Content-Length'] = String(Buffer.byteLength(payload))
  return { status: response.status, headers, body: payload }
}

/** Writes `response` (see serialize). */
export function send(res: ServerResponse, response: ApiResponse): void {
  const { status, headers, body } = serialize(response)
  res.writeHead(status, headers)
  res.end(body)
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((k) => k.toLowerCase() === name)
}

/** Largest request body accepted; more is a 400 (the simulator only takes small JSON bodies). */
export const MAX_BODY_BYTES = 1024 * 1024

export class BodyTooLarge extends Error {}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= MAX_BODY_BYTES) chunks.push(chunk)
    })
    req.on('end', () =>
      size > MAX_BODY_BYTES ? reject(new BodyTooLarge()) : resolve(Buffer.concat(chunks).toString('utf8')),
    )
    req.on('error', reject)
    req.on('aborted', () => reject(new Error('request aborted')))
  })
}

/** True when the Content-Type header names JSON (parameters such as charset allowed). */
export function isJsonContentType(value: string | undefined): boolean {
  return value !== undefined && /^application\/json\s*(?:;|$)/i.test(value.trim())
}
