// Durations: the one parser of what users type (`timeout`, `wait-for-url-timeout`...), and the formatter.

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
  return style === 'tenths' ? `${roundedSeconds(ms)}s` : `${s}s`
}

/** A run's `durationSeconds`: ms rounded to a tenth of a second. */
export function roundedSeconds(ms: number): number {
  return Math.round(ms / 100) / 10
}

/** Each unit once, with every name a user may type for it. */
const UNIT_NAMES: [number, string[]][] = [
  [1, ['ms']],
  [1000, ['s', 'sec', 'secs', 'second', 'seconds']],
  [60_000, ['m', 'min', 'mins', 'minute', 'minutes']],
  [3_600_000, ['h', 'hr', 'hrs', 'hour', 'hours']],
]
const UNITS = new Map(UNIT_NAMES.flatMap(([ms, names]) => names.map((name) => [name, ms] as const)))

/** `90s`, `20m`, `30min`, `30 min`, `2 hours`, `1h30m`, `1 h 30 min`, `1500ms` or plain seconds. */
export function parseDuration(text: string): number {
  const t = text.trim().toLowerCase()
  if (/^\d+(\.\d+)?$/.test(t)) return Math.round(parseFloat(t) * 1000)
  const parts = [...t.matchAll(/(\d+(?:\.\d+)?)\s*([a-z]+)\s*/g)]
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== t) throw new Error('bad duration')
  let ms = 0
  for (const [, value, unit] of parts) {
    const factor = UNITS.get(unit!)
    if (factor === undefined) throw new Error('bad duration')
    ms += parseFloat(value!) * factor
  }
  return Math.round(ms)
}
