// Fault matrix, shard 4 of SHARD_COUNT (matrix.ts): slow (about 15 s) because every row is a real-time
// run of dist/index.js, and some rows wait on purpose (backoffs, request time limits, timeouts).
import { runShard } from './matrix.js'

runShard(4)
