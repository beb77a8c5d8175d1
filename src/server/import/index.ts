/** The import's entry points (routes/api/import and cli.ts use only these). */
export { ImportRefused, previewImport, refusedMessage, runImport, type ImportFile, type ImportReport } from './run';
export { UnreadableFile, type ImportKind } from './source';
