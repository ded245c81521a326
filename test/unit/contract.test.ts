import { describe, expect, it, test } from '@jest/globals'
import {
  type BodyKind,
  isCredentialField,
  isCredentialQueryParam,
  isRouteMiss,
  percentageOf,
  probeState,
  saysBusy,
  saysPlan,
  saysQuota,
  stagingSiteIdOf,
  stagingUrlOf,
  taskIdOf,
  taskSiteIdOf,
  taskState,
  versionTime,
} from '../../src/contract.js'

describe('§2 task states, words and numbers (r2)', () => {
  it.each([
    ['progress', 'running'],
    ['in_progress', 'running'],
    ['In Progress', 'running'],
    ['pending', 'running'],
    ['queued', 'running'],
    ['running', 'running'],
    ['completed', 'completed'],
    ['success', 'completed'],
    ['done', 'completed'],
    ['error', 'failed'],
    ['failed', 'failed'],
    ['failure', 'failed'],
    ['cancelled', 'failed'],
    ['canceled', 'failed'],
    ['timeout', 'failed'],
    [0, 'completed'],
    [1, 'running'],
    [2, 'failed'],
    ['0', 'completed'],
    ['2', 'failed'],
    [3, 'unknown'],
    ['finished-ish', 'unknown'],
    [true, 'unknown'],
    [null, 'unknown'],
  ])('%p is %s', (status, state) => {
    expect(taskState(status)).toBe(state)
  })
  it('never reads an unknown value as success', () => {
    for (const v of ['ok', 'ready', 'complete', 'succeeded?', '', 'COMPLETED ', 99, {}]) {
      const s = taskState(v)
      if (v === 'COMPLETED ') expect(s).toBe('completed')
      else expect(s).not.toBe('completed')
    }
  })
})

describe('§2 percentages, ids and dates', () => {
  // Every date below is 2026-05-03 10:00 UTC: an offset is read, a date without a zone is UTC.
  it.each([
    '2026-05-03 10:00:00.000',
    '2026-05-03T10:00:00Z',
    '2026-05-03T10:00:00.000000Z',
    '2026-05-03T10:00:00+00:00',
    '2026-05-03T12:00:00+0200',
    '2026-05-03T05:00:00-05:00',
  ])('a version date %p is read (ISO 8601 with an offset too)', (text) =>
    expect(versionTime(text)).toBe(Date.UTC(2026, 4, 3, 10)),
  )
  it.each(['yesterday', '2026-05-03', '2026-05-03T10:00:00+2', ''])('no date in %p', (text) =>
    expect(versionTime(text)).toBeNaN(),
  )
  it.each([
    ['45', 45],
    ['45.50', 45.5],
    [' 7 % ', 7],
    [12.25, 12.25],
    ['150', 100],
    [-3, 0],
  ])('percentage %p = %p', (v, n) => expect(percentageOf(v)).toBe(n))
  it.each([['n/a'], [null], [[50]], ['1e2'], [NaN]])('no percentage in %p', (v) =>
    expect(percentageOf(v)).toBeUndefined(),
  )

  it('a task id must be usable in a path: never "..", a slash or a query', () => {
    expect(taskIdOf({ task_id: 'd53a490af3cd' })).toEqual({ id: 'd53a490af3cd' })
    expect(taskIdOf({ task_id: 148601 })).toEqual({ id: '148601' })
    for (const bad of [
      '..',
      '.',
      '../../v2/sites',
      'a/b',
      'a?x=1',
      'a b',
      'x'.repeat(200),
      -1,
      1.5,
      { id: 1 },
    ])
      expect(taskIdOf({ task_id: bad })).toHaveProperty('unusable')
    expect(taskIdOf({})).toBeNull()
    expect(taskIdOf(null)).toBeNull()
  })
  it('the site of a task is resource_id when it names a site, never the row id', () => {
    expect(taskSiteIdOf({ id: 148601, resource_type: 'App\\Models\\Site', resource_id: 50123 })).toBe('50123')
    expect(taskSiteIdOf({ id: 148601, resource_id: 'stg-9' })).toBe('stg-9')
    expect(taskSiteIdOf({ id: 148601, resource_type: 'App\\Models\\Backup', resource_id: 7 })).toBeNull()
    expect(taskSiteIdOf({ id: 148601 })).toBeNull()
  })
})

describe('§3 the probe', () => {
  it.each([
    [{ status: 'creating' }, 'busy'],
    [{ status: 'ready', is_syncing: true }, 'busy'],
    [{ status: 'Active' }, 'ready'],
    [{ status: 0 }, 'ready'],
    [{ status: 'weird' }, 'unknown'],
    [null, 'unknown'],
  ])('%p is %s', (data, state) => expect(probeState(data)).toBe(state))
})

describe('§4 a 422 that says a job runs is busy (r2)', () => {
  it.each([
    'A sync is already in progress. Please wait until it finishes.',
    'Another job is currently running on this site',
    'A push of this site is already running (started 12 minutes ago)',
    'A sync is still running.',
    'Staging is still running a push.',
    'Site 1002 is currently running a backup; try again later.',
    'A push is already running with task 4211.',
    'An operation is already running against this site',
    'Ya hay una sincronización en curso.',
    'La operación está en progreso, espere.',
  ])('busy: %s', (m) => expect(saysBusy(m)).toBe(true))
  it.each([
    'The site id field is required.',
    'Staging already exists for this site.',
    '',
    'The staging site is currently running PHP 7.2, which is no longer supported. Upgrade PHP on staging first.',
  ])('not busy: %p', (m) => expect(saysBusy(m)).toBe(false))
  it('plan messages (r2: 403 or 422)', () => {
    expect(saysPlan('Your plan does not include staging sites. Upgrade to continue.')).toBe(true)
    expect(saysPlan('Su plan no incluye staging.')).toBe(true)
    expect(saysPlan('Staging already exists for this site.')).toBe(false)
  })
})

describe('§5 fields and credential names (r2, widened)', () => {
  it('staging id and URL in order of preference; ids must be ids', () => {
    expect(stagingSiteIdOf({ id: 9, staging_id: 8, staging_site_id: 's-1' })).toBe('s-1')
    expect(stagingSiteIdOf({ id: 9 })).toBe('9')
    expect(stagingSiteIdOf({ staging_site_id: '<script>' })).toBeNull()
    expect(stagingUrlOf({ url: 'https://c', wp_url: 'https://b' })).toBe('https://b')
  })
  it.each([
    'password',
    'db_pass',
    'pwd',
    'passphrase',
    'client_secret',
    'api_token',
    'private_key',
    'key',
    's_hash',
    'auth_cookie',
    'session',
    'credentials',
    'Authorization',
  ])('%s is a credential field', (name) => expect(isCredentialField(name)).toBe(true))
  it.each([
    'task_id',
    'status',
    'staging_url',
    'wp_url',
    'resource_id',
    'resource_type',
    'percentage_complete',
    'message',
    'id',
  ])('%s is not', (name) => expect(isCredentialField(name)).toBe(false))
  it('credential query parameters', () => {
    for (const name of ['token', 'autologin', 'login', 'access_key', 'sig', 'otp'])
      expect(isCredentialQueryParam(name)).toBe(true)
    for (const name of ['page', 'lang', 'ver']) expect(isCredentialQueryParam(name)).toBe(false)
  })
})

describe('§9 a 404 from the routing layer points at api-url', () => {
  it.each([
    ['html', ''],
    ['empty', ''],
    ['framework', 'The route v2/sites/1001/staging could not be found.'],
    ['framework', 'Not Found'],
  ] as [BodyKind, string][])('%s %p', (kind, message) => expect(isRouteMiss(kind, message)).toBe(true))
  it.each([
    ['envelope', 'Site 1001 not found.'],
    ['framework', 'No query results for model [App\\Models\\Site] 1001'],
    ['framework', 'Staging site not found.'],
  ] as [BodyKind, string][])('not %s %p', (kind, message) => expect(isRouteMiss(kind, message)).toBe(false))
})

describe('a version create refused for its quota (contract §13 r5), in the words services use', () => {
  test.each([
    ['At most 3 versions per site', true],
    ['You can only keep 3 manual backups per site.', true],
    ['You can only create 5 versions.', true],
    ['Site versions are temporarily unavailable while the site is being migrated.', false],
    ['The selected site id is invalid.', false],
    ['A version is already in progress for this site.', false],
  ])('%s: %s', (message, quota) => expect(saysQuota(message)).toBe(quota))
})
