#!/usr/bin/env node
import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ var __webpack_modules__ = ({

/***/ 297:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Zy: () => (/* binding */ parseArgs),
/* harmony export */   s6: () => (/* binding */ ArgsError),
/* harmony export */   u_: () => (/* binding */ USAGE)
/* harmony export */ });
/* unused harmony export parseDuration */
/* harmony import */ var _options_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(24);
/** Command-line arguments of the simulator (main.ts), parsed without side effects. */

class ArgsError extends Error {
}
const USAGE = `Usage: npm run simulator -- [options]

Runs the reference v2 API simulator on 127.0.0.1.

Options:
  --port N                   port (default: $PORT, else 0 = a free port)
  --realistic                realistic job durations (create 150s, pull 60s, push 60s, delete 15s)
  --duration KIND=TIME       one job's duration, e.g. --duration create=10s (KIND: create, pull, push, delete)
  --progress MODE            nonlinear (default), linear, or none (no percentage_complete)
  --rate-limit N             requests per token per window (default: unlimited)
  --rate-window TIME         rate-limit window (default 60s)
  --retry-after MODE         Retry-After on 429: seconds (default), http-date or none
  --busy-status CODE         status of a refused pull/push/delete while a job runs: 409 (default) or 423
  --no-task-ids              staging responses carry no task_id (clients must use the probe)
  --no-probe                 GET /v2/sites/{site}/staging answers 405
  --task-visibility-delay TIME
                             task status answers 404 for this long after a job starts
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
    '--busy-status',
    '--task-visibility-delay',
]);
/** Parses argv (without node and the script) and the environment (PORT). Throws ArgsError. */
function parseArgs(argv, env = {}) {
    const options = {};
    const durations = {};
    let port;
    let rateLimit;
    let rateWindow;
    let retryAfter;
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
                if (!['nonlinear', 'linear', 'none'].includes(v))
                    throw new ArgsError(`--progress: nonlinear, linear or none, got ${v}`);
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
            default:
                throw new ArgsError(`unknown argument: ${arg} (see --help)`);
        }
    }
    if (port === undefined && env.PORT !== undefined && env.PORT !== '')
        port = parseIntArg('PORT', env.PORT, 0, 65535);
    options.port = port ?? 0;
    if (Object.keys(durations).length > 0)
        options.durationsMs = durations;
    if (rateLimit === undefined && (rateWindow !== undefined || retryAfter !== undefined)) {
        throw new ArgsError('--rate-window and --retry-after need --rate-limit');
    }
    if (rateLimit !== undefined) {
        options.rateLimit = {
            limit: rateLimit,
            windowMs: rateWindow ?? 60_000,
            retryAfter: retryAfter ?? 'seconds',
        };
    }
    return { help: false, options };
}


/***/ }),

/***/ 757:
/***/ ((module, __unused_webpack___webpack_exports__, __nccwpck_require__) => {

__nccwpck_require__.a(module, async (__webpack_handle_async_dependencies__, __webpack_async_result__) => { try {
/* harmony import */ var _args_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(297);
/* harmony import */ var _run_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(413);
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

/***/ 24:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   $i: () => (/* binding */ resolveOptions),
/* harmony export */   V1: () => (/* binding */ applyOptions),
/* harmony export */   ik: () => (/* binding */ JOB_KINDS)
/* harmony export */ });
/* unused harmony exports DEFAULT_DURATIONS_MS, REALISTIC_DURATIONS_MS */
const DEFAULT_DURATIONS_MS = {
    create: 3000,
    pull: 2000,
    push: 2000,
    delete: 1000,
};
/** The spec's "2 to 3 minutes" for create, and comparable times for the rest. */
const REALISTIC_DURATIONS_MS = {
    create: 150_000,
    pull: 60_000,
    push: 60_000,
    delete: 15_000,
};
const JOB_KINDS = ['create', 'pull', 'push', 'delete'];
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
        if (!['nonlinear', 'linear', 'none'].includes(patch.progress)) {
            throw new Error('progress must be nonlinear, linear or none');
        }
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
}
function rateLimit(value) {
    if (value === null)
        return null;
    if (!isObject(value))
        throw new Error('rateLimit must be an object or null');
    const { limit, windowMs, retryAfter } = value;
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 0) {
        throw new Error('rateLimit.limit must be an integer >= 0');
    }
    if (typeof windowMs !== 'number' || !(windowMs > 0))
        throw new Error('rateLimit.windowMs must be a number > 0');
    if (retryAfter !== undefined && !['seconds', 'http-date', 'none'].includes(retryAfter)) {
        throw new Error('rateLimit.retryAfter must be seconds, http-date or none');
    }
    return { limit, windowMs, retryAfter: retryAfter ?? 'seconds' };
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

/***/ 413:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  u: () => (/* binding */ runSimulator)
});

// UNUSED EXPORTS: banner

// EXTERNAL MODULE: ./src/simulator/args.ts
var args = __nccwpck_require__(297);
;// CONCATENATED MODULE: ./src/simulator/seed.ts
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
/** A staging site as a finished create leaves it (content is filled in by the caller). */
function stagingSite(site, at, secret) {
    return {
        id: `s-${site.id}`,
        site_id: site.id,
        site_name: `${site.site_name}-staging`,
        url: `https://staging-${site.id}.sim.test`,
        ssh_username: `staging${site.id}`,
        ssh_password: `sim-ssh-${secret}`,
        wp_password: `sim-wp-${secret}`,
        content: { ...site.content },
        status: 'ready',
        task_id: null,
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
        versions: new Map(),
        nextSiteId: FIRST_NEW_SITE_ID,
    };
}
/** Empties `state` in place and fills it with the seeded account (references stay valid). */
function seedState(state) {
    state.sites.clear();
    state.staging.clear();
    state.tasks.clear();
    state.outbox.length = 0;
    state.purges.length = 0;
    state.versions.clear();
    state.nextSiteId = FIRST_NEW_SITE_ID;
    for (const seed of SEEDS)
        state.sites.set(String(seed.id), productionSite(seed, SEEDED_AT));
    const blog = state.sites.get(String(SIM_SITES.withStaging));
    if (blog) {
        const staging = stagingSite(blog, SEEDED_AT, `seeded-${blog.id}`);
        staging.content = { files: 'staging-v1', database: 'staging-v1' };
        state.staging.set(String(blog.id), staging);
    }
}

;// CONCATENATED MODULE: external "node:http"
const external_node_http_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:http");
;// CONCATENATED MODULE: ./src/simulator/faults.ts
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

;// CONCATENATED MODULE: ./src/simulator/admin.ts
/**
 * The admin paths under /__sim: read the state and events, bump content versions, set faults and
 * options, reset. Not part of the v2 API: no auth, no rate limit, not recorded, plain JSON (no
 * envelope), times as ms epoch.
 */

const ADMIN_PREFIX = '/__sim';
function handleAdmin(sim, method, path, body) {
    sim.jobs.settle();
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
    if (method === 'GET' && route === '/state')
        return json(200, snapshot(sim));
    if (method === 'GET' && site?.[1] !== undefined)
        return siteEntry(sim, site[1]);
    if (method === 'POST' && content?.[1] !== undefined)
        return bumpContent(sim, content[1], parse(body));
    if (method === 'GET' && route === '/outbox')
        return json(200, sim.state.outbox);
    if (method === 'GET' && route === '/purges')
        return json(200, sim.state.purges);
    if (method === 'GET' && route === '/requests')
        return json(200, sim.requests);
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
        tasks: tasks(sim),
        outbox: sim.state.outbox,
        purges: sim.state.purges,
        options: sim.options,
        faults: faultList(sim),
        requests: sim.requests.length,
    };
}
function tasks(sim) {
    return [...sim.state.tasks.values()].map((task) => ({
        ...task,
        percentage_complete: sim.jobs.percentageOf(task),
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
    return json(200, { site, staging: sim.state.staging.get(id) ?? null });
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

;// CONCATENATED MODULE: ./src/simulator/http.ts
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
/** Writes `response`; JSON bodies get Content-Type: application/json unless a header says otherwise. */
function send(res, response) {
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
    headers['Content-Length'] = String(Buffer.byteLength(payload));
    res.writeHead(response.status, headers);
    res.end(payload);
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

;// CONCATENATED MODULE: ./src/simulator/i18n.ts
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

;// CONCATENATED MODULE: ./src/simulator/body.ts


/**
 * The request's JSON object body. Requires Content-Type: application/json; an empty body is `{}`.
 * Attributes outside `allowed` are refused with 400 and listed in `errors`.
 */
function jsonBody(req, lang, allowed) {
    const contentType = req.headers['content-type'];
    if (!isJsonContentType(contentType)) {
        return {
            ok: false,
            response: fail(400, t(lang, 'invalid_content_type'), {
                content_type: [`expected application/json, got ${contentType ?? 'none'}`],
            }),
        };
    }
    let value = {};
    if (req.body.trim() !== '') {
        try {
            value = JSON.parse(req.body);
        }
        catch (e) {
            return { ok: false, response: fail(400, t(lang, 'invalid_json'), { body: [e.message] }) };
        }
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        return { ok: false, response: fail(400, t(lang, 'invalid_json'), { body: ['expected a JSON object'] }) };
    }
    const record = value;
    const unknown = Object.keys(record).filter((k) => !allowed.includes(k));
    if (unknown.length > 0) {
        const errors = Object.fromEntries(unknown.map((k) => [k, ['unknown attribute']]));
        return {
            ok: false,
            response: fail(400, t(lang, 'unknown_attributes', { names: unknown.join(', ') }), errors),
        };
    }
    return { ok: true, value: record };
}

;// CONCATENATED MODULE: ./src/simulator/dates.ts
/** The spec's response date-time format: `yyyy-MM-dd HH:mm:ss.SSS`, UTC. */
function formatDate(ms) {
    return new Date(ms).toISOString().slice(0, 23).replace('T', ' ');
}

;// CONCATENATED MODULE: ./src/simulator/views.ts
/** What the v2 API shows of the state: records as `data` objects, dates in the spec's format. */

/** A production site as GET/POST /v2/sites return it (no password, no simulated content). */
function siteView(site, staging) {
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
        staging_site_id: staging?.id ?? null,
        created_at: formatDate(site.created_at),
        updated_at: formatDate(site.updated_at),
    };
}
/** A staging site as an item of GET /v2/sites. */
function stagingListView(staging) {
    return {
        id: staging.id,
        site_name: staging.site_name,
        url: staging.url,
        type: 'staging',
        reserved: true,
        production_site_id: staging.site_id,
        status: staging.status,
        created_at: formatDate(staging.created_at),
        updated_at: formatDate(staging.updated_at),
    };
}
/** `data` of the probe, GET /v2/sites/{site}/staging. Carries credentials, as the real one may. */
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
 * `data` of GET /v2/tasks/{id}/status. `percentage`: null omits percentage_complete. A running
 * task was last updated `now` (its progress moves); a finished one when it ended.
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

;// CONCATENATED MODULE: ./src/simulator/routes/sites.ts
/** GET /v2/sites (with type and pagination), POST /v2/sites, GET /v2/sites/{site}. */





/** Values of the `type` filter: production or staging sites, reserved (permanent) or temporary ones. */
const SITE_TYPES = ['production', 'staging', 'reserved', 'temporary'];
const DEFAULT_PER_PAGE = 10;
const MAX_PER_PAGE = 100;
function listSites(ctx, req) {
    const type = req.query.get('type');
    if (type !== null && !SITE_TYPES.includes(type)) {
        return fail(400, t(ctx.lang, 'invalid_query', { name: 'type' }), {
            type: [`must be one of ${SITE_TYPES.join(', ')}`],
        });
    }
    const page = positiveInt(req.query.get('page'), 1);
    const perPage = positiveInt(req.query.get('per_page'), DEFAULT_PER_PAGE);
    if (page === null)
        return fail(400, t(ctx.lang, 'invalid_query', { name: 'page' }), { page: ['integer >= 1'] });
    if (perPage === null || perPage > MAX_PER_PAGE) {
        return fail(400, t(ctx.lang, 'invalid_query', { name: 'per_page' }), {
            per_page: [`integer from 1 to ${MAX_PER_PAGE}`],
        });
    }
    const productions = [...ctx.state.sites.values()].sort((a, b) => a.id - b.id);
    const stagings = [...ctx.state.staging.values()].sort((a, b) => a.site_id - b.site_id);
    const items = [];
    const stagingOf = (site) => ctx.state.staging.get(String(site.id));
    if (type === null || type === 'production' || type === 'reserved' || type === 'temporary') {
        for (const site of productions) {
            if (type === 'reserved' && !site.reserved)
                continue;
            if (type === 'temporary' && site.reserved)
                continue;
            items.push(siteView(site, stagingOf(site)));
        }
    }
    if (type === null || type === 'staging' || type === 'reserved') {
        for (const staging of stagings)
            items.push(stagingListView(staging));
    }
    const total = items.length;
    const lastPage = Math.max(1, Math.ceil(total / perPage));
    const from = (page - 1) * perPage;
    const pageItems = items.slice(from, from + perPage);
    const meta = {
        current_page: page,
        per_page: perPage,
        total,
        last_page: lastPage,
        from: pageItems.length > 0 ? from + 1 : null,
        to: pageItems.length > 0 ? from + pageItems.length : null,
    };
    return ok(200, t(ctx.lang, 'sites_listed'), pageItems, meta);
}
function createSite(ctx, req) {
    const body = jsonBody(req, ctx.lang, ['site_name']);
    if (!body.ok)
        return body.response;
    const name = body.value.site_name;
    if (typeof name !== 'string' || name.trim() === '') {
        return fail(400, t(ctx.lang, 'invalid_site_name'), { site_name: ['required, a non-empty string'] });
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
    return ok(201, t(ctx.lang, 'site_created'), siteView(site, undefined));
}
function getSite(ctx, siteId) {
    const site = ctx.state.sites.get(siteId);
    if (site)
        return ok(200, t(ctx.lang, 'site_retrieved'), siteView(site, ctx.state.staging.get(siteId)));
    const staging = [...ctx.state.staging.values()].find((s) => s.id === siteId);
    if (staging)
        return ok(200, t(ctx.lang, 'site_retrieved'), stagingListView(staging));
    return fail(404, t(ctx.lang, 'site_not_found', { site: siteId }));
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

;// CONCATENATED MODULE: external "node:crypto"
const external_node_crypto_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:crypto");
;// CONCATENATED MODULE: ./src/simulator/ids.ts

/** A task id like the service's: 12 lowercase hex characters. */
function newTaskId() {
    return (0,external_node_crypto_namespaceObject.randomBytes)(6).toString('hex');
}
/** A random secret for generated credentials. */
function newSecret() {
    return (0,external_node_crypto_namespaceObject.randomBytes)(8).toString('hex');
}

;// CONCATENATED MODULE: ./src/simulator/routes/staging.ts
/**
 * The four staging endpoints and the probe. The rules (spec §3, §7; contract §3, §4):
 * - create: 403 for an ineligible site (plan, WaaS, client portal), 409 while one is being created
 *   (or deleted), 422 when one exists; otherwise 202 and a background job.
 * - pull / push / delete: 404 without staging; refused with the busy status while another job runs
 *   on the staging site (a delete while a pull or push runs included); otherwise 202 and a job.
 * - probe: the staging site and its status; 404 without staging; 405 when the probe is turned off.
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
        return fail(404, t(ctx.lang, 'staging_not_found', { site: siteId }));
    return ok(200, t(ctx.lang, 'staging_retrieved'), probeView(staging));
}
function createStaging(ctx, siteId, req) {
    const body = jsonBody(req, ctx.lang, []);
    if (!body.ok)
        return body.response;
    const found = findSite(ctx, siteId);
    if ('response' in found)
        return found.response;
    const { site } = found;
    const refusal = ineligibility(site);
    if (refusal)
        return fail(403, t(ctx.lang, refusal.message), { reason: refusal.reason });
    const existing = ctx.state.staging.get(siteId);
    if (existing?.status === 'creating')
        return busy(ctx, 409, 'already_creating', existing);
    if (existing?.status === 'deleting')
        return busy(ctx, 409, 'being_deleted', existing);
    if (existing)
        return fail(422, t(ctx.lang, 'already_exists'), { staging_site_id: existing.id });
    const staging = stagingSite(site, ctx.now, newSecret());
    ctx.state.staging.set(siteId, staging);
    const task = ctx.jobs.start('create', staging, ctx.taskError, ctx.now);
    const data = {};
    if (ctx.options.taskIds)
        data.task_id = task.id;
    data.site_id = site.id;
    data.staging_site_id = staging.id;
    data.staging_url = staging.url;
    return ok(202, t(ctx.lang, 'create_started'), data);
}
/** Pull (POST .../staging/reset) and push (POST .../staging/push). */
function sync(ctx, siteId, req, kind) {
    const body = jsonBody(req, ctx.lang, []);
    if (!body.ok)
        return body.response;
    const found = findStaging(ctx, siteId);
    if ('response' in found)
        return found.response;
    const { staging } = found;
    const status = ctx.options.busyStatus;
    if (staging.status === 'creating')
        return busy(ctx, status, 'busy_creating', staging);
    if (staging.status === 'deleting')
        return busy(ctx, status, 'busy_deleting', staging);
    if (staging.status !== 'ready')
        return busy(ctx, status, 'busy_sync', staging);
    return started(ctx, kind, staging, kind === 'pull' ? 'pull_started' : 'push_started');
}
function deleteStaging(ctx, siteId) {
    const found = findStaging(ctx, siteId);
    if ('response' in found)
        return found.response;
    const { staging } = found;
    const status = ctx.options.busyStatus;
    if (staging.status === 'creating')
        return busy(ctx, status, 'busy_creating', staging);
    if (staging.status === 'deleting')
        return busy(ctx, status, 'busy_deleting', staging);
    if (staging.status !== 'ready')
        return busy(ctx, status, 'busy_delete_sync', staging);
    return started(ctx, 'delete', staging, 'delete_started');
}
/** Why a site cannot have staging (spec §7: 403), or null when it can. */
function ineligibility(site) {
    if (!site.plan.staging)
        return { reason: 'plan', message: 'ineligible_plan' };
    if (site.waas)
        return { reason: 'waas', message: 'ineligible_waas' };
    if (site.client_portal !== null)
        return { reason: 'client_portal', message: 'ineligible_portal' };
    return null;
}
function started(ctx, kind, staging, message) {
    const task = ctx.jobs.start(kind, staging, ctx.taskError, ctx.now);
    return ok(202, t(ctx.lang, message), ctx.options.taskIds ? { task_id: task.id } : {});
}
function busy(ctx, status, message, staging) {
    const running = ctx.state.tasks.get(staging.task_id ?? '');
    return fail(status, t(ctx.lang, message), { running: running?.kind ?? staging.status });
}
function findSite(ctx, siteId) {
    const site = ctx.state.sites.get(siteId);
    return site ? { site } : { response: fail(404, t(ctx.lang, 'site_not_found', { site: siteId })) };
}
function findStaging(ctx, siteId) {
    const found = findSite(ctx, siteId);
    if ('response' in found)
        return found;
    const staging = ctx.state.staging.get(siteId);
    return staging ? { staging } : { response: fail(404, t(ctx.lang, 'staging_not_found', { site: siteId })) };
}

;// CONCATENATED MODULE: ./src/simulator/routes/tasks.ts



function taskStatus(ctx, taskId) {
    const task = ctx.state.tasks.get(taskId);
    if (!task || ctx.now < task.visible_at)
        return fail(404, t(ctx.lang, 'task_not_found', { task: taskId }));
    return ok(200, t(ctx.lang, 'task_retrieved'), taskView(task, ctx.jobs.percentageOf(task, ctx.now), ctx.now));
}

;// CONCATENATED MODULE: ./src/simulator/api.ts






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
];
/** Which seeded token an Authorization header carries. */
function tokenOf(header) {
    if (header === undefined || header.trim() === '')
        return { kind: 'none', token: null };
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header.trim());
    const token = match?.[1] ?? null;
    if (token === SIM_TOKENS.readWrite)
        return { kind: 'rw', token };
    if (token === SIM_TOKENS.readOnly)
        return { kind: 'ro', token };
    return { kind: 'unknown', token };
}
class Api {
    state;
    options;
    jobs;
    limiter;
    constructor(state, options, jobs, limiter) {
        this.state = state;
        this.options = options;
        this.jobs = jobs;
        this.limiter = limiter;
    }
    handle(req, taskError = null) {
        const now = Date.now();
        this.jobs.settle(now);
        const lang = langOf(req.headers['x-localization']);
        const ctx = {
            state: this.state,
            options: this.options,
            jobs: this.jobs,
            lang,
            now,
            taskError,
        };
        const path = req.path.length > 1 ? req.path.replace(/\/+$/, '') : req.path;
        if (path !== '/v2' && !path.startsWith('/v2/')) {
            return { response: fail(404, t(lang, 'path_not_found', { path: req.path })), processed: true };
        }
        const { kind, token } = tokenOf(req.headers.authorization);
        if (token === null || kind === 'unknown') {
            return {
                response: fail(401, t(lang, 'unauthenticated'), undefined, { 'WWW-Authenticate': 'Bearer' }),
                processed: true,
            };
        }
        const limit = this.limiter.check(token, now);
        if (limit && !limit.allowed)
            return { response: fail(429, t(lang, 'rate_limited'), undefined, limit.headers), processed: false };
        const response = this.route(ctx, { ...req, path }, kind);
        if (limit)
            Object.assign(response.headers, limit.headers);
        return { response, processed: true };
    }
    route(ctx, req, kind) {
        for (const route of ROUTES) {
            const match = route.pattern.exec(req.path);
            if (!match)
                continue;
            const handler = route.methods[req.method];
            if (!handler) {
                return fail(405, t(ctx.lang, 'method_not_allowed', { method: req.method, path: req.path }), undefined, {
                    Allow: Object.keys(route.methods).join(', '),
                });
            }
            if (req.method !== 'GET' && kind !== 'rw')
                return fail(403, t(ctx.lang, 'read_only'));
            let param = match[1] ?? '';
            try {
                param = decodeURIComponent(param);
            }
            catch {
                return fail(404, t(ctx.lang, 'path_not_found', { path: req.path }));
            }
            return handler(ctx, req, param);
        }
        return fail(404, t(ctx.lang, 'path_not_found', { path: req.path }));
    }
}

;// CONCATENATED MODULE: ./src/simulator/fault-response.ts
/** The answer a fault rule with a `status` or `body` gives instead of (or after) the real one. */


const MESSAGE_OF = {
    429: 'rate_limited',
    500: 'server_error',
    502: 'bad_gateway',
    503: 'unavailable',
    504: 'gateway_timeout',
};
const REASON_OF = {
    429: 'Too Many Requests',
    500: 'Internal Server Error',
    502: 'Bad Gateway',
    503: 'Service Unavailable',
    504: 'Gateway Timeout',
};
/** null when the rule changes no status or body (latency, drop, hang, taskError only). */
function faultResponse(rule, lang, authorization) {
    if (rule.status === undefined && rule.body === undefined)
        return null;
    const status = rule.status ?? 500;
    const headers = {};
    if (rule.retryAfter !== undefined)
        headers['Retry-After'] = String(rule.retryAfter);
    switch (rule.body ?? 'json') {
        case 'empty':
            return { status, headers };
        case 'html': {
            const title = `${status} ${REASON_OF[status] ?? 'Error'}`;
            headers['Content-Type'] = 'text/html; charset=utf-8';
            const body = `<!DOCTYPE html>\n<html><head><title>${title}</title></head><body><center><h1>${title}</h1></center><hr><center>sim-proxy</center></body></html>\n`;
            return { status, headers, body };
        }
        case 'echo-token': {
            const value = authorization ?? '';
            return {
                status,
                headers,
                body: {
                    status: false,
                    message: t(lang, 'echo_token', { authorization: value }),
                    data: { authorization: value },
                },
            };
        }
        case 'json': {
            const key = MESSAGE_OF[status];
            const message = key ? t(lang, key) : t(lang, 'fault', { status });
            const response = fail(status, message, undefined, headers);
            response.body.exception = `SimulatedFault: HTTP ${status}`;
            return response;
        }
    }
}

;// CONCATENATED MODULE: ./src/simulator/progress.ts
/** (fraction of time elapsed, percentage) points of the nonlinear curve, straight lines between. */
const NONLINEAR_CURVE = [
    [0, 0],
    [0.08, 14],
    [0.15, 30],
    [0.55, 36],
    [0.62, 78],
    [0.9, 92],
    [1, 99],
];
function percentage(mode, fraction) {
    const f = Math.min(1, Math.max(0, fraction));
    const value = mode === 'linear' ? f * 100 : onCurve(f);
    return Math.min(99, Math.max(0, Math.floor(value)));
}
function onCurve(f) {
    for (let i = 1; i < NONLINEAR_CURVE.length; i++) {
        const [x1, y1] = NONLINEAR_CURVE[i] ?? [1, 99];
        if (f <= x1) {
            const [x0, y0] = NONLINEAR_CURVE[i - 1] ?? [0, 0];
            return y0 + ((f - x0) / (x1 - x0)) * (y1 - y0);
        }
    }
    return 99;
}

;// CONCATENATED MODULE: ./src/simulator/jobs.ts
/**
 * Background jobs (create, pull, push, delete) as tasks. A job ends exactly when its duration has
 * elapsed: a timer applies its effects then, and every request first settles jobs that are due, so
 * a read never sees a finished job as running. A job planned to fail (fault `taskError`) ends in
 * 'error' halfway through its duration and changes nothing.
 */



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
    timers = new Map();
    constructor(state, options) {
        this.state = state;
        this.options = options;
    }
    /** Starts a job on `staging` (already in the state). `failWith`: the task will end in error. */
    start(kind, staging, failWith, now = Date.now()) {
        const duration = this.options.durationsMs[kind];
        const runFor = failWith === null ? duration : Math.round(duration / 2);
        const task = {
            id: this.uniqueId(),
            kind,
            site_id: staging.site_id,
            staging_site_id: staging.id,
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
        staging.status = BUSY_STATUS_OF[kind];
        staging.task_id = task.id;
        staging.updated_at = now;
        if (runFor <= 0) {
            this.finish(task);
        }
        else {
            const timer = setTimeout(() => this.finish(task), runFor);
            timer.unref();
            this.timers.set(task.id, timer);
        }
        return task;
    }
    /** Ends every running job whose time has come. */
    settle(now = Date.now()) {
        for (const task of this.state.tasks.values()) {
            if (task.status === 'progress' && task.ends_at <= now)
                this.finish(task);
        }
    }
    /** `percentage_complete` of a task now, or null when progress is 'none'. */
    percentageOf(task, now = Date.now()) {
        if (this.options.progress === 'none')
            return null;
        if (task.status === 'completed')
            return 100;
        if (task.status === 'error')
            return task.failed_at_percentage ?? 0;
        const fraction = task.duration_ms <= 0 ? 1 : (now - task.started_at) / task.duration_ms;
        return percentage(this.options.progress, fraction);
    }
    /** Clears every timer (stop and reset). Running tasks stay as they are. */
    clearTimers() {
        for (const timer of this.timers.values())
            clearTimeout(timer);
        this.timers.clear();
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
        const timer = this.timers.get(task.id);
        if (timer)
            clearTimeout(timer);
        this.timers.delete(task.id);
        const at = task.ends_at;
        const key = String(task.site_id);
        const staging = this.state.staging.get(key);
        const ownsStaging = staging !== undefined && staging.task_id === task.id;
        task.updated_at = at;
        if (task.fail_with !== null) {
            task.failed_at_percentage = this.options.progress === 'none' ? null : this.percentageOf(task, at);
            task.status = 'error';
            task.comment = `Error: ${task.fail_with}`;
            if (ownsStaging && task.kind === 'create')
                this.state.staging.delete(key);
            else if (ownsStaging)
                release(staging, at);
            return;
        }
        task.status = 'completed';
        if (!ownsStaging)
            return;
        const site = this.state.sites.get(key);
        switch (task.kind) {
            case 'create':
                if (site)
                    staging.content = { ...site.content };
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
                    site.password_protected = false;
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
}
function release(staging, at) {
    staging.status = 'ready';
    staging.task_id = null;
    staging.updated_at = at;
}

// EXTERNAL MODULE: ./src/simulator/options.ts
var simulator_options = __nccwpck_require__(24);
;// CONCATENATED MODULE: ./src/simulator/ratelimit.ts
class RateLimiter {
    options;
    windows = new Map();
    constructor(options) {
        this.options = options;
    }
    /** Counts a request of `key` at `now`; null when no limit is set. */
    check(key, now = Date.now()) {
        const options = this.options();
        if (options === null)
            return null;
        let window = this.windows.get(key);
        if (window === undefined || now >= window.start + options.windowMs) {
            window = { start: now, count: 0 };
            this.windows.set(key, window);
        }
        const resetAt = window.start + options.windowMs;
        const allowed = window.count < options.limit;
        if (allowed)
            window.count += 1;
        const headers = {
            'X-RateLimit-Limit': String(options.limit),
            'X-RateLimit-Remaining': String(Math.max(0, options.limit - window.count)),
            'X-RateLimit-Reset': String(Math.ceil(resetAt / 1000)),
        };
        if (!allowed) {
            const mode = options.retryAfter ?? 'seconds';
            if (mode === 'seconds')
                headers['Retry-After'] = String(Math.max(1, Math.ceil((resetAt - now) / 1000)));
            if (mode === 'http-date')
                headers['Retry-After'] = new Date(Math.ceil(resetAt / 1000) * 1000).toUTCString();
        }
        return { allowed, headers };
    }
    reset() {
        this.windows.clear();
    }
}

;// CONCATENATED MODULE: ./src/simulator/server.ts
/**
 * The reference v2 API simulator: a stateful HTTP server on 127.0.0.1. `start()` for tests and
 * scripts; main.ts for the command line. Each request goes: admin paths (/__sim) aside; record it;
 * apply a fault if one fires (latency, hang, drop, redirect, status); else the v2 API.
 */












async function start(options = {}) {
    const state = emptyState();
    seedState(state);
    const effective = (0,simulator_options/* resolveOptions */.$i)(options);
    const jobs = new Jobs(state, effective);
    const limiter = new RateLimiter(() => effective.rateLimit);
    const faults = new Faults();
    const api = new Api(state, effective, jobs, limiter);
    const requests = [];
    const sockets = new Set();
    /** Wakers of requests sleeping on a latency fault: stop() wakes them so nothing is left pending. */
    const sleepers = new Set();
    let stopped = false;
    const admin = {
        state,
        options: effective,
        faults,
        requests,
        jobs,
        reset,
        setOptions,
    };
    function reset() {
        jobs.clearTimers();
        seedState(state);
        requests.length = 0;
        faults.clear();
        limiter.reset();
    }
    function setOptions(patch) {
        (0,simulator_options/* applyOptions */.V1)(effective, patch);
        if (patch.rateLimit !== undefined)
            limiter.reset();
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
    async function onRequest(req, res) {
        const method = (req.method ?? 'GET').toUpperCase();
        const rawPath = req.url ?? '/';
        const url = new URL(rawPath, 'http://127.0.0.1');
        if (url.pathname === ADMIN_PREFIX || url.pathname.startsWith(`${ADMIN_PREFIX}/`)) {
            const body = await readBody(req);
            send(res, handleAdmin(admin, method, url.pathname, body));
            return;
        }
        const record = {
            method,
            path: rawPath,
            status: 'pending',
            at: Date.now(),
            faulted: false,
            processed: false,
            token: tokenOf(req.headers.authorization).kind,
        };
        if (req.headers['content-type'] !== undefined)
            record.contentType = req.headers['content-type'];
        const localization = req.headers['x-localization'];
        if (typeof localization === 'string')
            record.localization = localization;
        requests.push(record);
        const rule = faults.take(method, rawPath);
        if (rule)
            record.faulted = true;
        if (rule?.latencyMs)
            await sleep(rule.latencyMs);
        if (stopped)
            return;
        if (rule?.hang) {
            record.status = 'hung';
            return;
        }
        if (rule?.drop === 'before') {
            record.status = 'dropped';
            req.socket.destroy();
            return;
        }
        let body;
        try {
            body = await readBody(req);
        }
        catch (e) {
            if (!(e instanceof BodyTooLarge)) {
                record.status = 'dropped';
                return;
            }
            record.status = 400;
            send(res, fail(400, t(langOf(req.headers['x-localization']), 'invalid_json'), { body: ['too large'] }));
            return;
        }
        const lang = langOf(req.headers['x-localization']);
        if (rule?.redirect !== undefined) {
            record.status = 307;
            send(res, fail(307, t(lang, 'redirect', { location: rule.redirect }), undefined, { Location: rule.redirect }));
            return;
        }
        const injected = rule ? faultResponse(rule, lang, req.headers.authorization) : null;
        if (injected && !rule?.process && rule?.drop !== 'after') {
            record.status = injected.status;
            send(res, injected);
            return;
        }
        const result = api.handle({ method, path: url.pathname, query: url.searchParams, headers: req.headers, body }, rule?.taskError ?? null);
        record.processed = result.processed;
        if (rule?.drop === 'after') {
            record.status = 'dropped';
            req.socket.destroy();
            return;
        }
        const response = injected ?? result.response;
        record.status = response.status;
        send(res, response);
    }
    const server = (0,external_node_http_namespaceObject.createServer)({ requestTimeout: 0 }, (req, res) => {
        onRequest(req, res).catch((error) => {
            if (stopped || res.headersSent || res.destroyed)
                return;
            send(res, fail(500, `Simulator error: ${error.message}`));
        });
    });
    server.on('connection', (socket) => {
        sockets.add(socket);
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
    let stopping = null;
    function stop() {
        stopping ??= new Promise((resolve) => {
            stopped = true;
            jobs.clearTimers();
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
        url: `http://127.0.0.1:${port}`,
        stop,
        addFault: (rule) => faults.add(rule),
        clearFaults: () => faults.clear(),
        requests,
        state,
        options: effective,
        setOptions,
        reset,
    };
}

;// CONCATENATED MODULE: ./src/simulator/run.ts
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
        `API root: ${sim.url}/v2   admin: ${sim.url}/__sim/state`,
        `Tokens: read-write ${SIM_TOKENS.readWrite}   read-only ${SIM_TOKENS.readOnly}`,
        'Sites:',
        ...Object.entries(SIM_SITES).map(([key, id]) => `  ${id}  ${SITE_NOTES[key]}`),
        `Jobs: create ${d.create}ms, pull ${d.pull}ms, push ${d.push}ms, delete ${d.delete}ms; progress ${sim.options.progress}`,
        `Rate limit: ${rate ? `${rate.limit} per ${rate.windowMs}ms per token` : 'none'}`,
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
/******/ var __webpack_exports__ = __nccwpck_require__(757);
/******/ __webpack_exports__ = await __webpack_exports__;
/******/ 
