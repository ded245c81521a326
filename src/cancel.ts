import { sharedController } from './clock.js'

/** Cancellation for both front ends. The runner cancels a workflow with SIGINT, then SIGTERM 7.5 s later, then
 * kills 2.5 s after that. At the first signal, stop waiting at once (the returned signal aborts) so the run
 * can report; if reporting takes over 5 s, or a second signal comes, exit with `exitCode` there and then. */
export function cancelOnSignals(say: (message: string) => void, exitCode = 1): AbortSignal {
  const cancel = sharedController()
  const onSignal = (name: string): void => {
    if (cancel.signal.aborted) {
      say(`Received ${name} again: exiting now.`)
      process.exit(exitCode)
    }
    say(`Received ${name}: stopping. A job the server already accepted keeps running there.`)
    cancel.abort()
    setTimeout(() => process.exit(exitCode), 5000).unref()
  }
  for (const name of ['SIGINT', 'SIGTERM']) process.on(name, () => onSignal(name))
  return cancel.signal
}
