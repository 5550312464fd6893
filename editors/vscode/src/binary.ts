// Finding the graft binary, and what to say when it is not there. Nothing
// here depends on VS Code.

import * as fs from 'node:fs';
import * as path from 'node:path';

/** installCommand installs the graft binary. */
export const installCommand = 'go install github.com/graft-editor/graft/cmd/graft@latest';

/**
 * findExecutable returns the path of the binary a setting names (an
 * absolute path, a path relative to the home directory, or a name looked
 * up on PATH), or undefined when there is none.
 */
export function findExecutable(
  name: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  const home = env.HOME ?? env.USERPROFILE ?? '';
  if (name.startsWith('~/') && home) {
    name = path.join(home, name.slice(2));
  }
  const exts = platform === 'win32' ? ['', ...(env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';')] : [''];
  const candidates = path.isAbsolute(name) || name.includes('/') || name.includes(path.sep)
    ? [path.resolve(name)]
    : (env.PATH ?? '').split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, name));
  for (const c of candidates) {
    for (const ext of exts) {
      try {
        fs.accessSync(c + ext, fs.constants.X_OK);
        if (fs.statSync(c + ext).isFile()) {
          return c + ext;
        }
      } catch {
        // not this one
      }
    }
  }
  return undefined;
}

/**
 * bundledBinary returns the graft binary that came with the extension (a
 * platform's package holds it in bin/), or undefined in the package for
 * every platform, which holds none. A binary that lost its executable bit
 * on the way (an unzip that drops modes) gets it back.
 */
export function bundledBinary(extensionPath: string, platform: NodeJS.Platform = process.platform): string | undefined {
  const bin = path.join(extensionPath, 'bin', platform === 'win32' ? 'graft.exe' : 'graft');
  try {
    if (!fs.statSync(bin).isFile()) {
      return undefined;
    }
  } catch {
    return undefined;
  }
  if (platform !== 'win32') {
    try {
      fs.accessSync(bin, fs.constants.X_OK);
    } catch {
      try {
        fs.chmodSync(bin, 0o755);
      } catch {
        return undefined;
      }
    }
  }
  return bin;
}

/** The binary the extension runs, and where it came from. */
export interface Binary {
  /** path is the binary's path, undefined when it was not found. */
  path: string | undefined;
  /** source says which one it is: the setting's, the extension's own, or the one on PATH. */
  source: 'setting' | 'bundled' | 'path';
  /** wanted is what was looked for: the setting's value, or "graft". */
  wanted: string;
}

/**
 * resolveBinary picks the graft binary to run, in the order a person
 * expects: graft.path when they set it (and nothing else when it is
 * missing: they asked for that one); else the binary that came with the
 * extension; else graft on PATH (the package for every platform has no
 * binary of its own).
 */
export function resolveBinary(
  setting: string | undefined,
  extensionPath: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Binary {
  const configured = (setting ?? '').trim();
  if (configured) {
    return { path: findExecutable(configured, env, platform), source: 'setting', wanted: configured };
  }
  const bundled = bundledBinary(extensionPath, platform);
  if (bundled) {
    return { path: bundled, source: 'bundled', wanted: bundled };
  }
  return { path: findExecutable('graft', env, platform), source: 'path', wanted: 'graft' };
}

/** missingBinaryMessage says which binary is missing, and the fix. */
export function missingBinaryMessage(b: Binary): string {
  if (b.source === 'setting') {
    const where = b.wanted.includes('/') || b.wanted.includes('\\') ? '' : ' on PATH';
    return (
      `Graft: "graft.path" is set to "${b.wanted}", which was not found${where}. ` +
      'Set it to the full path of a graft binary, or clear it to use the one that comes with the extension.'
    );
  }
  return (
    'Graft: this package of the extension has no graft binary, and there is no graft on PATH. ' +
    'Install the extension for your platform (it comes with graft), ' +
    `or install graft with \`${installCommand}\` and set "graft.path" to it if it is not on PATH.`
  );
}
