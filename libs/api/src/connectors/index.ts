export * from './connector.dto';
export * from './connection.dto';
