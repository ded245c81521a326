// Whole-action tests of several sites in one step (in multi-site.ts), spec profile:
// slow (about 4 s): each runs dist/index.js in real time.
import './multi-site.js'
