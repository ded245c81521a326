// dist/cli.js, the `site-staging` command: runs the CLI (src/cli/run.ts), then exits: do not linger
// on sockets left by a request that never answered; let stdout drain first.
import { run } from './run.js'

const exitCode = await run(process.argv.slice(2), process.env, {
  stdout: process.stdout,
  stderr: process.stderr,
})
process.exitCode = exitCode
process.stdout.write('', () => process.exit(exitCode))
