/** scripts/release-files.js: SHA256SUMS over a release's archives, and the Homebrew formula and Scoop manifest made from it. */
export function writeSums(release: string): string[]
export function readSums(release: string): Map<string, string>
export function writeManifests(release: string, options?: {baseUrl?: string; homepage?: string}): string[]
