// dist/cli.js, the `site-staging` command: runs the CLI (src/cli/run.ts), or with --bitbucket-pipe
// as its only argument the Bitbucket pipe's entry (src/cli/pipe.ts), then exits: do not linger on
// sockets left by a request that never answered; let stdout drain first.
import { setFlagsFromString } from 'node:v8'
import { runPipe } from './pipe.js'
import { run } from './run.js'

// The young generation kept at its first size, as the action's entry does (src/index.ts says why).
setFlagsFromString('--semi-space-growth-factor=1')

const io = { stdout: process.stdout, stderr: process.stderr }
const argv = process.argv.slice(2)
const exitCode =
  argv.length === 1 && argv[0] === '--bitbucket-pipe'
    ? await runPipe(process.env, io)
    : await run(argv, process.env, io)
process.exitCode = exitCode
process.stdout.write('', () => process.exit(exitCode))
