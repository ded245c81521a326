import { z } from 'zod'
import { parseServerDate, percentageOf, taskComment, taskSiteIdOf, taskState } from '../contract.js'

/**
 * `data` of `GET /v2/tasks/{id}/status` (contract §2), parsed, never cast: every field is optional
 * and read leniently (a status may be a word or a number, a percentage a string with decimals, a date
 * in the spec's format or ISO 8601), because a task answer that cannot be read means "keep waiting",
 * never "done". Texts in it were already made inert by the client (src/api/reply.ts).
 */
export const TaskStatusSchema = z
  .looseObject({
    status: z.unknown().optional(),
    percentage_complete: z.unknown().optional(),
    comment: z.unknown().optional(),
    created_at: z.unknown().optional(),
    updated_at: z.unknown().optional(),
  })
  .transform((data) => ({
    /** The raw status, for messages. */
    status: data.status,
    state: taskState(data.status),
    percent: percentageOf(data.percentage_complete),
    reason: taskComment(data.comment),
    /** The site the task works on (`resource_id`): for a create, the new staging site. */
    siteId: taskSiteIdOf(data),
    createdAt: parseServerDate(data.created_at),
    updatedAt: parseServerDate(data.updated_at),
  }))
