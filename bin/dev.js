#!/usr/bin/env node
// oclif's development mode (its own stack traces and warnings) for working on gw. The commands come
// from the built bundle, since src/index.ts lists them through `gw:commands`, a module only
// `npm run build` makes: rebuild after a change.
const {join} = require('node:path')

void require('@oclif/core').execute({development: true, dir: join(__dirname, '..')})
