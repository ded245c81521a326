/** Counting TCP connections and requests per connection (issue 13). */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { Agent, request } from 'node:http'
import { start, SIM_TOKENS, type Simulator } from '../../simulator/server.js'
import { admin } from './helpers.js'

let sim: Simulator
beforeAll(async () => {
  sim = await start()
})
afterAll(() => sim.stop())
beforeEach(() => sim.reset())

/** A GET with node's http client: `agent` decides whether connections are reused. */
function get(path: string, agent: Agent | false): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${sim.url}${path}`,
      { agent, headers: { Authorization: `Bearer ${SIM_TOKENS.readWrite}` } },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      },
    )
    req.on('error', reject)
    req.end()
  })
}

describe('connection counts', () => {
  it('counts one connection for kept-alive requests and one per request without keep-alive', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    try {
      for (let i = 0; i < 3; i++) expect(await get('/v2/sites', agent)).toBe(200)
      expect(await get('/staging-sites/s-1002/', agent)).toBe(200)
      expect(sim.stats()).toEqual({
        connections: 1,
        requests: 4,
        maxRequestsOnOneConnection: 4,
        acceptedConnections: 1,
      })
      await get('/v2/sites', false)
      await get('/v2/tasks/none/status', false)
      expect(sim.stats()).toMatchObject({ connections: 3, requests: 6, maxRequestsOnOneConnection: 4 })
    } finally {
      agent.destroy()
    }
  })

  it('does not count admin requests, serves the figures at /__sim/stats, and reset() starts over', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    try {
      await get('/v2/sites', agent)
      await get('/__sim/state', false)
      const listed = await admin(sim, 'GET', '/stats')
      expect(listed.status).toBe(200)
      expect(listed.body).toMatchObject({ connections: 1, requests: 1, maxRequestsOnOneConnection: 1 })
      expect(listed.body.acceptedConnections).toBeGreaterThanOrEqual(2)
      sim.reset()
      expect(sim.stats()).toEqual({
        connections: 0,
        requests: 0,
        maxRequestsOnOneConnection: 0,
        acceptedConnections: 0,
      })
      // the kept-alive connection carries on: it counts again, as a connection of the new count
      await get('/v2/sites', agent)
      await get('/v2/sites', agent)
      expect(sim.stats()).toEqual({
        connections: 1,
        requests: 2,
        maxRequestsOnOneConnection: 2,
        acceptedConnections: 0,
      })
    } finally {
      agent.destroy()
    }
  })
})
