// What the action and the CLI print, read for the team's words (in words-printed.ts), service profile:
// slow (about 10 s): 7 runs of dist/index.js in real time, and 7 of the CLI in-process.
import './words-printed.js'
