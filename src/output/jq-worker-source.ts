/**
 * The source of --jq's worker thread (jq-worker.ts), built from src: for the tests and bin/dev.js,
 * which run gw from its TypeScript. scripts/bundle.js puts dist/jq.cjs in its place, the same
 * source built once.
 */
import {jqWorkerSource} from '../../scripts/jq-worker.js'

export const source = await jqWorkerSource()
