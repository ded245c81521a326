// The bundled CLI's operations against the simulator (in operations.ts), service profile:
// slow (about 12 s): each runs dist/cli.js in real time, at least one poll (about 1 s) per job.
import './operations.js'
