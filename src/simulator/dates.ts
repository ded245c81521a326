/** The spec's response date-time format: `yyyy-MM-dd HH:mm:ss.SSS`, UTC. */
export function formatDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 23).replace('T', ' ')
}
