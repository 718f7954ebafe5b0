export * from './billing-transaction.dto';
export * from './billing-usage.dto';
