/**
 * `npm run textract:rules -- [--fixtures <folder>]`
 *
 * What each item rule of the Textract mapping (`ITEM_RULES` in packages/analyzer-textract) does on
 * the development responses: every response is mapped with all the rules and again with one rule
 * left out, and the receipts whose items differ are counted, per half of each doc-extract-bench set
 * (even and odd positions in name order, as `npm run eval` splits them) and over the other public
 * responses (textract/textractor, textract/response-parser). On CORD, whose truth lists the items,
 * it also prints how many more items the rule matches in full (`+n`) or fewer (`-n`). The table in
 * the analyzer's README is this output. CORD cells read `changed (+matched/±read)`: receipts changed,
 * then the items the rule adds to those matched in full, and to those read (a rule that leaves a
 * wrong row out shows `+0/-1`). Reads $RECEIPT_FIXTURES_DIR unless `--fixtures` is given.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ITEM_RULES, mapAnalyzeExpense, type ItemRule } from '@receipts/analyzer-textract';
import type { AnalysisResult } from '@receipts/core';
import { scoreItems, type EvalItem } from '../eval/evaluate';

interface Response {
  group: string;
  json: unknown;
  truth: EvalItem[] | null;
}

const itemsOf = (result: AnalysisResult): EvalItem[] =>
  result.items.map((i) => ({
    description: i.description,
    quantity: i.quantity,
    unitPrice: i.unit_price,
    amount: i.total_price,
  }));

async function benchSet(dir: string, name: string): Promise<Response[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.textract.json')).sort();
  return Promise.all(
    files.map(async (file, index) => {
      const truth = JSON.parse(
        await readFile(path.join(dir, file.replace('.textract.json', '.json')), 'utf8'),
      );
      return {
        group: `${name} ${index % 2 === 0 ? 'even' : 'odd'}`,
        json: JSON.parse(await readFile(path.join(dir, file), 'utf8')),
        truth: Array.isArray(truth.items) ? (truth.items as EvalItem[]) : null,
      };
    }),
  );
}

async function otherResponses(dirs: string[]): Promise<Response[]> {
  const found: Response[] = [];
  for (const dir of dirs) {
    for (const file of (await readdir(dir)).filter((f) => f.endsWith('.json')).sort()) {
      const json: unknown = JSON.parse(await readFile(path.join(dir, file), 'utf8'));
      if (typeof json === 'object' && json !== null && 'ExpenseDocuments' in json)
        found.push({ group: 'other', json, truth: null });
    }
  }
  return found;
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { fixtures: { type: 'string' } } });
  const fixtures = values.fixtures ?? process.env['RECEIPT_FIXTURES_DIR'];
  if (!fixtures) {
    console.error('Set RECEIPT_FIXTURES_DIR or pass --fixtures <folder>.');
    return 2;
  }
  const textract = path.join(fixtures, 'textract');
  const responses = [
    ...(await benchSet(path.join(textract, 'doc-extract-bench/sroie'), 'SROIE')),
    ...(await benchSet(path.join(textract, 'doc-extract-bench/cord'), 'CORD')),
    ...(await otherResponses([path.join(textract, 'textractor'), path.join(textract, 'response-parser')])),
  ];
  const groups = [...new Set(responses.map((r) => r.group))];
  const all = responses.map((r) => itemsOf(mapAnalyzeExpense(r.json)));
  console.log(`rule                    ${groups.map((g) => g.padEnd(14)).join(' ')}`);
  for (const rule of ITEM_RULES) {
    const cells = groups.map((group) => {
      let changed = 0;
      let gained = 0;
      let read = 0;
      responses.forEach((r, i) => {
        if (r.group !== group) return;
        const without = itemsOf(mapAnalyzeExpense(r.json, { without: [rule as ItemRule] }));
        if (JSON.stringify(without) === JSON.stringify(all[i])) return;
        changed++;
        read += all[i]!.length - without.length;
        if (r.truth) gained += scoreItems(r.truth, all[i]!).matched - scoreItems(r.truth, without).matched;
      });
      const truthKnown = group.startsWith('CORD');
      const signed = (n: number) => (n >= 0 ? `+${n}` : `${n}`);
      return `${changed}${truthKnown && changed > 0 ? ` (${signed(gained)}/${signed(read)})` : ''}`;
    });
    console.log(`${rule.padEnd(23)} ${cells.map((c) => c.padEnd(14)).join(' ')}`);
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
