import {isSea} from 'node:sea'

/**
 * The command that starts this gw again. The single executable (`npm run package`) is node and gw
 * in one program, which reads every argument as its own; gw from npm or a clone is node running
 * bin/run.js.
 */
export function gwItself(): {file: string; args: string[]} {
  return {file: process.execPath, args: isSea() ? [] : [process.argv[1]!]}
}
