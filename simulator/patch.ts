/** The `patch` fault: deep-merge JSON into a real answer (objects merge key by key; anything else replaces). */
import type { ApiResponse } from './http.js'

export function deepMerge(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch) || !isPlainObject(target)) return structuredClone(patch)
  const out: Record<string, unknown> = { ...target }
  for (const [key, value] of Object.entries(patch)) out[key] = deepMerge(target[key], value)
  return out
}

/**
 * `response` with `patch` merged into its JSON body. A body that is not JSON (an HTML page, none)
 * counts as absent: the patch becomes the body, sent as JSON.
 */
export function patchResponse(response: ApiResponse, patch: unknown): ApiResponse {
  let target: unknown = response.body
  if (typeof target === 'string') {
    try {
      target = JSON.parse(target)
    } catch {
      target = undefined
    }
  }
  const merged = deepMerge(target, patch)
  // A string body is sent as is: keep a JSON string value JSON by serialising it here.
  return withHeaders(
    { status: response.status, headers: response.headers, body: JSON.stringify(merged) },
    { 'Content-Type': 'application/json' },
  )
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** `response` with `extra` headers set (replacing same-named ones, whatever their case). */
export function withHeaders(response: ApiResponse, extra: Record<string, string>): ApiResponse {
  const names = Object.keys(extra).map((n) => n.toLowerCase())
  if (names.length === 0) return response
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(response.headers)) {
    if (!names.includes(name.toLowerCase())) headers[name] = value
  }
  return { ...response, headers: { ...headers, ...extra } }
}
