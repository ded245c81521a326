// The owner of the repository, the pipe's image and the GitLab components, as package.json's
// `repository.url` names it: OWNER until `npm run release:set-owner -- NAME` stamps a real one.
// Tests that check what users copy read it here, so they pass before and after that step.
import { ROOT } from './run-action.js'
// @ts-expect-error -- a plain .mjs script, typed by use
import { ownerOf } from '../../scripts/set-owner.mjs'

export const OWNER: string = ownerOf(ROOT)
