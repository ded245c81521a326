// Whole-action tests of the operations, policies, waiting, secrets and status (in operations.ts),
// service profile:
// slow (about 30 s): each runs dist/index.js against the simulator in real time, at least one poll
// (about 1 s) per job, and some wait on purpose (a busy site, a late task, a timeout).
import './operations.js'
