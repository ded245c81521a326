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
  const headers = { ...response.headers }
  if (typeof target === 'string') {
    try {
      target = JSON.parse(target)
    } catch {
      target = undefined
    }
  }
  for (const name of Object.keys(headers)) if (name.toLowerCase() === 'content-type') delete headers[name]
  const merged = deepMerge(target, patch)
  // A string body is sent as is: keep a JSON string value JSON by serialising it here.
  return {
    status: response.status,
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify(merged),
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
