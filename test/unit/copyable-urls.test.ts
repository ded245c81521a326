/**
 * Issue 20 §4: a URL that the summary or the PR comment shows as text (in a hint, in the server's
 * message, in a warning) can be copied from the rendered page as it is, and pasted back as api-url;
 * it is still not a link (server text never becomes one).
 */
import { describe, expect, test } from '@jest/globals'
import { filledHint, hintFor } from '../../src/api/errors.js'
import { SERVICE_API_URL } from '../../src/contract.js'
import { normaliseApiUrl } from '../../src/inputs/index.js'
import { renderComment } from '../../src/report/comment.js'
import { md } from '../../src/report/markdown.js'
import { renderSummary } from '../../src/report/summary.js'
import { createdResult } from '../helpers/fakes.js'
import { htmlText, linkTargets, toHtml } from '../helpers/markdown-html.js'

const INVISIBLE = /[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/

const failed = (message: string, hint: string, warnings: string[] = []) =>
  createdResult({
    result: 'failed',
    httpStatus: 404,
    message,
    summary: 'The create request was not answered by the staging API.',
    stagingUrl: null,
    stagingSiteId: null,
    warnings,
    error: { kind: 'api-url', hint },
  })

/** The words of one rendered page, split where a URL could end (space, tab, line end). */
const words = (text: string) => text.split(/\s+/)

describe('URLs in the summary and the comment are copyable as they are', () => {
  const cases: [string, string][] = [
    ['the hosted API root in the hint', SERVICE_API_URL],
    ['a local API root with a port', 'https://127.0.0.1:8080/api/v2'],
    ['a URL with a query and a fragment', 'https://status.example.test/incidents?id=7&x=a#12'],
    ['a www. address', 'www.example.test/status'],
  ]
  test.each(cases)('%s: the rendered text holds it exactly, and nothing links it', (_name, url) => {
    const r = failed(
      `Route not found at ${url}. (see ${url})`,
      `Set api-url to the API root, ${url}, and run again.`,
      [`The API root ${url} answered slowly.`],
    )
    for (const markdown of [renderSummary([r]), renderComment(r, (t) => t)]) {
      const html = toHtml(markdown)
      const text = htmlText(html)
      expect(text).not.toMatch(INVISIBLE)
      // Hint, server message and warning: every occurrence is copied whole, without the sentence's
      // punctuation (the final `.`, `,` or `)` around it).
      expect(words(text).filter((w) => w.replace(/^\(/, '').replace(/[.,)]+$/, '') === url).length).toBe(4)
      expect(
        linkTargets(html).filter((href) => href.includes('example.test/status') || href.includes(url)),
      ).toEqual([])
    }
  })

  test('the API root copied from the summary is accepted as api-url, as it was', () => {
    const text = htmlText(
      toHtml(renderSummary([failed('', filledHint(hintFor('api-url'), '1001', `${SERVICE_API_URL}/v2`))])),
    )
    // The root the run used comes first, the hosted service's root last.
    const copied = words(text)
      .filter((w) => w.startsWith('https://'))
      .at(-1)!
      .replace(/[.,)]+$/, '')
    expect(copied).toBe(SERVICE_API_URL)
    expect(normaliseApiUrl(copied)).toBe(`${SERVICE_API_URL}/v2`)
  })

  test('a URL in server text is still not a link, and cannot end its code span or the table cell', () => {
    const hostile = 'see https://evil.test/a`b|c<d>e and [x](https://evil.test/y) ![i](www.evil.test/i.png)'
    const out = md(hostile)
    const html = toHtml(`| a | b |\n|:--|:--|\n| cell | ${out} |\n`)
    expect(linkTargets(html)).toEqual([])
    expect(html).not.toContain('<img')
    // One row of two cells: the `|` inside the URL stayed text.
    expect(html.match(/<td[\s>]/g)).toHaveLength(2)
    expect(htmlText(html)).toContain('https://evil.test/a`b|c<d>e')
    expect(htmlText(html)).toContain('[x](https://evil.test/y)')
  })

  test('the staging URL the summary links is the URL it shows', () => {
    const r = createdResult({ stagingUrl: 'https://calm-river.example.test/' })
    const html = toHtml(renderSummary([r]))
    expect(linkTargets(html)).toEqual(['https://calm-river.example.test/'])
    expect(htmlText(html)).toContain('https://calm-river.example.test/')
  })
})
