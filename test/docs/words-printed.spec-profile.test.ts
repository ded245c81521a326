// What the action and the CLI print, read for the team's words (in words-printed.ts), spec profile:
// 9 in-process runs of the action and 9 of the CLI, in virtual time.
import './words-printed.js'
