/**
 * The staging read route's memo of reads after jobs that succeeded (issue 26 §2, docs/assumptions.md
 * 70): one at a time until one names a staging environment; after two 404s naming nothing, no more.
 */
import { describe, expect, it } from '@jest/globals'
import { StagingReadRoute } from '../../src/staging/read-route.js'

/** A read that answers when the test says, with `named` (true: it named the staging; false: 404). */
function pending() {
  let answer: (named: boolean) => void = () => {}
  const done = new Promise<boolean>((resolve) => (answer = resolve))
  return { done, answer: (named: boolean) => answer(named) }
}

describe('StagingReadRoute after jobs', () => {
  it('sends reads one at a time while none has named a staging environment, and none after two 404s', async () => {
    const route = new StagingReadRoute()
    const sent: number[] = []
    const reads = [pending(), pending(), pending(), pending()]
    const results = reads.map((r, i) =>
      route.afterJob(
        () => {
          sent.push(i)
          return r.done
        },
        (named) => named,
      ),
    )
    await Promise.resolve()
    expect(sent).toEqual([0])
    reads[0]!.answer(false)
    await new Promise((r) => setImmediate(r))
    expect(sent).toEqual([0, 1])
    expect(route.namesNothing).toBe(false)
    reads[1]!.answer(false)
    expect(await results[2]).toBeNull()
    expect(await results[3]).toBeNull()
    expect(sent).toEqual([0, 1])
    expect(route.namesNothing).toBe(true)
  })
  it('once a read has named a staging environment, reads go side by side and 404s never stop them', async () => {
    const route = new StagingReadRoute()
    const first = pending()
    const one = route.afterJob(
      () => first.done,
      (named) => named,
    )
    first.answer(true)
    await one
    const sent: number[] = []
    for (let i = 0; i < 4; i++)
      void route.afterJob(
        () => {
          sent.push(i)
          return Promise.resolve(false)
        },
        (named) => named,
      )
    await Promise.resolve()
    expect(sent).toEqual([0, 1, 2, 3])
    expect(route.namesNothing).toBe(false)
  })
})
