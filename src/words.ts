import { SWITCH_INPUTS, cliEnv, cliFlag, pipeVariable, type InputName } from './inputs/table.js'
import type { Logger, ProgressUpdate } from './types.js'

/**
 * Each front door speaks its own language: inputs and secrets (action, GitLab component), variables
 * (pipe), flags and environment variables (CLI). The core writes a setting, the token or a step once,
 * through the functions here, as a per-door piece; the run renders it in its door's words
 * (`inDoorWords`, with DOOR_WORDS below and the table of inputs) before anything is printed. A piece
 * is held between control characters, which no server text keeps (each is made inert before it is
 * quoted), so a server's words are never read as one.
 */
export const DOORS = ['action', 'gitlab', 'pipe', 'cli'] as const
export type Door = (typeof DOORS)[number]

/** The door a CLI process speaks for: the GitLab components' jobs and the pipe's entry say so. */
export function cliDoor(env: NodeJS.ProcessEnv): Door {
  const said = env.SITE_STAGING_DOOR
  return said === 'gitlab' || said === 'pipe' ? said : 'cli'
}

// eslint-disable-next-line no-control-regex -- the pieces are delimited by control characters on purpose
const PIECE = /\u0001([^\u0001\u0002]*)\u0002/g
// eslint-disable-next-line no-control-regex -- see PIECE
const CONTROL = /[\u0001\u0002\u0003]/g

/** Text that reads `words[door]` through each door. */
export function perDoor(words: Record<Door, string>): string {
  return `\u0001${DOORS.map((d) => words[d].replace(CONTROL, '')).join('\u0003')}\u0002`
}

/** `text` with every per-door piece in `door`'s words. */
export function inDoorWords(text: string, door: Door): string {
  return text.replace(PIECE, (whole, inside: string) => {
    const words = inside.split('\u0003')
    return words.length === DOORS.length ? words[DOORS.indexOf(door)]! : whole
  })
}

/** Whether `text` still holds a piece that no door has rendered. */
export const hasDoorPieces = (text: string): boolean => text.search(CONTROL) >= 0

/** What each door calls things: one table of words per door. */
interface DoorWords {
  /** A setting, with the value to give it when there is one. */
  setting(name: InputName, value?: string): string
  /** A step: the operation, with settings in the door's words; an output by the action's name. */
  run(operation: string, settings: string[]): string
  output(name: string): string
  /** Where the token comes from, where the run happens, what the user gives the run. */
  token: string
  runner: string
  settings: string
}

const colon = (name: string, value?: string) => (value === undefined ? name : `${name}: ${value}`)
const CAPITALS = (name: string) => name.toUpperCase().replace(/-/g, '_')

export const DOOR_WORDS: Record<Door, DoorWords> = {
  action: {
    setting: colon,
    run: (op, s) => `run this action with ${[colon('operation', op), ...s].join(', ')}`,
    token: 'the api-token secret',
    runner: 'the runner',
    settings: 'the inputs',
    output: (name) => `the ${name} output`,
  },
  gitlab: {
    // The component's inputs; the token is in the masked variable its token-variable input names.
    setting: (name, value) =>
      name === 'api-token' ? 'the masked variable token-variable names' : colon(name, value),
    run: (op, s) =>
      `run the job ${process.env.SITE_STAGING_JOB_PREFIX || 'staging:'}${op} (${[colon('operation', op), ...s].join(', ')})`,
    token: 'the masked CI/CD variable that token-variable names',
    runner: 'the runner',
    settings: 'the inputs',
    output: (name) => `$${CAPITALS(name)} from the job's dotenv report`,
  },
  pipe: {
    setting: (name, value) => colon(pipeVariable(name) ?? CAPITALS(name), value),
    run: (op, s) => `run the pipe with ${[colon('OPERATION', op), ...s].join(', ')}`,
    token: 'the STAGING_API_TOKEN secured variable',
    runner: "the pipe's container",
    settings: 'the variables',
    output: (name) => `$${CAPITALS(name)} in the pipe's outputs file`,
  },
  cli: {
    setting: (name, value) => {
      const [flag, env] = [cliFlag(name), cliEnv(name)]
      if (name === 'operation') return value === undefined ? 'the operation' : `site-staging ${value}`
      if (flag === null) return env!
      if (value === undefined) return env ? `--${flag} (or ${env})` : `--${flag}`
      if (SWITCH_INPUTS.includes(name) && (value === 'true' || value === 'false'))
        return value === 'true' ? `--${flag}` : `--no-${flag}`
      return `--${flag} ${value}`
    },
    run: (op, s) => `run site-staging ${op} ${s.join(' ')}`,
    token: 'the STAGING_API_TOKEN environment variable',
    runner: 'this machine',
    settings: 'the options',
    output: (name) => `${CAPITALS(name)} in the --dotenv file`,
  },
}

const byDoor = (words: (door: Door) => string): string =>
  perDoor(Object.fromEntries(DOORS.map((d) => [d, words(d)])) as Record<Door, string>)
const eachDoor = (words: (w: DoorWords) => string): string => byDoor((d) => words(DOOR_WORDS[d]))

/** A setting, with the value to give it when there is one: `if-missing: skip`, `IF_MISSING: skip`,
 * `--if-missing skip`; `wait: false` / `--no-wait`; `timeout` / `TIMEOUT` / `--timeout`. */
export const setting = (name: InputName, value?: string): string => eachDoor((w) => w.setting(name, value))

/** A step as each door runs it: the operation and the settings that have a value. */
const step = (operation: string, given: Partial<Record<InputName, string | null>>): string =>
  eachDoor((w) =>
    w.run(
      operation,
      Object.entries(given).flatMap(([n, v]) => (v ? [w.setting(n as InputName, v)] : [])),
    ),
  )

/** The step that reads a job's end later, in each door's words. */
export const statusCommand = (siteId: string, taskId: string | null): string =>
  step('status', { 'site-id': siteId, 'task-id': taskId })

/** What the user gives the run: `the inputs`, `the variables`, `the options`. */
export const SETTINGS = eachDoor((w) => w.settings)

/** An output as each door's user reads it: `the task-id output`, `TASK_ID in the --dotenv file`. */
export const outputNamed = (name: string): string => eachDoor((w) => w.output(name))

/** Where the token comes from: the `api-token` secret, a masked variable, an environment variable. */
export const TOKEN_SOURCE = eachDoor((w) => w.token)

/** A job by its operation: `the pull job`. A status run follows a job some earlier run started, so its job
 * has no name of its own (never "the status job": no such job exists, in either door). */
export function jobOf(operation: string): string {
  return operation === 'status' ? 'job' : `${operation} job`
}

/** `text` with its first letter a capital, in every door's words. */
export const capitalised = (text: string): string =>
  byDoor((d) => inDoorWords(text, d).replace(/^./, (c) => c.toUpperCase()))

/** Where the run happens: the runner, the pipe's container, or this machine. */
export const RUNNER = eachDoor((w) => w.runner)

/** A logger that writes each line as `line` makes it; progress updates go through as they are. */
export function eachLine(logger: Logger, line: (message: string) => string): Logger {
  return {
    info: (m) => logger.info(line(m)),
    warn: (m) => logger.warn(line(m)),
    debug: (m) => logger.debug(line(m)),
    ...(logger.progress ? { progress: (u: ProgressUpdate) => logger.progress!(u) } : {}),
  }
}

/** The step that restores a checkpoint, in each door's words. */
export const rollbackCommand = (siteId: string, checkpointId: string): string =>
  step('rollback', { 'site-id': siteId, 'checkpoint-id': checkpointId })
