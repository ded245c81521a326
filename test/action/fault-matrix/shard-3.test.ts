// Fault matrix, shard 3 (rows.ts has the rows, matrix.ts runs them): slow (about 20 s): every row
// is a real-time run of dist/index.js, and some wait on purpose (backoffs, request time limits).
import { runShard } from './matrix.js'

runShard(3)
