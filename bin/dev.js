#!/usr/bin/env -S node --import tsx
// Runs the TypeScript sources directly, for working on gw without a build.
const {join} = require('node:path')

void require('@oclif/core').execute({development: true, dir: join(__dirname, '..')})
