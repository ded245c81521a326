/** GET /v2/tasks/{id}/status (contract §2). A task is invisible (404) until its visible_at. */
import type { ApiContext } from '../context.js'
import type { ApiResponse } from '../http.js'

export function taskStatus(ctx: ApiContext, taskId: string): ApiResponse {
  const task = ctx.state.tasks.get(taskId)
  if (!task || ctx.now < task.visible_at) return ctx.shapes.taskNotFound(ctx.lang, taskId)
  return ctx.shapes.task(ctx.lang, task, ctx.jobs.percentageOf(task, ctx.now), ctx.now)
}
