import type {BatchDeps} from '../batch/batch-deps.js'
import type {Factory} from './factory.js'
import {confirmBatch} from './live-safety.js'

/** A batch command's Factory as its run takes it (batch/run-batch.ts): the live confirmation is the command line's (confirmBatch). */
export function batchDeps(f: Factory): BatchDeps {
  return {
    get io() {
      return f.io
    },
    get json() {
      return f.flags.json
    },
    get fields() {
      return f.render.fields
    },
    get dataDir() {
      return f.dataDir
    },
    target: () => f.target(),
    deps: () => f.deps(),
    confirmed: async (plan) => f.deps(await confirmBatch({target: await f.target(), commandId: f.commandName, yes: f.flags.yes, io: f.io, prompter: () => f.prompter(), plan})),
    onSoftStop: (handler) => f.stop.onSoftStop(handler),
  }
}
