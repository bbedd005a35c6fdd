export { ITEM_RULES, amountsToSum, mapAnalyzeExpense, cleanText, type ItemRule } from './map-expense';
export { TextractAnalyzer, type TextractAnalyzerOptions } from './textract-analyzer';
