import { describe, expect, it } from '@jest/globals'
import { TaskStatusSchema } from '../../src/api/schemas.js'

describe('task status data (contract §2, r2)', () => {
  it('reads the service family shape: row id, resource_id, string percentage, numeric status', () => {
    const t = TaskStatusSchema.parse({
      id: 148601,
      cloud_task_id: 'd53a490af3cd',
      type: 'site_install',
      resource_type: 'App\\Models\\Site',
      resource_id: 50123,
      status: 1,
      percentage_complete: '45.50',
      created_at: '2026-11-22T20:00:05.000000Z',
    })
    expect(t).toMatchObject({ state: 'running', percent: 45.5 })
  })
  it('reads the spec shape: words, numeric percentage', () => {
    const t = TaskStatusSchema.parse({
      status: 'progress',
      percentage_complete: 42,
      created_at: '2026-11-22 10:00:01.250',
    })
    expect(t).toMatchObject({ state: 'running', percent: 42 })
  })
  it('a failed task gives its reason without the "Error:" prefix', () => {
    expect(TaskStatusSchema.parse({ status: 'failure', comment: 'Error: disk full' })).toMatchObject({
      state: 'failed',
      reason: 'disk full',
    })
  })
  it('ignores what it cannot read instead of failing (keep waiting, never "done")', () => {
    const t = TaskStatusSchema.parse({
      status: { odd: true },
      percentage_complete: 'n/a',
      created_at: 'yesterday',
    })
    expect(t).toMatchObject({ state: 'unknown', percent: undefined })
  })
  it('refuses data that is not an object', () => {
    expect(TaskStatusSchema.safeParse('completed').success).toBe(false)
    expect(TaskStatusSchema.safeParse(null).success).toBe(false)
  })
})
