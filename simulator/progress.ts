/**
 * `percentage_complete` of a running job from the fraction of its duration that has elapsed.
 * A running job never reports 100: only a completed task does. The benchmark's virtual-time harness
 * imports these very functions, so what it measures is what the simulator serves.
 *
 * Honest curves (progress tells when the job will end):
 * - `linear`: proportional to time.
 * - `nonlinear` (the default) looks like a real install: quick to about 30%, a long plateau, a
 *   jump, then a slow tail to 99.
 *
 * Misleading curves (progress lies about the end; a poller must not trust it blindly):
 * - `backloaded`: starts slow and speeds up (100 f²): at half time it shows 25%.
 * - `frontloaded`: reaches 99% at a fifth of the job and sits there until the end.
 * - `stuck-then-jump`: 0% for the first 70% of the job (queued), then 90% at once, then a steady
 *   climb to 99.
 * - `stalled-middle`: 50% at 30% of the job, stuck at 50% until 70%, then on to 99.
 * - `none` (no `percentage_complete` at all) is handled by the caller.
 */
import type { ProgressMode } from './types.js'

/** Every progress mode, as `--progress` and POST /__sim/options accept them. */
export const PROGRESS_MODES = [
  'nonlinear',
  'linear',
  'backloaded',
  'frontloaded',
  'stuck-then-jump',
  'stalled-middle',
  'none',
] as const satisfies readonly ProgressMode[]

export type CurveMode = Exclude<ProgressMode, 'none'>

/** (fraction of time elapsed, percentage) points, straight lines between. */
type Points = readonly (readonly [number, number])[]

/** The nonlinear curve's points. */
export const NONLINEAR_CURVE: Points = [
  [0, 0],
  [0.08, 14],
  [0.15, 30],
  [0.55, 36],
  [0.62, 78],
  [0.9, 92],
  [1, 99],
]

const POINTS: Readonly<Record<Exclude<CurveMode, 'backloaded' | 'frontloaded'>, Points>> = {
  linear: [
    [0, 0],
    [1, 100],
  ],
  nonlinear: NONLINEAR_CURVE,
  'stuck-then-jump': [
    [0, 0],
    [0.7, 0],
    [0.7, 90],
    [1, 99],
  ],
  'stalled-middle': [
    [0, 0],
    [0.3, 50],
    [0.7, 50],
    [1, 99],
  ],
}

/** The unrounded value of each curve at `f` (0..1). */
export const CURVES: Readonly<Record<CurveMode, (f: number) => number>> = {
  linear: (f) => onPoints(POINTS.linear, f),
  nonlinear: (f) => onPoints(POINTS.nonlinear, f),
  backloaded: (f) => 100 * f * f,
  // Decelerating to 99 at f = 0.2 (a parabola with its top there), then flat.
  frontloaded: (f) => (f >= 0.2 ? 99 : 99 * (1 - (1 - f / 0.2) ** 2)),
  'stuck-then-jump': (f) => onPoints(POINTS['stuck-then-jump'], f),
  'stalled-middle': (f) => onPoints(POINTS['stalled-middle'], f),
}

/** What a running job of `mode` reports at `fraction` of its duration: a whole number, 0 to 99. */
export function percentage(mode: CurveMode, fraction: number): number {
  const f = Math.min(1, Math.max(0, fraction))
  return Math.min(99, Math.max(0, Math.floor(CURVES[mode](f))))
}

export function isProgressMode(value: unknown): value is ProgressMode {
  return typeof value === 'string' && (PROGRESS_MODES as readonly string[]).includes(value)
}

function onPoints(points: Points, f: number): number {
  for (let i = 1; i < points.length; i++) {
    const [x1, y1] = points[i] ?? [1, 99]
    if (f < x1 || (f === x1 && i === points.length - 1)) {
      const [x0, y0] = points[i - 1] ?? [0, 0]
      return x1 === x0 ? y1 : y0 + ((f - x0) / (x1 - x0)) * (y1 - y0)
    }
  }
  return points.at(-1)?.[1] ?? 99
}
