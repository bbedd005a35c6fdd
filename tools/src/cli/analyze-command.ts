import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { AppError, enrichAnalysis, type AnalysisResult, type Analyzer } from '@receipts/core';
import { mapAnalyzeExpense } from '@receipts/analyzer-textract';
import { DictionaryEnricher } from '@receipts/enricher-brands';

export const ANALYZE_USAGE = `Usage: npm run analyze -- <file> [--no-raw] [--no-enrich]

  <file>        a receipt image (.jpg, .jpeg, .png, .webp, .pdf), read with the local OCR
                (the app's engine: OCR_ENGINE, default combined), or a saved Amazon
                Textract AnalyzeExpense response (.json)
  --no-raw      leave the analyzer's raw output out of the printed result
  --no-enrich   do not add brands and owning corporations

Prints the AnalysisResult as JSON.`;

const IMAGE_TYPES: Readonly<Record<string, string>> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
};

/** Where the command writes, and how it makes the OCR analyzer (a test may pass its own). */
export interface AnalyzeIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  createOcrAnalyzer?: () => Promise<Analyzer>;
}

/** A problem the user can fix, reported as one line without a stack. */
class UsageProblem extends Error {}

async function defaultOcr(): Promise<Analyzer> {
  // Loaded only for images: reading a Textract JSON never starts tesseract.
  const { OCR_ENGINES, OcrAnalyzer } = await import('@receipts/analyzer-ocr');
  const engine = process.env.OCR_ENGINE ?? 'combined';
  const known = OCR_ENGINES.find((e) => e === engine);
  if (!known) throw new UsageProblem(`OCR_ENGINE must be ${OCR_ENGINES.join(', ')}, not "${engine}".`);
  return OcrAnalyzer.create({ engine: known, chains: new DictionaryEnricher() });
}

async function analyseFile(path: string, io: AnalyzeIo): Promise<AnalysisResult> {
  const info = await stat(path).catch(() => null);
  if (!info) throw new UsageProblem(`File not found: ${path}`);
  if (!info.isFile()) throw new UsageProblem(`${path} is not a file.`);
  const ext = extname(path).toLowerCase();
  if (ext === '.json') {
    const text = await readFile(path, 'utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new UsageProblem(`${path} is not valid JSON (${(error as Error).message}).`);
    }
    return mapAnalyzeExpense(json);
  }
  const mimeType = IMAGE_TYPES[ext];
  if (!mimeType) {
    throw new UsageProblem(
      `Unsupported file type "${ext || '(none)'}": give a receipt image (.jpg, .jpeg, .png, .webp, .pdf) or a Textract AnalyzeExpense response (.json).`,
    );
  }
  const bytes = new Uint8Array(await readFile(path));
  const analyzer = await (io.createOcrAnalyzer ?? defaultOcr)();
  try {
    return await analyzer.analyze(bytes, mimeType);
  } finally {
    await analyzer.close?.();
  }
}

/**
 * `npm run analyze -- <file>`: analyses one receipt image with the local OCR, or maps a saved
 * Textract response, adds brands and owners, and prints the AnalysisResult as pretty JSON.
 * @param args - the command-line arguments after the script name
 * @param io - output streams (and, for tests, the OCR analyzer factory)
 * @returns the process exit code: 0 done, 1 the file could not be analysed, 2 wrong usage
 */
export async function runAnalyze(args: readonly string[], io: AnalyzeIo): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout(ANALYZE_USAGE + '\n');
    return 0;
  }
  const unknown = args.filter((a) => a.startsWith('-') && a !== '--no-raw' && a !== '--no-enrich');
  const files = args.filter((a) => !a.startsWith('-'));
  if (unknown.length > 0 || files.length !== 1) {
    const problem =
      unknown.length > 0
        ? `Unknown option ${unknown[0]}.`
        : files.length === 0
          ? 'Give the file to analyse.'
          : 'Give one file at a time.';
    io.stderr(`${problem}\n\n${ANALYZE_USAGE}\n`);
    return 2;
  }
  try {
    let result = await analyseFile(files[0]!, io);
    if (!args.includes('--no-enrich')) result = enrichAnalysis(result, new DictionaryEnricher());
    const printed = args.includes('--no-raw') ? { ...result, raw: undefined } : result;
    io.stdout(JSON.stringify(printed, null, 2) + '\n');
    return 0;
  } catch (error) {
    if (error instanceof UsageProblem || error instanceof AppError) {
      io.stderr(`${error.message}\n`);
      return 1;
    }
    io.stderr(`Analysis failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
