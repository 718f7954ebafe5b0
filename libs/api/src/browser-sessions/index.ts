export * from './browser-session.dto';
export * from './publishable-key.dto';
