// Entry point of the action (dist/index.js). Masks the token before anything else, then runs.
import * as core from '@actions/core'
import { Redactor } from './secrets.js'
import { runAction } from './action.js'
import { cancelOnSignals } from './cancel.js'

const redactor = new Redactor((value) => core.setSecret(value))
redactor.add(process.env['INPUT_API-TOKEN'])

const signal = cancelOnSignals((message) => core.warning(message))

try {
  await runAction(redactor, signal)
} catch (e) {
  core.setFailed(redactor.scrub(`Unexpected error: ${(e as Error)?.message ?? String(e)}`))
}
// Do not linger on sockets left by a request that never answered.
process.exit(process.exitCode ?? 0)
