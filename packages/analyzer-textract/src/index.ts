export { amountsToSum, mapAnalyzeExpense, cleanText } from './map-expense';
export {
  MAX_PDF_PAGES,
  TextractAnalyzer,
  countPdfPages,
  type TextractAnalyzerOptions,
} from './textract-analyzer';
