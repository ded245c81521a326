/**
 * What the service family's web framework (Laravel) answers by itself, before or around the
 * application: its fixed English texts (they do not follow X-localization), its 404 page, its debug
 * error body. Contract revision 2, §7 and §9.
 */
import type { ApiResponse } from '../http.js'

export const FRAMEWORK_TEXT = {
  unauthenticated: 'Unauthenticated.',
  tooManyAttempts: 'Too Many Attempts.',
  serverError: 'Server Error',
  notFound: 'Not Found',
} as const

/** `route` is the request path without its leading slash, e.g. `v2/sites/1001/staging`. */
export function routeNotFound(route: string): string {
  return `The route ${route} could not be found.`
}

export function methodNotSupported(method: string, route: string, methods: readonly string[]): string {
  return `The ${method} method is not supported for route ${route}. Supported methods: ${methods.join(', ')}.`
}

/** A route-model binding that found nothing: `No query results for model [App\Models\Site] 1001`. */
export function noQueryResults(model: 'Site' | 'Task' | 'SiteVersion', id: string): string {
  return `No query results for model [App\\Models\\${model}] ${id}`
}

/** The framework's plain JSON error body: `{ "message": ... }` plus extra fields (no envelope). */
export function frameworkError(
  status: number,
  message: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): ApiResponse {
  return { status, headers, body: { message, ...extra } }
}

/** The framework's HTML error page (what a browser-like request gets for an unknown route). */
export function errorPage(status: number, text: string): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    `<head><meta charset="utf-8"><title>${text}</title></head>`,
    `<body class="antialiased"><div class="code">${status}</div><div class="message">${text}</div></body>`,
    '</html>',
    '',
  ].join('\n')
}

/** True when the request's Accept header asks for JSON (the framework then renders errors as JSON). */
export function wantsJson(accept: string | string[] | undefined): boolean {
  const value = Array.isArray(accept) ? accept.join(',') : (accept ?? '')
  return /json/i.test(value)
}

/**
 * The debug-mode error body (APP_DEBUG=true): the exception's own message, class, file, line and a
 * stack trace. Clients must show the message only, never the trace.
 */
export function debugErrorBody(status: number): Record<string, unknown> {
  return {
    message:
      status === 500
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
  }
}
