/** scripts/package-managers.js: Homebrew's formula, Scoop's manifest and winget's manifests of a release. */
export type ReleaseFacts = {version: string; license: string; homepage: string; publisher: string; download: (file: string) => {url: string; sha256: string} | undefined}
export const DESCRIPTION: string
export function formula(facts: ReleaseFacts): string
export function scoop(facts: ReleaseFacts): object
export function winget(facts: ReleaseFacts): Record<string, string>
