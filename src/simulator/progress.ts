/**
 * `percentage_complete` of a running job from the fraction of its duration that has elapsed.
 * 'nonlinear' looks like a real install: quick to about 30%, a long plateau, a jump, then a slow
 * tail to 99. A running job never reports 100: only a completed task does.
 */
import type { ProgressMode } from './types.js'

/** (fraction of time elapsed, percentage) points of the nonlinear curve, straight lines between. */
export const NONLINEAR_CURVE: readonly (readonly [number, number])[] = [
  [0, 0],
  [0.08, 14],
  [0.15, 30],
  [0.55, 36],
  [0.62, 78],
  [0.9, 92],
  [1, 99],
]

export function percentage(mode: Exclude<ProgressMode, 'none'>, fraction: number): number {
  const f = Math.min(1, Math.max(0, fraction))
  const value = mode === 'linear' ? f * 100 : onCurve(f)
  return Math.min(99, Math.max(0, Math.floor(value)))
}

function onCurve(f: number): number {
  for (let i = 1; i < NONLINEAR_CURVE.length; i++) {
    const [x1, y1] = NONLINEAR_CURVE[i] ?? [1, 99]
    if (f <= x1) {
      const [x0, y0] = NONLINEAR_CURVE[i - 1] ?? [0, 0]
      return y0 + ((f - x0) / (x1 - x0)) * (y1 - y0)
    }
  }
  return 99
}
