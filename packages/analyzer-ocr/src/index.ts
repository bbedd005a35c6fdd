export {
  OCR_ENGINES,
  OcrAnalyzer,
  englishDataPath,
  type OcrAnalyzerOptions,
  type OcrEngine,
  type OcrLine,
  type ReadingCache,
} from './ocr-analyzer';
export {
  PaddleReader,
  cutLines,
  decodeLine,
  modelInput,
  segmentsToLines,
  type PaddleLine,
  type CharDoubt,
  type PaddleSegment,
} from './paddle-ocr';
export { HEADING_SHARE, imageTop } from './receipt-header';
export { combineEngineReadings, paddleNameStands, respace, spacedLike } from './combine-engines';
export { parseReceiptText, guessCountry, type ParsedReceipt, type ParseOptions } from './parse-receipt';
export { READING_PLAN, mergeReadings, readingsAgree, type Reading, type ReadingPlan } from './merge-readings';
export { prepareImage, sniffImageType, type Rendering, type PreparedImage } from './preprocess';
export { MAX_PDF_PAGES, joinPageTexts, readPdfPages, renderPdfFirstPage, type PdfPage } from './pdf-pages';
export { receiptCurrency } from './receipt-currency';
export type { LineWord } from './receipt-lines';
