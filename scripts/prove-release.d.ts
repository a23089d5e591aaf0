/** scripts/prove-release.js: what a release proves with each archive, and the npm package, before it is published. */
export function quickStart(readme?: string, now?: Date): string[][]
export function unpackChecked(dir: string, target: string): string
export function installPackage(dir: string): {file: string; args: string[]; docs: string}
export function prove(gw: {file: string; args: string[]}, options: {expectedVersion?: string; docs: string; path: string}): string[]
