// Fault matrix, shard 3 (rows.ts has the rows, matrix.ts runs them): slow (about 30 s): every row
// here is a real-time run of dist/index.js (a signal, a real socket, the CLI too), and some wait on
// purpose (request time limits, a timeout).
import { runShard } from './matrix.js'

runShard(3)
