export * from './document-limits';
export * from './document.dto';
