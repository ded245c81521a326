import { z } from 'zod'
import { percentageOf, taskComment, taskState } from '../contract.js'

/**
 * `data` of `GET /v2/tasks/{id}/status` (contract §2), parsed, never cast: every field is optional
 * and read leniently (a status may be a word or a number, a percentage a string with decimals),
 * because a task answer that cannot be read means "keep waiting", never "done". Texts in it were
 * already made inert by the client (src/api/reply.ts). The site a completed task made is read from
 * its data where it is used (`taskSiteIdOf`, staging-fields.ts).
 */
export const TaskStatusSchema = z
  .looseObject({
    status: z.unknown().optional(),
    percentage_complete: z.unknown().optional(),
    comment: z.unknown().optional(),
  })
  .transform((data) => ({
    /** The raw status, for messages. */
    status: data.status,
    state: taskState(data.status),
    percent: percentageOf(data.percentage_complete),
    reason: taskComment(data.comment),
  }))
