// One cell's text: shared with the server (the no-JS confirmation names its row the same way).
export { cellText, rowSummary } from './cell-text.ts';
