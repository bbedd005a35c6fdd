/**
 * What the review list shows for the Textract mapping on the real AnalyzeExpense responses of
 * doc-extract-bench: on each half of each set, no wrong total (or SROIE date) goes unflagged, at most
 * 20 % of the receipts are flagged, and at most 10 % are flagged with a right total and date (false
 * alarms). CORD receipts print no date: as in the app, they take their upload day (`uploadDateFor`),
 * a note that flags nothing.
 *
 * Reads $RECEIPT_FIXTURES_DIR/textract/doc-extract-bench/{sroie,cord}.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mapAnalyzeExpense } from '@receipts/analyzer-textract';
import { assessReview, uploadDateFor } from '@receipts/core';
import { normaliseDate, normaliseTotal } from '../../tools/src/eval/normalise';

const fixtures = process.env['RECEIPT_FIXTURES_DIR'];
if (!fixtures) {
  throw new Error(
    'Set RECEIPT_FIXTURES_DIR to the public fixtures folder (e.g. ../shared/fixtures) to run test/real.',
  );
}
const bench = join(fixtures, 'textract/doc-extract-bench');
if (!existsSync(bench)) throw new Error(`No doc-extract-bench responses at ${bench}.`);

/** Per receipt with a total in its truth: whether its total and date are right, and whether it is flagged. */
async function outcomes(set: 'sroie' | 'cord') {
  const dir = join(bench, set);
  const ids = (await readdir(dir))
    .filter((f) => f.endsWith('.textract.json'))
    .map((f) => f.replace('.textract.json', ''))
    .sort();
  const rows = await Promise.all(
    ids.map(async (id, position) => {
      const result = mapAnalyzeExpense(JSON.parse(await readFile(join(dir, `${id}.textract.json`), 'utf8')));
      const truth = JSON.parse(await readFile(join(dir, `${id}.json`), 'utf8')) as {
        total?: string;
        date?: string;
      };
      const assessed = assessReview(result, '2026-11-27');
      const review = uploadDateFor(result, assessed, '2026-11-27')?.assessment ?? assessed;
      const right =
        normaliseTotal(result.receipt.total_amount) === normaliseTotal(truth.total) &&
        (truth.date === undefined ||
          normaliseDate(result.receipt.transaction_date) === normaliseDate(truth.date));
      return { position, scored: truth.total != null, right, flagged: review.needs_review };
    }),
  );
  return rows.filter((r) => r.scored);
}

describe.each(['sroie', 'cord'] as const)('the review list of the Textract mapping on %s', (set) => {
  it.each(['even', 'odd'] as const)('flags every wrong total and few right ones (%s half)', async (half) => {
    const rows = (await outcomes(set)).filter((r) => r.position % 2 === (half === 'even' ? 0 : 1));
    expect(rows.filter((r) => !r.right && !r.flagged)).toEqual([]);
    expect(rows.filter((r) => r.flagged).length / rows.length).toBeLessThanOrEqual(0.2);
    expect(rows.filter((r) => r.flagged && r.right).length / rows.length).toBeLessThanOrEqual(0.1);
  });
});
