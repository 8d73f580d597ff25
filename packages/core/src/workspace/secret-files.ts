import { posix } from 'node:path';

// Names are compared lower-cased: `.ENV` or `Server.PEM` hold the same secrets, and skipping a file
// by mistake is visible in the report, while copying a credential by mistake is not.

/**
 * Exact file names that hold credentials wherever they are:
 * - `.env`: dotenv files hold API keys (variants: see `isSecretPath`);
 * - `id_rsa`, `id_dsa`, `id_ecdsa`, `id_ecdsa_sk`, `id_ed25519`, `id_ed25519_sk`: SSH private keys
 *   (their `.pub` halves are public and are copied);
 * - `.npmrc`, `.pypirc`: registry tokens; `.netrc`, `_netrc`: host passwords; `.git-credentials`:
 *   git's credential store; `.pgpass`: PostgreSQL passwords.
 */
export const SECRET_FILE_NAMES: readonly string[] = [
  '.env',
  'id_rsa',
  'id_dsa',
  'id_ecdsa',
  'id_ecdsa_sk',
  'id_ed25519',
  'id_ed25519_sk',
  '.npmrc',
  '.netrc',
  '_netrc',
  '.pypirc',
  '.git-credentials',
  '.pgpass',
];

/**
 * File extensions of private keys and key stores: `.pem`, `.key` (TLS keys), `.p12`, `.pfx` (PKCS#12
 * bundles), `.p8` (PKCS#8 keys), `.ppk` (PuTTY keys), `.jks`, `.keystore` (Java key stores).
 */
export const SECRET_FILE_EXTENSIONS: readonly string[] = [
  '.pem',
  '.key',
  '.p12',
  '.pfx',
  '.p8',
  '.ppk',
  '.jks',
  '.keystore',
];

/** Directories skipped whole wherever they are: `.ssh`, `.aws` (cloud keys), `.gnupg` (PGP keys). */
export const SECRET_DIRECTORY_NAMES: readonly string[] = ['.ssh', '.aws', '.gnupg'];

/**
 * Files skipped by their last two path parts, because their directory name alone is too common to skip
 * (`.docker/` often holds Dockerfiles): `.docker/config.json` (registry auth), `.kube/config` (cluster
 * credentials).
 */
export const SECRET_PATH_SUFFIXES: readonly string[] = ['.docker/config.json', '.kube/config'];

/**
 * `.env.<suffix>` files that are templates by convention and are copied: `.env.example`,
 * `.env.sample`, `.env.template`, `.env.dist`. Every other `.env.*` (`.env.local`,
 * `.env.production`…) is a secret.
 */
export const ENV_TEMPLATE_SUFFIXES: readonly string[] = ['example', 'sample', 'template', 'dist'];

/**
 * True when the fixture entry at `relativePath` (posix, relative to the fixture) looks like it holds
 * credentials and is not copied into workspaces unless secrets are allowed. Ordinary files stay:
 * `config.json`, `credentials.js`, `.env.example`, `id_rsa.pub`.
 */
export function isSecretPath(relativePath: string, isDirectory: boolean): boolean {
  const lower = relativePath.toLowerCase();
  const name = posix.basename(lower);
  if (isDirectory) return SECRET_DIRECTORY_NAMES.includes(name);
  if (SECRET_FILE_NAMES.includes(name)) return true;
  if (name.startsWith('.env.')) return !ENV_TEMPLATE_SUFFIXES.includes(name.slice('.env.'.length));
  if (SECRET_FILE_EXTENSIONS.some((extension) => name.endsWith(extension))) return true;
  return SECRET_PATH_SUFFIXES.some((suffix) => lower === suffix || lower.endsWith(`/${suffix}`));
}
