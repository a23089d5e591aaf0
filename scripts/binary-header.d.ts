/** scripts/binary-header.js: what an executable is built for, read from its header. */
export interface Machine {
  format: 'elf' | 'pe' | 'macho'
  arch: string
}
export function machineOf(bytes: Uint8Array): Machine | undefined
export function expectedMachine(target: string): Machine
export function machineOfFile(file: string): Machine | undefined
