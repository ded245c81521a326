#!/usr/bin/env node
import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ var __webpack_modules__ = ({

/***/ 408:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Zy: () => (/* binding */ parseArgs),
/* harmony export */   s6: () => (/* binding */ ArgsError),
/* harmony export */   u_: () => (/* binding */ USAGE)
/* harmony export */ });
/* unused harmony export parseDuration */
/* harmony import */ var _options_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(371);
/* harmony import */ var _progress_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(646);
/** Command-line arguments of the simulator (main.ts), parsed without side effects. */


class ArgsError extends Error {
}
const USAGE = `Usage: npm run simulator -- [options]

Runs the reference v2 API simulator on 127.0.0.1.

Options:
  --port N                   port (default: $PORT, else 0 = a free port)
  --profile NAME             answer shapes: spec (default: as the API documentation shows them) or
                             service (as the hosted service answers: API under /api/v2, framework
                             errors, 422 when busy, 405 on reading staging...)
  --site-delay TIME          a new staging site's URL answers 404 until this long after its creation
                             completed (default 3s)
  --list-page-cap N          GET /v2/sites answers at most N rows a page, whatever per_page asks
                             (default: the profile's: service 20, spec none, per_page over 100 refused)
  --list-paginator WHERE     GET /v2/sites's paginator: meta (default, beside data) or data (the
                             framework's paginator as data: data.data, data.last_page)
  --realistic                realistic job durations (create 150s, pull 60s, push 60s, delete 15s,
                             version 90s, restore 90s)
  --duration KIND=TIME       one job's duration, e.g. --duration create=10s (KIND: create, pull, push,
                             delete, version, restore)
  --duration-spread N        spread job lengths by this fraction around their duration (0.3: 70% to
                             130%), evenly over the jobs in the order they start (default 0)
  --no-url-in-answers        a create's answer carries no staging URL (clients read the staging
                             environment for it)
  --progress MODE            shape of percentage_complete: nonlinear (default), linear, or none (no
                             percentage_complete); misleading ones for benchmarks: backloaded (slow
                             start), frontloaded (99% at a fifth of the job), stuck-then-jump (0% for
                             70% of the job, then 90%), stalled-middle (stuck at 50% from 30% to 70%)
  --rate-limit N             requests per token per window (default: unlimited)
  --rate-window TIME         rate-limit window (default 60s)
  --retry-after MODE         Retry-After on 429: seconds (default), http-date or none
  --rate-kind KIND           how requests are counted: fixed (default: a window from a token's first
                             request), framework (the framework's limiter: the same in whole seconds)
                             or sliding (the requests of the last window's length)
  --rate-reset WHEN          X-RateLimit-Reset on every answer (always) or only on a 429 (on-429);
                             default: the profile's way (spec: always, service: on-429)
  --busy-status CODE         status of a refused pull/push/delete while a job runs: 409 (default) or 423
  --no-task-ids              staging responses carry no task_id (clients must use the probe)
  --no-probe                 GET /v2/sites/{site}/staging answers 405
  --task-visibility-delay TIME
                             task status answers 404 for this long after a job starts
  --versions MODE            site versions (checkpoints): ok (default); absent-404 or absent-405 (the
                             service offers none: its routes answer 404, or 405); plan-403 (a plan
                             without versions); quota (every create refused with 422); task-fails
                             (version tasks end in error); slow (version tasks take 15 minutes);
                             no-task-id (a create answers no task_id)
  --version-quota N          completed versions a site keeps; one more may be made on top, one at a
                             time, then creates are refused until one is deleted (default 3)
  --tools MODE               site tools (maintenance mode, password protection): ok (default),
                             plan-403 (a plan gate) or absent-404 (no such route)
  --live-page MODE           production's page after a push: ok (default), down (500) or wrong-page
                             (200, not the site's page), until a restore
  --live-page-recovers TIME  with --live-page down or wrong-page: healthy again this long after the push
  -h, --help                 show this help

TIME is a number with an optional unit: 500ms, 30s, 2m (no unit: seconds).`;
/** A duration such as 500ms, 30s, 2m or 45 (seconds), in ms. */
function parseDuration(text) {
    const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
    if (!match)
        throw new ArgsError(`not a duration: ${text} (use e.g. 500ms, 30s, 2m)`);
    const value = Number(match[1]);
    const unit = match[2] ?? 's';
    return Math.round(unit === 'ms' ? value : unit === 's' ? value * 1000 : value * 60_000);
}
function parseIntArg(name, text, min, max) {
    if (!/^\d+$/.test(text.trim()))
        throw new ArgsError(`${name} must be an integer, got ${text}`);
    const value = Number(text);
    if (value < min || value > max)
        throw new ArgsError(`${name} must be from ${min} to ${max}, got ${text}`);
    return value;
}
const WITH_VALUE = new Set([
    '--port',
    '--duration',
    '--progress',
    '--rate-limit',
    '--rate-window',
    '--retry-after',
    '--rate-kind',
    '--rate-reset',
    '--duration-spread',
    '--busy-status',
    '--task-visibility-delay',
    '--profile',
    '--site-delay',
    '--list-page-cap',
    '--list-paginator',
    '--versions',
    '--version-quota',
    '--tools',
    '--live-page',
    '--live-page-recovers',
]);
/** Parses argv (without node and the script) and the environment (PORT). Throws ArgsError. */
function parseArgs(argv, env = {}) {
    const options = {};
    const durations = {};
    let port;
    let rateLimit;
    let rateWindow;
    let retryAfter;
    let rateKind;
    let rateReset;
    for (let i = 0; i < argv.length; i++) {
        const arg = argv[i] ?? '';
        if (arg === '-h' || arg === '--help')
            return { help: true };
        const eq = arg.indexOf('=');
        const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
        let value;
        if (WITH_VALUE.has(name)) {
            value = eq > 0 && name !== arg ? arg.slice(eq + 1) : argv[++i];
            if (value === undefined || value === '')
                throw new ArgsError(`${name} needs a value`);
        }
        const v = value ?? '';
        switch (name) {
            case '--port':
                port = parseIntArg('--port', v, 0, 65535);
                break;
            case '--realistic':
                options.realistic = true;
                break;
            case '--duration': {
                const [kind, time] = v.split('=');
                if (!kind || time === undefined || !_options_js__WEBPACK_IMPORTED_MODULE_0__/* .JOB_KINDS */ .ik.includes(kind)) {
                    throw new ArgsError(`--duration takes KIND=TIME with KIND one of ${_options_js__WEBPACK_IMPORTED_MODULE_0__/* .JOB_KINDS */ .ik.join(', ')}, got ${v}`);
                }
                durations[kind] = parseDuration(time);
                break;
            }
            case '--progress':
                if (!(0,_progress_js__WEBPACK_IMPORTED_MODULE_1__/* .isProgressMode */ .Ll)(v))
                    throw new ArgsError(`--progress: nonlinear, linear or none, or a misleading curve (backloaded, frontloaded, stuck-then-jump, stalled-middle), got ${v}`);
                options.progress = v;
                break;
            case '--rate-limit':
                rateLimit = parseIntArg('--rate-limit', v, 0, Number.MAX_SAFE_INTEGER);
                break;
            case '--rate-window':
                rateWindow = parseDuration(v);
                if (rateWindow <= 0)
                    throw new ArgsError('--rate-window must be more than 0');
                break;
            case '--retry-after':
                if (!['seconds', 'http-date', 'none'].includes(v)) {
                    throw new ArgsError(`--retry-after: seconds, http-date or none, got ${v}`);
                }
                retryAfter = v;
                break;
            case '--rate-kind':
                if (!_options_js__WEBPACK_IMPORTED_MODULE_0__/* .RATE_LIMIT_KINDS */ .FX.includes(v))
                    throw new ArgsError(`--rate-kind: ${_options_js__WEBPACK_IMPORTED_MODULE_0__/* .RATE_LIMIT_KINDS */ .FX.join(', ')}, got ${v}`);
                rateKind = v;
                break;
            case '--rate-reset':
                if (v !== 'always' && v !== 'on-429')
                    throw new ArgsError(`--rate-reset: always or on-429, got ${v}`);
                rateReset = v;
                break;
            case '--duration-spread': {
                const spread = Number(v);
                if (!/^\d*\.?\d+$/.test(v) || !(spread >= 0 && spread < 1))
                    throw new ArgsError(`--duration-spread must be a number from 0 to less than 1, got ${v}`);
                options.durationSpread = spread;
                break;
            }
            case '--no-url-in-answers':
                options.urlInAnswers = false;
                break;
            case '--busy-status':
                if (v !== '409' && v !== '423')
                    throw new ArgsError(`--busy-status: 409 or 423, got ${v}`);
                options.busyStatus = Number(v);
                break;
            case '--no-task-ids':
                options.taskIds = false;
                break;
            case '--no-probe':
                options.probe = false;
                break;
            case '--task-visibility-delay':
                options.taskVisibilityDelayMs = parseDuration(v);
                break;
            case '--profile':
                if (!_options_js__WEBPACK_IMPORTED_MODULE_0__/* .PROFILES */ .jI.includes(v))
                    throw new ArgsError(`--profile: ${_options_js__WEBPACK_IMPORTED_MODULE_0__/* .PROFILES */ .jI.join(' or ')}, got ${v}`);
                options.profile = v;
                break;
            case '--site-delay':
                options.siteDelayMs = parseDuration(v);
                break;
            case '--list-page-cap':
                options.listPageCap = parseIntArg('--list-page-cap', v, 1, 1000);
                break;
            case '--list-paginator':
                if (v !== 'meta' && v !== 'data')
                    throw new ArgsError(`--list-paginator: meta or data, got ${v}`);
                options.listPaginator = v;
                break;
            case '--versions':
                if (!_options_js__WEBPACK_IMPORTED_MODULE_0__/* .VERSIONS_MODES */ .d$.includes(v))
                    throw new ArgsError(`--versions: ${_options_js__WEBPACK_IMPORTED_MODULE_0__/* .VERSIONS_MODES */ .d$.join(', ')}, got ${v}`);
                options.versions = v;
                break;
            case '--version-quota':
                options.versionQuota = parseIntArg('--version-quota', v, 0, 1000);
                break;
            case '--tools':
                if (!_options_js__WEBPACK_IMPORTED_MODULE_0__/* .TOOLS_MODES */ .L0.includes(v))
                    throw new ArgsError(`--tools: ${_options_js__WEBPACK_IMPORTED_MODULE_0__/* .TOOLS_MODES */ .L0.join(', ')}, got ${v}`);
                options.tools = v;
                break;
            case '--live-page':
                if (!_options_js__WEBPACK_IMPORTED_MODULE_0__/* .LIVE_PAGE_MODES */ .Qt.includes(v))
                    throw new ArgsError(`--live-page: ${_options_js__WEBPACK_IMPORTED_MODULE_0__/* .LIVE_PAGE_MODES */ .Qt.join(', ')}, got ${v}`);
                options.livePage = v;
                break;
            case '--live-page-recovers':
                options.livePageRecoversMs = parseDuration(v);
                break;
            default:
                throw new ArgsError(`unknown argument: ${arg} (see --help)`);
        }
    }
    if (port === undefined && env.PORT !== undefined && env.PORT !== '')
        port = parseIntArg('PORT', env.PORT, 0, 65535);
    options.port = port ?? 0;
    if (Object.keys(durations).length > 0)
        options.durationsMs = durations;
    if (rateLimit === undefined &&
        [rateWindow, retryAfter, rateKind, rateReset].some((value) => value !== undefined)) {
        throw new ArgsError('--rate-window, --retry-after, --rate-kind and --rate-reset need --rate-limit');
    }
    if (rateLimit !== undefined) {
        options.rateLimit = {
            limit: rateLimit,
            windowMs: rateWindow ?? 60_000,
            retryAfter: retryAfter ?? 'seconds',
            kind: rateKind ?? 'fixed',
            ...(rateReset !== undefined ? { resetHeader: rateReset } : {}),
        };
    }
    return { help: false, options };
}


/***/ }),

/***/ 248:
/***/ ((__webpack_module__, __unused_webpack___webpack_exports__, __nccwpck_require__) => {

__nccwpck_require__.a(__webpack_module__, async (__webpack_handle_async_dependencies__, __webpack_async_result__) => { try {
/* harmony import */ var _args_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(408);
/* harmony import */ var _run_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(966);
/**
 * The simulator's command: `npm run simulator -- --port 0`. Prints `Simulator listening on <url>`,
 * then serves until SIGINT or SIGTERM. The argument parsing lives in args.ts (tested there).
 */


try {
    const sim = await (0,_run_js__WEBPACK_IMPORTED_MODULE_1__/* .runSimulator */ .u)(process.argv.slice(2), process.env, (line) => console.log(line));
    if (sim) {
        const shutdown = (signal) => {
            console.log(`Simulator stopping (${signal})`);
            void sim.stop().then(() => process.exit(0));
        };
        process.once('SIGINT', () => shutdown('SIGINT'));
        process.once('SIGTERM', () => shutdown('SIGTERM'));
    }
}
catch (error) {
    console.error(`simulator: ${error.message}`);
    process.exit(error instanceof _args_js__WEBPACK_IMPORTED_MODULE_0__/* .ArgsError */ .s6 ? 2 : 1);
}

__webpack_async_result__();
} catch(e) { __webpack_async_result__(e); } }, 1);

/***/ }),

/***/ 371:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   $i: () => (/* binding */ resolveOptions),
/* harmony export */   Cg: () => (/* binding */ VERSION_TASK_ERROR),
/* harmony export */   FX: () => (/* binding */ RATE_LIMIT_KINDS),
/* harmony export */   L0: () => (/* binding */ TOOLS_MODES),
/* harmony export */   Mz: () => (/* binding */ SLOW_VERSION_MS),
/* harmony export */   Qt: () => (/* binding */ LIVE_PAGE_MODES),
/* harmony export */   V1: () => (/* binding */ applyOptions),
/* harmony export */   d$: () => (/* binding */ VERSIONS_MODES),
/* harmony export */   iZ: () => (/* binding */ RESTORE_HALF_ERROR),
/* harmony export */   ik: () => (/* binding */ JOB_KINDS),
/* harmony export */   jI: () => (/* binding */ PROFILES),
/* harmony export */   xl: () => (/* binding */ PAGED_VERSION_ROWS)
/* harmony export */ });
/* unused harmony exports DEFAULT_DURATIONS_MS, REALISTIC_DURATIONS_MS, DEFAULT_VERSION_QUOTA, DEFAULT_SITE_DELAY_MS */
/* harmony import */ var _progress_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(646);
/** Defaults, resolution and run-time changes of the simulator's options. */

const RATE_LIMIT_KINDS = ['fixed', 'framework', 'sliding'];
const DEFAULT_DURATIONS_MS = {
    create: 3000,
    pull: 2000,
    push: 2000,
    delete: 1000,
    version: 1500,
    restore: 2000,
};
/** The spec's "2 to 3 minutes" for create, and comparable times for the rest. */
const REALISTIC_DURATIONS_MS = {
    create: 150_000,
    pull: 60_000,
    push: 60_000,
    delete: 15_000,
    version: 90_000,
    restore: 90_000,
};
const JOB_KINDS = ['create', 'pull', 'push', 'delete', 'version', 'restore'];
const VERSIONS_MODES = [
    'ok',
    'absent-404',
    'absent-405',
    'plan-403',
    'quota',
    'task-fails',
    'slow',
    'no-task-id',
    'unfiltered',
    'paged',
    'oldest-first',
    'busy-once',
    'restore-half',
];
/** Rows a page of the version list holds at most with `versions: 'paged'` or `'oldest-first'` (fewer than a client asks). */
const PAGED_VERSION_ROWS = 2;
/** The error text of a restore task with `versions: 'restore-half'` (its files put back, not its database). */
const RESTORE_HALF_ERROR = 'Database import failed after the files were restored (simulated)';
const TOOLS_MODES = ['ok', 'plan-403', 'absent-404'];
const LIVE_PAGE_MODES = ['ok', 'down', 'wrong-page'];
/** Completed versions a site may keep by default (the family's backups: 3 manual plus 1 in progress). */
const DEFAULT_VERSION_QUOTA = 3;
/** How long a version task takes with `versions: 'slow'`: longer than the family's CLI waits (10 min). */
const SLOW_VERSION_MS = 15 * 60 * 1000;
/** The error text of a version task with `versions: 'task-fails'`. */
const VERSION_TASK_ERROR = 'Snapshot of the site database failed (simulated)';
const PROFILES = ['spec', 'service'];
/** How long after its create job a staging site's URL starts answering (DNS and TLS lag). */
const DEFAULT_SITE_DELAY_MS = 3000;
function resolveOptions(options = {}) {
    const base = options.realistic ? REALISTIC_DURATIONS_MS : DEFAULT_DURATIONS_MS;
    const effective = {
        durationsMs: { ...base },
        progress: 'nonlinear',
        taskIds: true,
        probe: true,
        busyStatus: 409,
        rateLimit: null,
        taskVisibilityDelayMs: 0,
        profile: 'spec',
        durationSpread: 0,
        durationSeed: null,
        urlInAnswers: true,
        siteDelayMs: DEFAULT_SITE_DELAY_MS,
        listPageCap: null,
        listPaginator: 'meta',
        versions: 'ok',
        versionQuota: DEFAULT_VERSION_QUOTA,
        tools: 'ok',
        livePage: 'ok',
        livePageRecoversMs: null,
    };
    const { port: _port, realistic: _realistic, ...rest } = options;
    applyOptions(effective, rest);
    return effective;
}
/** Validates and applies `patch` to `target` in place. Throws an Error naming the bad field. */
function applyOptions(target, patch) {
    if (patch.realistic !== undefined) {
        if (typeof patch.realistic !== 'boolean')
            throw new Error('realistic must be a boolean');
        target.durationsMs = { ...(patch.realistic ? REALISTIC_DURATIONS_MS : DEFAULT_DURATIONS_MS) };
    }
    if (patch.durationsMs !== undefined) {
        if (!isObject(patch.durationsMs))
            throw new Error('durationsMs must be an object');
        for (const [kind, value] of Object.entries(patch.durationsMs)) {
            if (!JOB_KINDS.includes(kind))
                throw new Error(`durationsMs.${kind}: unknown job kind`);
            if (!isNonNegative(value))
                throw new Error(`durationsMs.${kind} must be a number >= 0`);
            target.durationsMs[kind] = value;
        }
    }
    if (patch.progress !== undefined) {
        if (!(0,_progress_js__WEBPACK_IMPORTED_MODULE_0__/* .isProgressMode */ .Ll)(patch.progress))
            throw new Error(`progress must be ${_progress_js__WEBPACK_IMPORTED_MODULE_0__/* .PROGRESS_MODES */ .py.join(', ')}`);
        target.progress = patch.progress;
    }
    if (patch.taskIds !== undefined)
        target.taskIds = bool('taskIds', patch.taskIds);
    if (patch.probe !== undefined)
        target.probe = bool('probe', patch.probe);
    if (patch.busyStatus !== undefined) {
        if (patch.busyStatus !== 409 && patch.busyStatus !== 423)
            throw new Error('busyStatus must be 409 or 423');
        target.busyStatus = patch.busyStatus;
    }
    if (patch.taskVisibilityDelayMs !== undefined) {
        if (!isNonNegative(patch.taskVisibilityDelayMs))
            throw new Error('taskVisibilityDelayMs must be a number >= 0');
        target.taskVisibilityDelayMs = patch.taskVisibilityDelayMs;
    }
    if (patch.rateLimit !== undefined)
        target.rateLimit = rateLimit(patch.rateLimit);
    if (patch.profile !== undefined) {
        if (!PROFILES.includes(patch.profile))
            throw new Error('profile must be spec or service');
        target.profile = patch.profile;
    }
    if (patch.durationSpread !== undefined) {
        const spread = patch.durationSpread;
        if (typeof spread !== 'number' || !(spread >= 0 && spread < 1))
            throw new Error('durationSpread must be a number from 0 to less than 1');
        target.durationSpread = spread;
    }
    if (patch.durationSeed !== undefined) {
        const seed = patch.durationSeed;
        if (seed !== null && !(typeof seed === 'number' && Number.isSafeInteger(seed) && seed >= 0))
            throw new Error('durationSeed must be a whole number >= 0, or null');
        target.durationSeed = seed;
    }
    if (patch.urlInAnswers !== undefined)
        target.urlInAnswers = bool('urlInAnswers', patch.urlInAnswers);
    if (patch.siteDelayMs !== undefined) {
        if (!isNonNegative(patch.siteDelayMs))
            throw new Error('siteDelayMs must be a number >= 0');
        target.siteDelayMs = patch.siteDelayMs;
    }
    if (patch.listPageCap !== undefined) {
        const cap = patch.listPageCap;
        if (cap !== null && !(Number.isInteger(cap) && cap >= 1))
            throw new Error('listPageCap must be an integer >= 1, or null');
        target.listPageCap = cap;
    }
    if (patch.listPaginator !== undefined) {
        if (patch.listPaginator !== 'meta' && patch.listPaginator !== 'data')
            throw new Error('listPaginator must be meta or data');
        target.listPaginator = patch.listPaginator;
    }
    if (patch.versions !== undefined) {
        if (!VERSIONS_MODES.includes(patch.versions))
            throw new Error(`versions must be ${VERSIONS_MODES.join(', ')}`);
        target.versions = patch.versions;
    }
    if (patch.versionQuota !== undefined) {
        const quota = patch.versionQuota;
        if (typeof quota !== 'number' || !Number.isInteger(quota) || quota < 0)
            throw new Error('versionQuota must be an integer >= 0');
        target.versionQuota = quota;
    }
    if (patch.tools !== undefined) {
        if (!TOOLS_MODES.includes(patch.tools))
            throw new Error(`tools must be ${TOOLS_MODES.join(', ')}`);
        target.tools = patch.tools;
    }
    if (patch.livePage !== undefined) {
        if (!LIVE_PAGE_MODES.includes(patch.livePage))
            throw new Error(`livePage must be ${LIVE_PAGE_MODES.join(', ')}`);
        target.livePage = patch.livePage;
    }
    if (patch.livePageRecoversMs !== undefined) {
        const ms = patch.livePageRecoversMs;
        if (ms !== null && !isNonNegative(ms))
            throw new Error('livePageRecoversMs must be a number >= 0, or null');
        target.livePageRecoversMs = ms;
    }
}
function rateLimit(value) {
    if (value === null)
        return null;
    if (!isObject(value))
        throw new Error('rateLimit must be an object or null');
    const { limit, windowMs, retryAfter, kind, resetHeader } = value;
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 0) {
        throw new Error('rateLimit.limit must be an integer >= 0');
    }
    if (typeof windowMs !== 'number' || !(windowMs > 0))
        throw new Error('rateLimit.windowMs must be a number > 0');
    if (retryAfter !== undefined && !['seconds', 'http-date', 'none'].includes(retryAfter)) {
        throw new Error('rateLimit.retryAfter must be seconds, http-date or none');
    }
    if (kind !== undefined && !RATE_LIMIT_KINDS.includes(kind))
        throw new Error(`rateLimit.kind must be ${RATE_LIMIT_KINDS.join(', ')}`);
    if (resetHeader !== undefined && resetHeader !== 'always' && resetHeader !== 'on-429')
        throw new Error('rateLimit.resetHeader must be always or on-429');
    return {
        limit,
        windowMs,
        retryAfter: retryAfter ?? 'seconds',
        kind: kind ?? 'fixed',
        ...(resetHeader !== undefined ? { resetHeader: resetHeader } : {}),
    };
}
function bool(name, value) {
    if (typeof value !== 'boolean')
        throw new Error(`${name} must be a boolean`);
    return value;
}
function isNonNegative(value) {
    return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
function isObject(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}


/***/ }),

/***/ 646:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Ll: () => (/* binding */ isProgressMode),
/* harmony export */   X1: () => (/* binding */ percentage),
/* harmony export */   py: () => (/* binding */ PROGRESS_MODES)
/* harmony export */ });
/* unused harmony exports NONLINEAR_CURVE, CURVES */
/** Every progress mode, as `--progress` and POST /__sim/options accept them. */
const PROGRESS_MODES = [
    'nonlinear',
    'linear',
    'backloaded',
    'frontloaded',
    'stuck-then-jump',
    'stalled-middle',
    'none',
];
/** The nonlinear curve's points. */
const NONLINEAR_CURVE = [
    [0, 0],
    [0.08, 14],
    [0.15, 30],
    [0.55, 36],
    [0.62, 78],
    [0.9, 92],
    [1, 99],
];
const POINTS = {
    linear: [
        [0, 0],
        [1, 100],
    ],
    nonlinear: NONLINEAR_CURVE,
    'stuck-then-jump': [
        [0, 0],
        [0.7, 0],
        [0.7, 90],
        [1, 99],
    ],
    'stalled-middle': [
        [0, 0],
        [0.3, 50],
        [0.7, 50],
        [1, 99],
    ],
};
/** The unrounded value of each curve at `f` (0..1). */
const CURVES = {
    linear: (f) => onPoints(POINTS.linear, f),
    nonlinear: (f) => onPoints(POINTS.nonlinear, f),
    backloaded: (f) => 100 * f * f,
    // Decelerating to 99 at f = 0.2 (a parabola with its top there), then flat.
    frontloaded: (f) => (f >= 0.2 ? 99 : 99 * (1 - (1 - f / 0.2) ** 2)),
    'stuck-then-jump': (f) => onPoints(POINTS['stuck-then-jump'], f),
    'stalled-middle': (f) => onPoints(POINTS['stalled-middle'], f),
};
/** What a running job of `mode` reports at `fraction` of its duration: a whole number, 0 to 99. */
function percentage(mode, fraction) {
    const f = Math.min(1, Math.max(0, fraction));
    return Math.min(99, Math.max(0, Math.floor(CURVES[mode](f))));
}
function isProgressMode(value) {
    return typeof value === 'string' && PROGRESS_MODES.includes(value);
}
function onPoints(points, f) {
    for (let i = 1; i < points.length; i++) {
        const [x1, y1] = points[i] ?? [1, 99];
        if (f < x1 || (f === x1 && i === points.length - 1)) {
            const [x0, y0] = points[i - 1] ?? [0, 0];
            return x1 === x0 ? y1 : y0 + ((f - x0) / (x1 - x0)) * (y1 - y0);
        }
    }
    return points.at(-1)?.[1] ?? 99;
}


/***/ }),

/***/ 966:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  u: () => (/* binding */ runSimulator)
});

// UNUSED EXPORTS: banner

// EXTERNAL MODULE: ./simulator/args.js
var args = __nccwpck_require__(408);
;// CONCATENATED MODULE: ./simulator/seed.js
const SIM_TOKENS = {
    readWrite: 'sim-rw-token-0123456789abcdef',
    readOnly: 'sim-ro-token-0123456789abcdef',
};
/** Where the account's e-mail notifications go. */
const SIM_ACCOUNT_EMAIL = 'owner@sim.test';
const SIM_SITES = {
    /** Eligible, no staging environment. */
    eligible: 1001,
    /** Eligible, with a ready staging environment (s-1002). */
    withStaging: 1002,
    /** Eligible, production password protection ON. */
    passwordProtected: 1003,
    /** Plan without staging: create refused with 403. */
    planWithoutStaging: 2001,
    /** WaaS site: create refused with 403. */
    waas: 3001,
    /** Site in a client portal: create refused with 403. */
    clientPortal: 4001,
};
/** Ids given to sites created with POST /v2/sites start here. */
const FIRST_NEW_SITE_ID = 10001;
/** A staging site's numeric id (the service profile's) is its production id plus this. */
const STAGING_NUMERIC_ID_OFFSET = 50000;
/** Site version ids (contract §13) start here. */
const FIRST_VERSION_ID = 7001;
/** Task row ids (the service profile's task `id`) start here. */
const FIRST_TASK_ROW_ID = 148601;
/** Where a staging site's own URL lives on the simulator's origin (not under /v2 or /__sim). */
const SITES_PREFIX = '/staging-sites';
/**
 * Where a production site's page lives on the simulator's origin: its content, 503 in maintenance
 * mode, 401 while password protected (what a push and a restore change, seen from outside).
 */
const PRODUCTION_PREFIX = '/production-sites';
/** The URL of production site `id`'s page on `origin` (e.g. http://127.0.0.1:PORT/production-sites/1002/). */
function productionPageUrl(origin, id) {
    return `${origin}${PRODUCTION_PREFIX}/${id}/`;
}
/** The URL of staging site `id` on `origin` (e.g. http://127.0.0.1:PORT/staging-sites/s-1001/). */
function stagingUrl(origin, id) {
    return `${origin}${SITES_PREFIX}/${encodeURIComponent(id)}/`;
}
/** Fixed seed time, so seeded records never change between runs. */
const SEEDED_AT = Date.UTC(2025, 0, 15, 9, 30, 0, 0);
const PRO_PLAN = { name: 'pro', staging: true };
function productionSite(seed, at) {
    const host = `${seed.name}.example.test`;
    return {
        id: seed.id,
        site_name: seed.name,
        url: `https://${host}`,
        type: 'production',
        reserved: seed.reserved ?? true,
        plan: { ...(seed.plan ?? PRO_PLAN) },
        waas: seed.waas ?? false,
        client_portal: seed.clientPortal ?? null,
        domains: [
            { name: host, primary: true },
            { name: `www.${host}`, primary: false },
        ],
        cdn_zone: { id: `cdn-${seed.id}`, hostname: `cdn-${seed.id}.sim-cdn.test` },
        ssl: { enabled: true, issuer: "Let's Encrypt", expires_at: '2026-01-15 09:30:00' },
        tags: [...seed.tags],
        ssh_keys: [{ id: seed.id * 10 + 1, name: 'deploy', fingerprint: `SHA256:sim-deploy-key-${seed.id}` }],
        settings: { php_version: '8.3', timezone: 'UTC', cache: true, max_upload_mb: 64 },
        password_protected: seed.passwordProtected ?? false,
        maintenance: false,
        broken_page: null,
        ssh_username: `site${seed.id}`,
        ssh_password: `sim-ssh-pass-${seed.id}`,
        content: { files: 'prod-v1', database: 'prod-v1' },
        created_at: at,
        updated_at: at,
    };
}
const SEEDS = [
    { id: SIM_SITES.eligible, name: 'shop', tags: ['shop'] },
    { id: SIM_SITES.withStaging, name: 'blog', tags: ['blog'] },
    {
        id: SIM_SITES.passwordProtected,
        name: 'members',
        passwordProtected: true,
        reserved: false,
        tags: ['members'],
    },
    { id: SIM_SITES.planWithoutStaging, name: 'starter', plan: { name: 'starter', staging: false }, tags: [] },
    { id: SIM_SITES.waas, name: 'waas-client', waas: true, reserved: false, tags: ['waas'] },
    {
        id: SIM_SITES.clientPortal,
        name: 'portal-client',
        clientPortal: { id: 77, name: 'Acme portal' },
        tags: [],
    },
];
/**
 * A new staging site of `site`, ready and serving since `at` (a create job sets `ready_at` to null
 * until it completes). Its URL is on `origin`.
 */
function stagingSite(site, at, secret, origin) {
    const id = `s-${site.id}`;
    return {
        id,
        numeric_id: STAGING_NUMERIC_ID_OFFSET + site.id,
        site_id: site.id,
        site_name: `${site.site_name}-staging`,
        url: stagingUrl(origin, id),
        ssh_username: `staging${site.id}`,
        ssh_password: `sim-ssh-${secret}`,
        wp_password: `sim-wp-${secret}`,
        content: { ...site.content },
        status: 'ready',
        task_id: null,
        ready_at: at,
        password_protected: site.password_protected,
        created_at: at,
        updated_at: at,
    };
}
function emptyState() {
    return {
        sites: new Map(),
        staging: new Map(),
        tasks: new Map(),
        outbox: [],
        purges: [],
        toolChanges: [],
        versions: new Map(),
        siteVersions: new Map(),
        nextSiteId: FIRST_NEW_SITE_ID,
        nextTaskRowId: FIRST_TASK_ROW_ID,
        nextVersionId: FIRST_VERSION_ID,
    };
}
/**
 * Empties `state` in place and fills it with the seeded account (references stay valid). Staging
 * site URLs are on `origin`.
 */
function seedState(state, origin) {
    state.sites.clear();
    state.staging.clear();
    state.tasks.clear();
    state.outbox.length = 0;
    state.purges.length = 0;
    state.toolChanges.length = 0;
    state.versions.clear();
    state.siteVersions.clear();
    state.nextSiteId = FIRST_NEW_SITE_ID;
    state.nextTaskRowId = FIRST_TASK_ROW_ID;
    state.nextVersionId = FIRST_VERSION_ID;
    state.versionBusySaid = false;
    for (const seed of SEEDS)
        state.sites.set(String(seed.id), productionSite(seed, SEEDED_AT));
    const blog = state.sites.get(String(SIM_SITES.withStaging));
    if (blog) {
        const staging = stagingSite(blog, SEEDED_AT, `seeded-${blog.id}`, origin);
        staging.content = { files: 'staging-v1', database: 'staging-v1' };
        state.staging.set(String(blog.id), staging);
    }
}

;// CONCATENATED MODULE: external "node:http"
const external_node_http_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:http");
;// CONCATENATED MODULE: ./simulator/faults.js
class Faults {
    random;
    rules = [];
    constructor(random = Math.random) {
        this.random = random;
    }
    add(rule) {
        validateRule(rule);
        this.rules.push({ rule: { ...rule }, left: rule.times ?? 1 });
    }
    clear() {
        this.rules = [];
    }
    /** Rules still able to fire, with what is left of their `times` (null for rate-based rules). */
    list() {
        return this.rules.map(({ rule, left }) => ({ rule, left: rule.rate !== undefined ? null : left }));
    }
    /** The rule that applies to this request, if any (consumes one of its `times`). */
    take(method, path) {
        for (const active of this.rules) {
            const { rule } = active;
            if (rule.method !== undefined && rule.method.toUpperCase() !== method.toUpperCase())
                continue;
            if (!pathMatches(rule.path, path))
                continue;
            if (rule.rate !== undefined) {
                if (this.random() < rule.rate)
                    return rule;
                continue;
            }
            if (active.left <= 0)
                continue;
            active.left -= 1;
            if (active.left <= 0)
                this.rules = this.rules.filter((r) => r !== active);
            return rule;
        }
        return null;
    }
}
function pathMatches(pattern, path) {
    if (pattern === undefined)
        return true;
    if (typeof pattern === 'string')
        return path.includes(pattern);
    pattern.lastIndex = 0;
    return pattern.test(path);
}
/** Throws an Error naming the first bad field of a rule. */
function validateRule(rule) {
    if (typeof rule !== 'object' || rule === null)
        throw new Error('a fault rule must be an object');
    const r = rule;
    const known = [
        'method',
        'path',
        'times',
        'rate',
        'status',
        'body',
        'retryAfter',
        'latencyMs',
        'hang',
        'drop',
        'process',
        'redirect',
        'taskError',
        'json',
        'text',
        'contentType',
        'headers',
        'patch',
        'debug',
    ];
    const unknown = Object.keys(r).filter((k) => !known.includes(k));
    if (unknown.length > 0)
        throw new Error(`unknown fault rule fields: ${unknown.join(', ')}`);
    if (rule.method !== undefined && typeof rule.method !== 'string')
        throw new Error('method must be a string');
    if (rule.path !== undefined && typeof rule.path !== 'string' && !(rule.path instanceof RegExp)) {
        throw new Error('path must be a string or a RegExp');
    }
    if (rule.times !== undefined && !(typeof rule.times === 'number' && rule.times >= 0)) {
        throw new Error('times must be a number >= 0 (Infinity for always)');
    }
    if (rule.rate !== undefined && !(typeof rule.rate === 'number' && rule.rate >= 0 && rule.rate <= 1)) {
        throw new Error('rate must be a number from 0 to 1');
    }
    if (rule.status !== undefined &&
        !(Number.isInteger(rule.status) && rule.status >= 100 && rule.status <= 599)) {
        throw new Error('status must be an HTTP status code');
    }
    if (rule.body !== undefined && !['json', 'html', 'empty', 'echo-token'].includes(rule.body)) {
        throw new Error('body must be json, html, empty or echo-token');
    }
    if (rule.retryAfter !== undefined && !['number', 'string'].includes(typeof rule.retryAfter)) {
        throw new Error('retryAfter must be a number of seconds or an HTTP date string');
    }
    if (rule.latencyMs !== undefined && !(typeof rule.latencyMs === 'number' && rule.latencyMs >= 0)) {
        throw new Error('latencyMs must be a number >= 0');
    }
    if (rule.hang !== undefined && typeof rule.hang !== 'boolean')
        throw new Error('hang must be a boolean');
    if (rule.drop !== undefined && rule.drop !== 'before' && rule.drop !== 'after') {
        throw new Error('drop must be before or after');
    }
    if (rule.process !== undefined && typeof rule.process !== 'boolean')
        throw new Error('process must be a boolean');
    if (rule.redirect !== undefined && typeof rule.redirect !== 'string')
        throw new Error('redirect must be a string');
    if (rule.taskError !== undefined && typeof rule.taskError !== 'string') {
        throw new Error('taskError must be a string');
    }
    validateAnswerFields(rule);
}
/** Header names the `headers` knob may not set: they would break the HTTP framing itself. */
const FRAMING_HEADERS = ['content-length', 'transfer-encoding', 'connection'];
/** The knobs that script an answer: json, text, contentType, headers, patch, debug. */
function validateAnswerFields(rule) {
    const bodies = ['body', 'json', 'text', 'patch'].filter((k) => rule[k] !== undefined);
    if (bodies.length > 1)
        throw new Error(`only one of body, json, text and patch: got ${bodies.join(', ')}`);
    if (rule.json !== undefined && !isJsonValue(rule.json))
        throw new Error('json must be a JSON value');
    if (rule.patch !== undefined && !isJsonValue(rule.patch))
        throw new Error('patch must be a JSON value');
    if (rule.text !== undefined && typeof rule.text !== 'string')
        throw new Error('text must be a string');
    if (rule.contentType !== undefined) {
        if (typeof rule.contentType !== 'string' || !headerValueOk(rule.contentType)) {
            throw new Error('contentType must be a header value (tab, printable ASCII or Latin-1; no CR, LF or other control characters)');
        }
        if (rule.text === undefined && rule.json === undefined)
            throw new Error('contentType goes with text or json');
    }
    if (rule.debug !== undefined) {
        if (typeof rule.debug !== 'boolean')
            throw new Error('debug must be a boolean');
        if (rule.debug && (rule.json !== undefined || rule.text !== undefined || rule.patch !== undefined)) {
            throw new Error('debug is a body of its own: not with json, text or patch');
        }
        if (rule.debug && rule.body !== undefined && rule.body !== 'json')
            throw new Error('debug goes with body json only');
    }
    if (rule.patch !== undefined && rule.process === false)
        throw new Error('patch always processes the request');
    if (rule.headers !== undefined) {
        if (typeof rule.headers !== 'object' || rule.headers === null || Array.isArray(rule.headers)) {
            throw new Error('headers must be an object of header names and string values');
        }
        for (const [name, value] of Object.entries(rule.headers)) {
            if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
                throw new Error(`headers: not a header name: ${name}`);
            if (FRAMING_HEADERS.includes(name.toLowerCase()))
                throw new Error(`headers: ${name} cannot be set`);
            if (typeof value !== 'string' || !headerValueOk(value)) {
                throw new Error(`headers.${name} must be a string of tab, printable ASCII or Latin-1 (no CR, LF or other control characters)`);
            }
        }
    }
}
/** What Node lets through in a header value: tab, visible ASCII, space and Latin-1 bytes. */
function headerValueOk(value) {
    return /^[\t\x20-\x7e\x80-\xff]*$/.test(value);
}
function isJsonValue(value) {
    try {
        return JSON.stringify(value) !== undefined;
    }
    catch {
        return false;
    }
}
/**
 * A fault rule from JSON (POST /__sim/faults): `path` may be `{ "regex": "...", "flags": "i" }`,
 * `times` may be the string "Infinity" (JSON has no Infinity).
 */
function ruleFromJson(value) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw new Error('a fault rule must be an object');
    }
    const raw = { ...value };
    const path = raw.path;
    if (typeof path === 'object' && path !== null) {
        const { regex, flags } = path;
        if (typeof regex !== 'string')
            throw new Error('path must be a string or { "regex": "..." }');
        try {
            raw.path = new RegExp(regex, typeof flags === 'string' ? flags : '');
        }
        catch (e) {
            throw new Error(`path.regex: ${e.message}`);
        }
    }
    if (raw.times === 'Infinity' || raw.times === 'always')
        raw.times = Infinity;
    const rule = raw;
    validateRule(rule);
    return rule;
}
/** A rule as JSON (RegExp paths as { regex, flags }, Infinity as "Infinity"). */
function ruleToJson(rule) {
    const out = { ...rule };
    if (rule.path instanceof RegExp)
        out.path = { regex: rule.path.source, flags: rule.path.flags };
    if (rule.times === Infinity)
        out.times = 'Infinity';
    return out;
}
/** One rule or an array of rules from JSON; all are checked before any is used. */
function faultsFromJson(value) {
    return (Array.isArray(value) ? value : [value]).map(ruleFromJson);
}

;// CONCATENATED MODULE: ./simulator/http.js
function ok(status, message, data, meta) {
    const body = { status: true, message, data };
    if (meta !== undefined)
        body.meta = meta;
    return { status, headers: {}, body };
}
function fail(status, message, errors, headers = {}) {
    const body = { status: false, message, data: null };
    if (errors !== undefined)
        body.errors = errors;
    return { status, headers, body };
}
/**
 * A response as bytes go out: the body as a string (JSON bodies serialised, with Content-Type:
 * application/json unless a header says otherwise) and Content-Length set.
 */
function serialize(response) {
    const headers = { ...response.headers };
    let payload = '';
    if (response.body !== undefined) {
        if (typeof response.body === 'string') {
            payload = response.body;
        }
        else {
            payload = JSON.stringify(response.body);
            if (!hasHeader(headers, 'content-type'))
                headers['Content-Type'] = 'application/json';
        }
    }
    for (const name of Object.keys(headers))
        if (name.toLowerCase() === 'content-length')
            delete headers[name];
    headers['Content-Length'] = String(Buffer.byteLength(payload));
    return { status: response.status, headers, body: payload };
}
/** Writes `response` (see serialize). */
function send(res, response) {
    const { status, headers, body } = serialize(response);
    res.writeHead(status, headers);
    res.end(body);
}
function hasHeader(headers, name) {
    return Object.keys(headers).some((k) => k.toLowerCase() === name);
}
/** Largest request body accepted; more is a 400 (the simulator only takes small JSON bodies). */
const MAX_BODY_BYTES = 1024 * 1024;
class BodyTooLarge extends Error {
}
function readBody(req) {
    return new Promise((resolve, reject) => {
        const chunks = [];
        let size = 0;
        req.on('data', (chunk) => {
            size += chunk.length;
            if (size <= MAX_BODY_BYTES)
                chunks.push(chunk);
        });
        req.on('end', () => size > MAX_BODY_BYTES ? reject(new BodyTooLarge()) : resolve(Buffer.concat(chunks).toString('utf8')));
        req.on('error', reject);
        req.on('aborted', () => reject(new Error('request aborted')));
    });
}
/** True when the Content-Type header names JSON (parameters such as charset allowed). */
function isJsonContentType(value) {
    return value !== undefined && /^application\/json\s*(?:;|$)/i.test(value.trim());
}

;// CONCATENATED MODULE: ./simulator/i18n.js
const MESSAGES = {
    unauthenticated: {
        en: 'Unauthenticated: the bearer token is missing or invalid.',
        es: 'No autenticado: el token de portador falta o no es válido.',
    },
    read_only: {
        en: 'This API token is read-only and cannot change anything.',
        es: 'Este token de API es de solo lectura y no puede cambiar nada.',
    },
    path_not_found: {
        en: 'API path not found: {path}',
        es: 'Ruta de API no encontrada: {path}',
    },
    method_not_allowed: {
        en: 'Method {method} is not allowed on {path}.',
        es: 'El método {method} no está permitido en {path}.',
    },
    site_not_found: { en: 'Site {site} not found.', es: 'Sitio {site} no encontrado.' },
    task_not_found: { en: 'Task {task} not found.', es: 'Tarea {task} no encontrada.' },
    staging_not_found: {
        en: 'Site {site} has no staging environment: not found.',
        es: 'El sitio {site} no tiene entorno de staging: no encontrado.',
    },
    invalid_content_type: {
        en: 'Wrong content type: send a JSON body with Content-Type: application/json.',
        es: 'Tipo de contenido incorrecto: envíe un cuerpo JSON con Content-Type: application/json.',
    },
    invalid_json: {
        en: 'The request body is not a valid JSON object.',
        es: 'El cuerpo de la solicitud no es un objeto JSON válido.',
    },
    unknown_attributes: {
        en: 'Unknown attributes in the request body: {names}.',
        es: 'Atributos desconocidos en el cuerpo de la solicitud: {names}.',
    },
    invalid_site_name: {
        en: 'The site_name field is required and must be a non-empty string.',
        es: 'El campo site_name es obligatorio y debe ser un texto no vacío.',
    },
    invalid_query: {
        en: 'Invalid query parameter {name}.',
        es: 'Parámetro de consulta {name} no válido.',
    },
    sites_listed: { en: 'Sites retrieved successfully.', es: 'Sitios obtenidos correctamente.' },
    site_retrieved: { en: 'Site retrieved successfully.', es: 'Sitio obtenido correctamente.' },
    site_created: { en: 'Site created successfully.', es: 'Sitio creado correctamente.' },
    create_started: {
        en: 'Staging site creation started. An e-mail will be sent when it is ready.',
        es: 'Se inició la creación del sitio de staging. Se enviará un correo cuando esté listo.',
    },
    pull_started: {
        en: 'Pull started: staging is being replaced with a fresh copy of production.',
        es: 'Pull iniciado: staging se está reemplazando con una copia nueva de producción.',
    },
    push_started: {
        en: 'Push started: production is being replaced with the staging copy.',
        es: 'Push iniciado: producción se está reemplazando con la copia de staging.',
    },
    delete_started: {
        en: 'Staging environment deletion started.',
        es: 'Se inició la eliminación del entorno de staging.',
    },
    staging_retrieved: {
        en: 'Staging environment retrieved successfully.',
        es: 'Entorno de staging obtenido correctamente.',
    },
    probe_not_supported: {
        en: 'Method GET is not allowed on {path}.',
        es: 'El método GET no está permitido en {path}.',
    },
    task_retrieved: {
        en: 'Task status retrieved successfully.',
        es: 'Estado de la tarea obtenido correctamente.',
    },
    ineligible_plan: {
        en: "Staging is not available: the site's plan does not include staging.",
        es: 'Staging no disponible: el plan del sitio no incluye staging.',
    },
    ineligible_waas: {
        en: 'Staging is not available: the site is a WaaS site.',
        es: 'Staging no disponible: el sitio es un sitio WaaS.',
    },
    ineligible_portal: {
        en: 'Staging is not available: the site is assigned to a client portal.',
        es: 'Staging no disponible: el sitio está asignado a un portal de clientes.',
    },
    already_creating: {
        en: 'A staging environment is already being created for this site.',
        es: 'Ya se está creando un entorno de staging para este sitio.',
    },
    being_deleted: {
        en: 'The staging environment of this site is being deleted; try again when it is gone.',
        es: 'El entorno de staging de este sitio se está eliminando; inténtelo de nuevo cuando ya no exista.',
    },
    already_exists: {
        en: 'This site already has a staging environment (one per site).',
        es: 'Este sitio ya tiene un entorno de staging (uno por sitio).',
    },
    busy_sync: {
        en: 'A pull or push is already running for this site; wait for it to finish.',
        es: 'Ya hay un pull o un push en curso para este sitio; espere a que termine.',
    },
    busy_delete_sync: {
        en: 'The staging environment cannot be deleted while a pull or push is running.',
        es: 'El entorno de staging no se puede eliminar mientras un pull o un push está en curso.',
    },
    busy_creating: {
        en: 'The staging environment is still being created; wait for it to finish.',
        es: 'El entorno de staging todavía se está creando; espere a que termine.',
    },
    busy_deleting: {
        en: 'The staging environment is being deleted.',
        es: 'El entorno de staging se está eliminando.',
    },
    svc_busy_creating: {
        en: 'Staging site creation is already in progress. Please wait until it finishes.',
        es: 'La creación del sitio de staging ya está en curso. Espere a que termine.',
    },
    svc_busy_sync: {
        en: 'A staging sync is already in progress. Please wait until it finishes.',
        es: 'Una sincronización de staging ya está en curso. Espere a que termine.',
    },
    svc_busy_deleting: {
        en: 'Staging site deletion is already in progress. Please wait until it finishes.',
        es: 'La eliminación del sitio de staging ya está en curso. Espere a que termine.',
    },
    svc_plan_without_staging: {
        en: 'Your current plan does not include staging sites. Please upgrade your plan to use staging.',
        es: 'Su plan actual no incluye sitios de staging. Mejore su plan para usar staging.',
    },
    svc_already_exists: {
        en: 'This site already has a staging site.',
        es: 'Este sitio ya tiene un sitio de staging.',
    },
    svc_staging_not_found: {
        en: 'Staging site not found.',
        es: 'Sitio de staging no encontrado.',
    },
    version_started: {
        en: 'Site version creation started.',
        es: 'Se inició la creación de la versión del sitio.',
    },
    version_updated: {
        en: 'Site version updated successfully.',
        es: 'Versión del sitio actualizada correctamente.',
    },
    versions_listed: {
        en: 'Site versions retrieved successfully.',
        es: 'Versiones del sitio obtenidas correctamente.',
    },
    versions_deleted: { en: 'Site versions deleted.', es: 'Versiones del sitio eliminadas.' },
    restore_started: {
        en: 'Restore started: the site is being replaced with the version.',
        es: 'Restauración iniciada: el sitio se está reemplazando con la versión.',
    },
    version_not_found: {
        en: 'Site version {version} not found.',
        es: 'Versión del sitio {version} no encontrada.',
    },
    version_other_site: {
        en: 'Site version {version} does not belong to site {site}.',
        es: 'La versión del sitio {version} no pertenece al sitio {site}.',
    },
    version_not_completed: {
        en: 'Site version {version} is not completed and cannot be restored.',
        es: 'La versión del sitio {version} no está completada y no se puede restaurar.',
    },
    version_quota: {
        en: 'You can keep at most {quota} versions per site, plus one in progress. Delete an old version to create a new one.',
        es: 'Puede conservar como máximo {quota} versiones por sitio, más una en curso. Elimine una versión antigua para crear una nueva.',
    },
    version_busy: {
        en: 'A version of this site is already in progress. Please wait until it finishes.',
        es: 'Ya hay una versión de este sitio en curso. Espere a que termine.',
    },
    versions_plan: {
        en: 'Your current plan does not include site versions. Please upgrade your plan to use them.',
        es: 'Su plan actual no incluye versiones del sitio. Mejore su plan para usarlas.',
    },
    restore_busy: {
        en: 'A restore or a push of this site is already in progress. Please wait until it finishes.',
        es: 'Una restauración o un push de este sitio ya está en curso. Espere a que termine.',
    },
    tools_plan: {
        en: 'Your current plan does not include site tools. Please upgrade your plan to use them.',
        es: 'Su plan actual no incluye las herramientas del sitio. Mejore su plan para usarlas.',
    },
    tool_set: { en: 'Site tool {tool} turned {value}.', es: 'Herramienta del sitio {tool}: {value}.' },
    field_required: { en: 'The {field} field is required.', es: 'El campo {field} es obligatorio.' },
    field_invalid: { en: 'The selected {field} is invalid.', es: 'El {field} seleccionado no es válido.' },
    field_too_long: {
        en: 'The {field} field must not be greater than {max} characters.',
        es: 'El campo {field} no debe tener más de {max} caracteres.',
    },
    rate_limited: {
        en: 'Too many requests: rate limit reached, try again later.',
        es: 'Demasiadas solicitudes: se alcanzó el límite, inténtelo más tarde.',
    },
    redirect: { en: 'Moved temporarily to {location}.', es: 'Movido temporalmente a {location}.' },
    server_error: {
        en: 'Internal server error (simulated fault).',
        es: 'Error interno del servidor (fallo simulado).',
    },
    bad_gateway: { en: 'Bad gateway (simulated fault).', es: 'Puerta de enlace incorrecta (fallo simulado).' },
    unavailable: {
        en: 'Service unavailable (simulated fault).',
        es: 'Servicio no disponible (fallo simulado).',
    },
    gateway_timeout: {
        en: 'Gateway timeout (simulated fault).',
        es: 'Tiempo de espera de la puerta de enlace agotado (fallo simulado).',
    },
    fault: { en: 'Simulated fault: HTTP {status}.', es: 'Fallo simulado: HTTP {status}.' },
    echo_token: {
        en: 'Invalid authorization header: {authorization}',
        es: 'Cabecera de autorización no válida: {authorization}',
    },
};
/** `X-localization: es` (or es-ES, es_MX...) selects Spanish; anything else English. */
function langOf(header) {
    const value = Array.isArray(header) ? header[0] : header;
    return value !== undefined && /^es(?:[-_].*)?$/i.test(value.trim()) ? 'es' : 'en';
}
function t(lang, key, params = {}) {
    return MESSAGES[key][lang].replace(/\{(\w+)\}/g, (whole, name) => name in params ? String(params[name]) : whole);
}
/** Every message key (for tests that check both languages are complete). */
const MESSAGE_KEYS = Object.keys(MESSAGES);

;// CONCATENATED MODULE: ./simulator/body.js


/**
 * The request's JSON object body. Requires Content-Type: application/json; an empty body is `{}`.
 * Attributes outside `allowed` are refused with 400 and listed in `errors`.
 */
function jsonBody(ctx, req, allowed) {
    const { lang, shapes } = ctx;
    const refuse = (message, errors) => ({
        ok: false,
        response: shapes.badRequest(lang, message, errors),
    });
    const header = req.headers['content-type'];
    const contentType = Array.isArray(header) ? header[0] : header;
    if (!isJsonContentType(contentType)) {
        return refuse(t(lang, 'invalid_content_type'), {
            content_type: [`expected application/json, got ${contentType ?? 'none'}`],
        });
    }
    let value = {};
    if (req.body.trim() !== '') {
        try {
            value = JSON.parse(req.body);
        }
        catch (e) {
            return refuse(t(lang, 'invalid_json'), { body: [e.message] });
        }
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        return refuse(t(lang, 'invalid_json'), { body: ['expected a JSON object'] });
    }
    const record = value;
    const unknown = Object.keys(record).filter((k) => !allowed.includes(k));
    if (unknown.length > 0) {
        const errors = Object.fromEntries(unknown.map((k) => [k, ['unknown attribute']]));
        return refuse(t(lang, 'unknown_attributes', { names: unknown.join(', ') }), errors);
    }
    return { ok: true, value: record };
}

// EXTERNAL MODULE: ./simulator/options.js
var simulator_options = __nccwpck_require__(371);
;// CONCATENATED MODULE: ./simulator/dates.js
/** The spec's response date-time format: `yyyy-MM-dd HH:mm:ss.SSS`, UTC. */
function formatDate(ms) {
    return new Date(ms).toISOString().slice(0, 23).replace('T', ' ');
}
/** The service family's dates (contract §2, r2): ISO 8601 with microseconds, `2026-11-22T20:00:05.000000Z`. */
function isoDate(ms) {
    return `${new Date(ms).toISOString().slice(0, 23)}000Z`;
}

;// CONCATENATED MODULE: ./simulator/views.js
/** What the v2 API shows of the state: records as `data` objects, in a profile's style. */

const SPEC_STYLE = {
    date: formatDate,
    stagingId: (s) => s.id,
    versionId: (v) => `v-${v.id}`,
};
const SERVICE_STYLE = {
    date: isoDate,
    stagingId: (s) => s.numeric_id,
    versionId: (v) => v.id,
};
/** A site version as GET /v2/site-versions lists it (contract §13). */
function versionView(version, style) {
    return {
        id: style.versionId(version),
        site_id: version.site_id,
        name: version.name,
        size_mb: version.status === 'completed' ? version.size_mb : null,
        status: version.status,
        created_at: style.date(version.created_at),
    };
}
/** A production site as GET/POST /v2/sites return it (no password, no simulated content). */
function siteView(site, staging, style = SPEC_STYLE) {
    return {
        id: site.id,
        site_name: site.site_name,
        url: site.url,
        type: site.type,
        reserved: site.reserved,
        plan: site.plan.name,
        waas: site.waas,
        client_portal_id: site.client_portal?.id ?? null,
        domains: site.domains.map((d) => ({ ...d })),
        cdn_zone: site.cdn_zone ? { ...site.cdn_zone } : null,
        ssl: { ...site.ssl },
        tags: [...site.tags],
        ssh_keys: site.ssh_keys.map((k) => ({ ...k })),
        settings: { ...site.settings },
        password_protected: site.password_protected,
        ssh_username: site.ssh_username,
        staging_site_id: staging ? style.stagingId(staging) : null,
        created_at: style.date(site.created_at),
        updated_at: style.date(site.updated_at),
    };
}
/** A staging site as an item of GET /v2/sites. */
function stagingListView(staging, style = SPEC_STYLE) {
    return {
        id: style.stagingId(staging),
        site_name: staging.site_name,
        url: staging.url,
        type: 'staging',
        reserved: true,
        production_site_id: staging.site_id,
        status: staging.status,
        created_at: style.date(staging.created_at),
        updated_at: style.date(staging.updated_at),
    };
}
/**
 * An item of GET /v2/sites as the service lists it (service profile, docs/assumptions.md): the
 * family's record with a numeric `status` (0 = active), ISO dates, and the link between a
 * production site and its staging site on both records: `is_staging` and `parent_id` on the
 * staging record, `staging_site_id` on the production one. No passwords.
 */
function serviceListItem(record) {
    if ('production' in record) {
        const site = record.production;
        return {
            id: site.id,
            name: site.site_name,
            url: site.url,
            status: 0,
            is_staging: false,
            parent_id: null,
            staging_site_id: record.staging ? record.staging.numeric_id : null,
            reserved: site.reserved,
            created_at: isoDate(site.created_at),
            updated_at: isoDate(site.updated_at),
        };
    }
    const staging = record.staging;
    return {
        id: staging.numeric_id,
        name: staging.site_name,
        url: staging.url,
        status: staging.status === 'ready' ? 0 : 1,
        is_staging: true,
        parent_id: staging.site_id,
        reserved: true,
        created_at: isoDate(staging.created_at),
        updated_at: isoDate(staging.updated_at),
    };
}
/** `data` of the probe, GET /v2/sites/{site}/staging (spec profile). Carries credentials, as the real one may. */
function probeView(staging) {
    return {
        id: staging.id,
        site_id: staging.site_id,
        staging_site_id: staging.id,
        staging_url: staging.url,
        status: staging.status,
        is_syncing: staging.status === 'syncing' || staging.status === 'pushing',
        task_id: staging.task_id,
        ssh_username: staging.ssh_username,
        ssh_password: staging.ssh_password,
        wp_password: staging.wp_password,
        created_at: formatDate(staging.created_at),
        updated_at: formatDate(staging.updated_at),
    };
}
/**
 * `data` of GET /v2/tasks/{id}/status in the spec profile. `percentage`: null omits
 * percentage_complete. A running task was last updated `now` (its progress moves); a finished one
 * when it ended.
 */
function taskView(task, percentage, now) {
    const view = { task_id: task.id, status: task.status };
    if (percentage !== null)
        view.percentage_complete = String(percentage);
    view.type = task.kind;
    view.site_id = task.site_id;
    view.created_at = formatDate(task.started_at);
    view.updated_at = formatDate(task.status === 'progress' ? now : task.updated_at);
    view.timeout_at = formatDate(task.timeout_at);
    if (task.comment !== null)
        view.comment = task.comment;
    return view;
}
/** The service family's task `type` of each job. */
const SERVICE_TASK_TYPE = {
    create: 'site_install',
    pull: 'staging_sync',
    push: 'staging_push',
    delete: 'site_delete',
    version: 'site_version',
    restore: 'site_version_restore',
};
/** A create task is `queued` for this share of its duration (at most 5 s), then `in_progress`. */
function queuedForMs(task) {
    return Math.min(0.1 * task.duration_ms, 5000);
}
/**
 * A task's `status` in the service profile: create tasks use words (`queued`, `in_progress`,
 * `completed`, `failure`); pull, push and delete tasks use numbers (1 running, 0 completed, 2 failed).
 */
function serviceTaskStatus(task, now) {
    if (task.kind !== 'create')
        return task.status === 'completed' ? 0 : task.status === 'error' ? 2 : 1;
    if (task.status === 'completed')
        return 'completed';
    if (task.status === 'error')
        return 'failure';
    return now - task.started_at < queuedForMs(task) ? 'queued' : 'in_progress';
}
/**
 * `data` of GET /api/v2/tasks/{id}/status in the service profile (contract §2, r2): the task's row
 * (`id` is its database id, never a site id), the site it works on as `resource_id` (the staging
 * site of a staging job, the production site of a version or restore), a two-decimal
 * string percentage, ISO dates.
 */
function serviceTaskView(task, resourceId, percentage, now) {
    const status = serviceTaskStatus(task, now);
    const view = {
        id: task.row_id,
        cloud_task_id: task.id,
        type: SERVICE_TASK_TYPE[task.kind],
        resource_type: 'App\\Models\\Site',
        resource_id: resourceId,
        status,
    };
    if (percentage !== null)
        view.percentage_complete = (status === 'queued' ? 0 : percentage).toFixed(2);
    view.comment = task.comment;
    view.created_at = isoDate(task.started_at);
    view.updated_at = isoDate(task.status === 'progress' ? now : task.updated_at);
    return view;
}

;// CONCATENATED MODULE: ./simulator/routes/sites.js
/**
 * GET /v2/sites (with type and pagination: `page`, `per_page`; the paginator in `meta`, or inside
 * `data` with the listPaginator option; a page cap answers fewer rows than a large per_page asks,
 * as the service family does), POST /v2/sites, GET /v2/sites/{site}.
 */





/** Values of the `type` filter: production or staging sites, reserved (permanent) or temporary ones. */
const SITE_TYPES = ['production', 'staging', 'reserved', 'temporary'];
const DEFAULT_PER_PAGE = 10;
const MAX_PER_PAGE = 100;
function listSites(ctx, req) {
    const type = req.query.get('type');
    if (type !== null && !SITE_TYPES.includes(type)) {
        return ctx.shapes.badRequest(ctx.lang, t(ctx.lang, 'invalid_query', { name: 'type' }), {
            type: [`must be one of ${SITE_TYPES.join(', ')}`],
        });
    }
    const page = positiveInt(req.query.get('page'), 1);
    const asked = positiveInt(req.query.get('per_page'), DEFAULT_PER_PAGE);
    if (page === null)
        return ctx.shapes.badRequest(ctx.lang, t(ctx.lang, 'invalid_query', { name: 'page' }), {
            page: ['integer >= 1'],
        });
    // A cap (the option's, else the profile's) answers fewer rows than asked; without one, too many is refused.
    const cap = ctx.options.listPageCap ?? ctx.shapes.listPageCap;
    if (asked === null || (cap === null && asked > MAX_PER_PAGE)) {
        return ctx.shapes.badRequest(ctx.lang, t(ctx.lang, 'invalid_query', { name: 'per_page' }), {
            per_page: [`integer from 1 to ${MAX_PER_PAGE}`],
        });
    }
    const perPage = cap === null ? asked : Math.min(asked, cap);
    const productions = [...ctx.state.sites.values()].sort((a, b) => a.id - b.id);
    const stagings = [...ctx.state.staging.values()].sort((a, b) => a.site_id - b.site_id);
    const { style } = ctx.shapes;
    const items = [];
    const stagingOf = (site) => ctx.state.staging.get(String(site.id));
    if (type === null || type === 'production' || type === 'reserved' || type === 'temporary') {
        for (const site of productions) {
            if (type === 'reserved' && !site.reserved)
                continue;
            if (type === 'temporary' && site.reserved)
                continue;
            const staging = stagingOf(site);
            items.push(ctx.shapes.listItem?.({ production: site, staging }) ?? siteView(site, staging, style));
        }
    }
    if (type === null || type === 'staging' || type === 'reserved') {
        for (const staging of stagings)
            items.push(ctx.shapes.listItem?.({ staging }) ?? stagingListView(staging, style));
    }
    const total = items.length;
    const lastPage = Math.max(1, Math.ceil(total / perPage));
    const from = (page - 1) * perPage;
    const pageItems = items.slice(from, from + perPage);
    const paginator = {
        current_page: page,
        per_page: perPage,
        total,
        last_page: lastPage,
        from: pageItems.length > 0 ? from + 1 : null,
        to: pageItems.length > 0 ? from + pageItems.length : null,
    };
    const message = t(ctx.lang, 'sites_listed');
    // The framework's paginator as `data` itself (`data.data`, `data.last_page`), or beside it as `meta`.
    if (ctx.options.listPaginator === 'data')
        return ok(200, message, { ...paginator, data: pageItems });
    return ok(200, message, pageItems, paginator);
}
function createSite(ctx, req) {
    const body = jsonBody(ctx, req, ['site_name']);
    if (!body.ok)
        return body.response;
    const name = body.value.site_name;
    if (typeof name !== 'string' || name.trim() === '') {
        return ctx.shapes.badRequest(ctx.lang, t(ctx.lang, 'invalid_site_name'), {
            site_name: ['required, a non-empty string'],
        });
    }
    const id = ctx.state.nextSiteId++;
    const slug = name
        .trim()
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '') || `site-${id}`;
    const site = productionSite({ id, name: slug, tags: [] }, ctx.now);
    site.site_name = name.trim();
    site.url = `https://${slug}-${id}.example.test`;
    site.domains = [{ name: `${slug}-${id}.example.test`, primary: true }];
    ctx.state.sites.set(String(id), site);
    return ok(201, t(ctx.lang, 'site_created'), siteView(site, undefined, ctx.shapes.style));
}
function getSite(ctx, siteId) {
    const { style } = ctx.shapes;
    const site = ctx.state.sites.get(siteId);
    const message = t(ctx.lang, 'site_retrieved');
    if (site)
        return ok(200, message, siteView(site, ctx.state.staging.get(siteId), style));
    const staging = [...ctx.state.staging.values()].find((s) => String(style.stagingId(s)) === siteId);
    if (staging)
        return ok(200, message, stagingListView(staging, style));
    return ctx.shapes.siteNotFound(ctx.lang, siteId);
}
/** `fallback` when absent, the integer when valid, null when invalid. */
function positiveInt(value, fallback) {
    if (value === null)
        return fallback;
    if (!/^\d+$/.test(value))
        return null;
    const n = Number(value);
    return n >= 1 ? n : null;
}

;// CONCATENATED MODULE: ./simulator/routes/versions.js
/**
 * Site versions (contract §13, r4): point-in-time copies of a production site's content, made and
 * restored by background jobs like any other (jobs.ts). The rules are the same in every profile; only
 * the shapes differ (../profiles):
 * - create: 422 for a missing or unknown `site_id` (a field of the body, validated as the framework
 *   does: a 404 here would read as "no versions route", contract §13); 422 "already in progress" (busy) while one is in progress, the quota's 422 when the site keeps more than
 *   `versionQuota` completed versions (the family's backups: 3 kept, plus 1 in progress: with 3
 *   completed a fourth may be made, after which the oldest must go); otherwise a `version` job. The version holds the content the site had when
 *   it was asked for.
 * - name: 422 for a missing name or one longer than 25 characters.
 * - list: the site's versions, newest first, paged like the site list; 422 for a missing or unknown
 *   `site_id`.
 * - restore: 404 for an unknown site or version; a version of another site refused; a version not
 *   completed refused (422); a restore or push of the site already running refused as busy;
 *   otherwise a `restore` job, which puts the version's content back on production when it completes.
 * - delete: each id deleted, or listed in `failed_ids` (unknown, in progress, being restored).
 * The knob `versions` (options) gates them all: `plan-403` answers 403 here; `quota`, `task-fails`,
 * `slow` and `no-task-id` change create; `absent-404` / `absent-405` are routing (api.ts).
 */






/** Longest version name the service takes (contract §13). */
const MAX_VERSION_NAME = 25;
function createVersion(ctx, req) {
    const body = jsonBody(ctx, req, ['site_id']);
    if (!body.ok)
        return body.response;
    const gate = planGate(ctx);
    if (gate)
        return gate;
    const raw = body.value.site_id;
    if (raw === undefined || raw === null || raw === '')
        return required(ctx, 'site_id');
    if (!(typeof raw === 'number' || typeof raw === 'string'))
        return invalid(ctx, 'site_id');
    const site = ctx.state.sites.get(String(raw));
    if (!site)
        return invalid(ctx, 'site_id');
    const mine = versionsOf(ctx, site);
    const completed = mine.filter((v) => v.status === 'completed').length;
    const running = mine.filter((v) => v.status === 'progress').length;
    // `busy-once`: the first create of the run is refused as busy, as while a version is in progress.
    if (running >= 1 || (ctx.options.versions === 'busy-once' && !ctx.state.versionBusySaid)) {
        ctx.state.versionBusySaid = true;
        return ctx.shapes.refused(422, ctx.lang, t(ctx.lang, 'version_busy'));
    }
    if (ctx.options.versions === 'quota' || completed > ctx.options.versionQuota) {
        return ctx.shapes.refused(422, ctx.lang, t(ctx.lang, 'version_quota', { quota: ctx.options.versionQuota }));
    }
    const version = addVersion(ctx, site, 'progress', null);
    const failWith = ctx.options.versions === 'task-fails' ? simulator_options/* VERSION_TASK_ERROR */.Cg : ctx.taskError;
    const slow = ctx.options.versions === 'slow' ? simulator_options/* SLOW_VERSION_MS */.Mz : undefined;
    const task = ctx.jobs.startOnSite('version', site.id, version.id, failWith, ctx.now, slow);
    version.task_id = task.id;
    const id = ctx.shapes.style.versionId(version);
    // `no-task-id`: a service that leaves the task out (contract §13 names it; docs/assumptions.md 120).
    const data = ctx.options.versions === 'no-task-id' ? { id } : { id, task_id: task.id };
    return ctx.shapes.siteJobStarted(ctx.lang, t(ctx.lang, 'version_started'), data);
}
function nameVersion(ctx, req, versionId) {
    const body = jsonBody(ctx, req, ['name']);
    if (!body.ok)
        return body.response;
    const gate = planGate(ctx);
    if (gate)
        return gate;
    const version = findVersion(ctx, versionId);
    if (!version)
        return ctx.shapes.versionNotFound(ctx.lang, versionId);
    const name = body.value.name;
    if (typeof name !== 'string' || name.trim() === '')
        return required(ctx, 'name');
    if ([...name].length > MAX_VERSION_NAME) {
        const message = t(ctx.lang, 'field_too_long', { field: 'name', max: MAX_VERSION_NAME });
        return ctx.shapes.validation(ctx.lang, 'name', message);
    }
    version.name = name;
    version.updated_at = ctx.now;
    return ok(200, t(ctx.lang, 'version_updated'), versionView(version, ctx.shapes.style));
}
function listVersions(ctx, req) {
    const gate = planGate(ctx);
    if (gate)
        return gate;
    const siteId = req.query.get('site_id');
    if (siteId === null || siteId === '')
        return required(ctx, 'site_id');
    const site = ctx.state.sites.get(siteId);
    if (!site)
        return invalid(ctx, 'site_id');
    const page = positiveInt(req.query.get('page'), 1);
    const asked = positiveInt(req.query.get('per_page'), 15);
    if (page === null)
        return invalid(ctx, 'page');
    if (asked === null || asked > MAX_PER_PAGE)
        return invalid(ctx, 'per_page');
    const mode = ctx.options.versions;
    const perPage = mode === 'paged' || mode === 'oldest-first' ? Math.min(asked, simulator_options/* PAGED_VERSION_ROWS */.xl) : asked;
    // `unfiltered`: a service that ignores site_id and lists every site's versions (contract §13 r5).
    const listed = mode === 'unfiltered' ? [...ctx.state.siteVersions.values()] : versionsOf(ctx, site);
    const all = listed.sort((a, b) => b.created_at - a.created_at || b.id - a.id);
    // `oldest-first`: a service that does not list newest first, as contract §13 says it does.
    if (mode === 'oldest-first')
        all.reverse();
    const from = (page - 1) * perPage;
    const items = all.slice(from, from + perPage);
    const meta = {
        current_page: page,
        per_page: perPage,
        total: all.length,
        last_page: Math.max(1, Math.ceil(all.length / perPage)),
    };
    const style = ctx.shapes.style;
    return ok(200, t(ctx.lang, 'versions_listed'), items.map((v) => versionView(v, style)), meta);
}
function restoreVersion(ctx, siteId, versionId) {
    const gate = planGate(ctx);
    if (gate)
        return gate;
    const site = ctx.state.sites.get(siteId);
    if (!site)
        return ctx.shapes.siteNotFound(ctx.lang, siteId);
    const version = findVersion(ctx, versionId);
    if (!version)
        return ctx.shapes.versionNotFound(ctx.lang, versionId);
    if (version.site_id !== site.id)
        return ctx.shapes.versionOfOtherSite(ctx.lang, versionId, siteId);
    if (version.status !== 'completed') {
        return ctx.shapes.refused(422, ctx.lang, t(ctx.lang, 'version_not_completed', { version: versionId }));
    }
    if (restoring(ctx, site.id) || ctx.state.staging.get(siteId)?.status === 'pushing') {
        return ctx.shapes.restoreBusy(ctx.lang);
    }
    const half = ctx.options.versions === 'restore-half' ? simulator_options/* RESTORE_HALF_ERROR */.iZ : null;
    const task = ctx.jobs.startOnSite('restore', site.id, version.id, half ?? ctx.taskError, ctx.now);
    return ctx.shapes.siteJobStarted(ctx.lang, t(ctx.lang, 'restore_started'), { task_id: task.id });
}
function deleteVersions(ctx, req) {
    const body = jsonBody(ctx, req, ['ids']);
    if (!body.ok)
        return body.response;
    const gate = planGate(ctx);
    if (gate)
        return gate;
    const ids = body.value.ids;
    if (!Array.isArray(ids) || ids.length === 0)
        return required(ctx, 'ids');
    const success = [];
    const failed = [];
    for (const id of ids) {
        const version = typeof id === 'string' || typeof id === 'number' ? findVersion(ctx, String(id)) : undefined;
        const busy = version && (version.status === 'progress' || restoring(ctx, version.site_id, version.id));
        if (!version || busy) {
            failed.push(id);
            continue;
        }
        ctx.state.siteVersions.delete(version.id);
        success.push(id);
    }
    return ok(200, t(ctx.lang, 'versions_deleted'), { success_ids: success, failed_ids: failed });
}
/**
 * A version in `status` of `site` with `content` (the site's now when omitted). Shared with the
 * admin paths, which seed versions a person made.
 */
function addVersion(ctx, site, status, name, content = site.content) {
    const id = ctx.state.nextVersionId++;
    const version = {
        id,
        site_id: site.id,
        name,
        status,
        content: { ...content },
        size_mb: Math.round((48 + (site.id % 97) * 1.5 + (id % 7) * 0.3) * 10) / 10,
        task_id: null,
        created_at: ctx.now,
        updated_at: ctx.now,
    };
    ctx.state.siteVersions.set(id, version);
    return version;
}
function versionsOf(ctx, site) {
    return [...ctx.state.siteVersions.values()].filter((v) => v.site_id === site.id);
}
/** The version the profile's id names (spec `v-7001`, service `7001`), if any. */
function findVersion(ctx, id) {
    const style = ctx.shapes.style;
    return [...ctx.state.siteVersions.values()].find((v) => String(style.versionId(v)) === id);
}
/** True while a restore of `siteId` (of version `versionId`, when given) runs. */
function restoring(ctx, siteId, versionId) {
    return [...ctx.state.tasks.values()].some((task) => task.kind === 'restore' &&
        task.status === 'progress' &&
        task.site_id === siteId &&
        (versionId === undefined || task.version_id === versionId));
}
function planGate(ctx) {
    if (ctx.options.versions !== 'plan-403')
        return null;
    return ctx.shapes.refused(403, ctx.lang, t(ctx.lang, 'versions_plan'));
}
function required(ctx, field) {
    return ctx.shapes.validation(ctx.lang, field, t(ctx.lang, 'field_required', { field }));
}
function invalid(ctx, field) {
    return ctx.shapes.validation(ctx.lang, field, t(ctx.lang, 'field_invalid', { field }));
}

;// CONCATENATED MODULE: ./simulator/admin.js
/**
 * The admin paths under /__sim: read the state, events, requests and connection counts, bump
 * content versions, read and seed site versions, set a site's tool state, set faults and options,
 * reset. Not part of the v2 API: no auth, no rate limit,
 * not recorded, not counted, plain JSON (no envelope), times as ms epoch.
 */


const ADMIN_PREFIX = '/__sim';
function handleAdmin(sim, method, path, body) {
    sim.settle();
    const route = path.slice(ADMIN_PREFIX.length).replace(/\/+$/, '') || '/';
    try {
        return dispatch(sim, method, route, body);
    }
    catch (e) {
        return json(400, { error: e.message });
    }
}
function dispatch(sim, method, route, body) {
    const site = /^\/sites\/([^/]+)$/.exec(route);
    const content = /^\/sites\/([^/]+)\/content$/.exec(route);
    const versions = /^\/sites\/([^/]+)\/versions$/.exec(route);
    const siteState = /^\/sites\/([^/]+)\/state$/.exec(route);
    if (method === 'GET' && route === '/state')
        return json(200, snapshot(sim));
    if (method === 'GET' && site?.[1] !== undefined)
        return siteEntry(sim, site[1]);
    if (method === 'POST' && content?.[1] !== undefined)
        return bumpContent(sim, content[1], parse(body));
    if (method === 'GET' && versions?.[1] !== undefined)
        return siteVersions(sim, versions[1]);
    if (method === 'POST' && versions?.[1] !== undefined)
        return seedVersion(sim, versions[1], parse(body));
    if (method === 'POST' && siteState?.[1] !== undefined)
        return setSiteState(sim, siteState[1], parse(body));
    if (method === 'GET' && route === '/outbox')
        return json(200, sim.state.outbox);
    if (method === 'GET' && route === '/purges')
        return json(200, sim.state.purges);
    if (method === 'GET' && route === '/tools')
        return json(200, sim.state.toolChanges);
    if (method === 'GET' && route === '/requests')
        return json(200, sim.requests);
    if (method === 'GET' && route === '/site-requests')
        return json(200, sim.siteRequests);
    if (method === 'GET' && route === '/stats')
        return json(200, sim.stats());
    if (method === 'GET' && route === '/tasks')
        return json(200, tasks(sim));
    if (method === 'GET' && route === '/faults')
        return json(200, faultList(sim));
    if (method === 'POST' && route === '/faults') {
        for (const rule of faultsFromJson(parse(body)))
            sim.faults.add(rule);
        return json(200, faultList(sim));
    }
    if (method === 'DELETE' && route === '/faults') {
        sim.faults.clear();
        return json(200, []);
    }
    if (method === 'POST' && route === '/reset') {
        sim.reset();
        return json(200, snapshot(sim));
    }
    if (method === 'GET' && route === '/options')
        return json(200, sim.options);
    if (method === 'POST' && route === '/options') {
        const patch = parse(body);
        if (typeof patch !== 'object' || patch === null || Array.isArray(patch))
            throw new Error('options must be an object');
        sim.setOptions(patch);
        return json(200, sim.options);
    }
    return json(404, { error: `no admin route ${method} ${ADMIN_PREFIX}${route}` });
}
/** The whole state as JSON. */
function snapshot(sim) {
    return {
        sites: [...sim.state.sites.values()],
        staging: [...sim.state.staging.values()],
        siteVersions: [...sim.state.siteVersions.values()],
        tasks: tasks(sim),
        outbox: sim.state.outbox,
        purges: sim.state.purges,
        toolChanges: sim.state.toolChanges,
        options: sim.options,
        faults: faultList(sim),
        requests: sim.requests.length,
    };
}
function tasks(sim) {
    return [...sim.state.tasks.values()].map((task) => ({
        ...task,
        percentage_complete: sim.percentageOf(task),
    }));
}
function faultList(sim) {
    return sim.faults
        .list()
        .map(({ rule, left }) => ({ ...ruleToJson(rule), left: left === Infinity ? 'Infinity' : left }));
}
function siteEntry(sim, id) {
    const site = sim.state.sites.get(id);
    if (!site)
        return json(404, { error: `site ${id} not found` });
    return json(200, { site, staging: sim.state.staging.get(id) ?? null, versions: admin_versionsOf(sim, site.id) });
}
/** A site's versions, newest first (every field, content included). */
function admin_versionsOf(sim, siteId) {
    return [...sim.state.siteVersions.values()]
        .filter((v) => v.site_id === siteId)
        .sort((a, b) => b.created_at - a.created_at || b.id - a.id);
}
function siteVersions(sim, id) {
    const site = sim.state.sites.get(id);
    if (!site)
        return json(404, { error: `site ${id} not found` });
    return json(200, admin_versionsOf(sim, site.id));
}
/**
 * Adds a version to a site at once, without a job (a version a person made, or one to fill the
 * quota): `{ name?, status?: 'completed' | 'progress' | 'failed', content?: { files, database },
 * created_at? }`. Default: completed, unnamed, the site's content now.
 */
function seedVersion(sim, id, body) {
    const site = sim.state.sites.get(id);
    if (!site)
        return json(404, { error: `site ${id} not found` });
    const { name, status, content, created_at } = (isObject(body) ? body : {});
    if (name !== undefined && name !== null && typeof name !== 'string')
        throw new Error('name must be a string');
    if (status !== undefined && status !== 'completed' && status !== 'progress' && status !== 'failed')
        throw new Error('status must be completed, progress or failed');
    if (content !== undefined && !isContent(content))
        throw new Error('content must be { files, database } strings');
    if (created_at !== undefined && !(typeof created_at === 'number' && Number.isFinite(created_at)))
        throw new Error('created_at must be a number (ms epoch)');
    const now = typeof created_at === 'number' ? created_at : Date.now();
    const version = addVersion({ state: sim.state, now }, site, status ?? 'completed', typeof name === 'string' ? name : null, isContent(content) ? content : site.content);
    return json(200, version);
}
/** Sets a site's tool state directly: `{ maintenance?: boolean, password_protected?: boolean }`. */
function setSiteState(sim, id, body) {
    const site = sim.state.sites.get(id);
    if (!site)
        return json(404, { error: `site ${id} not found` });
    const patch = (isObject(body) ? body : {});
    const fields = { maintenance: 'maintenance_mode', password_protected: 'password_protection' };
    for (const field of Object.keys(fields)) {
        if (patch[field] !== undefined && typeof patch[field] !== 'boolean')
            throw new Error(`${field} must be a boolean`);
    }
    for (const [field, tool] of Object.entries(fields)) {
        const value = patch[field];
        if (typeof value !== 'boolean')
            continue;
        site[field] = value;
        sim.state.toolChanges.push({
            site_id: site.id,
            tool,
            value: value ? 'on' : 'off',
            source: 'admin',
            at: Date.now(),
        });
    }
    return json(200, { site, staging: sim.state.staging.get(id) ?? null, versions: admin_versionsOf(sim, site.id) });
}
function isObject(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function isContent(value) {
    return isObject(value) && typeof value.files === 'string' && typeof value.database === 'string';
}
function bumpContent(sim, id, body) {
    const site = sim.state.sites.get(id);
    if (!site)
        return json(404, { error: `site ${id} not found` });
    const { target, part } = (typeof body === 'object' && body !== null ? body : {});
    if (target !== 'production' && target !== 'staging')
        throw new Error('target must be production or staging');
    if (part !== undefined && part !== 'files' && part !== 'database')
        throw new Error('part must be files or database');
    const staging = sim.state.staging.get(id);
    if (target === 'staging' && !staging)
        return json(409, { error: `site ${id} has no staging site` });
    const key = `${id}:${target}`;
    const version = (sim.state.versions.get(key) ?? 1) + 1;
    sim.state.versions.set(key, version);
    const value = `${target === 'production' ? 'prod' : 'staging'}-v${version}`;
    const record = target === 'production' ? site : staging;
    if (record) {
        if (part === undefined || part === 'files')
            record.content.files = value;
        if (part === undefined || part === 'database')
            record.content.database = value;
    }
    return json(200, { site, staging: staging ?? null });
}
function parse(body) {
    if (body.trim() === '')
        return {};
    try {
        return JSON.parse(body);
    }
    catch (e) {
        throw new Error(`invalid JSON body: ${e.message}`);
    }
}
function json(status, body) {
    return { status, headers: {}, body };
}

;// CONCATENATED MODULE: ./simulator/ticker.js
class JobTicker {
    core;
    timer = null;
    at = null;
    stopped = false;
    constructor(core) {
        this.core = core;
    }
    /** Sets the timer for the next due job (call after anything that may start or end one). */
    schedule() {
        const due = this.stopped ? null : this.core.nextDueAt();
        if (due === this.at)
            return;
        if (this.timer)
            clearTimeout(this.timer);
        this.timer = null;
        this.at = due;
        if (due === null)
            return;
        this.timer = setTimeout(() => {
            this.timer = null;
            this.at = null;
            this.core.settle();
            this.schedule();
        }, Math.max(0, due - this.core.clock.now()));
        this.timer.unref();
    }
    stop() {
        this.stopped = true;
        this.schedule();
    }
}

;// CONCATENATED MODULE: ./simulator/connections.js
class ConnectionCounter {
    epoch = 0;
    sockets = new WeakMap();
    stats = empty();
    /** A connection was accepted. */
    accepted(socket) {
        this.sockets.set(socket, { epoch: this.epoch, requests: 0 });
        this.stats.acceptedConnections += 1;
    }
    /** An API or site request arrived on `socket`. */
    request(socket) {
        let entry = this.sockets.get(socket);
        if (entry === undefined || entry.epoch !== this.epoch) {
            entry = { epoch: this.epoch, requests: 0 };
            this.sockets.set(socket, entry);
        }
        if (entry.requests === 0)
            this.stats.connections += 1;
        entry.requests += 1;
        this.stats.requests += 1;
        this.stats.maxRequestsOnOneConnection = Math.max(this.stats.maxRequestsOnOneConnection, entry.requests);
    }
    snapshot() {
        return { ...this.stats };
    }
    reset() {
        this.epoch += 1;
        this.stats = empty();
    }
}
function empty() {
    return { connections: 0, requests: 0, maxRequestsOnOneConnection: 0, acceptedConnections: 0 };
}

;// CONCATENATED MODULE: ./simulator/clock.js
const realClock = { now: () => Date.now() };
/** A clock that moves only when told: for running the API core in virtual time. */
class ManualClock {
    current;
    constructor(current = Date.UTC(2026, 0, 1)) {
        this.current = current;
    }
    now() {
        return this.current;
    }
    /** Moves the clock forward by `ms` (never backwards). */
    advance(ms) {
        if (!(ms >= 0))
            throw new Error('a clock only moves forward');
        this.current += ms;
        return this.current;
    }
    set(ms) {
        if (ms < this.current)
            throw new Error('a clock only moves forward');
        this.current = ms;
    }
}

;// CONCATENATED MODULE: ./simulator/profiles/framework.js
const FRAMEWORK_TEXT = {
    unauthenticated: 'Unauthenticated.',
    tooManyAttempts: 'Too Many Attempts.',
    serverError: 'Server Error',
    notFound: 'Not Found',
};
/** `route` is the request path without its leading slash, e.g. `v2/sites/1001/staging`. */
function routeNotFound(route) {
    return `The route ${route} could not be found.`;
}
function methodNotSupported(method, route, methods) {
    return `The ${method} method is not supported for route ${route}. Supported methods: ${methods.join(', ')}.`;
}
/** A route-model binding that found nothing: `No query results for model [App\Models\Site] 1001`. */
function noQueryResults(model, id) {
    return `No query results for model [App\\Models\\${model}] ${id}`;
}
/** The framework's plain JSON error body: `{ "message": ... }` plus extra fields (no envelope). */
function frameworkError(status, message, extra = {}, headers = {}) {
    return { status, headers, body: { message, ...extra } };
}
/** The framework's HTML error page (what a browser-like request gets for an unknown route). */
function errorPage(status, text) {
    return [
        '<!DOCTYPE html>',
        '<html lang="en">',
        `<head><meta charset="utf-8"><title>${text}</title></head>`,
        `<body class="antialiased"><div class="code">${status}</div><div class="message">${text}</div></body>`,
        '</html>',
        '',
    ].join('\n');
}
/** True when the request's Accept header asks for JSON (the framework then renders errors as JSON). */
function wantsJson(accept) {
    const value = Array.isArray(accept) ? accept.join(',') : (accept ?? '');
    return /json/i.test(value);
}
/**
 * The debug-mode error body (APP_DEBUG=true): the exception's own message, class, file, line and a
 * stack trace. Clients must show the message only, never the trace.
 */
function debugErrorBody(status) {
    return {
        message: status === 500
            ? 'SQLSTATE[HY000] [2002] Connection refused (Connection: mysql, SQL: select * from `sites` where `id` = ? limit 1)'
            : `Simulated HTTP ${status}`,
        exception: 'Illuminate\\Database\\QueryException',
        file: '/var/www/html/vendor/laravel/framework/src/Illuminate/Database/Connection.php',
        line: 825,
        trace: [
            {
                file: '/var/www/html/vendor/laravel/framework/src/Illuminate/Database/Connection.php',
                line: 779,
                function: 'runQueryCallback',
                class: 'Illuminate\\Database\\Connection',
                type: '->',
            },
            {
                file: '/var/www/html/app/Http/Controllers/Api/V2/StagingController.php',
                line: 48,
                function: 'firstOrFail',
                class: 'Illuminate\\Database\\Eloquent\\Builder',
                type: '->',
            },
        ],
    };
}

;// CONCATENATED MODULE: ./simulator/profiles/service.js
/**
 * The service profile: how the service family (a Laravel backend) really answers, per contract
 * revision 2 (§1-§10). The API lives under /api/v2; the framework answers unknown routes (404, JSON
 * or HTML), wrong methods (405, the staging probe included), missing tokens, missing models and the
 * rate limit with its own `{ "message": ... }` bodies in English; the application's messages follow
 * X-localization. Accepted jobs answer 200; pull and push bodies carry no `status` field; tasks show
 * their row, `resource_id`, string percentages, word or numeric statuses and ISO dates; a busy site
 * and a plan without staging answer 422.
 */






const BUSY_MESSAGE = {
    creating: 'svc_busy_creating',
    deleting: 'svc_busy_deleting',
    sync: 'svc_busy_sync',
};
const FAULT_MESSAGE = {
    429: FRAMEWORK_TEXT.tooManyAttempts,
    500: FRAMEWORK_TEXT.serverError,
};
/** The site a task works on: the staging site of a staging job, the production site of a version or restore. */
const resourceOf = (task) => task.kind === 'version' || task.kind === 'restore' ? task.site_id : STAGING_NUMERIC_ID_OFFSET + task.site_id;
const route = (path) => path.replace(/^\/+/, '');
function limitHeaders(decision) {
    return {
        'X-RateLimit-Limit': String(decision.limit),
        'X-RateLimit-Remaining': String(decision.remaining),
    };
}
function appError(status, lang, key, extra = {}) {
    return frameworkError(status, t(lang, key), extra);
}
const serviceShapes = {
    prefix: '/api',
    routeFirst: true,
    probeRoute: false,
    headAsGet: true,
    style: SERVICE_STYLE,
    // The family answers fewer rows than a large per_page asks for; its CLI settled on 20 (contract r4 §12).
    listPageCap: 20,
    listItem: serviceListItem,
    unknownRoute: (path, accept) => {
        if (wantsJson(accept))
            return frameworkError(404, routeNotFound(route(path)));
        return {
            status: 404,
            headers: { 'Content-Type': 'text/html; charset=UTF-8' },
            body: errorPage(404, FRAMEWORK_TEXT.notFound),
        };
    },
    methodNotAllowed: (method, path, allowed) => frameworkError(405, methodNotSupported(method, route(path), allowed), {}, { Allow: allowed.join(', ') }),
    unauthenticated: () => frameworkError(401, FRAMEWORK_TEXT.unauthenticated),
    rateLimited: (_lang, decision) => {
        const headers = limitHeaders(decision);
        if (decision.retryAfter !== undefined)
            headers['Retry-After'] = decision.retryAfter;
        headers['X-RateLimit-Reset'] = String(Math.ceil(decision.resetAt / 1000));
        return frameworkError(429, FRAMEWORK_TEXT.tooManyAttempts, {}, headers);
    },
    rateHeaders: limitHeaders,
    readOnly: (lang) => appError(403, lang, 'read_only'),
    badRequest: (_lang, message, errors) => frameworkError(400, message, { errors }),
    siteNotFound: (_lang, site) => frameworkError(404, noQueryResults('Site', site)),
    stagingNotFound: (lang) => appError(404, lang, 'svc_staging_not_found'),
    taskNotFound: (_lang, task) => frameworkError(404, noQueryResults('Task', task)),
    ineligible: (lang, reason) => {
        if (reason === 'plan')
            return appError(422, lang, 'svc_plan_without_staging');
        return appError(403, lang, reason === 'waas' ? 'ineligible_waas' : 'ineligible_portal');
    },
    exists: (lang) => {
        const message = t(lang, 'svc_already_exists');
        return frameworkError(422, message, { errors: { site_id: [message] } });
    },
    busy: (lang, _op, reason) => appError(422, lang, BUSY_MESSAGE[reason]),
    createStarted: (lang, task, _site, staging, options) => {
        const data = {};
        if (options.taskIds)
            data.task_id = task.id;
        if (options.urlInAnswers)
            data.wp_url = staging.url;
        return ok(200, t(lang, 'create_started'), data);
    },
    jobStarted: (lang, kind, task, options) => {
        const message = t(lang, `${kind}_started`);
        if (kind === 'delete')
            return ok(200, message, options.taskIds ? { task_id: task.id } : {});
        const body = { message };
        if (options.taskIds)
            body.data = { task_id: task.id };
        return { status: 200, headers: {}, body };
    },
    task: (lang, task, percentage, now) => ok(200, t(lang, 'task_retrieved'), serviceTaskView(task, resourceOf(task), percentage, now)),
    siteJobStarted: (_lang, message, data) => ok(200, message, data),
    validation: (_lang, field, message) => frameworkError(422, message, { errors: { [field]: [message] } }),
    refused: (status, _lang, message) => frameworkError(status, message),
    versionNotFound: (_lang, version) => frameworkError(404, noQueryResults('SiteVersion', version)),
    // The framework's scoped binding: a version of another site is not found under this site.
    versionOfOtherSite: (_lang, version) => frameworkError(404, noQueryResults('SiteVersion', version)),
    restoreBusy: (lang) => appError(422, lang, 'restore_busy'),
    faultJson: (status) => frameworkError(status, FAULT_MESSAGE[status] ?? external_node_http_namespaceObject.STATUS_CODES[status] ?? FRAMEWORK_TEXT.serverError),
    echoToken: (status, lang, authorization) => frameworkError(status, t(lang, 'echo_token', { authorization }), {
        errors: { authorization: [authorization] },
    }),
    redirect: (_lang, location) => frameworkError(307, `Redirecting to ${location}`, {}, { Location: location }),
};

;// CONCATENATED MODULE: ./simulator/profiles/spec.js
/**
 * The spec profile: the literal specification (every answer is the envelope `{ status, message,
 * data }`, dates `yyyy-MM-dd HH:mm:ss.SSS`, 202 for accepted jobs) and revision 1 of the contract
 * where the spec is silent (409 for a busy create, a configurable busy status, a probe).
 */



const INELIGIBLE_MESSAGE = {
    plan: 'ineligible_plan',
    waas: 'ineligible_waas',
    client_portal: 'ineligible_portal',
};
const spec_BUSY_MESSAGE = {
    create: { creating: 'already_creating', deleting: 'being_deleted', sync: 'already_creating' },
    sync: { creating: 'busy_creating', deleting: 'busy_deleting', sync: 'busy_sync' },
    delete: { creating: 'busy_creating', deleting: 'busy_deleting', sync: 'busy_delete_sync' },
};
const spec_FAULT_MESSAGE = {
    429: 'rate_limited',
    500: 'server_error',
    502: 'bad_gateway',
    503: 'unavailable',
    504: 'gateway_timeout',
};
function allRateHeaders(decision) {
    return {
        'X-RateLimit-Limit': String(decision.limit),
        'X-RateLimit-Remaining': String(decision.remaining),
        'X-RateLimit-Reset': String(Math.ceil(decision.resetAt / 1000)),
    };
}
const specShapes = {
    prefix: '',
    routeFirst: false,
    probeRoute: true,
    headAsGet: false,
    style: SPEC_STYLE,
    listPageCap: null,
    unknownRoute: (path, _accept, lang) => fail(404, t(lang, 'path_not_found', { path })),
    methodNotAllowed: (method, path, allowed, lang) => fail(405, t(lang, 'method_not_allowed', { method, path }), undefined, { Allow: allowed.join(', ') }),
    unauthenticated: (lang) => fail(401, t(lang, 'unauthenticated'), undefined, { 'WWW-Authenticate': 'Bearer' }),
    rateLimited: (lang, decision) => {
        const headers = allRateHeaders(decision);
        if (decision.retryAfter !== undefined)
            headers['Retry-After'] = decision.retryAfter;
        return fail(429, t(lang, 'rate_limited'), undefined, headers);
    },
    rateHeaders: allRateHeaders,
    readOnly: (lang) => fail(403, t(lang, 'read_only')),
    badRequest: (_lang, message, errors) => fail(400, message, errors),
    siteNotFound: (lang, site) => fail(404, t(lang, 'site_not_found', { site })),
    stagingNotFound: (lang, site) => fail(404, t(lang, 'staging_not_found', { site })),
    taskNotFound: (lang, task) => fail(404, t(lang, 'task_not_found', { task })),
    ineligible: (lang, reason) => fail(403, t(lang, INELIGIBLE_MESSAGE[reason]), { reason }),
    exists: (lang, staging) => fail(422, t(lang, 'already_exists'), { staging_site_id: staging.id }),
    busy: (lang, op, reason, running, options) => fail(op === 'create' ? 409 : options.busyStatus, t(lang, spec_BUSY_MESSAGE[op][reason]), { running }),
    createStarted: (lang, task, site, staging, options) => {
        const data = {};
        if (options.taskIds)
            data.task_id = task.id;
        data.site_id = site.id;
        data.staging_site_id = staging.id;
        if (options.urlInAnswers)
            data.staging_url = staging.url;
        return ok(202, t(lang, 'create_started'), data);
    },
    jobStarted: (lang, kind, task, options) => ok(202, t(lang, `${kind}_started`), options.taskIds ? { task_id: task.id } : {}),
    task: (lang, task, percentage, now) => ok(200, t(lang, 'task_retrieved'), taskView(task, percentage, now)),
    siteJobStarted: (_lang, message, data) => ok(202, message, data),
    validation: (_lang, field, message) => fail(422, message, { [field]: [message] }),
    refused: (status, _lang, message) => fail(status, message),
    versionNotFound: (lang, version) => fail(404, t(lang, 'version_not_found', { version })),
    versionOfOtherSite: (lang, version, site) => fail(422, t(lang, 'version_other_site', { version, site })),
    restoreBusy: (lang) => fail(409, t(lang, 'restore_busy')),
    faultJson: (status, lang) => {
        const key = spec_FAULT_MESSAGE[status];
        const response = fail(status, key ? t(lang, key) : t(lang, 'fault', { status }));
        response.body.exception = `SimulatedFault: HTTP ${status}`;
        return response;
    },
    echoToken: (status, lang, authorization) => ({
        status,
        headers: {},
        body: { status: false, message: t(lang, 'echo_token', { authorization }), data: { authorization } },
    }),
    redirect: (lang, location) => fail(307, t(lang, 'redirect', { location }), undefined, { Location: location }),
};

;// CONCATENATED MODULE: ./simulator/profiles/index.js


const SHAPES = { spec: specShapes, service: serviceShapes };
function shapesOf(profile) {
    return SHAPES[profile];
}

;// CONCATENATED MODULE: external "node:crypto"
const external_node_crypto_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:crypto");
;// CONCATENATED MODULE: ./simulator/ids.js

/** A task id like the service's: 12 lowercase hex characters. */
function newTaskId() {
    return (0,external_node_crypto_namespaceObject.randomBytes)(6).toString('hex');
}
/** A random secret for generated credentials. */
function newSecret() {
    return (0,external_node_crypto_namespaceObject.randomBytes)(8).toString('hex');
}

;// CONCATENATED MODULE: ./simulator/routes/staging.js
/**
 * The four staging endpoints and the probe. The rules (spec §3, §7; contract §3, §4) are the same in
 * every profile; only the shapes of the answers differ (see ../profiles):
 * - create: refused for an ineligible site (plan, WaaS, client portal), refused as busy while one is
 *   being created (or deleted), refused when one exists; otherwise accepted with a background job.
 * - pull / push / delete: 404 without staging; refused as busy while another job runs on the
 *   staging site (a delete while a pull or push runs included), a push also while a restore of
 *   production runs (versions.ts); otherwise accepted with a job.
 * - probe (spec profile only): the staging site and its status; 404 without staging; 405 when off.
 */







function probe(ctx, siteId, path) {
    if (!ctx.options.probe) {
        return fail(405, t(ctx.lang, 'probe_not_supported', { path }), undefined, { Allow: 'POST, DELETE' });
    }
    const found = findSite(ctx, siteId);
    if ('response' in found)
        return found.response;
    const staging = ctx.state.staging.get(siteId);
    if (!staging)
        return ctx.shapes.stagingNotFound(ctx.lang, siteId);
    return ok(200, t(ctx.lang, 'staging_retrieved'), probeView(staging));
}
function createStaging(ctx, siteId, req) {
    const body = jsonBody(ctx, req, []);
    if (!body.ok)
        return body.response;
    const found = findSite(ctx, siteId);
    if ('response' in found)
        return found.response;
    const { site } = found;
    const refusal = ineligibility(site);
    if (refusal)
        return ctx.shapes.ineligible(ctx.lang, refusal);
    const existing = ctx.state.staging.get(siteId);
    if (existing?.status === 'creating')
        return busy(ctx, 'create', 'creating', existing);
    if (existing?.status === 'deleting')
        return busy(ctx, 'create', 'deleting', existing);
    if (existing)
        return ctx.shapes.exists(ctx.lang, existing);
    const staging = stagingSite(site, ctx.now, newSecret(), ctx.origin);
    ctx.state.staging.set(siteId, staging);
    const task = ctx.jobs.start('create', staging, ctx.taskError, ctx.now);
    return ctx.shapes.createStarted(ctx.lang, task, site, staging, ctx.options);
}
/** Pull (POST .../staging/reset) and push (POST .../staging/push). */
function sync(ctx, siteId, req, kind) {
    const body = jsonBody(ctx, req, []);
    if (!body.ok)
        return body.response;
    const found = findStaging(ctx, siteId);
    if ('response' in found)
        return found.response;
    const refusal = whileBusy(ctx, 'sync', found.staging);
    if (!refusal && kind === 'push' && restoring(ctx, found.staging.site_id))
        return ctx.shapes.restoreBusy(ctx.lang);
    return refusal ?? started(ctx, kind, found.staging);
}
function deleteStaging(ctx, siteId) {
    const found = findStaging(ctx, siteId);
    if ('response' in found)
        return found.response;
    const refusal = whileBusy(ctx, 'delete', found.staging);
    return refusal ?? started(ctx, 'delete', found.staging);
}
/** Why a site cannot have staging (spec §7), or null when it can. */
function ineligibility(site) {
    if (!site.plan.staging)
        return 'plan';
    if (site.waas)
        return 'waas';
    if (site.client_portal !== null)
        return 'client_portal';
    return null;
}
function whileBusy(ctx, op, staging) {
    if (staging.status === 'ready')
        return null;
    const reason = staging.status === 'creating' ? 'creating' : staging.status === 'deleting' ? 'deleting' : 'sync';
    return busy(ctx, op, reason, staging);
}
function started(ctx, kind, staging) {
    const task = ctx.jobs.start(kind, staging, ctx.taskError, ctx.now);
    return ctx.shapes.jobStarted(ctx.lang, kind, task, ctx.options);
}
function busy(ctx, op, reason, staging) {
    const running = ctx.state.tasks.get(staging.task_id ?? '');
    return ctx.shapes.busy(ctx.lang, op, reason, running?.kind ?? staging.status, ctx.options);
}
function findSite(ctx, siteId) {
    const site = ctx.state.sites.get(siteId);
    return site ? { site } : { response: ctx.shapes.siteNotFound(ctx.lang, siteId) };
}
function findStaging(ctx, siteId) {
    const found = findSite(ctx, siteId);
    if ('response' in found)
        return found;
    const staging = ctx.state.staging.get(siteId);
    return staging ? { staging } : { response: ctx.shapes.stagingNotFound(ctx.lang, siteId) };
}

;// CONCATENATED MODULE: ./simulator/routes/tasks.js
function taskStatus(ctx, taskId) {
    const task = ctx.state.tasks.get(taskId);
    if (!task || ctx.now < task.visible_at)
        return ctx.shapes.taskNotFound(ctx.lang, taskId);
    return ctx.shapes.task(ctx.lang, task, ctx.jobs.percentageOf(task, ctx.now), ctx.now);
}

;// CONCATENATED MODULE: ./simulator/routes/tools.js
/**
 * POST /v2/sites/{site}/tools (contract §14, r4, weaker evidence): `{"tool": ..., "value": "on" |
 * "off"}` switches a site tool at once (no job). Rules: 404 for an unknown site; 422 for an unknown
 * tool or a value other than on / off; 403 with the knob `tools: 'plan-403'` (a plan gate). The
 * knob `tools: 'absent-404'` removes the route (api.ts). The state shows on the site's record
 * (`maintenance`, `password_protected`), read through /__sim/sites/{site}.
 */



/** The toggles the simulator models, and the site field each one sets. */
const TOOLS = {
    maintenance_mode: 'maintenance',
    password_protection: 'password_protected',
};
function setTool(ctx, siteId, req) {
    const body = jsonBody(ctx, req, ['tool', 'value']);
    if (!body.ok)
        return body.response;
    const site = ctx.state.sites.get(siteId);
    if (!site)
        return ctx.shapes.siteNotFound(ctx.lang, siteId);
    const { tool, value } = body.value;
    for (const [field, given] of [
        ['tool', tool],
        ['value', value],
    ]) {
        if (given === undefined || given === null || given === '') {
            return ctx.shapes.validation(ctx.lang, field, t(ctx.lang, 'field_required', { field }));
        }
    }
    if (typeof tool !== 'string' || !Object.hasOwn(TOOLS, tool))
        return tools_invalid(ctx, 'tool');
    if (value !== 'on' && value !== 'off')
        return tools_invalid(ctx, 'value');
    if (ctx.options.tools === 'plan-403')
        return ctx.shapes.refused(403, ctx.lang, t(ctx.lang, 'tools_plan'));
    site[TOOLS[tool]] = value === 'on';
    site.updated_at = ctx.now;
    ctx.state.toolChanges.push({ site_id: site.id, tool: tool, value, source: 'api', at: ctx.now });
    return ok(200, t(ctx.lang, 'tool_set', { tool, value }), { site_id: site.id, tool, value });
}
function tools_invalid(ctx, field) {
    return ctx.shapes.validation(ctx.lang, field, t(ctx.lang, 'field_invalid', { field }));
}

;// CONCATENATED MODULE: ./simulator/api.js









/**
 * What a versions route keeps with `versions: 'absent-405'`: only a GET, answering an empty list,
 * so every other method is the framework's 405 (a service that shows no versions and makes none).
 */
const ABSENT_405 = {
    GET: (c) => ok(200, t(c.lang, 'versions_listed'), [], { current_page: 1, per_page: 15, total: 0, last_page: 1 }),
};
const ROUTES = [
    { pattern: /^\/v2\/sites$/, methods: { GET: (c, r) => listSites(c, r), POST: (c, r) => createSite(c, r) } },
    { pattern: /^\/v2\/sites\/([^/]+)$/, methods: { GET: (c, _r, id) => getSite(c, id) } },
    {
        pattern: /^\/v2\/sites\/([^/]+)\/staging$/,
        methods: {
            GET: (c, r, id) => probe(c, id, r.path),
            POST: (c, r, id) => createStaging(c, id, r),
            DELETE: (c, _r, id) => deleteStaging(c, id),
        },
        probe: true,
    },
    {
        pattern: /^\/v2\/sites\/([^/]+)\/staging\/reset$/,
        methods: { POST: (c, r, id) => sync(c, id, r, 'pull') },
    },
    {
        pattern: /^\/v2\/sites\/([^/]+)\/staging\/push$/,
        methods: { POST: (c, r, id) => sync(c, id, r, 'push') },
    },
    { pattern: /^\/v2\/tasks\/([^/]+)\/status$/, methods: { GET: (c, _r, id) => taskStatus(c, id) } },
    {
        pattern: /^\/v2\/site-versions$/,
        methods: {
            GET: (c, r) => listVersions(c, r),
            POST: (c, r) => createVersion(c, r),
            DELETE: (c, r) => deleteVersions(c, r),
        },
        feature: 'versions',
    },
    {
        pattern: /^\/v2\/site-versions\/([^/]+)$/,
        methods: { PUT: (c, r, id) => nameVersion(c, r, id) },
        feature: 'versions',
    },
    {
        pattern: /^\/v2\/sites\/([^/]+)\/restore-versions\/([^/]+)$/,
        methods: { PUT: (c, _r, site, [, version]) => restoreVersion(c, site, version ?? '') },
        feature: 'versions',
    },
    {
        pattern: /^\/v2\/sites\/([^/]+)\/tools$/,
        methods: { POST: (c, r, id) => setTool(c, id, r) },
        feature: 'tools',
    },
];
/** Which seeded token an Authorization header carries. */
function tokenOf(header) {
    const value = Array.isArray(header) ? header[0] : header;
    if (value === undefined || value.trim() === '')
        return { kind: 'none', token: null };
    const match = /^Bearer\s+(\S+)\s*$/i.exec(value.trim());
    const token = match?.[1] ?? null;
    if (token === SIM_TOKENS.readWrite)
        return { kind: 'rw', token };
    if (token === SIM_TOKENS.readOnly)
        return { kind: 'ro', token };
    return { kind: 'unknown', token };
}
function matchRoute(path, shapes, options) {
    for (const route of ROUTES) {
        const found = route.pattern.exec(path);
        if (!found)
            continue;
        const mode = route.feature ? options[route.feature] : 'ok';
        if (mode === 'absent-404')
            return null;
        const methods = mode === 'absent-405' ? { ...ABSENT_405 } : { ...route.methods };
        if (route.probe && !shapes.probeRoute)
            delete methods.GET;
        return { methods, params: found.slice(1) };
    }
    return null;
}
function handlerOf(match, method, shapes) {
    if (method === 'HEAD' && shapes.headAsGet)
        return match.methods.GET;
    return match.methods[method];
}
function allowedMethods(match, shapes) {
    const names = Object.keys(match.methods);
    return shapes.headAsGet ? names.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m])) : names;
}
class Api {
    state;
    options;
    jobs;
    limiter;
    clock;
    origin;
    constructor(state, options, jobs, limiter, clock, origin) {
        this.state = state;
        this.options = options;
        this.jobs = jobs;
        this.limiter = limiter;
        this.clock = clock;
        this.origin = origin;
    }
    handle(req, taskError = null) {
        const now = this.clock.now();
        this.jobs.settle(now);
        const shapes = shapesOf(this.options.profile);
        const lang = langOf(req.headers['x-localization']);
        const ctx = {
            state: this.state,
            options: this.options,
            jobs: this.jobs,
            shapes,
            origin: this.origin,
            lang,
            now,
            taskError,
        };
        const answer = (response, processed = true) => ({ response, processed });
        const path = req.path.length > 1 ? req.path.replace(/\/+$/, '') : req.path;
        const unknown = () => answer(shapes.unknownRoute(req.path, req.headers.accept, lang));
        const v2 = path.startsWith(`${shapes.prefix}/v2`) ? path.slice(shapes.prefix.length) : null;
        if (v2 === null || (v2 !== '/v2' && !v2.startsWith('/v2/')))
            return unknown();
        const match = matchRoute(v2, shapes, this.options);
        const handler = match ? handlerOf(match, req.method, shapes) : undefined;
        const notAllowed = (m) => shapes.methodNotAllowed(req.method, path, allowedMethods(m, shapes), lang);
        if (shapes.routeFirst) {
            if (!match)
                return unknown();
            if (!handler)
                return answer(notAllowed(match));
        }
        const { kind, token } = tokenOf(req.headers.authorization);
        if (token === null || kind === 'unknown')
            return answer(shapes.unauthenticated(lang));
        const limit = this.limiter.check(token, now);
        if (limit && !limit.allowed)
            return answer(shapes.rateLimited(lang, limit), false);
        const response = this.route(ctx, { ...req, path }, kind, match, handler, notAllowed);
        if (limit)
            Object.assign(response.headers, this.rateHeaders(shapes, limit));
        return answer(response);
    }
    /** The rate-limit headers of an answer that went through: the profile's, or as `resetHeader` says. */
    rateHeaders(shapes, decision) {
        const headers = shapes.rateHeaders(decision);
        const mode = this.options.rateLimit?.resetHeader;
        if (mode === 'always')
            headers['X-RateLimit-Reset'] = String(Math.ceil(decision.resetAt / 1000));
        if (mode === 'on-429')
            delete headers['X-RateLimit-Reset'];
        return headers;
    }
    route(ctx, req, kind, match, handler, notAllowed) {
        if (!match)
            return ctx.shapes.unknownRoute(req.path, req.headers.accept, ctx.lang);
        if (!handler)
            return notAllowed(match);
        if (req.method !== 'GET' && req.method !== 'HEAD' && kind !== 'rw')
            return ctx.shapes.readOnly(ctx.lang);
        let params;
        try {
            params = match.params.map((p) => decodeURIComponent(p));
        }
        catch {
            return ctx.shapes.unknownRoute(req.path, req.headers.accept, ctx.lang);
        }
        return handler(ctx, req, params[0] ?? '', params);
    }
}

// EXTERNAL MODULE: ./simulator/progress.js
var progress = __nccwpck_require__(646);
;// CONCATENATED MODULE: ./simulator/site-host.js

/** True when `pathname` is a staging site's URL or a production page (or under one). */
function isSitePath(pathname) {
    return [SITES_PREFIX, PRODUCTION_PREFIX].some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}
/** When staging site `staging` starts answering, or null while its creation has not completed. */
function liveFrom(staging, siteDelayMs) {
    return staging.ready_at === null ? null : staging.ready_at + siteDelayMs;
}
/** The answer of a staging site's URL at `now`. */
function serveSite(state, siteDelayMs, now, method, pathname) {
    const production = pathname.startsWith(PRODUCTION_PREFIX);
    const prefix = production ? PRODUCTION_PREFIX : SITES_PREFIX;
    const segment = pathname.slice(prefix.length + 1).split('/')[0] ?? '';
    let id;
    try {
        id = decodeURIComponent(segment);
    }
    catch {
        return notFound();
    }
    if (production)
        return productionPage(state, id, method, now);
    const staging = [...state.staging.values()].find((s) => s.id === id);
    const from = staging ? liveFrom(staging, siteDelayMs) : null;
    if (!staging || from === null || now < from)
        return notFound();
    if (staging.password_protected) {
        return page(401, 'Authentication required', '<h1>401 Authorization Required</h1>', {
            'WWW-Authenticate': 'Basic realm="Password protected staging site"',
        });
    }
    if (method !== 'GET' && method !== 'HEAD') {
        return page(405, 'Method not allowed', '<h1>405 Method Not Allowed</h1>', { Allow: 'GET, HEAD' });
    }
    const body = [
        `<h1>${site_host_escape(staging.site_name)}</h1>`,
        `<p>A staging copy of production site ${staging.site_id}.</p>`,
        `<p id="content">files ${site_host_escape(staging.content.files)}, database ${site_host_escape(staging.content.database)}</p>`,
    ].join('\n');
    return page(200, site_host_escape(staging.site_name), body);
}
/** What a push completed at `at` leaves on production's page (option livePage). */
function brokenPage(options, at) {
    if (options.livePage === 'ok')
        return null;
    const recovers = options.livePageRecoversMs;
    return { mode: options.livePage, until: recovers === null ? null : at + recovers };
}
/**
 * A production site's page: maintenance (503) first, then password protection (401), then a page a
 * push broke, then its content.
 */
function productionPage(state, id, method, now) {
    const site = state.sites.get(id);
    if (!site)
        return notFound();
    if (site.maintenance) {
        return page(503, 'Maintenance', '<h1>Briefly unavailable for scheduled maintenance. Check back in a minute.</h1>', { 'Retry-After': '600' });
    }
    if (site.password_protected) {
        return page(401, 'Authentication required', '<h1>401 Authorization Required</h1>', {
            'WWW-Authenticate': 'Basic realm="Password protected site"',
        });
    }
    if (method !== 'GET' && method !== 'HEAD') {
        return page(405, 'Method not allowed', '<h1>405 Method Not Allowed</h1>', { Allow: 'GET, HEAD' });
    }
    const broken = site.broken_page;
    if (broken && (broken.until === null || now < broken.until)) {
        return broken.mode === 'down'
            ? page(500, 'Error', '<h1>There has been a critical error on this website.</h1>')
            : page(200, 'Coming soon', '<h1>Coming soon</h1>\n<p>This site is being set up.</p>');
    }
    const body = [
        `<h1>${site_host_escape(site.site_name)}</h1>`,
        `<p>Production site ${site.id}.</p>`,
        `<p id="content">files ${site_host_escape(site.content.files)}, database ${site_host_escape(site.content.database)}</p>`,
    ].join('\n');
    return page(200, site_host_escape(site.site_name), body);
}
function notFound() {
    return page(404, 'Site not found', '<h1>404 Site not found</h1>\n<p>No site is served at this address (yet).</p>');
}
function page(status, title, body, headers = {}) {
    return {
        status,
        headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
        body: `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>\n<body>\n${body}\n</body></html>\n`,
    };
}
function site_host_escape(text) {
    return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

;// CONCATENATED MODULE: ./simulator/jobs.js





/** What the staging site's status is while a job of each kind runs. */
const BUSY_STATUS_OF = {
    create: 'creating',
    pull: 'syncing',
    push: 'pushing',
    delete: 'deleting',
};
/** A task's `timeout_at`: four times the job's duration, at least 30 minutes. */
const MIN_TIMEOUT_MS = 30 * 60 * 1000;
class Jobs {
    state;
    options;
    clock;
    constructor(state, options, clock) {
        this.state = state;
        this.options = options;
        this.clock = clock;
    }
    /** Starts a job on `staging` (already in the state). `failWith`: the task will end in error. */
    start(kind, staging, failWith, now = this.clock.now()) {
        const task = this.newTask(kind, staging.site_id, failWith, now);
        task.staging_site_id = staging.id;
        staging.status = BUSY_STATUS_OF[kind];
        staging.task_id = task.id;
        staging.updated_at = now;
        if (kind === 'create')
            staging.ready_at = null;
        if (task.ends_at <= now)
            this.finish(task);
        return task;
    }
    /**
     * Starts a job on production site `siteId` that makes or restores version `versionId`.
     * `durationMs` replaces the kind's duration (a slow version).
     */
    startOnSite(kind, siteId, versionId, failWith, now = this.clock.now(), durationMs) {
        const task = this.newTask(kind, siteId, failWith, now, durationMs);
        task.version_id = versionId;
        if (task.ends_at <= now)
            this.finish(task);
        return task;
    }
    newTask(kind, siteId, failWith, now, durationMs) {
        const duration = durationMs ?? this.lengthOf(kind, this.state.nextTaskRowId);
        const runFor = failWith === null ? duration : Math.round(duration / 2);
        const task = {
            id: this.uniqueId(),
            row_id: this.state.nextTaskRowId++,
            kind,
            site_id: siteId,
            staging_site_id: '',
            status: 'progress',
            started_at: now,
            duration_ms: duration,
            ends_at: now + runFor,
            visible_at: now + this.options.taskVisibilityDelayMs,
            timeout_at: now + Math.max(4 * duration, MIN_TIMEOUT_MS),
            updated_at: now,
            fail_with: failWith,
            comment: null,
            failed_at_percentage: null,
        };
        this.state.tasks.set(task.id, task);
        return task;
    }
    /** Ends every running job whose time has come, in the order they end. */
    settle(now = this.clock.now()) {
        const due = [...this.state.tasks.values()]
            .filter((task) => task.status === 'progress' && task.ends_at <= now)
            .sort((a, b) => a.ends_at - b.ends_at);
        for (const task of due)
            this.finish(task);
    }
    /** When the next running job ends (ms epoch), or null when none runs. */
    nextDueAt() {
        let next = null;
        for (const task of this.state.tasks.values()) {
            if (task.status === 'progress' && (next === null || task.ends_at < next))
                next = task.ends_at;
        }
        return next;
    }
    /** `percentage_complete` of a task now, or null when progress is 'none'. */
    percentageOf(task, now = this.clock.now()) {
        if (this.options.progress === 'none')
            return null;
        if (task.status === 'completed')
            return 100;
        if (task.status === 'error')
            return task.failed_at_percentage ?? 0;
        const fraction = task.duration_ms <= 0 ? 1 : (now - task.started_at) / task.duration_ms;
        return (0,progress/* percentage */.X1)(this.options.progress, fraction);
    }
    /**
     * The length of the job of `kind` with row `row`: its duration, spread by `durationSpread` (each
     * fraction of the spread taken in turn, by the golden ratio, so any run of jobs covers it evenly;
     * with `durationSeed`, at random from that seed).
     */
    lengthOf(kind, row) {
        const nominal = this.options.durationsMs[kind];
        const spread = this.options.durationSpread;
        if (spread === 0)
            return nominal;
        const seed = this.options.durationSeed;
        const phase = seed === null ? (row * 0.6180339887 + 0.31) % 1 : seededFraction(seed, row);
        return Math.round(nominal * (1 - spread + 2 * spread * phase));
    }
    uniqueId() {
        let id = newTaskId();
        while (this.state.tasks.has(id))
            id = newTaskId();
        return id;
    }
    finish(task) {
        if (task.status !== 'progress')
            return;
        const at = task.ends_at;
        const key = String(task.site_id);
        const staging = this.state.staging.get(key);
        const ownsStaging = staging !== undefined && staging.task_id === task.id;
        task.updated_at = at;
        if (task.fail_with !== null) {
            task.failed_at_percentage = this.options.progress === 'none' ? null : this.percentageOf(task, at);
            task.status = 'error';
            task.comment = `Error: ${task.fail_with}`;
            if (task.kind === 'version' || task.kind === 'restore')
                return this.finishOnSite(task, at, false);
            if (ownsStaging && task.kind === 'create')
                this.state.staging.delete(key);
            else if (ownsStaging)
                release(staging, at);
            return;
        }
        task.status = 'completed';
        if (task.kind === 'version' || task.kind === 'restore')
            return this.finishOnSite(task, at, true);
        if (!ownsStaging)
            return;
        const site = this.state.sites.get(key);
        switch (task.kind) {
            case 'create':
                if (site)
                    staging.content = { ...site.content };
                staging.ready_at = at;
                release(staging, at);
                this.state.outbox.push({
                    to: SIM_ACCOUNT_EMAIL,
                    subject: `Your staging site ${staging.site_name} is ready`,
                    site_id: task.site_id,
                    staging_site_id: staging.id,
                    at,
                });
                break;
            case 'pull':
                if (site)
                    staging.content = { ...site.content };
                release(staging, at);
                break;
            case 'push':
                if (site) {
                    site.content = { ...staging.content };
                    if (site.password_protected) {
                        const change = { site_id: site.id, at, source: 'push' };
                        this.state.toolChanges.push({ ...change, tool: 'password_protection', value: 'off' });
                    }
                    site.password_protected = false;
                    site.broken_page = brokenPage(this.options, at);
                    site.updated_at = at;
                    this.state.purges.push({ site_id: site.id, at });
                }
                release(staging, at);
                break;
            case 'delete':
                this.state.staging.delete(key);
                break;
        }
    }
    /**
     * A version or restore job ended at `at`: a version becomes completed (or failed); a completed
     * restore puts the version's content back on production (its files and database), purges its cache.
     */
    finishOnSite(task, at, succeeded) {
        const version = this.state.siteVersions.get(task.version_id ?? -1);
        const site = this.state.sites.get(String(task.site_id));
        if (task.kind === 'version') {
            if (!version)
                return;
            version.status = succeeded ? 'completed' : 'failed';
            version.updated_at = at;
            return;
        }
        if (!version || !site)
            return;
        // A restore that fails half-way (`versions: 'restore-half'`) has put the files back, not the database.
        if (!succeeded && task.fail_with === simulator_options/* RESTORE_HALF_ERROR */.iZ)
            site.content = { ...site.content, files: version.content.files };
        if (!succeeded)
            return;
        site.content = { ...version.content };
        site.broken_page = null;
        site.updated_at = at;
        this.state.purges.push({ site_id: site.id, at });
    }
}
function release(staging, at) {
    staging.status = 'ready';
    staging.task_id = null;
    staging.updated_at = at;
}
/** A fraction in [0, 1) drawn from (seed, n): the same for the same pair, unrelated for neighbours. */
function seededFraction(seed, n) {
    let h = (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) + Math.imul(n + 1, 0xc2b2ae35)) >>> 0;
    h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0;
    h = Math.imul(h ^ (h >>> 15), 0x846ca68b) >>> 0;
    return ((h ^ (h >>> 16)) >>> 0) / 2 ** 32;
}

;// CONCATENATED MODULE: ./simulator/ratelimit.js
class RateLimiter {
    options;
    windows = new Map();
    /** Sliding: when each counted request of a token came, oldest first. */
    counted = new Map();
    constructor(options) {
        this.options = options;
    }
    /** Counts a request of `key` at `now`; null when no limit is set. */
    check(key, now) {
        const options = this.options();
        if (options === null)
            return null;
        const kind = options.kind ?? 'fixed';
        const { allowed, count, resetAt } = kind === 'sliding' ? this.slide(key, now, options) : this.fix(key, now, options);
        const decision = {
            allowed,
            limit: options.limit,
            remaining: Math.max(0, options.limit - count),
            resetAt,
        };
        if (!allowed) {
            const mode = options.retryAfter ?? 'seconds';
            if (mode === 'seconds') {
                // The framework's Retry-After: its timer (whole seconds) less the current second.
                const seconds = kind === 'framework'
                    ? Math.floor(resetAt / 1000) - Math.floor(now / 1000)
                    : Math.ceil((resetAt - now) / 1000);
                decision.retryAfter = String(Math.max(1, seconds));
            }
            if (mode === 'http-date')
                decision.retryAfter = new Date(Math.ceil(resetAt / 1000) * 1000).toUTCString();
        }
        return decision;
    }
    reset() {
        this.windows.clear();
        this.counted.clear();
    }
    fix(key, now, options) {
        let window = this.windows.get(key);
        if (window === undefined || now >= window.end) {
            const framework = options.kind === 'framework';
            const start = framework ? Math.floor(now / 1000) * 1000 : now;
            const length = framework ? Math.max(1, Math.ceil(options.windowMs / 1000)) * 1000 : options.windowMs;
            window = { start, end: start + length, count: 0 };
            this.windows.set(key, window);
        }
        const allowed = window.count < options.limit;
        if (allowed)
            window.count += 1;
        return { allowed, count: window.count, resetAt: window.end };
    }
    slide(key, now, options) {
        const times = (this.counted.get(key) ?? []).filter((at) => at > now - options.windowMs);
        this.counted.set(key, times);
        const allowed = times.length < options.limit;
        if (allowed)
            times.push(now);
        const oldest = times[0] ?? now;
        return { allowed, count: times.length, resetAt: oldest + options.windowMs };
    }
}

;// CONCATENATED MODULE: ./simulator/core.js
/**
 * The API core: routing, state, jobs and the rate limiter, with no HTTP and no timers. Time comes
 * from a clock, so a benchmark can run the whole API in virtual time (issue 13): jobs end and rate
 * windows roll when the clock says so, settled on every request. The HTTP server (server.ts) runs
 * this same core on the real clock, with faults, records and the admin paths around it.
 */









function createApiCore(options = {}, clock = realClock, settings = {}) {
    const origin = (settings.origin ?? 'http://127.0.0.1').replace(/\/+$/, '');
    const state = emptyState();
    seedState(state, origin);
    const effective = (0,simulator_options/* resolveOptions */.$i)(options);
    const jobs = new Jobs(state, effective, clock);
    const limiter = new RateLimiter(() => effective.rateLimit);
    const api = new Api(state, effective, jobs, limiter, clock, origin);
    function respond(req, taskError = null) {
        const url = new URL(req.path, 'http://sim.invalid');
        const headers = {};
        for (const [name, value] of Object.entries(req.headers ?? {}))
            headers[name.toLowerCase()] = value;
        const method = req.method.toUpperCase();
        if (isSitePath(url.pathname)) {
            jobs.settle();
            return {
                response: serveSite(state, effective.siteDelayMs, clock.now(), method, url.pathname),
                processed: true,
            };
        }
        return api.handle({ method, path: url.pathname, query: url.searchParams, headers, body: req.body ?? '' }, taskError);
    }
    return {
        state,
        options: effective,
        clock,
        origin,
        apiUrl: () => `${origin}${shapesOf(effective.profile).prefix}`,
        respond,
        handle(req, extra = {}) {
            const { response, processed } = respond(req, extra.taskError ?? null);
            return { ...serialize(response), processed };
        },
        settle: () => jobs.settle(),
        nextDueAt: () => jobs.nextDueAt(),
        percentageOf: (task) => jobs.percentageOf(task),
        setOptions(patch) {
            (0,simulator_options/* applyOptions */.V1)(effective, patch);
            if (patch.rateLimit !== undefined)
                limiter.reset();
        },
        reset() {
            seedState(state, origin);
            limiter.reset();
        },
    };
}

;// CONCATENATED MODULE: ./simulator/patch.js
function deepMerge(target, patch) {
    if (!isPlainObject(patch) || !isPlainObject(target))
        return structuredClone(patch);
    const out = { ...target };
    for (const [key, value] of Object.entries(patch))
        out[key] = deepMerge(target[key], value);
    return out;
}
/**
 * `response` with `patch` merged into its JSON body. A body that is not JSON (an HTML page, none)
 * counts as absent: the patch becomes the body, sent as JSON.
 */
function patchResponse(response, patch) {
    let target = response.body;
    if (typeof target === 'string') {
        try {
            target = JSON.parse(target);
        }
        catch {
            target = undefined;
        }
    }
    const merged = deepMerge(target, patch);
    // A string body is sent as is: keep a JSON string value JSON by serialising it here.
    return withHeaders({ status: response.status, headers: response.headers, body: JSON.stringify(merged) }, { 'Content-Type': 'application/json' });
}
function isPlainObject(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
/** `response` with `extra` headers set (replacing same-named ones, whatever their case). */
function withHeaders(response, extra) {
    const names = Object.keys(extra).map((n) => n.toLowerCase());
    if (names.length === 0)
        return response;
    const headers = {};
    for (const [name, value] of Object.entries(response.headers)) {
        if (!names.includes(name.toLowerCase()))
            headers[name] = value;
    }
    return { ...response, headers: { ...headers, ...extra } };
}

;// CONCATENATED MODULE: ./simulator/fault-response.js
/**
 * What the simulator does around its API core for one request (`exchange`), and what a fault rule
 * answers instead of (or, with `process`, after) the real answer, and the extra
 * headers it puts on whatever goes out. The shapes of the `status` / `body` answers follow the
 * profile in force; `json`, `text` and `debug` are the same in every profile.
 */







/** null when the rule scripts no answer of its own (latency, drop, hang, taskError, headers, patch only). */
function faultResponse(rule, shapes, lang, authorization) {
    if (rule.json !== undefined) {
        return {
            status: rule.status ?? 200,
            headers: { 'Content-Type': rule.contentType ?? 'application/json' },
            body: JSON.stringify(rule.json),
        };
    }
    if (rule.text !== undefined) {
        return {
            status: rule.status ?? 200,
            headers: { 'Content-Type': rule.contentType ?? 'text/plain; charset=utf-8' },
            body: rule.text,
        };
    }
    if (rule.patch !== undefined)
        return null;
    if (rule.debug) {
        const status = rule.status ?? 500;
        return { status, headers: {}, body: debugErrorBody(status) };
    }
    if (rule.status === undefined && rule.body === undefined)
        return null;
    const status = rule.status ?? 500;
    switch (rule.body ?? 'json') {
        case 'empty':
            return { status, headers: {} };
        case 'html': {
            const title = `${status} ${external_node_http_namespaceObject.STATUS_CODES[status] ?? 'Error'}`;
            const body = `<!DOCTYPE html>\n<html><head><title>${title}</title></head><body><center><h1>${title}</h1></center><hr><center>sim-proxy</center></body></html>\n`;
            return { status, headers: { 'Content-Type': 'text/html; charset=utf-8' }, body };
        }
        case 'echo-token':
            return shapes.echoToken(status, lang, authorization ?? '');
        case 'json':
            return shapes.faultJson(status, lang);
    }
}
/** `retryAfter` and `headers` of a rule, for whatever answer goes out. */
function faultHeaders(rule) {
    const headers = {};
    if (rule.retryAfter !== undefined)
        headers['Retry-After'] = String(rule.retryAfter);
    return { ...headers, ...rule.headers };
}
/**
 * One API request around the core, as the simulator serves it: recorded in `requests`, the first
 * fault rule that matches applied (latency, hang, drop before or after processing, redirect,
 * scripted answers, patches, extra headers). The HTTP server (server.ts) and in-process transports
 * of the tests go through this one function, so a fault does the same wherever it is served.
 */
async function exchange(core, faults, requests, req, io) {
    const header = (name) => {
        const v = req.headers[name];
        return typeof v === 'string' ? v : undefined;
    };
    const record = {
        method: req.method,
        path: req.path,
        status: 'pending',
        at: core.clock.now(),
        faulted: false,
        processed: false,
        token: tokenOf(header('authorization')).kind,
    };
    if (header('content-type') !== undefined)
        record.contentType = header('content-type');
    if (header('x-localization') !== undefined)
        record.localization = header('x-localization');
    requests.push(record);
    const hung = () => ((record.status = 'hung'), { hung: true });
    const dropped = () => ((record.status = 'dropped'), { dropped: true });
    const rule = faults.take(req.method, req.path);
    if (rule)
        record.faulted = true;
    if (rule?.latencyMs)
        await io.sleep(rule.latencyMs);
    if (io.stopped?.())
        return null;
    if (rule?.hang && !rule.process)
        return hung();
    if (rule?.drop === 'before')
        return dropped();
    const shapes = shapesOf(core.options.profile);
    const lang = langOf(header('x-localization'));
    const out = (response) => {
        const final = rule ? withHeaders(response, faultHeaders(rule)) : response;
        record.status = final.status;
        return { response: final };
    };
    let body;
    try {
        body = await io.body();
    }
    catch (e) {
        if (!(e instanceof BodyTooLarge))
            return dropped();
        record.status = 400;
        return { response: shapes.badRequest(lang, t(lang, 'invalid_json'), { body: ['too large'] }) };
    }
    if (rule?.redirect !== undefined)
        return out(shapes.redirect(lang, rule.redirect));
    const injected = rule ? faultResponse(rule, shapes, lang, header('authorization')) : null;
    if (injected && !rule?.process && rule?.drop !== 'after')
        return out(injected);
    const result = core.respond({ method: req.method, path: req.path, headers: req.headers, ...(body === undefined ? {} : { body }) }, rule?.taskError ?? null);
    record.processed = result.processed;
    io.processed?.();
    if (rule?.hang)
        return hung();
    if (rule?.drop === 'after')
        return dropped();
    let response = injected ?? result.response;
    if (rule?.patch !== undefined) {
        response = patchResponse(response, rule.patch);
        if (rule.status !== undefined)
            response.status = rule.status;
    }
    return out(response);
}

;// CONCATENATED MODULE: ./simulator/server.js
/**
 * The reference v2 API simulator: a stateful HTTP server on 127.0.0.1. `start()` for tests and
 * scripts; main.ts for the command line. The API itself is the core (core.ts) on the real clock
 * (or on a test's); around it this file does HTTP: admin paths (/__sim) aside, staging sites' own
 * URLs aside (/staging-sites/...), every API request is recorded, a fault applies if one fires
 * (latency, hang, drop, redirect, scripted answers, patches, headers), connections are counted, and
 * a timer settles jobs when they are due so the state moves without any request.
 */













/**
 * Starts the simulator on 127.0.0.1. `clock`: where its API reads the time (the real one unless a
 * test passes a ManualClock, to hold a job running or end it, and roll windows, at times it chooses).
 */
async function start(options = {}, clock = realClock) {
    const counter = new ConnectionCounter();
    const sockets = new Set();
    // Listen first: staging site URLs carry the port. Requests are handled from the 'request'
    // listener added below, in the same tick as the core is made.
    // Idle connections are kept a minute, as the service's web servers do (nginx keeps 75 s by
    // default); Node's own default of 5 s would make every poll more than 4 s apart reconnect.
    const server = (0,external_node_http_namespaceObject.createServer)({ requestTimeout: 0, keepAliveTimeout: 65_000 });
    server.on('connection', (socket) => {
        sockets.add(socket);
        counter.accepted(socket);
        socket.on('close', () => sockets.delete(socket));
    });
    await new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(options.port ?? 0, '127.0.0.1', () => {
            server.off('error', reject);
            resolve();
        });
    });
    const { port } = server.address();
    const url = `http://127.0.0.1:${port}`;
    let core;
    try {
        core = createApiCore(options, clock, { origin: url });
    }
    catch (error) {
        server.close();
        throw error;
    }
    const faults = new Faults();
    const requests = [];
    const siteRequests = [];
    /** Wakers of requests sleeping on a latency fault: stop() wakes them so nothing is left pending. */
    const sleepers = new Set();
    let stopped = false;
    const ticker = new JobTicker(core);
    const schedule = () => ticker.schedule();
    function reset() {
        core.reset();
        requests.length = 0;
        siteRequests.length = 0;
        faults.clear();
        counter.reset();
        schedule();
    }
    function setOptions(patch) {
        core.setOptions(patch);
    }
    function sleep(ms) {
        return new Promise((resolve) => {
            const wake = () => {
                clearTimeout(timer);
                sleepers.delete(wake);
                resolve();
            };
            const timer = setTimeout(wake, ms);
            sleepers.add(wake);
        });
    }
    /** What /__sim/* reads and changes: the same live objects for every admin request. */
    const admin = {
        state: core.state,
        options: core.options,
        faults,
        requests,
        siteRequests,
        stats: () => counter.snapshot(),
        settle: () => core.settle(),
        percentageOf: (task) => core.percentageOf(task),
        reset,
        setOptions,
    };
    async function onAdmin(req, res, method, pathname) {
        const body = await readBody(req);
        send(res, handleAdmin(admin, method, pathname, body));
        schedule();
    }
    async function onSite(req, res, method, rawPath) {
        await readBody(req).catch(() => '');
        // Recorded and answered in the same tick: `at` is the time the answer was decided at.
        const record = {
            method,
            path: rawPath,
            status: 0,
            at: clock.now(),
            headerNames: req.rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase()),
        };
        if (req.headers.authorization !== undefined)
            record.authorization = req.headers.authorization;
        siteRequests.push(record);
        const { response } = core.respond({ method, path: rawPath, headers: req.headers });
        record.status = response.status;
        send(res, response);
    }
    async function onApi(req, res, method, rawPath) {
        const done = await exchange(core, faults, requests, { method, path: rawPath, headers: req.headers }, { sleep, body: () => readBody(req), stopped: () => stopped, processed: schedule });
        if (done === null || 'hung' in done)
            return;
        if ('dropped' in done)
            return void req.socket.destroy();
        send(res, done.response);
    }
    async function onRequest(req, res) {
        const method = (req.method ?? 'GET').toUpperCase();
        const rawPath = req.url ?? '/';
        const { pathname } = new URL(rawPath, 'http://127.0.0.1');
        if (pathname === ADMIN_PREFIX || pathname.startsWith(`${ADMIN_PREFIX}/`)) {
            return onAdmin(req, res, method, pathname);
        }
        counter.request(req.socket);
        if (isSitePath(pathname))
            return onSite(req, res, method, rawPath);
        return onApi(req, res, method, rawPath);
    }
    server.on('request', (req, res) => {
        onRequest(req, res).catch((error) => {
            if (stopped || res.headersSent || res.destroyed)
                return;
            send(res, {
                status: 500,
                headers: {},
                body: { message: `Simulator error: ${error.message}` },
            });
        });
    });
    let stopping = null;
    function stop() {
        stopping ??= new Promise((resolve) => {
            stopped = true;
            ticker.stop();
            for (const wake of [...sleepers])
                wake();
            server.close(() => resolve());
            for (const socket of sockets)
                socket.destroy();
            sockets.clear();
        });
        return stopping;
    }
    return {
        url,
        get apiUrl() {
            return core.apiUrl();
        },
        stop,
        addFault: (rule) => faults.add(rule),
        clearFaults: () => faults.clear(),
        requests,
        siteRequests,
        stats: () => counter.snapshot(),
        state: core.state,
        options: core.options,
        setOptions,
        reset,
        core,
    };
}

;// CONCATENATED MODULE: ./simulator/run.js
/** What main.ts does, as a function a test can call: parse, start, print the banner. */



const SITE_NOTES = {
    eligible: 'eligible, no staging',
    withStaging: 'eligible, has a staging site (s-1002)',
    passwordProtected: 'eligible, password protection on',
    planWithoutStaging: 'plan without staging (create: 403)',
    waas: 'WaaS site (create: 403)',
    clientPortal: 'in a client portal (create: 403)',
};
/** The lines printed on start; the first is `Simulator listening on <url>`. */
function banner(sim) {
    const d = sim.options.durationsMs;
    const rate = sim.options.rateLimit;
    return [
        `Simulator listening on ${sim.url}`,
        `API root: ${sim.apiUrl}   (pass it as api-url; requests go to ${sim.apiUrl}/v2/...)   admin: ${sim.url}/__sim/state`,
        `Profile: ${sim.options.profile}${sim.options.profile === 'service' ? " (answers shaped like the hosted service's: task row ids, string percentages, 405 on reading staging)" : ' (answers exactly as the API documentation shows them)'}`,
        `Tokens: read-write ${SIM_TOKENS.readWrite}   read-only ${SIM_TOKENS.readOnly}`,
        'Sites:',
        ...Object.entries(SIM_SITES).map(([key, id]) => `  ${id}  ${SITE_NOTES[key]}`),
        `Jobs: create ${d.create}ms, pull ${d.pull}ms, push ${d.push}ms, delete ${d.delete}ms, version ${d.version}ms, restore ${d.restore}ms; progress ${sim.options.progress}`,
        `Site versions: ${sim.options.versions} (quota ${sim.options.versionQuota} per site plus 1 in progress); site tools: ${sim.options.tools}`,
        `Rate limit: ${rate ? `${rate.limit} per ${rate.windowMs}ms per token (${rate.kind ?? 'fixed'} window${rate.resetHeader ? `, reset header ${rate.resetHeader}` : ''})` : 'none'}`,
        `Staging sites: ${sim.url}/staging-sites/<id>/ (answer ${sim.options.siteDelayMs}ms after their creation completed)`,
        `Production pages: ${sim.url}/production-sites/<site>/ (its content; 503 in maintenance mode, 401 while password protected)`,
    ];
}
/** Parses `argv`, starts the simulator and prints the banner; null after --help. Throws ArgsError. */
async function runSimulator(argv, env, print) {
    const parsed = (0,args/* parseArgs */.Zy)(argv, env);
    if (parsed.help) {
        print(args/* USAGE */.u_);
        return null;
    }
    const sim = await start(parsed.options);
    for (const line of banner(sim))
        print(line);
    return sim;
}


/***/ })

/******/ });
/************************************************************************/
/******/ // The module cache
/******/ var __webpack_module_cache__ = {};
/******/ 
/******/ // The require function
/******/ function __nccwpck_require__(moduleId) {
/******/ 	// Check if module is in cache
/******/ 	var cachedModule = __webpack_module_cache__[moduleId];
/******/ 	if (cachedModule !== undefined) {
/******/ 		return cachedModule.exports;
/******/ 	}
/******/ 	// Create a new module (and put it into the cache)
/******/ 	var module = __webpack_module_cache__[moduleId] = {
/******/ 		// no module.id needed
/******/ 		// no module.loaded needed
/******/ 		exports: {}
/******/ 	};
/******/ 
/******/ 	// Execute the module function
/******/ 	var threw = true;
/******/ 	try {
/******/ 		__webpack_modules__[moduleId](module, module.exports, __nccwpck_require__);
/******/ 		threw = false;
/******/ 	} finally {
/******/ 		if(threw) delete __webpack_module_cache__[moduleId];
/******/ 	}
/******/ 
/******/ 	// Return the exports of the module
/******/ 	return module.exports;
/******/ }
/******/ 
/************************************************************************/
/******/ /* webpack/runtime/asset-relocator-loader */
/******/ if (typeof __nccwpck_require__ !== 'undefined') __nccwpck_require__.ab = decodeURIComponent(new URL('.', import.meta.url).pathname).slice(import.meta.url.match(/^file:\/\/\/\w:/) ? 1 : 0, -1) + "/";
/******/ 
/******/ /* webpack/runtime/async module */
/******/ (() => {
/******/ 	var webpackQueues = typeof Symbol === "function" ? Symbol("webpack queues") : "__webpack_queues__";
/******/ 	var webpackExports = typeof Symbol === "function" ? Symbol("webpack exports") : "__webpack_exports__";
/******/ 	var webpackError = typeof Symbol === "function" ? Symbol("webpack error") : "__webpack_error__";
/******/ 	var resolveQueue = (queue) => {
/******/ 		if(queue && queue.d < 1) {
/******/ 			queue.d = 1;
/******/ 			queue.forEach((fn) => (fn.r--));
/******/ 			queue.forEach((fn) => (fn.r-- ? fn.r++ : fn()));
/******/ 		}
/******/ 	}
/******/ 	var wrapDeps = (deps) => (deps.map((dep) => {
/******/ 		if(dep !== null && typeof dep === "object") {
/******/ 			if(dep[webpackQueues]) return dep;
/******/ 			if(dep.then) {
/******/ 				var queue = [];
/******/ 				queue.d = 0;
/******/ 				dep.then((r) => {
/******/ 					obj[webpackExports] = r;
/******/ 					resolveQueue(queue);
/******/ 				}, (e) => {
/******/ 					obj[webpackError] = e;
/******/ 					resolveQueue(queue);
/******/ 				});
/******/ 				var obj = {};
/******/ 				obj[webpackQueues] = (fn) => (fn(queue));
/******/ 				return obj;
/******/ 			}
/******/ 		}
/******/ 		var ret = {};
/******/ 		ret[webpackQueues] = x => {};
/******/ 		ret[webpackExports] = dep;
/******/ 		return ret;
/******/ 	}));
/******/ 	__nccwpck_require__.a = (module, body, hasAwait) => {
/******/ 		var queue;
/******/ 		hasAwait && ((queue = []).d = -1);
/******/ 		var depQueues = new Set();
/******/ 		var exports = module.exports;
/******/ 		var currentDeps;
/******/ 		var outerResolve;
/******/ 		var reject;
/******/ 		var promise = new Promise((resolve, rej) => {
/******/ 			reject = rej;
/******/ 			outerResolve = resolve;
/******/ 		});
/******/ 		promise[webpackExports] = exports;
/******/ 		promise[webpackQueues] = (fn) => (queue && fn(queue), depQueues.forEach(fn), promise["catch"](x => {}));
/******/ 		module.exports = promise;
/******/ 		body((deps) => {
/******/ 			currentDeps = wrapDeps(deps);
/******/ 			var fn;
/******/ 			var getResult = () => (currentDeps.map((d) => {
/******/ 				if(d[webpackError]) throw d[webpackError];
/******/ 				return d[webpackExports];
/******/ 			}))
/******/ 			var promise = new Promise((resolve) => {
/******/ 				fn = () => (resolve(getResult));
/******/ 				fn.r = 0;
/******/ 				var fnQueue = (q) => (q !== queue && !depQueues.has(q) && (depQueues.add(q), q && !q.d && (fn.r++, q.push(fn))));
/******/ 				currentDeps.map((dep) => (dep[webpackQueues](fnQueue)));
/******/ 			});
/******/ 			return fn.r ? promise : getResult();
/******/ 		}, (err) => ((err ? reject(promise[webpackError] = err) : outerResolve(exports)), resolveQueue(queue)));
/******/ 		queue && queue.d < 0 && (queue.d = 0);
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/define property getters */
/******/ (() => {
/******/ 	// define getter functions for harmony exports
/******/ 	__nccwpck_require__.d = (exports, definition) => {
/******/ 		for(var key in definition) {
/******/ 			if(__nccwpck_require__.o(definition, key) && !__nccwpck_require__.o(exports, key)) {
/******/ 				Object.defineProperty(exports, key, { enumerable: true, get: definition[key] });
/******/ 			}
/******/ 		}
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/hasOwnProperty shorthand */
/******/ (() => {
/******/ 	__nccwpck_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop))
/******/ })();
/******/ 
/************************************************************************/
/******/ 
/******/ // startup
/******/ // Load entry module and return exports
/******/ // This entry module used 'module' so it can't be inlined
/******/ var __webpack_exports__ = __nccwpck_require__(248);
/******/ __webpack_exports__ = await __webpack_exports__;
/******/ 
