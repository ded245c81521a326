/** The answer shapes of each profile. */
import type { Profile } from '../types.js'
import { serviceShapes } from './service.js'
import type { Shapes } from './shapes.js'
import { specShapes } from './spec.js'

export type { BusyOp, BusyReason, Ineligibility, Shapes } from './shapes.js'

const SHAPES: Record<Profile, Shapes> = { spec: specShapes, service: serviceShapes }

export function shapesOf(profile: Profile): Shapes {
  return SHAPES[profile]
}
