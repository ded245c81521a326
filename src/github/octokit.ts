/**
 * The one module that loads Octokit (through @actions/github: proxy support, GHES base URLs).
 * Imported only dynamically, when a run asks for a comment or a deployment.
 */
import { getOctokit } from '@actions/github'
import { defaults } from '@actions/github/lib/utils'
import { GitHubTimeout } from './errors.js'

export type Octokit = ReturnType<typeof getOctokit>

const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} }

/** How a request reaches GitHub: the WHATWG fetch shape Octokit calls. */
export type GitHubFetch = (url: string, init: RequestInit) => Promise<Response>

/** An Octokit for `apiUrl` whose every request is aborted by `signal`; a request cut short that way fails
 * with GitHubTimeout, whatever stage it was in. It logs nothing itself. `fetch`: how its requests go out
 * (tests: an in-process GitHub); @actions/github's proxy-aware one by default. */
export function octokitFor(
  token: string,
  apiUrl: string,
  signal?: AbortSignal,
  fetch?: GitHubFetch,
): Octokit {
  const octokit = getOctokit(token, {
    baseUrl: apiUrl.replace(/\/+$/, ''),
    log: silent,
    // Keep @actions/github's proxy-aware fetch and agent: `request` replaces its defaults whole.
    request: { ...defaults.request, ...(fetch ? { fetch } : {}), ...(signal ? { signal } : {}) },
  })
  octokit.hook.wrap('request', async (request, options) => {
    try {
      return await request(options)
    } catch (e) {
      if (signal?.aborted) throw new GitHubTimeout()
      throw e
    }
  })
  return octokit
}
