/**
 * The one duration formatter, in three styles (outputs and messages depend on each):
 * - `log`: `1.5 s`, `12 s` (a wait, in a log line);
 * - `short`: `45s`, `2m 31s` (how long a job or a wait took, in a sentence);
 * - `tenths`: `4.2s`, `2m 31s` (the Duration row of the summary and the comment).
 */
export function durationText(ms: number, style: 'log' | 'short' | 'tenths' = 'short'): string {
  if (style === 'log') return ms >= 10_000 ? `${Math.round(ms / 1000)} s` : `${(ms / 1000).toFixed(1)} s`
  const s = Math.round(ms / 1000)
  if (s >= 60) return `${Math.floor(s / 60)}m ${s % 60}s`
  return style === 'tenths' ? `${Math.round(ms / 100) / 10}s` : `${s}s`
}

/** A run's `durationSeconds`: ms rounded to a tenth of a second. */
export function roundedSeconds(ms: number): number {
  return Math.round(ms / 100) / 10
}
