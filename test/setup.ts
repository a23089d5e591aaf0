import {afterEach} from 'vitest'
import {cleanUp} from './after-each-test.js'

// Run before each test file (vitest.config.ts setupFiles), in whichever process it shares.
afterEach(cleanUp)
