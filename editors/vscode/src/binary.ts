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

/** missingBinaryMessage says that the binary the setting names is missing, and the fix. */
export function missingBinaryMessage(configured: string): string {
  const where = configured.includes('/') || configured.includes('\\') ? '' : ' on PATH';
  return (
    `Graft: the graft binary "${configured}" was not found${where}. ` +
    `Install it with \`${installCommand}\` (or download a release), ` +
    'then set "graft.path" to its full path if it is not on PATH.'
  );
}
