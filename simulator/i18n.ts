/**
 * Every `message` the simulator sends, in English and Spanish. The X-localization header selects the
 * language (spec §4 Localization); only `message` changes, all other content stays English.
 */
export type Lang = 'en' | 'es'

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
} as const satisfies Record<string, Record<Lang, string>>

export type MessageKey = keyof typeof MESSAGES

/** `X-localization: es` (or es-ES, es_MX...) selects Spanish; anything else English. */
export function langOf(header: string | string[] | undefined): Lang {
  const value = Array.isArray(header) ? header[0] : header
  return value !== undefined && /^es(?:[-_].*)?$/i.test(value.trim()) ? 'es' : 'en'
}

export function t(lang: Lang, key: MessageKey, params: Record<string, string | number> = {}): string {
  return MESSAGES[key][lang].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  )
}

/** Every message key (for tests that check both languages are complete). */
export const MESSAGE_KEYS = Object.keys(MESSAGES) as MessageKey[]
