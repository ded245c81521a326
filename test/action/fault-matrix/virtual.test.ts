// Slow (about 10 s): some seventy fault-matrix rows, one after another in this process.
// Fault matrix, the rows that do not need the bundle (rows.ts has the rows, matrix.ts runs them):
// each one the action's own entry in this process, against the simulator's API core and its fault
// injection in virtual time (test/helpers/virtual-action.ts).
import { runVirtualRows } from './matrix.js'

runVirtualRows()
