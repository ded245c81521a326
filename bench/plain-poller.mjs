// The plain polling script the 1000-site row is measured beside (npm run bench): what anyone would
// write with fetch: start a create on every site at once, poll each task every POLL_MS until it
// ends, then read the site list (every page) for the staging URLs. No rate plan, no retries.
// argv: <api root ending in /v2> <token> <site ids, comma separated>. Prints one JSON line.
const [apiUrl, token, idList] = process.argv.slice(2)
const ids = idList.split(',')
const POLL_MS = 2000
const headers = { authorization: `Bearer ${token}`, accept: 'application/json' }
const call = async (method, path) => {
  const res = await fetch(`${apiUrl}${path}`, {
    method,
    headers: method === 'POST' ? { ...headers, 'content-type': 'application/json' } : headers,
    body: method === 'POST' ? '' : undefined,
  })
  return { status: res.status, body: await res.json().catch(() => null) }
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const done = await Promise.all(
  ids.map(async (id) => {
    const created = await call('POST', `/sites/${id}/staging`)
    const task = created.body?.data?.task_id
    if (!task) return false
    for (;;) {
      await sleep(POLL_MS)
      const status = (await call('GET', `/tasks/${task}/status`)).body?.data?.status
      if (status === 'completed') return true
      if (status === 'error' || status === 'failed') return false
    }
  }),
)
const urls = new Map()
for (let page = 1, last = 1; page <= last; page++) {
  const { body } = await call('GET', `/sites?type=staging&per_page=100&page=${page}`)
  last = body?.meta?.last_page ?? body?.data?.last_page ?? 1
  const items = Array.isArray(body?.data) ? body.data : (body?.data?.data ?? [])
  for (const item of items) urls.set(String(item.parent_id ?? item.production_site_id ?? item.id), item.url)
}
console.log(
  JSON.stringify({ succeeded: done.filter(Boolean).length, urls: ids.filter((id) => urls.get(id)).length }),
)
