// Whole-action tests of the operations, a refusal, the timeout, masking and a bad input (in
// operations.ts), spec profile:
// slow (about 15 s): each runs dist/index.js against the simulator in real time, at least one poll
// (about 1 s) per job, and the timeout waits on purpose.
import './operations.js'
