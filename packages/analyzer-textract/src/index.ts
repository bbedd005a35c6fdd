export { amountsToSum, mapAnalyzeExpense, cleanText } from './map-expense';
export { TextractAnalyzer, type TextractAnalyzerOptions } from './textract-analyzer';
