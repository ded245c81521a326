/**
 * Fault injection: rules that match requests by method and path and change how they are answered.
 * Rules are tried in the order they were added; the first that fires applies (one per request).
 */
import type { FaultRule } from './types.js'

interface ActiveRule {
  rule: FaultRule
  /** Matching requests this rule still applies to (Infinity for always). */
  left: number
}

export class Faults {
  private rules: ActiveRule[] = []

  constructor(private readonly random: () => number = Math.random) {}

  add(rule: FaultRule): void {
    validateRule(rule)
    this.rules.push({ rule: { ...rule }, left: rule.times ?? 1 })
  }

  clear(): void {
    this.rules = []
  }

  /** Rules still able to fire, with what is left of their `times` (null for rate-based rules). */
  list(): { rule: FaultRule; left: number | null }[] {
    return this.rules.map(({ rule, left }) => ({ rule, left: rule.rate !== undefined ? null : left }))
  }

  /** The rule that applies to this request, if any (consumes one of its `times`). */
  take(method: string, path: string): FaultRule | null {
    for (const active of this.rules) {
      const { rule } = active
      if (rule.method !== undefined && rule.method.toUpperCase() !== method.toUpperCase()) continue
      if (!pathMatches(rule.path, path)) continue
      if (rule.rate !== undefined) {
        if (this.random() < rule.rate) return rule
        continue
      }
      if (active.left <= 0) continue
      active.left -= 1
      if (active.left <= 0) this.rules = this.rules.filter((r) => r !== active)
      return rule
    }
    return null
  }
}

function pathMatches(pattern: FaultRule['path'], path: string): boolean {
  if (pattern === undefined) return true
  if (typeof pattern === 'string') return path.includes(pattern)
  pattern.lastIndex = 0
  return pattern.test(path)
}

/** Throws an Error naming the first bad field of a rule. */
export function validateRule(rule: FaultRule): void {
  if (typeof rule !== 'object' || rule === null) throw new Error('a fault rule must be an object')
  const r = rule as unknown as Record<string, unknown>
  const known = [
    'method',
    'path',
    'times',
    'rate',
    'status',
    'body',
    'retryAfter',
    'latencyMs',
    'hang',
    'drop',
    'process',
    'redirect',
    'taskError',
    'json',
    'text',
    'contentType',
    'headers',
    'patch',
    'debug',
  ]
  const unknown = Object.keys(r).filter((k) => !known.includes(k))
  if (unknown.length > 0) throw new Error(`unknown fault rule fields: ${unknown.join(', ')}`)
  if (rule.method !== undefined && typeof rule.method !== 'string') throw new Error('method must be a string')
  if (rule.path !== undefined && typeof rule.path !== 'string' && !(rule.path instanceof RegExp)) {
    throw new Error('path must be a string or a RegExp')
  }
  if (rule.times !== undefined && !(typeof rule.times === 'number' && rule.times >= 0)) {
    throw new Error('times must be a number >= 0 (Infinity for always)')
  }
  if (rule.rate !== undefined && !(typeof rule.rate === 'number' && rule.rate >= 0 && rule.rate <= 1)) {
    throw new Error('rate must be a number from 0 to 1')
  }
  if (
    rule.status !== undefined &&
    !(Number.isInteger(rule.status) && rule.status >= 100 && rule.status <= 599)
  ) {
    throw new Error('status must be an HTTP status code')
  }
  if (rule.body !== undefined && !['json', 'html', 'empty', 'echo-token'].includes(rule.body)) {
    throw new Error('body must be json, html, empty or echo-token')
  }
  if (rule.retryAfter !== undefined && !['number', 'string'].includes(typeof rule.retryAfter)) {
    throw new Error('retryAfter must be a number of seconds or an HTTP date string')
  }
  if (rule.latencyMs !== undefined && !(typeof rule.latencyMs === 'number' && rule.latencyMs >= 0)) {
    throw new Error('latencyMs must be a number >= 0')
  }
  if (rule.hang !== undefined && typeof rule.hang !== 'boolean') throw new Error('hang must be a boolean')
  if (rule.drop !== undefined && rule.drop !== 'before' && rule.drop !== 'after') {
    throw new Error('drop must be before or after')
  }
  if (rule.process !== undefined && typeof rule.process !== 'boolean')
    throw new Error('process must be a boolean')
  if (rule.redirect !== undefined && typeof rule.redirect !== 'string')
    throw new Error('redirect must be a string')
  if (rule.taskError !== undefined && typeof rule.taskError !== 'string') {
    throw new Error('taskError must be a string')
  }
  validateAnswerFields(rule)
}

/** Header names the `headers` knob may not set: they would break the HTTP framing itself. */
const FRAMING_HEADERS = ['content-length', 'transfer-encoding', 'connection']

/** The knobs that script an answer: json, text, contentType, headers, patch, debug. */
function validateAnswerFields(rule: FaultRule): void {
  const bodies = (['body', 'json', 'text', 'patch'] as const).filter((k) => rule[k] !== undefined)
  if (bodies.length > 1) throw new Error(`only one of body, json, text and patch: got ${bodies.join(', ')}`)
  if (rule.json !== undefined && !isJsonValue(rule.json)) throw new Error('json must be a JSON value')
  if (rule.patch !== undefined && !isJsonValue(rule.patch)) throw new Error('patch must be a JSON value')
  if (rule.text !== undefined && typeof rule.text !== 'string') throw new Error('text must be a string')
  if (rule.contentType !== undefined) {
    if (typeof rule.contentType !== 'string' || !headerValueOk(rule.contentType)) {
      throw new Error(
        'contentType must be a header value (tab, printable ASCII or Latin-1; no CR, LF or other control characters)',
      )
    }
    if (rule.text === undefined && rule.json === undefined)
      throw new Error('contentType goes with text or json')
  }
  if (rule.debug !== undefined) {
    if (typeof rule.debug !== 'boolean') throw new Error('debug must be a boolean')
    if (rule.debug && (rule.json !== undefined || rule.text !== undefined || rule.patch !== undefined)) {
      throw new Error('debug is a body of its own: not with json, text or patch')
    }
    if (rule.debug && rule.body !== undefined && rule.body !== 'json')
      throw new Error('debug goes with body json only')
  }
  if (rule.patch !== undefined && rule.process === false)
    throw new Error('patch always processes the request')
  if (rule.headers !== undefined) {
    if (typeof rule.headers !== 'object' || rule.headers === null || Array.isArray(rule.headers)) {
      throw new Error('headers must be an object of header names and string values')
    }
    for (const [name, value] of Object.entries(rule.headers)) {
      if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new Error(`headers: not a header name: ${name}`)
      if (FRAMING_HEADERS.includes(name.toLowerCase())) throw new Error(`headers: ${name} cannot be set`)
      if (typeof value !== 'string' || !headerValueOk(value)) {
        throw new Error(
          `headers.${name} must be a string of tab, printable ASCII or Latin-1 (no CR, LF or other control characters)`,
        )
      }
    }
  }
}

/** What Node lets through in a header value: tab, visible ASCII, space and Latin-1 bytes. */
function headerValueOk(value: string): boolean {
  return /^[\t\x20-\x7e\x80-\xff]*$/.test(value)
}

function isJsonValue(value: unknown): boolean {
  try {
    return JSON.stringify(value) !== undefined
  } catch {
    return false
  }
}

/**
 * A fault rule from JSON (POST /__sim/faults): `path` may be `{ "regex": "...", "flags": "i" }`,
 * `times` may be the string "Infinity" (JSON has no Infinity).
 */
export function ruleFromJson(value: unknown): FaultRule {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error('a fault rule must be an object')
  }
  const raw = { ...(value as Record<string, unknown>) }
  const path = raw.path
  if (typeof path === 'object' && path !== null) {
    const { regex, flags } = path as Record<string, unknown>
    if (typeof regex !== 'string') throw new Error('path must be a string or { "regex": "..." }')
    try {
      raw.path = new RegExp(regex, typeof flags === 'string' ? flags : '')
    } catch (e) {
      throw new Error(`path.regex: ${(e as Error).message}`)
    }
  }
  if (raw.times === 'Infinity' || raw.times === 'always') raw.times = Infinity
  const rule = raw as FaultRule
  validateRule(rule)
  return rule
}

/** A rule as JSON (RegExp paths as { regex, flags }, Infinity as "Infinity"). */
export function ruleToJson(rule: FaultRule): Record<string, unknown> {
  const out: Record<string, unknown> = { ...rule }
  if (rule.path instanceof RegExp) out.path = { regex: rule.path.source, flags: rule.path.flags }
  if (rule.times === Infinity) out.times = 'Infinity'
  return out
}

/** One rule or an array of rules from JSON; all are checked before any is used. */
export function faultsFromJson(value: unknown): FaultRule[] {
  return (Array.isArray(value) ? value : [value]).map(ruleFromJson)
}
