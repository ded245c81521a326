// The suite is in checkpoint.ts; this file runs it against the service profile (test/helpers/sim.ts).
import './checkpoint.js'
