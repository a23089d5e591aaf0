/** scripts/release-files.js: SHA256SUMS over a release's archives, and the Homebrew formula and Scoop manifest made from it. */
export function writeSums(release: string, options?: {files?: readonly string[]}): string[]
export function releaseArchives(version?: string): string[]
export function staleArchives(release: string, listed: readonly string[]): string[]
export function missingArchives(release: string): string[]
export function judgePe(said: string): {signed: boolean; problems: string[]}
export function checkWindowsExecutables(release: string, files: readonly string[]): {file: string; signed?: boolean; problems?: string[]; skipped?: string}[]
export function readSums(release: string): Map<string, string>
export function writeManifests(release: string, options?: {baseUrl?: string; homepage?: string}): string[]
