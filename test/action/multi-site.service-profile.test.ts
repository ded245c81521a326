// Whole-action tests of several sites in one step (in multi-site.ts), service profile:
// slow (about 17 s): each runs dist/index.js in real time, some under a rate limit that makes the
// batch wait.
import './multi-site.js'
