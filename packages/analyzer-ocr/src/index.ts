export { OcrAnalyzer, englishDataPath, type OcrAnalyzerOptions, type OcrLine } from './ocr-analyzer';
export { parseReceiptText, guessCountry, type ParsedReceipt, type ParseOptions } from './parse-receipt';
export { READING_PLAN, mergeReadings, readingsAgree, type Reading, type ReadingPlan } from './merge-readings';
export { prepareImage, sniffImageType, type Rendering, type PreparedImage } from './preprocess';
export { readPdfText, type PdfText } from './pdf-text';
export { receiptCurrency } from './receipt-currency';
