export const id = 231;
export const ids = [231];
export const modules = {

/***/ 4231:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   PULL_REQUEST_EVENTS: () => (/* binding */ PULL_REQUEST_EVENTS),
/* harmony export */   commentOnPullRequest: () => (/* binding */ commentOnPullRequest),
/* harmony export */   escapeMarkdown: () => (/* binding */ escapeMarkdown),
/* harmony export */   isCommentFor: () => (/* binding */ isCommentFor),
/* harmony export */   markerFor: () => (/* binding */ markerFor),
/* harmony export */   postOrUpdateComments: () => (/* binding */ postOrUpdateComments),
/* harmony export */   pullRequestTarget: () => (/* binding */ pullRequestTarget),
/* harmony export */   renderComment: () => (/* binding */ renderComment),
/* harmony export */   runUrlFrom: () => (/* binding */ runUrlFrom),
/* harmony export */   stagingUrlFromComment: () => (/* binding */ stagingUrlFromComment)
/* harmony export */ });
/* harmony import */ var _actions_github__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(2413);
/* harmony import */ var _summary_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7994);


/**
 * The pull-request comment (`pr-comment: true`): one comment per production site, found again by
 * a hidden marker on its first line and updated in place by later runs for that site. One comment
 * per site (not one per run) so that a later run on a subset of the sites (say, a delete of one)
 * updates exactly the comments it concerns. Rendering is pure; posting never throws: it reports
 * what happened for the caller to log as a notice or a warning.
 */
const MARKER_PREFIX = '<!-- site-staging-action:site=';
/** Site ids are `[A-Za-z0-9_-]` (src/inputs.ts), so they cannot close the HTML comment. */
const markerFor = (siteId) => `${MARKER_PREFIX}${siteId} -->`;
/** The last known staging URL, kept hidden in the comment for runs that do not report one (pull, push). */
const URL_MARK = /<!-- site-staging-action:staging-url=(https?:\/\/[^\s<>"]+) -->/;
/** GitHub refuses comments over 65536 characters; a server message never needs that much. */
const MAX_MESSAGE_CHARS = 1500;
/** Whether the result leaves the site without a staging environment. */
function removesStaging(r) {
    return r.operation === 'delete' && (r.result === 'succeeded' || r.result === 'skipped');
}
function headline(r) {
    if (r.operation === 'delete') {
        if (r.result === 'succeeded')
            return '🗑️ Staging environment removed';
        if (r.result === 'skipped')
            return '🗑️ Staging environment removed (there was none left to delete)';
        if (r.result === 'accepted')
            return '🗑️ Staging removal requested (not yet confirmed)';
    }
    if (r.result === 'succeeded') {
        if (r.operation === 'create')
            return '✅ Staging environment ready';
        if (r.operation === 'pull')
            return '✅ Staging refreshed from production';
        if (r.operation === 'push')
            return '✅ Staging pushed to production';
    }
    return `${_summary_js__WEBPACK_IMPORTED_MODULE_1__/* .ICON */ .kb[r.result]} Staging ${r.operation}: ${r.result}`;
}
/**
 * The comment for one site's Result, as Markdown. Every text from the run is passed through
 * `scrub` (the redactor) before escaping, so no secret can reach the comment.
 */
function renderComment(r, scrub, extras = {}) {
    const safe = (text) => escapeMarkdown(oneLine(scrub(text)));
    const removed = removesStaging(r);
    const ownUrl = r.stagingUrl ? scrub(r.stagingUrl) : null;
    const earlierUrl = !ownUrl && r.operation !== 'delete' && extras.previousStagingUrl ? scrub(extras.previousStagingUrl) : null;
    const url = ownUrl ?? earlierUrl;
    const lines = [markerFor(r.siteId)];
    if (url && !removed && URL_MARK.test(`<!-- site-staging-action:staging-url=${url} -->`))
        lines.push(`<!-- site-staging-action:staging-url=${url} -->`);
    lines.push(`### ${headline(r)}`, '');
    lines.push('| | |', '|---|---|');
    lines.push(`| Production site | \`${r.siteId}\` |`);
    lines.push(`| Operation | \`${r.operation}\` |`);
    lines.push(`| Result | ${_summary_js__WEBPACK_IMPORTED_MODULE_1__/* .ICON */ .kb[r.result]} ${r.result}${r.httpStatus ? ` (HTTP ${r.httpStatus})` : ''} |`);
    if (removed)
        lines.push('| Staging URL | — (removed) |');
    else
        lines.push(`| Staging URL | ${url ? link(url) : '—'}${earlierUrl ? ' (from an earlier run)' : ''} |`);
    if (r.stagingSiteId && !removed)
        lines.push(`| Staging site | \`${safe(r.stagingSiteId).replace(/`/g, "'")}\` |`);
    lines.push(`| Duration | ${r.durationSeconds} s |`);
    lines.push(`| Time | ${utcTime(r.startedAt)} |`);
    if (extras.runUrl)
        lines.push(`| Run | [workflow run](${href(extras.runUrl)}) |`);
    lines.push('');
    if (r.message)
        lines.push(`> ${safe(truncate(r.message))}`, '');
    if (r.error)
        lines.push(`**What to do:** ${safe(r.error.hint)}`, '');
    const warnings = [...new Set(r.warnings)];
    if (warnings.length > 0) {
        lines.push('**⚠️ Warnings**', '');
        for (const w of warnings)
            lines.push(`- ${safe(w)}`);
        lines.push('');
    }
    lines.push(`<sub>Posted by site-staging-action. Later runs for site \`${r.siteId}\` update this comment.</sub>`, '');
    return scrub(lines.join('\n'));
}
/** The staging URL recorded in an earlier comment, if any. */
function stagingUrlFromComment(body) {
    return URL_MARK.exec(body)?.[1] ?? null;
}
/** Whether `body` is this project's comment for `siteId` (the marker opens the comment). */
function isCommentFor(body, siteId) {
    return typeof body === 'string' && body.trimStart().startsWith(markerFor(siteId));
}
function oneLine(text) {
    return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}
function truncate(text) {
    return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}…` : text;
}
/** Text from the server shows as text: no HTML, no links, no @mentions, no table breaks. */
function escapeMarkdown(text) {
    return text
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(/([\\`*_[\]|~])/g, '\\$1')
        .replace(/@(?=[A-Za-z0-9])/g, '@\u200b')
        .replace(/#(?=\d)/g, '#\u200b');
}
function href(url) {
    return url.replace(/[()\s<>]/g, encodeURIComponent);
}
function link(url) {
    return /^https?:\/\//i.test(url) ? `[${escapeMarkdown(url)}](${href(url)})` : escapeMarkdown(url);
}
/** `2025-01-15T09:30:00.000Z` -> `2025-01-15 09:30:00 UTC`. */
function utcTime(iso) {
    const d = new Date(iso);
    return Number.isNaN(d.getTime())
        ? escapeMarkdown(iso)
        : `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
/** Events whose payload names the pull request the comment belongs to. */
const PULL_REQUEST_EVENTS = ['pull_request', 'pull_request_target'];
/** The pull request of the triggering event, or why there is none. */
function pullRequestTarget(eventName, payload, repository) {
    if (!PULL_REQUEST_EVENTS.includes(eventName))
        return {
            reason: `pr-comment: the triggering event is ${eventName ? `"${eventName}"` : 'unknown'}, not pull_request or pull_request_target: no comment was posted.`,
        };
    const p = (payload ?? {});
    const number = Number(p.pull_request?.number ?? p.number);
    if (!Number.isInteger(number) || number <= 0)
        return { reason: 'pr-comment: the event payload names no pull request number: no comment was posted.' };
    const [owner, repo] = (repository ?? '').split('/');
    if (owner && repo)
        return { target: { owner, repo, number } };
    const name = p.repository?.name;
    const login = p.repository?.owner?.login;
    if (typeof name === 'string' && typeof login === 'string')
        return { target: { owner: login, repo: name, number } };
    return { reason: 'pr-comment: the repository is unknown (no GITHUB_REPOSITORY): no comment was posted.' };
}
/** `https://github.com/o/r/actions/runs/123/attempts/2`, when the environment says. */
function runUrlFrom(env) {
    const server = env.GITHUB_SERVER_URL || 'https://github.com';
    if (!env.GITHUB_REPOSITORY || !env.GITHUB_RUN_ID)
        return null;
    const attempt = env.GITHUB_RUN_ATTEMPT && env.GITHUB_RUN_ATTEMPT !== '1' ? `/attempts/${env.GITHUB_RUN_ATTEMPT}` : '';
    return `${server.replace(/\/+$/, '')}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}${attempt}`;
}
const silent = { debug: () => { }, info: () => { }, warn: () => { }, error: () => { } };
/**
 * Creates or updates one comment per site on the pull request. Reads every page of comments
 * (stopping once each site's comment is found), then PATCHes the found ones and POSTs the rest.
 * Never throws: failures come back as reports with a warning that says what to do.
 */
async function postOrUpdateComments(results, options) {
    const { target, redactor } = options;
    const scrub = (t) => redactor.scrub(t);
    const octokit = (0,_actions_github__WEBPACK_IMPORTED_MODULE_0__.getOctokit)(options.token, {
        baseUrl: options.apiUrl.replace(/\/+$/, ''),
        log: silent,
        request: options.signal ? { signal: options.signal } : {},
    });
    const wanted = new Set(results.map((r) => r.siteId));
    const found = new Map();
    try {
        await octokit.paginate(octokit.rest.issues.listComments, { owner: target.owner, repo: target.repo, issue_number: target.number, per_page: 100 }, (response, done) => {
            for (const c of response.data)
                for (const id of wanted)
                    if (!found.has(id) && isCommentFor(c.body, id))
                        found.set(id, c);
            if (found.size === wanted.size)
                done();
            return [];
        });
    }
    catch (e) {
        const warning = failureWarning(e, 'read the comments of', target, scrub);
        return results.map((r) => ({ siteId: r.siteId, action: 'failed', warning }));
    }
    const reports = [];
    for (const r of results) {
        const existing = found.get(r.siteId);
        const body = renderComment(r, scrub, {
            runUrl: options.runUrl ?? null,
            previousStagingUrl: existing?.body ? stagingUrlFromComment(existing.body) : null,
        });
        try {
            const response = existing
                ? await octokit.rest.issues.updateComment({
                    owner: target.owner,
                    repo: target.repo,
                    comment_id: existing.id,
                    body,
                })
                : await octokit.rest.issues.createComment({
                    owner: target.owner,
                    repo: target.repo,
                    issue_number: target.number,
                    body,
                });
            reports.push({
                siteId: r.siteId,
                action: existing ? 'updated' : 'created',
                id: response.data.id,
                url: response.data.html_url ?? null,
            });
        }
        catch (e) {
            reports.push({
                siteId: r.siteId,
                action: 'failed',
                warning: failureWarning(e, existing ? 'update the comment on' : 'comment on', target, scrub),
            });
        }
    }
    return reports;
}
/** What went wrong, and what to do, for a refused or failed GitHub request. */
function failureWarning(e, doing, target, scrub) {
    const status = typeof e?.status === 'number' ? e.status : 0;
    const detail = oneLine(scrub(String(e?.message ?? e))).slice(0, 300);
    const where = `pull request #${target.number} of ${target.owner}/${target.repo}`;
    const unaffected = 'The staging result is not affected.';
    if (status === 403 || status === 404)
        return (`Could not ${doing} ${where} (HTTP ${status}: ${detail}). The github-token lacks the permission ` +
            '"pull-requests: write" (or "issues: write"): add it under "permissions:" in the workflow or job. ' +
            `A pull request from a fork gets a read-only token whatever the workflow asks. ${unaffected}`);
    if (status === 401)
        return `Could not ${doing} ${where}: the github-token was refused (HTTP 401). Check the github-token input. ${unaffected}`;
    if (e?.name === 'AbortError' || /abort/i.test(detail))
        return `Could not ${doing} ${where}: GitHub did not answer in time. ${unaffected}`;
    return `Could not ${doing} ${where}${status ? ` (HTTP ${status})` : ''}: ${detail}. ${unaffected}`;
}
/** Time left for the comment after a cancel: the runner kills 10 s after its first signal. */
const CANCELLED_TIMEOUT_MS = 3000;
const DEFAULT_TIMEOUT_MS = 30_000;
/** `pr-comment: true`: comments on the triggering pull request, or says why not. Never throws. */
async function commentOnPullRequest(results, run) {
    if (results.length === 0)
        return [];
    const where = pullRequestTarget(run.eventName, run.payload, run.env.GITHUB_REPOSITORY);
    if ('reason' in where) {
        run.log.notice(where.reason);
        return [];
    }
    if (run.token.trim() === '') {
        run.log.warn('pr-comment is true but github-token is empty: no comment was posted.');
        return [];
    }
    const limit = AbortSignal.timeout(run.signal?.aborted ? CANCELLED_TIMEOUT_MS : (run.timeoutMs ?? DEFAULT_TIMEOUT_MS));
    const signal = run.signal && !run.signal.aborted ? AbortSignal.any([run.signal, limit]) : limit;
    let reports;
    try {
        reports = await postOrUpdateComments(results, {
            token: run.token,
            apiUrl: run.env.GITHUB_API_URL || 'https://api.github.com',
            target: where.target,
            redactor: run.redactor,
            runUrl: runUrlFrom(run.env),
            signal,
        });
    }
    catch (e) {
        run.log.warn(`Could not post the pull-request comment: ${e?.message ?? String(e)}`);
        return [];
    }
    const warned = new Set();
    for (const r of reports) {
        if (r.action === 'failed') {
            if (!warned.has(r.warning))
                run.log.warn(r.warning);
            warned.add(r.warning);
        }
        else {
            run.log.info(`${r.action === 'created' ? 'Posted' : 'Updated'} the comment for site ${r.siteId} on pull request #${where.target.number}${r.url ? `: ${r.url}` : ''}.`);
        }
    }
    return reports;
}


/***/ })

};
