export * from './clients.dto';
