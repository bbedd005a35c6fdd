import { cycles, importGraph } from '../cycles/import-graph';

/**
 * `npm run lint` runs this after ESLint: no import cycle in the repository's source, type-only
 * imports included. Prints each cycle and exits 1 when there is one.
 */
const folders = ['packages', 'lambdas/src', 'dev/src', 'tools/src', 'web/src', 'infra/lib', 'infra/bin'];
const found = cycles(importGraph(process.cwd(), folders));
if (found.length === 0) {
  console.log('No import cycles (type-only imports included).');
} else {
  for (const component of found) console.error(`Import cycle among:\n  ${component.join('\n  ')}`);
  console.error(
    `${found.length} import cycle(s): break them by moving what both sides need into a module of its own.`,
  );
  process.exitCode = 1;
}
