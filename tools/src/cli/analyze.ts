/**
 * `npm run analyze -- <image | textract-response.json>`: prints the AnalysisResult of one receipt as
 * JSON. See {@link runAnalyze} for the options.
 */
import { runAnalyze } from './analyze-command';

const code = await runAnalyze(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
process.exitCode = code;
