// Whole-action tests of wait-for-url (in wait-for-url.ts), spec profile:
// slow (about 10 s): the action polls a staging site that answers late, or never before a 6 s timeout.
import './wait-for-url.js'
