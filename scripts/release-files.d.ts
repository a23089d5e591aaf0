/** scripts/release-files.js: SHA256SUMS over a release's archives, and the package managers' manifests and the notes made from it. */
export type WindowsCheck = {file: string; signed: boolean; problems: string[]; unverified?: string}
export function writeSums(release: string, options?: {files?: readonly string[]}): string[]
export function releaseArchives(version?: string): string[]
export function staleArchives(release: string, listed: readonly string[]): string[]
export function missingArchives(release: string): string[]
export function judgePe(said: string): {signed: boolean; problems: string[]}
export function checkWindowsExecutables(release: string, files: readonly string[], options?: {osslsigncode?: string}): WindowsCheck[]
export function refuseUnsoundWindows(release: string, files: readonly string[], options?: {verified?: boolean; osslsigncode?: string}): WindowsCheck[]
export function readSums(release: string): Map<string, string>
export function repositoryOf(pkg?: {repository?: string | {url?: string}}): string | undefined
export function writeManifests(release: string, options?: {baseUrl?: string; homepage?: string}): string[]
export function writeNotes(release: string, checked: readonly WindowsCheck[]): string
