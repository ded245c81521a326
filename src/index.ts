// dist/index.js: what action.yml runs. Runs the action, then exits: a request that never answered
// must not keep the job alive on its socket.
import { run } from './main.js'

await run()
process.exit(process.exitCode ?? 0)
