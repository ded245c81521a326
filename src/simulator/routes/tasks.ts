/** GET /v2/tasks/{id}/status (contract §2). A task is invisible (404) until its visible_at. */
import type { ApiContext } from '../context.js'
import { fail, ok, type ApiResponse } from '../http.js'
import { t } from '../i18n.js'
import { taskView } from '../views.js'

export function taskStatus(ctx: ApiContext, taskId: string): ApiResponse {
  const task = ctx.state.tasks.get(taskId)
  if (!task || ctx.now < task.visible_at) return fail(404, t(ctx.lang, 'task_not_found', { task: taskId }))
  return ok(200, t(ctx.lang, 'task_retrieved'), taskView(task, ctx.jobs.percentageOf(task, ctx.now), ctx.now))
}
