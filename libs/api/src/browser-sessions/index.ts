export * from './browser-session.dto';
