// dist/index.js: what action.yml runs. Runs the action, then exits: a request that never answered
// must not keep the job alive on its socket.
import { setFlagsFromString } from 'node:v8'
import { run } from './main.js'

// A run holds little (each site's state), but a batch makes many short-lived objects, and V8 would
// grow its young generation for them up to its largest size: over 100 MiB more on Node 24 for 1000
// sites at once, for no time saved. Kept at its first size, such a batch stays under 200 MiB for
// the same CPU (npm run bench, docs/benchmarks.md). The CLI's entry does the same.
setFlagsFromString('--semi-space-growth-factor=1')

await run()
process.exit(process.exitCode ?? 0)
