/** The action's GitHub inputs and `operation: release`, read by the one schema (src/inputs/). */
import { describe, expect, test } from '@jest/globals'
import { InputError, parseActionInputs, parseGitHubInputs } from '../../src/inputs/index.js'

const run = { operation: 'pull', siteIds: ['1001'], dryRun: false }

describe('parseGitHubInputs', () => {
  test('defaults: no comment, no deployment, take; comment-author names who writes deployments too', () => {
    expect(parseGitHubInputs({ 'github-token': 'ghs_x' }, run)).toEqual({
      token: 'ghs_x',
      commentAuthor: null,
      author: 'github-actions[bot]',
      environment: null,
      ifTaken: 'take',
    })
    expect(
      parseGitHubInputs(
        {
          'github-token': ' ghs_x ',
          'pr-comment': ' TRUE ',
          'comment-author': 'my-app[bot]',
          'deployment-environment': ' pr-12 ',
          'if-staging-taken': 'Wait',
        },
        run,
      ),
    ).toEqual({
      token: 'ghs_x',
      commentAuthor: 'my-app[bot]',
      author: 'my-app[bot]',
      environment: 'pr-12',
      ifTaken: 'wait',
    })
  })

  test('wait and fail are checked only where they apply: not for a push, not for a dry run', () => {
    const fail = { 'github-token': 'ghs_x', 'if-staging-taken': 'fail' }
    expect(() => parseGitHubInputs(fail, run)).toThrow(InputError)
    expect(parseGitHubInputs(fail, { ...run, operation: 'push' }).ifTaken).toBe('fail')
    expect(parseGitHubInputs(fail, { ...run, dryRun: true }).ifTaken).toBe('fail')
  })

  test('an environment name over 255 characters is refused, naming the input', () => {
    expect(() =>
      parseGitHubInputs({ 'github-token': 'ghs_x', 'deployment-environment': 'e'.repeat(256) }, run),
    ).toThrow('Input "deployment-environment": is longer than 255 characters')
  })
})

describe('parseActionInputs', () => {
  test('release reads site-id and GitHub inputs only: no api-token, no api-url; it needs a github-token', () => {
    expect(
      parseActionInputs({ operation: ' Release ', 'site-id': '1001, 1002', 'github-token': 'ghs_x' }),
    ).toMatchObject({
      operation: 'release',
      siteIds: ['1001', '1002'],
      github: { token: 'ghs_x' },
    })
    expect(() => parseActionInputs({ operation: 'release', 'site-id': '1001' })).toThrow(
      'Input "github-token": is empty: release needs a token that may write deployments',
    )
  })

  test('a staging operation: the core settings first (api-token), then GitHub', () => {
    expect(() => parseActionInputs({ operation: 'pull', 'site-id': '1001', 'pr-comment': 'yes' })).toThrow(
      /^Input "api-token"/,
    )
    const ok = parseActionInputs({
      operation: 'reset',
      'site-id': '1001',
      'api-token': 'tok',
      'github-token': 'g',
    })
    expect(ok).toMatchObject({ operation: 'pull', config: { operation: 'pull', siteIds: ['1001'] } })
  })
})
