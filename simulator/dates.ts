/** The spec's response date-time format: `yyyy-MM-dd HH:mm:ss.SSS`, UTC. */
export function formatDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 23).replace('T', ' ')
}

/** The service family's dates (contract §2, r2): ISO 8601 with microseconds, `2026-11-22T20:00:05.000000Z`. */
export function isoDate(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 23)}000Z`
}
