// What the action and the CLI print, read for the team's words (in words-printed.ts), service profile:
// slow (about 10 s): 8 runs of dist/index.js in real time, and 8 of the CLI in-process.
import './words-printed.js'
