export * from './extraction-key-rules';
export * from './extraction-key.dto';
export * from './extraction-set.dto';
export * from './from-agent.dto';
