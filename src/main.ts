// Entry point of the action (dist/index.js). Masks the token before anything else, then runs.
import * as core from '@actions/core'
import { Redactor } from './secrets.js'
import { runAction } from './action.js'

const redactor = new Redactor((value) => core.setSecret(value))
redactor.add(process.env['INPUT_API-TOKEN'])

// The runner cancels with SIGINT, then SIGTERM 7.5 s later, then kills: stop waiting at once,
// report, and be gone well inside that.
const cancel = new AbortController()
const onSignal = (name: string) => {
  if (cancel.signal.aborted) return
  core.warning(`Received ${name}: stopping. A job the server already accepted keeps running there.`)
  cancel.abort()
  setTimeout(() => process.exit(1), 5000).unref()
}
process.on('SIGINT', () => onSignal('SIGINT'))
process.on('SIGTERM', () => onSignal('SIGTERM'))

try {
  await runAction(redactor, cancel.signal)
} catch (e) {
  core.setFailed(redactor.scrub(`Unexpected error: ${(e as Error)?.message ?? String(e)}`))
}
// Do not linger on sockets left by a request that never answered.
process.exit(process.exitCode ?? 0)
