/** scripts/platform-suite.js: what every platform and Node line runs. */
export const PLATFORM_TESTS: string[]
