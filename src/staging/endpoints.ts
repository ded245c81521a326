import type { JobOperation } from '../types.js'
import { statusCommand } from '../words.js'
import type { RunRecord } from './record.js'

/** The four staging endpoints (spec §4). `{site}` is always the PRODUCTION site's id. */
export const ENDPOINTS: Record<JobOperation, { method: 'POST' | 'DELETE'; path: (site: string) => string }> =
  {
    create: { method: 'POST', path: (site) => `/sites/${encodeURIComponent(site)}/staging` },
    pull: { method: 'POST', path: (site) => `/sites/${encodeURIComponent(site)}/staging/reset` },
    push: { method: 'POST', path: (site) => `/sites/${encodeURIComponent(site)}/staging/push` },
    delete: { method: 'DELETE', path: (site) => `/sites/${encodeURIComponent(site)}/staging` },
  }

/** The one path of a task's status (spec §4, contract §2). */
export const taskStatusPath = (taskId: string): string => `/tasks/${encodeURIComponent(taskId)}/status`

/** What a person must know after a push (spec §4, push rules 1, 2 and 4): true of every site. */
export const PUSH_WARNINGS = [
  'No backup of production was taken before the push, and the API cannot restore the previous live site.',
  'If production was password-protected, that protection is now off and is not re-applied: turn it back on if the site needs it.',
  "The production site's CDN cache was purged: expect slower first requests while it refills.",
]

/** What a push will and will not overwrite on production (spec §4, push rules 1-4), for its dry run. */
export const PUSH_PLAN = [
  "Will overwrite: the production site's files and database, with staging's (everything on the live site that is not on staging is lost).",
  'Will not overwrite: mapped domains, the CDN pull zone, SSL, tags, SSH keys, the plan and the site settings (they stay on production).',
  "Then: password protection on production is off, and production's CDN cache is purged. No backup is taken first.",
]

/** The same, for a push whose outcome is unknown: none of it is a fact yet (issue 17 §5). */
export const PUSH_WARNINGS_IF_SENT = [
  'If the push went through: no backup of production was taken before it, and the API cannot restore the previous live site.',
  'If the push went through and production was password-protected, that protection is now off and is not re-applied: check it.',
  "If the push went through, the production site's CDN cache was purged: expect slower first requests while it refills.",
]

/**
 * The same, for a push whose job failed on the server: it did not complete, so the purge that completion
 * brings (spec §4, push rule 4) is not claimed; with a checkpoint (issue 27), "no backup" would be false.
 */
export const PUSH_WARNINGS_IF_FAILED = [
  'The push job failed, but it may have overwritten part of production first: no backup was taken before it, and the API cannot restore the previous live site. Check the live site now.',
  'If production was password-protected, the failed push may have switched that protection off: check it.',
]
const PUSH_FAILED_WITH_CHECKPOINT =
  'The push job failed, but it may have overwritten part of production first: check the live site now.'

/**
 * The push warnings (noted once the push was taken or its answer lost, jobs.ts) as the run can say them: facts
 * once the push job completed, the failed form for a job that failed, else the "if the push went through" form.
 * Each line only while it still stands: a checkpoint removes the "no backup" line; the record's own words on
 * protection replace the protection line.
 */
export function pushWarnings({ warnings, production, jobs }: RunRecord, failed: boolean): string[] {
  const gone = [production.checkpoint !== null, production.protection !== null, false]
  const kept = warnings.filter((w) => !gone[PUSH_WARNINGS.indexOf(w)])
  // The push job completed (production may have been restored since: its warnings still stand).
  if (jobs.some((j) => j.op === 'push' && j.state === 'completed')) return kept
  const stands = PUSH_WARNINGS.map((w) => kept.includes(w))
  if (!stands.some(Boolean)) return kept
  const rest = kept.filter((w) => !PUSH_WARNINGS.includes(w))
  const said = failed
    ? [
        stands[0] ? PUSH_WARNINGS_IF_FAILED[0]! : PUSH_FAILED_WITH_CHECKPOINT,
        ...(stands[1] ? [PUSH_WARNINGS_IF_FAILED[1]!] : []),
      ]
    : PUSH_WARNINGS_IF_SENT.filter((_, i) => stands[i])
  return [...rest, ...said]
}

/** What a finished job did, for the last line and the summary. */
export const DONE: Record<JobOperation, string> = {
  create: 'Staging created',
  pull: 'Staging refreshed from production',
  push: 'Staging pushed to production',
  delete: 'Staging deleted',
}

/** The step that follows a job the run left behind (timed out, not waited for, not confirmed). */
export function checkLaterHint(siteId: string, taskId: string | null): string {
  return `To check on it later, ${statusCommand(siteId, taskId)}.`
}
