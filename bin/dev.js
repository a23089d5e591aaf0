#!/usr/bin/env -S node --import tsx
// Runs the TypeScript sources directly, for working on gw without a build.
import {execute} from '@oclif/core'

await execute({development: true, dir: import.meta.url})
