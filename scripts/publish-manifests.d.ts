/** scripts/publish-manifests.js: the release's formula and Scoop manifest pushed to the tap and the bucket. */
export type Place = {name: string; file: string; folder: string; repository: string; token: string}
export const PLACES: Place[]
export function publish(options: {dir: string; version: string; place: Place; env?: NodeJS.ProcessEnv}): string
