import { z } from 'zod'
import { percentageOf, taskComment, taskState } from '../contract.js'

/**
 * `data` of `GET /v2/tasks/{id}/status` (contract §2), parsed, never cast: every field optional and read
 * leniently, because a task answer that cannot be read means "keep waiting", never "done".
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
