import { accessSync, constants, readFileSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toolCacheDir } from '../../adapters/infra/temporal-cli.js';

/**
 * The Node 22 binary scripts/setup.sh --tests installs into the tool cache for the MCP conformance suite (which needs
 * Node 22 while the project runs on Node 20): `node-<version>-<platform>/bin/node`, the version from
 * test/tools/node22.lock.json (the same name the setup computes).
 */
export function node22Binary(): string {
  const lock = JSON.parse(
    readFileSync(fileURLToPath(new URL('../tools/node22.lock.json', import.meta.url)), 'utf8'),
  ) as { version: string };
  const bin = join(toolCacheDir(), `node-${lock.version}-${platform()}-${arch()}`, 'bin', 'node');
  try {
    accessSync(bin, constants.X_OK);
  } catch {
    throw new Error(`Node ${lock.version} is not installed at ${bin}: run bash scripts/setup.sh --tests`);
  }
  return bin;
}
