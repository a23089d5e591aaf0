// What an executable is built for, read from its header: ELF (Linux), PE32+ (Windows) or 64-bit
// Mach-O (macOS), and the machine: x64 or arm64. `npm run package` checks each executable it
// builds for another platform, which it cannot run, by it; the tests check the archives by it.
import {closeSync, openSync, readSync} from 'node:fs'

const ELF_MACHINES = {0x3e: 'x64', 0xb7: 'arm64'}
const PE_MACHINES = {0x8664: 'x64', 0xaa64: 'arm64'}
const MACHO_CPUS = {0x01000007: 'x64', 0x0100000c: 'arm64'}

/** {format: 'elf' | 'pe' | 'macho', arch} of an executable's first bytes (4 KiB is plenty), or undefined where it is none of these. */
export function machineOf(bytes) {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (buffer.length >= 20 && buffer.readUInt32BE(0) === 0x7f454c46) {
    // EI_CLASS 2 (64-bit), EI_DATA 1 (little-endian), e_machine at 18.
    if (buffer[4] !== 2 || buffer[5] !== 1) return undefined
    return {format: 'elf', arch: ELF_MACHINES[buffer.readUInt16LE(18)] ?? `elf-machine-${buffer.readUInt16LE(18)}`}
  }
  if (buffer.length >= 64 && buffer.toString('latin1', 0, 2) === 'MZ') {
    const pe = buffer.readUInt32LE(0x3c)
    if (buffer.length < pe + 26 || buffer.readUInt32BE(pe) !== 0x50450000) return undefined
    // The optional header's magic: 0x20b is PE32+, the 64-bit format.
    if (buffer.readUInt16LE(pe + 24) !== 0x20b) return undefined
    const machine = buffer.readUInt16LE(pe + 4)
    return {format: 'pe', arch: PE_MACHINES[machine] ?? `pe-machine-${machine.toString(16)}`}
  }
  if (buffer.length >= 8 && buffer.readUInt32LE(0) === 0xfeedfacf) {
    const cpu = buffer.readUInt32LE(4)
    return {format: 'macho', arch: MACHO_CPUS[cpu] ?? `macho-cpu-${cpu.toString(16)}`}
  }
  return undefined
}

/** The header a target's executable has: linux-arm64 is {format: 'elf', arch: 'arm64'}. */
export function expectedMachine(target) {
  const [os, arch] = target.split('-')
  return {format: {linux: 'elf', win: 'pe', darwin: 'macho'}[os], arch}
}

/** What the executable at `file` is built for: machineOf its first 4 KiB. */
export function machineOfFile(file) {
  const fd = openSync(file, 'r')
  try {
    const bytes = Buffer.alloc(4096)
    return machineOf(bytes.subarray(0, readSync(fd, bytes, 0, bytes.length, 0)))
  } finally {
    closeSync(fd)
  }
}
