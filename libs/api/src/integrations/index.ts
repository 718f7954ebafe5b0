export * from './integration-log.dto';
