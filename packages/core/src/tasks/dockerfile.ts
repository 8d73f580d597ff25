import { posix } from 'node:path';
import { envConstantNameProblem } from '../env/env-constants.js';

// No container is built. Of a task's Dockerfile, what the host can reproduce is where the task works
// (WORKDIR), the task's own files copied into that directory (COPY, ADD of local files) and plain
// environment constants (ENV): everything else (the base image, RUN, files put elsewhere, a USER) is
// named, one line each, as not reproduced, so a user sees which tasks this host can run.

/** What of a Dockerfile the host reproduces, and what it does not. */
export interface DockerEnvironment {
  /** The final WORKDIR, when the file sets one. */
  workdir?: string;
  /** The build context's files copied into the working directory: `from` relative to the context. */
  files: { from: string; to: string }[];
  env: Record<string, string>;
  notReproduced: string[];
}

// A shell CMD is what a task's container idles in; the agent's commands do not need it.
const IDLE_CMD = /^(\[\s*)?"?(\/bin\/)?(ba)?sh"?(\s*\])?$/;
const IGNORED = new Set(['LABEL', 'MAINTAINER', 'ARG', 'EXPOSE', 'STOPSIGNAL', 'HEALTHCHECK']);

/**
 * Reads a Dockerfile's instructions. `contextFiles` lists the build context's top entries (for
 * `COPY . <dest>`), less the task's own configuration, tests and solution, which never go in.
 */
export function readDockerfile(text: string, contextFiles: readonly string[]): DockerEnvironment {
  const environment: DockerEnvironment = { files: [], env: {}, notReproduced: [] };
  let workdir = '/';
  const copies: { from: string; dest: string; line: string }[] = [];
  for (const line of instructions(text)) {
    const [keyword = '', ...rest] = line.split(/\s+/);
    const instruction = keyword.toUpperCase();
    const args = line.slice(keyword.length).trim();
    if (IGNORED.has(instruction)) continue;
    if (instruction === 'FROM') {
      const image = rest.find((word) => !word.startsWith('--')) ?? args;
      environment.notReproduced.push(`the image ${image} (FROM): the host's own tools are used instead`);
    } else if (instruction === 'WORKDIR') {
      workdir = posix.resolve(workdir, unquote(args));
    } else if (instruction === 'COPY' || instruction === 'ADD') {
      const words = copyWords(args);
      const flags = words.filter((word) => word.startsWith('--'));
      const paths = words.filter((word) => !word.startsWith('--'));
      const dest = paths.pop();
      const local = paths.every((source) => !/^[a-z]+:\/\//i.test(source) && !/[*?[]/.test(source));
      if (dest === undefined || paths.length === 0 || !local || flags.some((flag) => flag.startsWith('--from'))) {
        environment.notReproduced.push(`${instruction} ${args}`);
        continue;
      }
      for (const source of paths) {
        copies.push({ from: source, dest: posix.resolve(workdir, dest) + (dest.endsWith('/') ? '/' : ''), line });
      }
    } else if (instruction === 'ENV') {
      for (const [name, value] of envPairs(args)) {
        // A value that refers to other variables ($PATH) would need the image's to expand against.
        if (envConstantNameProblem(name) === undefined && !value.includes('$')) environment.env[name] = value;
        else environment.notReproduced.push(`ENV ${name}=${value}`);
      }
    } else if (instruction === 'CMD' && IDLE_CMD.test(args)) {
      // The container's idle shell.
    } else {
      environment.notReproduced.push(`${instruction} ${args}`);
    }
  }
  if (workdir !== '/') environment.workdir = workdir;
  for (const copy of copies) {
    const inside = workdir === '/' ? undefined : posix.relative(workdir, copy.dest);
    if (inside === undefined || inside === '..' || inside.startsWith('../')) {
      environment.notReproduced.push(`${copy.line} (outside the working directory)`);
      continue;
    }
    const to = (inside === '' ? '.' : inside) + (copy.dest.endsWith('/') && inside !== '' ? '/' : '');
    const from = posix.normalize(copy.from).replace(/\/$/, '');
    if (from === '.' || from === '') {
      for (const entry of contextFiles) environment.files.push({ from: entry, to: posix.join(to, entry) });
    } else if (from.startsWith('../') || from.startsWith('/')) {
      environment.notReproduced.push(`${copy.line} (outside the build context)`);
    } else {
      environment.files.push({ from, to });
    }
  }
  return environment;
}

/** The instructions of a Dockerfile, one line each: comments dropped, continued lines joined. */
function instructions(text: string): string[] {
  const lines: string[] = [];
  let current = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('#')) continue;
    if (line.endsWith('\\')) {
      current += `${line.slice(0, -1).trim()} `;
      continue;
    }
    current += line;
    if (current.trim() !== '') lines.push(current.trim());
    current = '';
  }
  if (current.trim() !== '') lines.push(current.trim());
  return lines;
}

/** COPY's words: the JSON array form or whitespace-separated words. */
function copyWords(args: string): string[] {
  const flags = args.match(/^(--\S+\s+)*/)?.[0] ?? '';
  const rest = args.slice(flags.length).trim();
  if (rest.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(rest);
      if (Array.isArray(parsed) && parsed.every((word) => typeof word === 'string')) {
        return [...flags.split(/\s+/).filter(Boolean), ...parsed];
      }
    } catch {
      // Not JSON after all: read as words.
    }
  }
  return args.split(/\s+/).filter(Boolean).map(unquote);
}

/** `ENV A=1 B="two words"` or the old `ENV A value with spaces`. */
function envPairs(args: string): [string, string][] {
  if (!/^[A-Za-z_][A-Za-z0-9_]*=/.test(args)) {
    const [name = '', ...value] = args.split(/\s+/);
    return [[name, value.join(' ')]];
  }
  const pairs: [string, string][] = [];
  for (const match of args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|'[^']*'|\S*)/g)) {
    pairs.push([match[1] as string, unquote(match[2] as string)]);
  }
  return pairs;
}

function unquote(word: string): string {
  if (word.length >= 2 && (word.startsWith('"') || word.startsWith("'")) && word.endsWith(word[0] as string)) {
    return word.slice(1, -1).replace(/\\(.)/g, '$1');
  }
  return word;
}
