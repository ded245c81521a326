// Fault matrix, shard 2 (rows.ts has the rows, matrix.ts runs them): slow (about 25 s): every row
// here is a real-time run of dist/index.js (a signal, a real socket, the CLI too), and some wait on
// purpose (request time limits, a timeout).
import { runShard } from './matrix.js'

runShard(2)
