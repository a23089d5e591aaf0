/** scripts/run-folder.js: a run's temporary folder, made the temporary folder of the process. */
export function useRunFolder(prefix: string, mode: number): string
