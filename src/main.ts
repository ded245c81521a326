// The action's entry module: `run()` masks the token before anything else, then runs. It never
// exits the process, so @github/local-action (and tests) can import it; src/index.ts, the bundle's
// entry (dist/index.js), calls it and exits.
import * as core from '@actions/core'
import { Redactor } from './secrets/redactor.js'
import { runAction } from './action.js'
import { cancelOnSignals } from './cancel.js'

export async function run(): Promise<void> {
  const redactor = new Redactor((value) => core.setSecret(value))
  redactor.add(core.getInput('api-token'))
  const signal = cancelOnSignals((message) => core.warning(redactor.inert(message)))
  try {
    await runAction(redactor, signal)
  } catch (e) {
    core.setFailed(redactor.inert(`Unexpected error: ${(e as Error)?.message ?? String(e)}`))
  }
}
