/**
 * The order Jest starts test files in: longest first, so that no slow file starts last and keeps
 * the run waiting while the other workers are idle. Jest's own order uses the durations it saved
 * from the last run; on a fresh clone it has none and would go by file size, which says little
 * here (a fault-matrix shard or a profile file is three lines). So a file without a saved duration
 * is estimated from its header: a slow file says why it is slow, as `slow (about N s)`. A file
 * with no such header that starts the action, the CLI or another program counts as 10 s, any other
 * as 1 s.
 */
import Sequencer from '@jest/test-sequencer'
import { readFileSync } from 'node:fs'

const BaseSequencer = Sequencer.default ?? Sequencer

/** `slow (about N s)` in the first lines of a test file, in ms; null when it does not say. */
export function headerEstimateMs(text) {
  const m = /slow \(about (\d+) s\)/i.exec(text.slice(0, 800))
  return m ? Number(m[1]) * 1000 : null
}

/** Runs a program (the bundled action or CLI, npm, a CI runner): real time, not CPU. */
const STARTS_PROGRAMS = /\b(runAgainst|runBundledAction|runCli|runOnPty|spawn|execFile|execFileSync)\(/

export function estimateMs(file) {
  const text = readFileSync(file, 'utf8')
  return headerEstimateMs(text) ?? (STARTS_PROGRAMS.test(text) ? 10_000 : 1000)
}

export default class LongestFirst extends BaseSequencer {
  time(test) {
    return super.time(test) ?? estimateMs(test.path)
  }
}
