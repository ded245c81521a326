import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { SIM_SITES, start, type Simulator } from '../../simulator/server.js'
import { call, DATE_FORMAT, FAST, RO } from './helpers.js'

let sim: Simulator
beforeAll(async () => {
  sim = await start({ durationsMs: FAST })
})
afterAll(() => sim.stop())
beforeEach(() => sim.reset())

describe('authentication', () => {
  it('answers 401 with an envelope when the bearer token is missing', async () => {
    const reply = await call(sim, 'GET', '/v2/sites', { token: null })
    expect(reply.status).toBe(401)
    expect(reply.json).toEqual({ status: false, message: expect.stringMatching(/token/i), data: null })
    expect(reply.headers.get('www-authenticate')).toBe('Bearer')
  })

  it('answers 401 to an unknown token and to a malformed Authorization header', async () => {
    expect((await call(sim, 'GET', '/v2/sites', { token: 'not-a-real-token' })).status).toBe(401)
    const reply = await call(sim, 'GET', '/v2/sites', {
      token: null,
      headers: { Authorization: 'Basic abc' },
    })
    expect(reply.status).toBe(401)
  })

  it('lets the read-only token read', async () => {
    const reply = await call(sim, 'GET', '/v2/sites', { token: RO })
    expect(reply.status).toBe(200)
    expect(reply.json.status).toBe(true)
  })

  it('answers 403 to the read-only token on every write, and changes nothing', async () => {
    const site = SIM_SITES.eligible
    const writes: [string, string][] = [
      ['POST', '/v2/sites'],
      ['POST', `/v2/sites/${site}/staging`],
      ['POST', `/v2/sites/${SIM_SITES.withStaging}/staging/reset`],
      ['POST', `/v2/sites/${SIM_SITES.withStaging}/staging/push`],
      ['DELETE', `/v2/sites/${SIM_SITES.withStaging}/staging`],
    ]
    for (const [method, path] of writes) {
      const reply = await call(sim, method, path, { token: RO, body: method === 'POST' ? {} : undefined })
      expect([method, path, reply.status]).toEqual([method, path, 403])
      expect(reply.json).toMatchObject({
        status: false,
        data: null,
        message: expect.stringMatching(/read-only/),
      })
    }
    expect(sim.state.staging.has(String(site))).toBe(false)
    expect(sim.state.tasks.size).toBe(0)
    expect(sim.state.staging.get(String(SIM_SITES.withStaging))?.status).toBe('ready')
  })
})

describe('sites', () => {
  it('creates a site with POST /v2/sites: 201 and the new eligible production site', async () => {
    const reply = await call(sim, 'POST', '/v2/sites', { body: { site_name: 'My New Site' } })
    expect(reply.status).toBe(201)
    expect(reply.json.status).toBe(true)
    const site = reply.json.data
    expect(site).toMatchObject({
      site_name: 'My New Site',
      type: 'production',
      plan: 'pro',
      staging_site_id: null,
    })
    expect(typeof site.id).toBe('number')
    expect(Object.values(SIM_SITES)).not.toContain(site.id)
    expect(site.created_at).toMatch(DATE_FORMAT)
    expect(sim.state.sites.has(String(site.id))).toBe(true)
    // it is eligible: staging can be created on it
    const staging = await call(sim, 'POST', `/v2/sites/${site.id}/staging`)
    expect(staging.status).toBe(202)
  })

  it('refuses a wrong content type with 400', async () => {
    const reply = await call(sim, 'POST', '/v2/sites', { raw: 'site_name=x', contentType: 'text/plain' })
    expect(reply.status).toBe(400)
    expect(reply.json).toMatchObject({
      status: false,
      data: null,
      message: expect.stringMatching(/content type/i),
    })
    const none = await call(sim, 'POST', '/v2/sites', { raw: '{"site_name":"x"}', contentType: null })
    expect(none.status).toBe(400)
  })

  it('refuses unknown attributes with 400 naming them', async () => {
    const reply = await call(sim, 'POST', '/v2/sites', { body: { site_name: 'x', colour: 'red' } })
    expect(reply.status).toBe(400)
    expect(reply.json.message).toMatch(/colour/)
    expect(reply.json.errors).toEqual({ colour: ['unknown attribute'] })
  })

  it('refuses a missing site_name and a body that is not JSON with 400', async () => {
    expect((await call(sim, 'POST', '/v2/sites', { body: {} })).status).toBe(400)
    expect((await call(sim, 'POST', '/v2/sites', { raw: '{nope' })).status).toBe(400)
    expect(sim.state.sites.size).toBe(6)
  })

  it('lists sites with meta pagination', async () => {
    const reply = await call(sim, 'GET', '/v2/sites?per_page=4&page=2')
    expect(reply.status).toBe(200)
    // 6 production sites + the seeded staging site s-1002
    expect(reply.json.meta).toEqual({ current_page: 2, per_page: 4, total: 7, last_page: 2, from: 5, to: 7 })
    expect(reply.json.data).toHaveLength(3)
    const first = await call(sim, 'GET', '/v2/sites')
    expect(first.json.meta).toMatchObject({ current_page: 1, total: 7, last_page: 1 })
    expect(first.json.data.map((s: { id: unknown }) => s.id)).toEqual([
      1001,
      1002,
      1003,
      2001,
      3001,
      4001,
      's-1002',
    ])
  })

  it('filters the list by type', async () => {
    const reserved = await call(sim, 'GET', '/v2/sites?type=reserved')
    expect(reserved.json.data.every((s: { reserved: boolean }) => s.reserved)).toBe(true)
    expect(reserved.json.data.map((s: { id: unknown }) => s.id)).toEqual([1001, 1002, 2001, 4001, 's-1002'])
    expect(reserved.json.meta.total).toBe(5)
    const staging = await call(sim, 'GET', '/v2/sites?type=staging')
    expect(staging.json.data).toEqual([
      expect.objectContaining({ id: 's-1002', type: 'staging', production_site_id: 1002 }),
    ])
    const temporary = await call(sim, 'GET', '/v2/sites?type=temporary')
    expect(temporary.json.data.map((s: { id: unknown }) => s.id)).toEqual([1003, 3001])
    const bad = await call(sim, 'GET', '/v2/sites?type=weird')
    expect(bad.status).toBe(400)
    expect((await call(sim, 'GET', '/v2/sites?per_page=0')).status).toBe(400)
  })

  it('does not show passwords or simulated content in site records', async () => {
    const reply = await call(sim, 'GET', `/v2/sites/${SIM_SITES.eligible}`)
    expect(reply.status).toBe(200)
    expect(reply.json.data).not.toHaveProperty('ssh_password')
    expect(reply.json.data).not.toHaveProperty('content')
    expect(reply.json.data.domains[0]).toEqual({ name: 'shop.example.test', primary: true })
  })
})

describe('envelope, 404 and formats', () => {
  it('answers unknown paths with a 404 envelope', async () => {
    for (const path of ['/v2/nothing-here', '/v2/sites/1001/staging/nope', '/', '/v3/sites']) {
      const reply = await call(sim, 'GET', path)
      expect([path, reply.status]).toEqual([path, 404])
      expect(reply.headers.get('content-type')).toBe('application/json')
      expect(reply.json).toEqual({ status: false, message: expect.stringMatching(/not found/), data: null })
    }
  })

  it('answers unknown objects with a 404 envelope', async () => {
    const site = await call(sim, 'GET', '/v2/sites/999999')
    expect(site.status).toBe(404)
    expect(site.json).toEqual({ status: false, message: 'Site 999999 not found.', data: null })
    const task = await call(sim, 'GET', '/v2/tasks/abcdefabcdef/status')
    expect(task.status).toBe(404)
    expect(task.json.message).toMatch(/not found/)
    const staging = await call(sim, 'POST', '/v2/sites/999999/staging')
    expect(staging.status).toBe(404)
  })

  it('answers a method a path does not support with 405 and Allow', async () => {
    const reply = await call(sim, 'PUT', '/v2/sites/1001/staging')
    expect(reply.status).toBe(405)
    expect(reply.headers.get('allow')).toBe('GET, POST, DELETE')
    expect(reply.json.status).toBe(false)
  })

  it('writes every date as yyyy-MM-dd HH:mm:ss.SSS in UTC', async () => {
    const before = Date.now()
    const created = await call(sim, 'POST', `/v2/sites/${SIM_SITES.eligible}/staging`)
    const task = await call(sim, 'GET', `/v2/tasks/${created.json.data.task_id}/status`)
    for (const field of ['created_at', 'updated_at', 'timeout_at'])
      expect(task.json.data[field]).toMatch(DATE_FORMAT)
    const after = Date.now()
    const asUtc = Date.parse(task.json.data.created_at.replace(' ', 'T') + 'Z')
    expect(asUtc).toBeGreaterThanOrEqual(before)
    expect(asUtc).toBeLessThanOrEqual(after)
    const probe = await call(sim, 'GET', `/v2/sites/${SIM_SITES.eligible}/staging`)
    expect(probe.json.data.created_at).toMatch(DATE_FORMAT)
    expect(probe.json.data.updated_at).toMatch(DATE_FORMAT)
  })
})

describe('localization', () => {
  it('answers in Spanish with X-localization: es, success and errors alike', async () => {
    const list = await call(sim, 'GET', '/v2/sites', { lang: 'es' })
    expect(list.json.message).toBe('Sitios obtenidos correctamente.')
    const unauth = await call(sim, 'GET', '/v2/sites', { token: null, lang: 'es' })
    expect(unauth.json.message).toBe('No autenticado: el token de portador falta o no es válido.')
    const refused = await call(sim, 'POST', `/v2/sites/${SIM_SITES.waas}/staging`, { lang: 'es' })
    expect(refused.status).toBe(403)
    expect(refused.json.message).toBe('Staging no disponible: el sitio es un sitio WaaS.')
    const created = await call(sim, 'POST', `/v2/sites/${SIM_SITES.eligible}/staging`, { lang: 'es-ES' })
    expect(created.json.message).toMatch(/^Se inició la creación/)
    const missing = await call(sim, 'GET', '/v2/nope', { lang: 'es' })
    expect(missing.json.message).toBe('Ruta de API no encontrada: /v2/nope')
  })

  it('answers in English without the header or with another language, and keeps data in English', async () => {
    const plain = await call(sim, 'GET', `/v2/sites/${SIM_SITES.withStaging}/staging`)
    const french = await call(sim, 'GET', `/v2/sites/${SIM_SITES.withStaging}/staging`, { lang: 'fr' })
    const spanish = await call(sim, 'GET', `/v2/sites/${SIM_SITES.withStaging}/staging`, { lang: 'es' })
    expect(plain.json.message).toBe('Staging environment retrieved successfully.')
    expect(french.json.message).toBe(plain.json.message)
    expect(spanish.json.message).toBe('Entorno de staging obtenido correctamente.')
    expect(spanish.json.data).toEqual(plain.json.data)
  })
})
