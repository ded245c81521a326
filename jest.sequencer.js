/**
 * The order Jest starts test files in: longest first, so that no slow file starts last and keeps
 * the run waiting while the other workers are idle. Jest's own order uses the durations it saved
 * from the last run; on a fresh clone it has none and would go by file size, which says nothing
 * here (a fault-matrix shard or a profile file is three lines). So a file without a saved duration
 * is estimated from its header: a slow file says why it is slow, as `slow (about N s)`.
 */
import Sequencer from '@jest/test-sequencer'
import { closeSync, openSync, readSync } from 'node:fs'

const BaseSequencer = Sequencer.default ?? Sequencer

/** `slow (about N s)` in the first lines of a test file, in ms; 0 when it does not say. */
export function headerEstimateMs(file) {
  const buffer = Buffer.alloc(600)
  const fd = openSync(file, 'r')
  try {
    const head = buffer.toString('utf8', 0, readSync(fd, buffer, 0, buffer.length, 0))
    const m = /slow \(about (\d+) s\)/i.exec(head)
    return m ? Number(m[1]) * 1000 : 0
  } finally {
    closeSync(fd)
  }
}

export default class LongestFirst extends BaseSequencer {
  time(test) {
    return super.time(test) ?? headerEstimateMs(test.path)
  }
}
