import { z } from 'zod'

/** The response envelope of every v2 response (spec §2). Unknown extra fields are kept. */
export const EnvelopeSchema = z.looseObject({
  status: z.boolean(),
  message: z.string().optional().default(''),
  data: z.unknown().optional(),
  meta: z.unknown().optional(),
})
export type Envelope = z.infer<typeof EnvelopeSchema>

/** A percentage sent as a number or a numeric string (contract §2), clamped to 0-100. */
const Percentage = z
  .union([
    z.number(),
    z
      .string()
      .trim()
      .regex(/^\d+(\.\d+)?%?$/),
  ])
  .transform((v) => Math.min(100, Math.max(0, typeof v === 'number' ? v : parseFloat(v))))
  .refine((v) => Number.isFinite(v))

/** A date-time in the spec's format, as a Date; null when absent or not in that format. */
const SpecDateTime = z
  .string()
  .nullish()
  .transform((v) => (v ? parseSpecDateTime(v) : null))

/** `data` of GET /v2/tasks/{id}/status (contract §2). */
export const TaskStatusSchema = z.looseObject({
  status: z.string(),
  percentage_complete: Percentage.optional().catch(undefined),
  comment: z.string().nullish(),
  created_at: SpecDateTime,
  updated_at: SpecDateTime,
  timeout_at: SpecDateTime,
})
export type TaskStatus = z.infer<typeof TaskStatusSchema>

/**
 * The spec's date-time format (§2): `yyyy-MM-dd HH:mm:ss` in UTC; responses carry `.SSS`,
 * inputs must not.
 */
const RESPONSE_DATE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{3}))?$/

export function parseSpecDateTime(text: string): Date | null {
  const m = RESPONSE_DATE.exec(text.trim())
  if (!m) return null
  const [, y, mo, d, h, mi, s, ms] = m.map((part) => (part === undefined ? undefined : Number(part)))
  const date = new Date(Date.UTC(y!, mo! - 1, d!, h!, mi!, s!, ms ?? 0))
  // Reject values that JavaScript rolls over (2024-02-30 -> March 1st).
  if (date.getUTCMonth() !== mo! - 1 || date.getUTCDate() !== d! || h! > 23 || mi! > 59 || s! > 59)
    return null
  return date
}

/** Formats for a request (no milliseconds, as the spec requires of inputs). */
export function formatSpecDateTimeInput(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ')
}

/** Formats as responses carry it (with milliseconds). */
export function formatSpecDateTime(date: Date): string {
  return date.toISOString().slice(0, 23).replace('T', ' ')
}
