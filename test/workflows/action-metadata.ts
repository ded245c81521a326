/**
 * The rules of GitHub's action metadata syntax (action.yml) that this project can check offline.
 * `checkActionMetadata` returns one message per broken rule (empty: all good).
 */
import { existsSync } from 'node:fs'
import path from 'node:path'

/** Feather icons GitHub accepts for branding.icon (its list omits brand icons and a few others). */
export const BRANDING_ICONS = new Set(
  `activity airplay alert-circle alert-octagon alert-triangle align-center align-justify align-left
  align-right anchor aperture archive arrow-down-circle arrow-down-left arrow-down-right arrow-down
  arrow-left-circle arrow-left arrow-right-circle arrow-right arrow-up-circle arrow-up-left
  arrow-up-right arrow-up at-sign award bar-chart-2 bar-chart battery-charging battery bell-off bell
  bluetooth bold book-open book bookmark box briefcase calendar camera-off camera cast check-circle
  check-square check chevron-down chevron-left chevron-right chevron-up chevrons-down chevrons-left
  chevrons-right chevrons-up circle clipboard clock cloud-drizzle cloud-lightning cloud-off cloud-rain
  cloud-snow cloud code command compass copy corner-down-left corner-down-right corner-left-down
  corner-left-up corner-right-down corner-right-up corner-up-left corner-up-right cpu credit-card crop
  crosshair database delete disc dollar-sign download-cloud download droplet edit-2 edit-3 edit
  external-link eye-off eye fast-forward feather file-minus file-plus file-text file film filter flag
  folder-minus folder-plus folder gift git-branch git-commit git-merge git-pull-request globe grid
  hard-drive hash headphones heart help-circle home image inbox info italic layers layout life-buoy
  link-2 link list loader lock log-in log-out mail map-pin map maximize-2 maximize menu message-circle
  message-square mic-off mic minimize-2 minimize minus-circle minus-square minus monitor moon
  more-horizontal more-vertical move music navigation-2 navigation octagon package paperclip
  pause-circle pause pen-tool percent phone-call phone-forwarded phone-incoming phone-missed phone-off
  phone-outgoing phone pie-chart play-circle play plus-circle plus-square plus power printer radio
  refresh-ccw refresh-cw repeat rewind rotate-ccw rotate-cw rss save scissors search send server
  settings share-2 share shield-off shield shopping-bag shopping-cart shuffle sidebar skip-back
  skip-forward slash sliders smartphone speaker square star stop-circle sun sunrise sunset tablet
  tag target terminal thermometer thumbs-down thumbs-up toggle-left toggle-right trash-2 trash
  trending-down trending-up triangle truck tv type umbrella underline unlock upload-cloud upload
  user-check user-minus user-plus user-x user users video-off video voicemail volume-1 volume-2
  volume-x volume watch wifi-off wifi wind x-circle x-square x zap-off zap zoom-in zoom-out`.split(/\s+/),
)

export const BRANDING_COLORS = new Set([
  'white',
  'black',
  'yellow',
  'blue',
  'green',
  'orange',
  'red',
  'purple',
  'gray-dark',
])

const TOP_LEVEL = new Set(['name', 'author', 'description', 'inputs', 'outputs', 'runs', 'branding'])
const INPUT_KEYS = new Set(['description', 'required', 'default', 'deprecationMessage'])
const ID = /^[_a-zA-Z][a-zA-Z0-9_-]*$/
const NODE_RUNS = new Set(['using', 'main', 'pre', 'pre-if', 'post', 'post-if'])

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== ''

/** Checks a parsed action.yml of a JavaScript action; files named by runs.* must exist under `root`. */
export function checkActionMetadata(doc: unknown, root: string): string[] {
  const errors: string[] = []
  if (!isObject(doc)) return ['action.yml is not a mapping']
  for (const key of Object.keys(doc)) if (!TOP_LEVEL.has(key)) errors.push(`unknown top-level key "${key}"`)
  if (!nonEmpty(doc.name)) errors.push('name is required')
  if (!nonEmpty(doc.description)) errors.push('description is required')
  if (doc.author !== undefined && typeof doc.author !== 'string') errors.push('author must be a string')

  const runs = doc.runs
  if (!isObject(runs)) errors.push('runs is required')
  else {
    if (runs.using !== 'node24') errors.push(`runs.using must be node24, got ${JSON.stringify(runs.using)}`)
    for (const key of Object.keys(runs)) if (!NODE_RUNS.has(key)) errors.push(`unknown key runs.${key}`)
    if (!nonEmpty(runs.main)) errors.push('runs.main is required')
    for (const key of ['main', 'pre', 'post'] as const) {
      const file = runs[key]
      if (typeof file === 'string' && !existsSync(path.join(root, file)))
        errors.push(`runs.${key}: ${file} does not exist`)
    }
  }

  if (doc.inputs !== undefined) {
    if (!isObject(doc.inputs)) errors.push('inputs must be a mapping')
    else
      for (const [id, spec] of Object.entries(doc.inputs)) {
        if (!ID.test(id)) errors.push(`input id "${id}" is not valid`)
        if (!isObject(spec)) {
          errors.push(`input ${id} must be a mapping`)
          continue
        }
        for (const key of Object.keys(spec))
          if (!INPUT_KEYS.has(key)) errors.push(`input ${id}: unknown key "${key}"`)
        if (!nonEmpty(spec.description)) errors.push(`input ${id} has no description`)
        if (spec.required !== undefined && typeof spec.required !== 'boolean')
          errors.push(`input ${id}: required must be true or false`)
        if (spec.default !== undefined && typeof spec.default !== 'string')
          errors.push(`input ${id}: default must be a string (quote it), got ${JSON.stringify(spec.default)}`)
        if (spec.required === true && spec.default !== undefined)
          errors.push(`input ${id} is required and has a default`)
      }
  }

  if (doc.outputs !== undefined) {
    if (!isObject(doc.outputs)) errors.push('outputs must be a mapping')
    else
      for (const [id, spec] of Object.entries(doc.outputs)) {
        if (!ID.test(id)) errors.push(`output id "${id}" is not valid`)
        if (!isObject(spec) || !nonEmpty(spec.description)) errors.push(`output ${id} has no description`)
        else
          for (const key of Object.keys(spec))
            if (key !== 'description') errors.push(`output ${id}: unknown key "${key}"`)
      }
  }

  if (doc.branding !== undefined) {
    const b = doc.branding
    if (!isObject(b)) errors.push('branding must be a mapping')
    else {
      for (const key of Object.keys(b))
        if (key !== 'icon' && key !== 'color') errors.push(`unknown key branding.${key}`)
      if (b.icon !== undefined && !BRANDING_ICONS.has(String(b.icon)))
        errors.push(`branding.icon "${b.icon}" is not allowed`)
      if (b.color !== undefined && !BRANDING_COLORS.has(String(b.color)))
        errors.push(`branding.color "${b.color}" is not allowed`)
    }
  }
  return errors
}
