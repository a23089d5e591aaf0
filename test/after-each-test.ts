// What a shared helper opens for a test (a local gateway, a web hook receiver, a process holding a
// lock) is undone after that test by test/setup.ts, which vitest runs before each test file. A
// helper cannot register the hook itself: files that share a process (vitest.config.ts) load it
// once, and its hook would undo the first file's tests alone.

const cleanups: (() => unknown)[] = []

/** Has `cleanup` run once the test running now ends. */
export function afterThisTest(cleanup: () => unknown): void {
  cleanups.push(cleanup)
}

/** Undoes what the tests that ended opened (test/setup.ts, after each test). */
export async function cleanUp(): Promise<void> {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()))
}
