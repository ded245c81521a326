import { overallOutcome, type Result } from '../types.js'

/** Every output of action.yml, in order; all are set on every path. */
export const OUTPUT_NAMES = [
  'result',
  'http-status',
  'message',
  'task-id',
  'staging-site-id',
  'staging-url',
  'staging-state',
  'url-ready',
  'duration-seconds',
  'requests',
  'retries',
  'results',
  'checkpoint-id',
  'production-check',
] as const
export type OutputName = (typeof OUTPUT_NAMES)[number]
export type Outputs = Record<OutputName, string>

/** The outputs of a run. One site: its own fields. Several: `result` is the worst outcome, counts are sums,
 * and the per-site detail is in `results` (a JSON array of Results, always set). */
export function outputsFor(results: Result[], wallSeconds?: number): Outputs {
  const results_ = resultsJson(results)
  if (results.length === 1) {
    const r = results[0]!
    return {
      result: r.result,
      'http-status': r.httpStatus === null ? '' : String(r.httpStatus),
      message: r.message || r.summary,
      'task-id': r.taskId ?? '',
      'staging-site-id': r.stagingSiteId ?? '',
      'staging-url': r.stagingUrl ?? '',
      'staging-state': r.stagingState ?? '',
      'url-ready': r.urlReady === null ? '' : String(r.urlReady),
      'duration-seconds': String(r.durationSeconds),
      requests: String(r.requests),
      retries: String(r.retries),
      results: results_,
      'checkpoint-id': r.checkpointId ?? '',
      'production-check': r.productionCheck ?? '',
    }
  }
  const sum = (f: (r: Result) => number) => results.reduce((n, r) => n + f(r), 0)
  return {
    ...NOTHING,
    result: overallOutcome(results),
    message: batchMessage(results),
    'duration-seconds': String(wallSeconds ?? Math.max(0, ...results.map((r) => r.durationSeconds))),
    requests: String(sum((r) => r.requests)),
    retries: String(sum((r) => r.retries)),
    results: results_,
  }
}

/** Every output empty, in OUTPUT_NAMES's order: what a run of several sites or none leaves unset. */
const NOTHING = Object.fromEntries(OUTPUT_NAMES.map((name) => [name, ''])) as Outputs

/** Outputs for a run that never started (bad input): every output set, `result` failed. */
export function failedOutputs(message: string): Outputs {
  return {
    ...NOTHING,
    result: 'failed',
    message,
    'duration-seconds': '0',
    requests: '0',
    retries: '0',
    results: '[]',
  }
}

/** "3 of 4 sites succeeded; failed: 1002" (at most 20 ids per outcome named). */
export function batchMessage(results: Result[]): string {
  const by = new Map<string, string[]>()
  for (const r of results) by.set(r.result, [...(by.get(r.result) ?? []), r.siteId])
  const ok = by.get('succeeded')?.length ?? 0
  const rest = [...by.entries()]
    .filter(([k]) => k !== 'succeeded')
    .map(
      ([k, ids]) =>
        `${k}: ${ids.slice(0, 20).join(', ')}${ids.length > 20 ? ` and ${ids.length - 20} more` : ''}`,
    )
  return [`${ok} of ${results.length} sites succeeded`, ...rest].join('; ')
}

/** GitHub refuses an output over 1 MB: `results` stays under this, as valid JSON, whatever happened. */
export const MAX_RESULTS_BYTES = 900_000

/** The `results` output: every Result in full while that fits; else the fields a later step needs to act on
 * each site (id, outcome, status, task, staging id and URL, error kind), which always fit for 1,000 sites. */
export function resultsJson(results: Result[]): string {
  const full = JSON.stringify(results.map(publicResult))
  if (Buffer.byteLength(full) <= MAX_RESULTS_BYTES) return full
  return JSON.stringify(
    results.map((r) => ({
      siteId: r.siteId,
      result: r.result,
      httpStatus: r.httpStatus,
      taskId: r.taskId,
      stagingSiteId: r.stagingSiteId,
      stagingUrl: r.stagingUrl,
      checkpointId: r.checkpointId,
      productionCheck: r.productionCheck,
      error: r.error ? { kind: r.error.kind } : null,
    })),
  )
}

/** A Result as published in `results` and `--json`: every field, in the order newResult gives them, but the
 * run's wait for calls other runs used (the summary's timing line says that). */
export function publicResult(r: Result): Omit<Result, 'sharedWaitSeconds'> {
  const { sharedWaitSeconds: _shared, ...published } = r
  return published
}
