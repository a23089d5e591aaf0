import {describe, expect, it} from 'vitest'
import {expectedMachine, machineOf, machineOfFile} from '../../../scripts/binary-header.js'

/** An ELF header: 64-bit little-endian, e_machine at 18. */
function elf(machine: number, elfClass = 2): Buffer {
  const bytes = Buffer.alloc(64)
  bytes.writeUInt32BE(0x7f454c46, 0)
  bytes[4] = elfClass
  bytes[5] = 1
  bytes.writeUInt16LE(machine, 18)
  return bytes
}

/** A PE header: MZ, e_lfanew at 0x3c, PE\0\0, the machine, the optional header's magic. */
function pe(machine: number, magic = 0x20b): Buffer {
  const bytes = Buffer.alloc(512)
  bytes.write('MZ', 0, 'latin1')
  bytes.writeUInt32LE(0x80, 0x3c)
  bytes.writeUInt32BE(0x50450000, 0x80)
  bytes.writeUInt16LE(machine, 0x84)
  bytes.writeUInt16LE(magic, 0x80 + 24)
  return bytes
}

function macho(cpu: number): Buffer {
  const bytes = Buffer.alloc(32)
  bytes.writeUInt32LE(0xfeedfacf, 0)
  bytes.writeUInt32LE(cpu, 4)
  return bytes
}

describe("an executable's header (scripts/binary-header.js)", () => {
  it.each([
    ['ELF x86-64', elf(0x3e), {format: 'elf', arch: 'x64'}],
    ['ELF AArch64', elf(0xb7), {format: 'elf', arch: 'arm64'}],
    ['ELF RISC-V', elf(0xf3), {format: 'elf', arch: 'elf-machine-243'}],
    ['PE32+ AMD64', pe(0x8664), {format: 'pe', arch: 'x64'}],
    ['PE32+ ARM64', pe(0xaa64), {format: 'pe', arch: 'arm64'}],
    ['Mach-O x86_64', macho(0x01000007), {format: 'macho', arch: 'x64'}],
    ['Mach-O arm64', macho(0x0100000c), {format: 'macho', arch: 'arm64'}],
  ])('reads %s', (_name, bytes, machine) => {
    expect(machineOf(bytes)).toEqual(machine)
  })

  it.each([
    ['a 32-bit ELF', elf(0x3e, 1)],
    ['a PE32 (32-bit) executable', pe(0x14c, 0x10b)],
    ['a shell script', Buffer.from('#!/bin/sh\necho hi\n')],
    ['nothing', Buffer.alloc(0)],
    ['an MZ stub pointing past its end', Buffer.from('MZ')],
  ])('takes %s for no executable gw ships', (_name, bytes) => {
    expect(machineOf(bytes)).toBeUndefined()
  })

  it('reads the node running this test as what this machine runs', () => {
    const format = {linux: 'elf', win32: 'pe', darwin: 'macho'}[process.platform as string]
    expect(machineOfFile(process.execPath)).toEqual({format, arch: process.arch})
  })

  it("names each target's header", () => {
    expect(expectedMachine('linux-arm64')).toEqual({format: 'elf', arch: 'arm64'})
    expect(expectedMachine('win-x64')).toEqual({format: 'pe', arch: 'x64'})
    expect(expectedMachine('darwin-arm64')).toEqual({format: 'macho', arch: 'arm64'})
  })
})
