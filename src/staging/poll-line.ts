/**
 * The straight lines that fit a progress bar's recent answers (poll-planner.ts): each whole-number
 * answer says the bar was at least its value and below the next one, so the lines v = a + b·t that
 * fit them all form a convex polygon in the (a, b) plane, cut one answer at a time.
 */

/** An answer that carried a percentage: t in ms since the job's start. */
export interface Reading {
  t: number
  percent: number
}

/**
 * A straight line v = a + b·t through the recent readings, each of which says the bar was at
 * least its value and below the next whole number: the set of lines that fit them all, over as
 * many recent readings as fit one line (at least three values, so that the pace is bounded), and
 * spanning at most `maxValues` values. Null when fewer than three values fit one line.
 */
export function fitLine(readings: readonly Reading[], maxValues: number): Line | null {
  // Every line with a pace from 1e-9 to 1 percent per ms, starting anywhere plausible.
  let polygon: Point[] = [
    [-1e8, 1e-9],
    [1e8, 1e-9],
    [1e8, 1],
    [-1e8, 1],
  ]
  let values = 0
  let previous: number | null = null
  let fitted: Point[] | null = null
  for (let i = readings.length - 1; i >= 0; i--) {
    const { t, percent } = readings[i]!
    // a + b·t >= percent, and a + b·t <= percent + 1
    if (percent !== previous && values + 1 > maxValues) break
    let next = clip(polygon, 1, t, percent)
    next = clip(next, -1, -t, -(percent + 1))
    if (next.length < 3) break
    polygon = next
    if (percent !== previous) values++
    previous = percent
    if (values >= 3) fitted = polygon
  }
  return fitted ? new Line(fitted) : null
}

/** (a, b): the line v = a + b·t, with t in ms since the start. */
type Point = [number, number]

/** The lines that fit the readings: when they reach a mark, at the earliest and at the latest. */
export class Line {
  constructor(private readonly polygon: Point[]) {}
  earliest(mark: number): number {
    return Math.min(...this.polygon.map(([a, b]) => (mark - a) / b))
  }
  latest(mark: number): number {
    return Math.max(...this.polygon.map(([a, b]) => (mark - a) / b))
  }
  /** A middle slope of the lines that fit (the mean of the corners). */
  slope(): number {
    return this.polygon.reduce((sum, [, b]) => sum + b, 0) / this.polygon.length
  }
}

/** The part of a convex polygon in the (a, b) plane where ca·a + cb·b >= c (Sutherland-Hodgman). */
function clip(polygon: Point[], ca: number, cb: number, c: number): Point[] {
  const out: Point[] = []
  const side = (p: Point) => ca * p[0] + cb * p[1] - c
  for (let i = 0; i < polygon.length; i++) {
    const p = polygon[i]!
    const q = polygon[(i + 1) % polygon.length]!
    const sp = side(p)
    const sq = side(q)
    if (sp >= 0) out.push(p)
    if (sp >= 0 !== sq >= 0) {
      const k = sp / (sp - sq)
      out.push([p[0] + k * (q[0] - p[0]), p[1] + k * (q[1] - p[1])])
    }
  }
  return out
}
