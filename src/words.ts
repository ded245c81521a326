import type { InputName } from './inputs/index.js'
import type { Logger, ProgressUpdate } from './types.js'

/**
 * Each front door speaks its own language (issue 20 §4): the action's user sets inputs and
 * secrets (`if-missing: skip`, the `api-token` secret), the CLI's user flags and environment
 * variables (`--if-missing skip`, `STAGING_API_TOKEN`). The core writes a setting, the token or
 * the command that checks on a job once, through the functions here; the run renders the text in
 * the words of its door (`inDoorWords`) before anything is printed or reported.
 *
 * A per-door piece is held between control characters, which no text from a server can contain
 * (every server text is made inert, control characters removed, before it is quoted), so server
 * words are never read as one. The core renders every text before it makes it inert.
 */
export type Door = 'action' | 'cli'

const OPEN = '\u0001'
const BETWEEN = '\u0003'
const CLOSE = '\u0002'
// eslint-disable-next-line no-control-regex -- the pieces are delimited by control characters on purpose
const PIECE = /\u0001([^\u0001\u0002\u0003]*)\u0003([^\u0001\u0002\u0003]*)\u0002/g

/** Text that reads `action` through the action and `cli` through the CLI. */
export function perDoor(action: string, cli: string): string {
  return `${OPEN}${strip(action)}${BETWEEN}${strip(cli)}${CLOSE}`
}

/** `text` with every per-door piece in `door`'s words. */
export function inDoorWords(text: string, door: Door): string {
  return text.replace(PIECE, (_, action: string, cli: string) => (door === 'action' ? action : cli))
}

/** Whether `text` still holds a piece that no door has rendered. */
export function hasDoorPieces(text: string): boolean {
  // eslint-disable-next-line no-control-regex -- see PIECE
  return /[\u0001\u0002\u0003]/.test(text)
}

// eslint-disable-next-line no-control-regex -- see PIECE
const strip = (text: string) => text.replace(/[\u0001\u0002\u0003]/g, '')

/** Switches: `wait: false` in the action is `--no-wait` in the CLI. */
const SWITCHES: readonly InputName[] = [
  'wait',
  'dry-run',
  'fail-fast',
  'wait-for-url',
  'rollback-on-failure',
  'maintenance',
  'protect-production',
]

/**
 * A setting, with the value to give it when there is one: `if-missing: skip` / `--if-missing skip`,
 * `wait: false` / `--no-wait`, `timeout` / `--timeout`. The API root names the CLI's variable too.
 */
export function setting(name: InputName, value?: string): string {
  const action = value === undefined ? name : `${name}: ${value}`
  let cli: string
  if (name === 'api-token') cli = 'STAGING_API_TOKEN'
  else if (SWITCHES.includes(name) && (value === 'true' || value === 'false'))
    cli = value === 'true' ? `--${name}` : `--no-${name}`
  else cli = value === undefined ? `--${name}` : `--${name} ${value}`
  if (name === 'api-url') cli = value === undefined ? '--api-url (or STAGING_API_URL)' : cli
  return perDoor(action, cli)
}

/** Where the token comes from: the `api-token` secret, or the `STAGING_API_TOKEN` environment variable. */
export const TOKEN_SOURCE = perDoor('the api-token secret', 'the STAGING_API_TOKEN environment variable')

/**
 * The step that reads a job's end later: `run this action with operation: status, site-id: 1001,
 * task-id: abc` / `run site-staging status --site-id 1001 --task-id abc`.
 */
export function statusCommand(siteId: string, taskId: string | null): string {
  return perDoor(
    `run this action with operation: status, site-id: ${siteId}${taskId ? `, task-id: ${taskId}` : ''}`,
    `run site-staging status --site-id ${siteId}${taskId ? ` --task-id ${taskId}` : ''}`,
  )
}

/**
 * A job by its operation: `the pull job`. A status run follows a job some earlier run started, so
 * its job has no name of its own (never "the status job": no such job exists, in either door).
 */
export function jobOf(operation: string): string {
  return operation === 'status' ? 'job' : `${operation} job`
}

/** `text` with its first letter a capital, in either door's words. */
export function capitalised(text: string): string {
  const up = (t: string) => t.charAt(0).toUpperCase() + t.slice(1)
  const piece = new RegExp(`^${PIECE.source}`).exec(text)
  if (!piece) return up(text)
  return perDoor(up(piece[1]!), up(piece[2]!)) + text.slice(piece[0].length)
}

/** Where the run happens: the runner, or this machine. */
export const RUNNER = perDoor('the runner', 'this machine')

/** A logger that writes every line in `door`'s words (the core logs through it). */
export function inDoorLogger(logger: Logger, door: Door): Logger {
  return {
    info: (m) => logger.info(inDoorWords(m, door)),
    warn: (m) => logger.warn(inDoorWords(m, door)),
    debug: (m) => logger.debug(inDoorWords(m, door)),
    ...(logger.progress ? { progress: (u: ProgressUpdate) => logger.progress!(u) } : {}),
  }
}

/** The step that restores a checkpoint, in each door's words. */
export function rollbackCommand(siteId: string, checkpointId: string): string {
  return perDoor(
    `run this action with operation: rollback, site-id: ${siteId}, checkpoint-id: ${checkpointId}`,
    `run site-staging rollback --site-id ${siteId} --checkpoint-id ${checkpointId}`,
  )
}
