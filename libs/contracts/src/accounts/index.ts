export * from './accounts.dto';
