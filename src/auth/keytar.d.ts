// keytar is an optional native dependency: absent wherever it could not build, or after
// `npm ci --omit=optional`. The build types it from this declaration of the calls gw makes, never
// from the package, so tsc, the bundle and the manifest succeed either way.
declare module 'keytar' {
  export function getPassword(service: string, account: string): Promise<string | null>
  export function setPassword(service: string, account: string, password: string): Promise<void>
  export function deletePassword(service: string, account: string): Promise<boolean>
}
