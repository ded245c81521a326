import { overallOutcome } from '../staging/batch.js'
import type { Result } from '../types.js'

/** Every output of action.yml, in order; all are set on every path. */
export const OUTPUT_NAMES = [
  'result',
  'http-status',
  'message',
  'task-id',
  'staging-site-id',
  'staging-url',
  'duration-seconds',
  'requests',
  'retries',
  'results',
] as const
export type OutputName = (typeof OUTPUT_NAMES)[number]
export type Outputs = Record<OutputName, string>

/**
 * The outputs of a run. One site: its own fields. Several: `result` is the worst outcome, counts
 * are sums, and the per-site detail is in `results` (a JSON array of Results, always set).
 */
export function outputsFor(results: Result[], wallSeconds?: number): Outputs {
  const results_ = JSON.stringify(results.map(publicResult))
  if (results.length === 1) {
    const r = results[0]!
    return {
      result: r.result,
      'http-status': r.httpStatus === null ? '' : String(r.httpStatus),
      message: r.message,
      'task-id': r.taskId ?? '',
      'staging-site-id': r.stagingSiteId ?? '',
      'staging-url': r.stagingUrl ?? '',
      'duration-seconds': String(r.durationSeconds),
      requests: String(r.requests),
      retries: String(r.retries),
      results: results_,
    }
  }
  const sum = (f: (r: Result) => number) => results.reduce((n, r) => n + f(r), 0)
  return {
    result: overallOutcome(results),
    'http-status': '',
    message: batchMessage(results),
    'task-id': '',
    'staging-site-id': '',
    'staging-url': '',
    'duration-seconds': String(wallSeconds ?? Math.max(0, ...results.map((r) => r.durationSeconds))),
    requests: String(sum((r) => r.requests)),
    retries: String(sum((r) => r.retries)),
    results: results_,
  }
}

/** Outputs for a run that never started (bad input): every output set, `result` failed. */
export function failedOutputs(message: string): Outputs {
  return {
    result: 'failed',
    'http-status': '',
    message,
    'task-id': '',
    'staging-site-id': '',
    'staging-url': '',
    'duration-seconds': '0',
    requests: '0',
    retries: '0',
    results: '[]',
  }
}

/** "3 of 4 sites succeeded; failed: 1002" */
export function batchMessage(results: Result[]): string {
  const by = new Map<string, string[]>()
  for (const r of results) by.set(r.result, [...(by.get(r.result) ?? []), r.siteId])
  const ok = by.get('succeeded')?.length ?? 0
  const rest = [...by.entries()]
    .filter(([k]) => k !== 'succeeded')
    .map(([k, ids]) => `${k}: ${ids.join(', ')}`)
  return [`${ok} of ${results.length} sites succeeded`, ...rest].join('; ')
}

/** A Result as published in `results` and `--json`. */
export function publicResult(r: Result) {
  return {
    operation: r.operation,
    siteId: r.siteId,
    result: r.result,
    httpStatus: r.httpStatus,
    message: r.message,
    taskId: r.taskId,
    stagingSiteId: r.stagingSiteId,
    stagingUrl: r.stagingUrl,
    durationSeconds: r.durationSeconds,
    requests: r.requests,
    retries: r.retries,
    warnings: r.warnings,
    sent: r.sent,
    error: r.error,
    startedAt: r.startedAt,
  }
}
