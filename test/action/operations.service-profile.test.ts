// Whole-action tests of what only the bundle shows (in operations.ts: the token masked first in the
// real stdout, debug mode, the runner's files, the exit code), service profile: two runs of
// dist/index.js against the simulator (about 1 s). The operations themselves run in virtual time:
// test/unit/operations-step.test.ts.
import './operations.js'
