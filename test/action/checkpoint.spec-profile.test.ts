// The suite is in checkpoint.ts; this file runs it against the spec profile (test/helpers/sim.ts).
import './checkpoint.js'
