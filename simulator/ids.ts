import { randomBytes } from 'node:crypto'

/** A task id like the service's: 12 lowercase hex characters. */
export function newTaskId(): string {
  return randomBytes(6).toString('hex')
}

/** A random secret for generated credentials. */
export function newSecret(): string {
  return randomBytes(8).toString('hex')
}
