import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The repository's import graph, type-only imports included (ESLint's import-x/no-cycle leaves
 * those out), and its cycles. Relative specifiers and `@receipts/<package>[/subpath]` are followed
 * through each package's `exports`; everything else is external and left out.
 */

const sourceFile = /\.(ts|tsx|mts|js|mjs)$/;
const importSpecifier =
  /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every source file under `folder`, skipping dependencies, builds and tests. */
export function sourceFiles(folder: string): string[] {
  if (!existsSync(folder)) return [];
  const files: string[] = [];
  for (const name of readdirSync(folder)) {
    if (name === 'node_modules' || name === 'dist' || name === 'cdk.out' || name.startsWith('.')) continue;
    const path = join(folder, name);
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (sourceFile.test(name) && !/\.(test|bench)\.tsx?$/.test(name) && !name.endsWith('.d.ts'))
      files.push(path);
  }
  return files;
}

/** The specifiers one file imports or re-exports, `import type` included. */
export function importsOf(code: string): string[] {
  const withoutComments = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [...withoutComments.matchAll(importSpecifier)].map((match) => match[1] ?? match[2] ?? '');
}

const candidates = (base: string) => [
  base,
  `${base}.ts`,
  `${base}.tsx`,
  `${base}.mts`,
  base.replace(/\.js$/, '.ts'),
  base.replace(/\.js$/, '.tsx'),
  join(base, 'index.ts'),
  join(base, 'index.tsx'),
];

function resolveFile(base: string): string | null {
  for (const candidate of candidates(base)) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

interface WorkspacePackage {
  folder: string;
  exports: Record<string, string>;
}

/** `@receipts/*` packages of the workspace by name, with their exports map. */
export function workspacePackages(root: string): Map<string, WorkspacePackage> {
  const packages = new Map<string, WorkspacePackage>();
  const folders = [
    ...readdirSync(join(root, 'packages')).map((name) => join(root, 'packages', name)),
    ...['lambdas', 'dev', 'tools', 'web', 'infra'].map((name) => join(root, name)),
  ];
  for (const folder of folders) {
    const manifest = join(folder, 'package.json');
    if (!existsSync(manifest)) continue;
    const json = JSON.parse(readFileSync(manifest, 'utf8')) as {
      name: string;
      main?: string;
      exports?: Record<string, string> | string;
    };
    const exports =
      typeof json.exports === 'string'
        ? { '.': json.exports }
        : (json.exports ?? (json.main ? { '.': json.main } : {}));
    packages.set(json.name, { folder, exports });
  }
  return packages;
}

export function resolveImport(
  from: string,
  specifier: string,
  packages: Map<string, WorkspacePackage>,
): string | null {
  if (specifier.startsWith('.')) return resolveFile(resolve(dirname(from), specifier));
  const match = /^(@receipts\/[^/]+)(\/.*)?$/.exec(specifier);
  if (!match) return null;
  const pkg = packages.get(match[1]!);
  if (!pkg) return null;
  const subpath = `.${match[2] ?? ''}`;
  const target = pkg.exports[subpath] ?? exportPattern(pkg.exports, subpath);
  return target ? resolveFile(resolve(pkg.folder, target)) : resolveFile(resolve(pkg.folder, subpath));
}

/** The target of a subpath pattern such as `"./contract/*": "./src/contract/*.ts"`, if one matches. */
function exportPattern(exports: Record<string, string>, subpath: string): string | undefined {
  for (const [key, target] of Object.entries(exports)) {
    const star = key.indexOf('*');
    if (star < 0) continue;
    const [prefix, suffix] = [key.slice(0, star), key.slice(star + 1)];
    if (subpath.startsWith(prefix) && subpath.endsWith(suffix) && subpath.length >= key.length - 1) {
      return target.replace('*', subpath.slice(prefix.length, subpath.length - suffix.length));
    }
  }
  return undefined;
}

/** Strongly connected components of more than one file, or a file importing itself (Tarjan). */
export function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const lowlinks = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    indices.set(node, index);
    lowlinks.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        lowlinks.set(node, Math.min(lowlinks.get(node)!, lowlinks.get(next)!));
      } else if (onStack.has(next)) {
        lowlinks.set(node, Math.min(lowlinks.get(node)!, indices.get(next)!));
      }
    }
    if (lowlinks.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return found;
}

/** The import graph of the given folders (relative to `root`), file paths relative to `root`. */
export function importGraph(root: string, folders: string[]): Map<string, string[]> {
  const packages = workspacePackages(root);
  const graph = new Map<string, string[]>();
  for (const file of folders.flatMap((folder) => sourceFiles(join(root, folder)))) {
    const targets = importsOf(readFileSync(file, 'utf8'))
      .map((specifier) => resolveImport(file, specifier, packages))
      .filter((target): target is string => target !== null)
      .map((target) => relative(root, target));
    graph.set(relative(root, file), [...new Set(targets)]);
  }
  return graph;
}
