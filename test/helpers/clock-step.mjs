/**
 * A `--import` preload (through NODE_OPTIONS) that steps the process's wall clock as an NTP
 * correction on a runner does: `CLOCK_STEP_AFTER_MS` after start, `Date.now()` and `new Date()`
 * move by `CLOCK_STEP_MS` (default: an hour back) and stay moved. The monotonic clock
 * (`performance.now()`, timers) is untouched, as on a real machine.
 */
const RealDate = globalThis.Date
const after = Number(process.env.CLOCK_STEP_AFTER_MS ?? '1000')
const step = Number(process.env.CLOCK_STEP_MS ?? '-3600000')
const start = performance.now()
const offset = () => (performance.now() - start >= after ? step : 0)

class SteppedDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(RealDate.now() + offset())
    else super(...args)
  }
  static now() {
    return RealDate.now() + offset()
  }
}
globalThis.Date = SteppedDate
